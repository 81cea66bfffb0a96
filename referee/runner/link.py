"""A connection to one bot: a local process the referee started, or a remote ``host:port``.

:class:`BotLink` is the gRPC transport of the referee's core (:mod:`hegemon.referee.arbiter`).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import grpc
import trio
from grpc_health.v1 import health_pb2, health_pb2_grpc

from ..actions import Action
from ..arbiter import Ask, Failure, Fault, GameStart
from ..notes import Jotting
from ..orders import Blitz, Policies
from ..timecontrol import SETTLE_SECONDS, TimeControl
from ..wire import bot_pb2, bot_pb2_grpc, codec, decide_bytes
from ..wire.legal import legal_answers
from ..wire.notes import notes_from_reply
from . import botlog, bridge, lull
from .patience import CpuPatience
from .process import ADDRESS_ENV, BotCommand, BotProcess, spawn
from .sandbox import SandboxLimits
from .sandbox.ceiling import freeze_deferred
from .stream import DecideStream, StreamEnded, open_stream

PROTOCOL_VERSION = bot_pb2.PROTOCOL_VERSION_1
REFEREE_VERSION = "hegemon 0.1"

__all__ = ["DEFAULT_LIMITS", "BotLimits", "BotLink", "Fault", "channel_options", "keep_spinning"]

RAISED = (grpc.StatusCode.INTERNAL, grpc.StatusCode.UNKNOWN)
"""What a gRPC server answers when the bot's own code raised while handling the call."""
NO_RUN = (
    "a bot must serve until it is stopped — in Python, end the file with "
    'if __name__ == "__main__": run(MyBot())'
)


def startup_hint(process: BotProcess) -> str:
    """Why a running bot never answered Hello: where it listens instead, or that it listens
    but does not answer, and what to do."""
    if process.socket_problem:
        return f" ({process.socket_problem})"
    if process.listened:
        return "; it listens but never answered Hello: serve the hegemon.v1.Bot service there"
    where = process.listeners()
    said = f"; it listens on {', '.join(where[:3])} instead" if where else ""
    return (
        f": the bot never listened on its address{said}; listen where --address (also "
        f"${ADDRESS_ENV}) says, a unix socket (TCP is not available in the sandbox)"
    )


@dataclass(frozen=True)
class BotLimits:
    """What the runner allows each bot it starts and reads, beside the game's clock
    (:class:`hegemon.referee.timecontrol.TimeControl`)."""

    max_message_bytes: int = 1 << 20  # the largest answer the referee reads
    sandbox: SandboxLimits = field(default_factory=SandboxLimits)  # of each local bot process


DEFAULT_LIMITS = BotLimits()


def millis(seconds: float) -> int:
    """Whole milliseconds, never negative."""
    return max(0, int(seconds * 1000))


def channel_options(limits: BotLimits) -> list[tuple[str, Any]]:
    return [
        ("grpc.max_receive_message_length", limits.max_message_bytes),
        ("grpc.max_send_message_length", 16 << 20),
        ("grpc.max_metadata_size", 16 << 10),  # a bot's headers/trailers/status text
        ("grpc.enable_retries", 0),
        ("grpc.use_local_subchannel_pool", 1),
    ]


class BotLink:
    """One bot the referee talks to: ``await link.open()``, then reusable across games."""

    def __init__(
        self, command: BotCommand, time_control: TimeControl, limits: BotLimits = DEFAULT_LIMITS
    ):
        self.command = command
        self.time = time_control
        self.limits = limits
        self.name = command.name
        self.process: BotProcess | None = None
        self.channel: grpc.Channel | None = None
        self.stub: Any = None
        self.hello: Any = None
        self.startup_error: str = ""
        self.startup_fault = "startup"  # the fault kind of startup_error (a breached ceiling's)
        self.startup_time = 0.0  # seconds from the start of open() to its end
        self.games = 0
        self._discarded = False
        self._keepalive: Any = None
        # view deltas (a bot that opted in): per (game, seat), the board its bot holds, or
        # absent when its next request must carry the full view
        self._known: dict[tuple[str, int], tuple[tuple[int, ...], tuple[int, ...]]] = {}
        self._note: Jotting | None = None  # what the bot attached to its last answer
        self._streams: dict[str, DecideStream] = {}  # a game's DecideStream (bots that offer it)
        self._encoder = decide_bytes.DecideEncoder()  # writes this bot's Decide requests
        self._decide_call: Any = None  # unary Decide that sends the request's bytes as they are

    # -------------------------------------------------------------- life cycle
    async def open(self) -> bool:
        """Start (or reach) the bot and wait for its Hello within the start-up deadline."""
        began = trio.current_time()
        try:
            return await self._open()
        finally:
            self.startup_time = trio.current_time() - began

    async def _open(self) -> bool:
        address = self.command.remote
        if address is None:
            try:
                self.process = await spawn(self.command, limits=self.limits.sandbox)
            except OSError as exc:
                self.startup_error = (
                    f"cannot start {self.command.describe()}: {exc.strerror or exc}"
                )
                return False
        request = bot_pb2.HelloRequest(
            protocol_version=PROTOCOL_VERSION, referee_version=REFEREE_VERSION
        )
        with trio.move_on_after(self.time.startup) as scope:
            async with trio.open_nursery() as nursery:
                if self.process is not None:
                    nursery.start_soon(self._watch_exit, nursery.cancel_scope)
                try:
                    if self.process is not None:  # its socket, opened safely (no links)
                        address = await self.process.wait_for_socket()
                    self.channel = grpc.insecure_channel(
                        address, options=channel_options(self.limits)
                    )
                    self.stub = bot_pb2_grpc.BotStub(self.channel)  # type: ignore[no-untyped-call]
                    self.hello = await bridge.call(
                        self.stub.Hello, request, self.time.startup, wait_for_ready=True
                    )
                except grpc.RpcError as exc:
                    self.startup_error = f"Hello failed: {self.crash_detail(exc)}"
                except OSError:
                    pass  # the process ended: crash_detail below says how
                nursery.cancel_scope.cancel()
        if scope.cancelled_caught and self.hello is None:
            self.startup_error = f"no Hello within {self.time.startup:g} s"
            if self.process is not None:
                self.startup_error += startup_hint(self.process)
        breach = self.breach() if self.hello is None else None
        if breach is not None:  # stopped at its ceiling while starting: that fault, as later
            self.startup_fault, self.startup_error = breach.kind, breach.detail
        if self.hello is None and not self.startup_error:
            self.startup_error = self.crash_detail(None)
        if self.hello is not None and self.hello.protocol_version not in (0, PROTOCOL_VERSION):
            self.startup_error = (
                f"speaks protocol version {self.hello.protocol_version}, "
                f"the referee speaks {PROTOCOL_VERSION}"
            )
            self.hello = None
        if self.hello is None:
            await self.close()
            return False
        assert self.channel is not None  # said Hello through it
        self._keepalive = keep_spinning(self.channel)
        self._decide_call = self.channel.unary_unary(
            "/hegemon.v1.Bot/Decide",
            request_serializer=None,  # the request is bytes already (decide_bytes)
            response_deserializer=bot_pb2.DecideReply.FromString,
        )
        return True

    async def _watch_exit(self, scope: trio.CancelScope) -> None:
        assert self.process is not None and self.process.process is not None
        await self.process.process.wait()
        scope.cancel()

    @property
    def alive(self) -> bool:
        return self.hello is not None and not self._discarded and not self.exited

    @property
    def reusable(self) -> bool:
        """May this bot play another game? Not once it has used half its CPU allowance
        (``SandboxLimits.cpu_seconds`` is per process): the pool then starts a fresh one."""
        return self.alive and not (self.process is not None and self.process.worn_out)

    @property
    def sandbox(self) -> str:
        """How the bot runs: ``bubblewrap``, ``rlimits`` or ``remote`` (not ours to start)."""
        if self.command.remote is not None:
            return "remote"
        return self.process.sandbox if self.process is not None else "none"

    @property
    def exited(self) -> bool:
        return self.process is not None and self.process.exited

    def discard(self) -> None:
        """This bot may not play on (forfeited): kill a local process now."""
        self._discarded = True
        if self.process is not None:
            self.process.kill()

    async def close(self) -> None:
        for game_id in list(self._streams):
            self._end_stream(game_id)
        if self._keepalive is not None:
            self._keepalive.cancel()
            self._keepalive = None
        if self.channel is not None:
            self.channel.close()
            self.channel = None
        if self.process is not None:
            await self.process.stop()

    async def settle(self, wait: float = SETTLE_SECONDS) -> None:
        """Give a bot whose connection just broke a moment to be seen exiting (so a crash
        names its exit status: a signal, a CPU or memory limit)."""
        if self.process is not None and self.process.process is not None and not self.exited:
            with trio.move_on_after(wait):
                await self.process.process.wait()

    def breach(self) -> Failure | None:
        """The ``memory`` or ``cpu`` failure of a bot that broke its ceiling, even if it
        answered: the kernel may have stopped one of its processes (a child) while the others
        played on. Asked after every answer, so the same bot always gets the same fault."""
        ceiling = self.process.limit_fault() if self.process is not None else None
        return Failure(*ceiling) if ceiling is not None else None

    def crash(self, exc: BaseException | None, prefix: str = "") -> Failure:
        """The failure of a bot whose connection broke: ``memory`` or ``cpu`` when its sandbox
        stopped it at the ceiling, else ``crash`` with what is known of the cause."""
        breach = self.breach()
        if breach is not None:
            return Failure(breach.kind, prefix + breach.detail)
        return Failure("crash", prefix + self.crash_detail(exc))

    def crash_detail(self, exc: BaseException | None) -> str:
        if self.process is not None and self.process.exited:
            code = self.process.returncode
            how = (
                f"killed by signal {-code}"
                if code is not None and code < 0
                else f"exit code {code}"
            )
            if self.process.sandbox == "bubblewrap" and code is not None and code > 128:
                how += f", i.e. killed by signal {code - 128}"  # bwrap reports a signal so
            if code == 0 and not self.process.listened:
                return f"the bot process ended ({how}) before it listened: {NO_RUN}"
            cause = self.cause()
            return f"the bot process ended ({how})" + (f": {cause}" if cause else "")
        code = bridge.rpc_code(exc) if exc is not None else None
        if exc is not None and code in RAISED:
            return self.raised(exc)
        return f"the bot stopped answering ({code.name if code else 'no connection'})"

    def cause(self) -> str:
        """The cause of a fault in the bot's recent log, in one line (see :mod:`.botlog`)."""
        if self.process is None:
            return ""
        text = self.process.log_tail(16384)
        return botlog.explain(text, self.command.cwd)

    def raised(self, exc: BaseException) -> str:
        """An exception the bot's code raised while answering, as its log names it."""
        cause = self.cause() if self.process is not None else ""
        if not cause or "(" not in cause:  # no traceback in the log: what the call said
            cause = _details(exc)
        return f"the bot raised {cause}"

    # -------------------------------------------------------------- the transport
    encode_event = staticmethod(codec.event_to_field)
    """Each event is written once, as the bytes of the request field that carries it."""

    async def resume(self) -> None:
        """Let a local bot's processes run (it is about to be asked); remote bots always run."""
        process: Any = self.process  # a BotProcess; a test's stand-in may be async
        if process is not None:
            resumed = process.resume()
            if inspect.isawaitable(resumed):
                await resumed

    @property
    def cpu_meter(self) -> Callable[[], float] | None:
        """CPU seconds the bot's processes used since :meth:`resume` (all of them, children
        included; the referee's own work never), for a bot the referee runs: else None."""
        return self.process.cpu_since_resume if self.process is not None else None

    async def pause(self) -> None:
        """Stop a local bot's processes until it is asked again (CPU fairness): at once if
        another bot is asked next, else when the referee next waits. A bot asked again first
        (several decisions in a row) is neither frozen nor thawed in between: that pair cost
        more than the rest of the referee's work per decision. The CPU time it uses meanwhile
        counts toward its next decision. A bot idle between its decisions is looked at only
        when the next bot is resumed: a look at the referee's next wait, right after its answer,
        would find nothing to freeze, at the cost of a scheduler round and a read per bot."""
        process: Any = self.process  # a BotProcess; a test's stand-in may be async
        if process is None:
            return
        due = process.pause(soon=True)
        if inspect.isawaitable(due):
            due = await due
        if due:
            lull.at_next_wait(freeze_deferred)

    @property
    def view_deltas(self) -> bool:
        """Did the bot opt in to view deltas (HelloReply.view_deltas)?"""
        return bool(self.hello is not None and self.hello.view_deltas)

    async def start_game(
        self,
        start: GameStart,
        timeout: float,  # noqa: ASYNC109 - gRPC's deadline: the call runs in grpc's thread, out of trio's reach
    ) -> Failure | Policies | None:
        request = self.start_request(start)
        self._known.pop((start.game_id, start.seat), None)
        try:
            reply = await bridge.call(self.stub.StartGame, request, timeout)
        except grpc.RpcError as exc:
            # stopped at its ceiling: the same fault, in the same words, as had it answered
            breach = self.breach()
            if breach is not None:
                return breach
            if self.exited:
                return self.crash(exc, "StartGame failed: ")
            return Failure("startup", f"StartGame failed: {self.crash_detail(exc)}")
        self.games += 1
        breach = self.breach()
        if breach is not None:
            return breach
        if reply.HasField("policies"):
            try:
                return codec.policies_from_proto(reply.policies)
            except ValueError as exc:  # codec.ProtocolError
                return Failure("startup", f"StartGame failed: {exc}")
        return None

    def start_request(self, start: GameStart) -> Any:
        """The StartGame request for ``start``'s seat: rules, map, seats and clock."""
        game, tc = start.game, start.time
        request = codec.start_game_request(
            game_id=start.game_id,
            seat=start.seat,
            seat_names=start.names,
            rules=game.rules,
            board=game.board,
            decision_ms=millis(tc.decision),
            time_bank_ms=millis(tc.bank),
        )
        request.time_control.increment_ms = millis(tc.increment)
        return request

    def take_note(self) -> Jotting | None:
        """The notes the bot attached to the answer just read (once: then forgotten)."""
        note, self._note = self._note, None
        return note

    async def decide(self, ask: Ask) -> Action | Blitz | Failure:
        self._note = None
        answered = False
        try:
            answer = await self._decide(ask)
            answered = not isinstance(answer, Failure)
            return answer
        finally:
            if not answered:  # a fault (or cancelled at the deadline): the full view next
                self._known.pop((ask.game_id, ask.view.seat), None)

    async def _decide(self, ask: Ask) -> Action | Blitz | Failure:
        request = self.decide_bytes(ask)
        patience: CpuPatience | None = None
        timeout = ask.deadline
        if ask.clock == "cpu" and self.process is not None:
            idle_limit = self.time.backstop(ask.deadline)
            process = self.process
            patience = CpuPatience(
                ask.deadline, idle_limit, process.cpu_since_resume, process.waits
            )
            timeout = self.time.wall_cap(ask.deadline)
        try:
            if self.streams:
                reply = await self._stream(ask.game_id).ask(request, patience)
                if reply.refused:
                    return await self._rpc_failure(Refusal(reply))
            else:
                reply = await bridge.call(self._decide_call, request, timeout, patience=patience)
        except bridge.OutOfPatience:
            return Failure("timeout", patience.why if patience is not None else "")
        except grpc.RpcError as exc:
            return await self._rpc_failure(exc)
        except StreamEnded as ended:
            self._end_stream(ask.game_id)  # the next decision opens a new one
            if ended.cause is not None:
                return await self._rpc_failure(ended.cause)
            return self.crash(None) if self.exited else Failure("protocol", ended.detail)
        breach = self.breach()
        if breach is not None:
            return breach
        if reply.full_view:
            self._known.pop((ask.game_id, ask.view.seat), None)
        try:
            answer = codec.answer_from_proto(reply, ask.game_id)
        except ValueError as exc:  # codec.ProtocolError
            return Failure("protocol", f"protocol error: {exc}")
        self._note = notes_from_reply(reply)
        return answer

    async def _rpc_failure(self, exc: BaseException) -> Failure:
        """The failure of a decision whose call (or stream) failed, or that the bot refused."""
        code = bridge.rpc_code(exc)
        broken = code in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.CANCELLED)
        if broken:
            await self.settle()
        if broken or self.exited:
            return self.crash(exc)
        if code is grpc.StatusCode.DEADLINE_EXCEEDED:
            return Failure("timeout", "")
        if code in RAISED:
            return Failure("protocol", self.raised(exc))
        name = code.name if code else "unknown"
        return Failure("protocol", f"protocol error: {name}: {_details(exc)}")

    @property
    def streams(self) -> bool:
        """Is the bot asked through DecideStream (it offered it in its Hello)?"""
        return bool(self.hello is not None and self.hello.decide_stream)

    def _stream(self, game_id: str) -> DecideStream:
        stream = self._streams.get(game_id)
        if stream is None:
            assert self.channel is not None  # it said Hello: the link is open
            stream = self._streams[game_id] = open_stream(self.channel, self.stub)
        return stream

    def _end_stream(self, game_id: str) -> None:
        stream = self._streams.pop(game_id, None)
        if stream is not None:
            stream.close()

    def decide_request(self, ask: Ask) -> Any:
        """The Decide request (a message) of :meth:`decide_bytes`."""
        return bot_pb2.DecideRequest.FromString(self.decide_bytes(ask))

    def decide_bytes(self, ask: Ask) -> bytes:
        """The Decide request's bytes; ``ask.events`` are events already redacted and written
        (:attr:`encode_event`). To a bot that opted in to view deltas, after its first request
        of the game and unless its last answer was refused, the view names only the
        territories that changed."""
        view = ask.view
        key = (ask.game_id, view.seat)
        known = self._known.get(key) if not ask.error else None
        pending = view.pending
        legal = None
        if self.hello is not None and self.hello.legal_answers and pending is not None:
            legal = legal_answers(view, pending)
        request = self._encoder.encode(
            view,
            ask.events,
            ask.error,
            ask.strikes,
            millis(ask.bank),
            game_id=ask.game_id,
            deadline_ms=millis(ask.deadline),
            known=known,
            legal=legal,
        )
        if self.view_deltas:
            self._known[key] = (view.owner, view.armies)
        return request

    async def end_game(
        self,
        game_id: str,
        places: tuple[int, ...] | None,
        reason: str,
        timeout: float,  # noqa: ASYNC109 - gRPC's deadline: the call runs in grpc's thread, out of trio's reach
    ) -> None:
        for key in [k for k in self._known if k[0] == game_id]:
            del self._known[key]
        self._end_stream(game_id)
        request = codec.end_game_request(game_id, places, reason)
        try:
            await bridge.call(self.stub.EndGame, request, timeout)
        except grpc.RpcError:
            pass  # the game is over; a bot that does not listen loses nothing but the news


class Refusal(Exception):
    """A request the bot refused on its DecideStream (``DecideReply.refused``), read as the
    error status Decide would have answered."""

    def __init__(self, reply: Any) -> None:
        super().__init__(reply.refused)
        self._code = _STATUS.get(reply.refused_code, grpc.StatusCode.UNKNOWN)
        self._details = str(reply.refused)

    def code(self) -> grpc.StatusCode:
        return self._code

    def details(self) -> str:
        return self._details


_STATUS = {status.value[0]: status for status in grpc.StatusCode}


def keep_spinning(channel: grpc.Channel) -> Any:
    """Hold one health ``Watch`` stream open on ``channel``; returns the stream (cancel it
    to let go).

    A sync grpc channel starts a polling thread when its first call begins and stops it when
    its last call ends, so sequential calls would each pay for a new thread (measured: over
    half of the referee's cost per decision). A standing stream keeps that thread alive.
    A bot without the health service just ends the stream; calls then still work.
    """
    health = health_pb2_grpc.HealthStub(channel)
    return health.Watch(health_pb2.HealthCheckRequest(service=""))


def _details(exc: BaseException) -> str:
    details = getattr(exc, "details", None)
    try:
        return str(details() if callable(details) else exc)[:200]
    except Exception:
        return "no details"
