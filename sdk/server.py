"""The bot's gRPC server: the ``hegemon.v1.Bot`` service plus the standard health service.

:func:`run` is what ``hegemon.sdk.run(MyBot())`` calls: it reads the address
(``--address ADDR``, else the environment variable ``HEGEMON_BOT_ADDRESS``, else
``localhost:50051``), serves until SIGTERM or SIGINT, then stops cleanly. :class:`BotServicer`
turns each call into engine objects with :mod:`hegemon.referee.wire.codec` and back; a bot's
exception inside a call becomes a gRPC error for that call (the referee counts a strike) and
never stops the server.
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import stat
import sys
import threading
import traceback
from collections.abc import Callable, Iterator, Sequence
from concurrent import futures
from typing import Any, Protocol, TypeVar

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc

from hegemon.referee.actions import Action
from hegemon.referee.board import Board
from hegemon.referee.events import Event
from hegemon.referee.orders import Blitz, Policies
from hegemon.referee.wire import bot_pb2 as pb
from hegemon.referee.wire import bot_pb2_grpc, codec
from hegemon.referee.wire.notes import notes_to_proto

from .context import BotView, GameContext, UnknownGame, make_view

ADDRESS_ENV = "HEGEMON_BOT_ADDRESS"
DEFAULT_ADDRESS = "localhost:50051"
SERVICE_NAME = "hegemon.v1.Bot"

log = logging.getLogger("hegemon.bot")

_Request = TypeVar("_Request")
_Reply = TypeVar("_Reply")


class ServedBot(Protocol):
    """What the server needs of a bot; :class:`hegemon.sdk.Bot` is one. (The server does not
    import the Bot class: ``Bot.run`` imports the server.)"""

    @property
    def name(self) -> str: ...
    @property
    def version(self) -> str: ...
    @property
    def author(self) -> str: ...
    @property
    def rule_sets(self) -> Sequence[str]: ...

    def start_game(self, context: GameContext) -> object: ...
    def standing_orders(self, game: GameContext) -> Policies: ...
    def game(self, game_id: str, seat: int | None = None) -> GameContext: ...
    def answer(self, view: BotView) -> Action | Blitz: ...
    def end_game(self, game_id: str, places: Sequence[int] = (), reason: str = "") -> None: ...


class CallError(Exception):
    """A call the bot refuses, with the gRPC status to answer."""

    def __init__(self, code: grpc.StatusCode, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


class BotServicer(bot_pb2_grpc.BotServicer):
    """The ``Bot`` service for one :class:`hegemon.sdk.Bot`. Its methods also work without gRPC:
    pass ``context=None`` and a refused call raises :class:`CallError` instead."""

    def __init__(self, bot: ServedBot):
        self.bot = bot
        self._boards: dict[bytes, Board] = {}
        self._lock = threading.Lock()

    # -------------------------------------------------------------- the four calls
    def Hello(
        self, request: pb.HelloRequest, context: grpc.ServicerContext | None
    ) -> pb.HelloReply:
        bot = self.bot
        return pb.HelloReply(
            name=str(bot.name),
            version=str(bot.version),
            protocol_version=codec.PROTOCOL_VERSION,
            rule_sets=list(bot.rule_sets),
            author=str(bot.author),
            view_deltas=True,
            decide_stream=True,
        )

    def StartGame(
        self, request: pb.StartGameRequest, context: grpc.ServicerContext | None
    ) -> pb.StartGameReply:
        return self._call(context, "StartGame", self._start_game, request)

    def Decide(
        self, request: pb.DecideRequest, context: grpc.ServicerContext | None
    ) -> pb.DecideReply:
        return self._call(context, "Decide", self._decide, request)

    def EndGame(
        self, request: pb.EndGameRequest, context: grpc.ServicerContext | None
    ) -> pb.EndGameReply:
        return self._call(context, "EndGame", self._end_game, request)

    def DecideStream(
        self, requests: Iterator[pb.DecideRequest], context: grpc.ServicerContext | None
    ) -> Iterator[pb.DecideReply]:
        """A game's decisions on one stream: each request answered as :meth:`Decide` would,
        in order, with its number; a refused request is a reply that says why
        (``refused``), and the stream goes on."""
        for request in requests:
            try:
                reply = self.Decide(request, None)
            except CallError as exc:
                log.warning("Decide refused: %s", exc.message)
                reply = pb.DecideReply(refused=exc.message[:1000], refused_code=exc.code.value[0])
            reply.number = request.number
            yield reply

    # -------------------------------------------------------------- their work
    def _start_game(self, request: pb.StartGameRequest) -> pb.StartGameReply:
        try:
            rules = codec.rules_from_proto(request.rules)
            board = self._board(request.board)
        except codec.ProtocolError as exc:
            raise CallError(grpc.StatusCode.INVALID_ARGUMENT, str(exc)) from None
        allowed = tuple(self.bot.rule_sets)
        if allowed and rules.preset not in allowed:
            raise CallError(
                grpc.StatusCode.FAILED_PRECONDITION,
                f"{self.bot.name} plays {', '.join(allowed)}, not {rules.preset}",
            )
        tc = request.time_control
        context = GameContext(
            game_id=request.game_id,
            seat=request.seat,
            seat_names=tuple(request.seat_names),
            rules=rules,
            board=board,
            decision_ms=tc.decision_ms or 2000,
            time_bank_ms=tc.time_bank_ms,
        )
        self.bot.start_game(context)
        policies = self.bot.standing_orders(context)
        if not policies.any:
            return pb.StartGameReply()
        return pb.StartGameReply(policies=codec.policies_to_proto(policies))

    def _decide(self, request: pb.DecideRequest) -> pb.DecideReply:
        game_id = request.game_id
        try:
            context = self.bot.game(game_id, request.view.seat)
        except UnknownGame as exc:
            raise CallError(grpc.StatusCode.FAILED_PRECONDITION, exc.args[0]) from None
        try:
            view = codec.view_from_proto(request, context.rules, context.board, context.board_state)
        except codec.ProtocolError as exc:
            raise CallError(grpc.StatusCode.INVALID_ARGUMENT, str(exc)) from None
        if view.pending is None:
            raise CallError(grpc.StatusCode.INVALID_ARGUMENT, "the request holds no decision")
        events: list[Event] = []
        for message in request.events:
            try:
                events.append(codec.event_from_proto(message))
            except codec.ProtocolError:
                pass  # an event of a later edition: nothing this engine's bot can use
        if request.error:
            log.warning("game %s: the previous answer was not applied: %s", game_id, request.error)
        bot_view = make_view(
            view,
            context,
            events,
            request.error,
            request.strikes,
            request.time_bank_ms,
            request.deadline_ms,
        )
        context.take_note()  # nothing jotted before this decision rides on its answer
        action = self.bot.answer(bot_view)
        reply = codec.decide_reply(game_id, action)
        jotting = context.take_note()
        if jotting is not None:
            reply.notes.CopyFrom(notes_to_proto(jotting))
        return reply

    def _end_game(self, request: pb.EndGameRequest) -> pb.EndGameReply:
        self.bot.end_game(request.game_id, tuple(request.places), request.reason)
        return pb.EndGameReply()

    # -------------------------------------------------------------- plumbing
    def _board(self, message: pb.Board) -> Board:
        """The engine board for a Board message; one object per distinct map (cached)."""
        key = message.SerializeToString(deterministic=True)
        with self._lock:
            board = self._boards.get(key)
        if board is None:
            board = codec.board_from_proto(message)
            with self._lock:
                if len(self._boards) >= 8:
                    self._boards.clear()
                board = self._boards.setdefault(key, board)
        return board

    def _call(
        self,
        context: grpc.ServicerContext | None,
        what: str,
        work: Callable[[_Request], _Reply],
        request: _Request,
    ) -> _Reply:
        try:
            return work(request)
        except CallError as exc:
            error = exc
        except Exception as exc:  # the bot's own bug: an error for this call, not a crash
            log.error("%s failed:\n%s", what, traceback.format_exc().rstrip())
            error = CallError(grpc.StatusCode.INTERNAL, f"{type(exc).__name__}: {exc}")
        if context is None:
            raise error
        log.warning("%s refused: %s", what, error.message)
        context.abort(error.code, error.message[:1000])
        raise error  # unreachable: abort raises


# ------------------------------------------------------------------ serving
def _unlink_stale_socket(address: str) -> str | None:
    """For ``unix:PATH`` addresses: remove a socket file left by an earlier run; the path."""
    if not address.startswith("unix:") or address.startswith("unix-abstract:"):
        return None
    path = address[len("unix:") :]
    if path.startswith("//"):
        path = path[2:]
    try:
        if stat.S_ISSOCK(os.stat(path).st_mode):
            os.unlink(path)
    except OSError:
        pass
    return path


class Serving:
    """A started server: ``stop()`` it when done."""

    def __init__(
        self, server: grpc.Server, health_servicer: health.HealthServicer, socket_path: str | None
    ):
        self.server = server
        self.health = health_servicer
        self.socket_path = socket_path

    def stop(self, grace: float = 1.0) -> None:
        self.health.enter_graceful_shutdown()
        self.server.stop(grace).wait()
        if self.socket_path:
            try:
                os.unlink(self.socket_path)
            except OSError:
                pass


MAX_WORKERS = 16
"""Threads serving calls. Each referee connection holds two for as long as it plays: its
health ``Watch`` and its game's ``DecideStream``; the rest answer StartGame, EndGame, Decide."""


def serve(
    bot: ServedBot, address: str = DEFAULT_ADDRESS, max_workers: int = MAX_WORKERS
) -> Serving:
    """Start serving ``bot`` (and the health service, SERVING) on ``address``; returns at once.

    Raises :class:`OSError` if the address cannot be bound."""
    server = grpc.server(
        futures.ThreadPoolExecutor(max_workers=max_workers, thread_name_prefix="hegemon-bot"),
        options=[("grpc.max_receive_message_length", 16 << 20), ("grpc.so_reuseport", 0)],
    )
    bot_pb2_grpc.add_BotServicer_to_server(BotServicer(bot), server)  # type: ignore[no-untyped-call]
    health_servicer = health.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    socket_path = _unlink_stale_socket(address)
    try:
        port = server.add_insecure_port(address)
    except RuntimeError as exc:
        raise OSError(f"cannot listen on {address}: {exc}") from None
    if port == 0:
        raise OSError(f"cannot listen on {address}")
    server.start()
    health_servicer.set("", health_pb2.HealthCheckResponse.SERVING)
    health_servicer.set(SERVICE_NAME, health_pb2.HealthCheckResponse.SERVING)
    return Serving(server, health_servicer, socket_path)


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """The SDK's command line (unknown arguments are left to the bot)."""
    parser = argparse.ArgumentParser(description="a hegemon bot (gRPC server)")
    parser.add_argument(
        "--address",
        default=os.environ.get(ADDRESS_ENV) or DEFAULT_ADDRESS,
        help=f"where to listen: unix:/path/bot.sock or host:port (default: "
        f"${ADDRESS_ENV}, else {DEFAULT_ADDRESS})",
    )
    parser.add_argument("--max-workers", type=int, default=MAX_WORKERS, help=argparse.SUPPRESS)
    args, _unknown = parser.parse_known_args(argv)
    return args


def _listen_hint(address: str) -> str:
    """What to do when the address given is not the one the referee said to listen on."""
    given = os.environ.get(ADDRESS_ENV, "")
    if not given.startswith("unix:") or address == given:
        return ""
    return (
        f"cannot listen on {address}: the referee said to listen on {given} (--address, "
        f"${ADDRESS_ENV}) and its sandbox has no TCP; call run(MyBot()) without an address"
    )


def run(bot: ServedBot, argv: Sequence[str] | None = None) -> None:
    """Serve ``bot`` until SIGTERM or SIGINT, then stop cleanly (exit status 0). Exits with
    status 1 and one line on stderr if the address cannot be bound. ``argv`` defaults to the
    command line; arguments other than ``--address`` are left for the bot to read."""
    if not logging.getLogger().handlers:
        logging.basicConfig(
            level=logging.INFO, stream=sys.stderr, format=f"{bot.name}: %(levelname)s %(message)s"
        )
    args = parse_args(sys.argv[1:] if argv is None else argv)
    stop = threading.Event()

    def on_signal(signum: int, _frame: Any) -> None:
        stop.set()

    previous: dict[int, Any] = {}
    if threading.current_thread() is threading.main_thread():  # signals reach the main thread only
        previous = {s: signal.signal(s, on_signal) for s in (signal.SIGTERM, signal.SIGINT)}
    try:
        try:
            serving = serve(bot, args.address, max(1, args.max_workers))
        except OSError as exc:
            print(f"{bot.name}: {_listen_hint(args.address) or exc}", file=sys.stderr)
            raise SystemExit(1) from None
        log.info("serving %s %s on %s", bot.name, bot.version, args.address)
        while not stop.wait(0.5):
            pass
        log.info("stopping")
        serving.stop()
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)
