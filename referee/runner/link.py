"""A connection to one bot: a local process the referee started, or a remote ``host:port``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import grpc
import trio
from grpc_health.v1 import health_pb2, health_pb2_grpc

from hegemon.sdk.protocol import bot_pb2, bot_pb2_grpc, codec

from ..game import Game
from ..view import View
from . import bridge
from .process import BotCommand, BotProcess, spawn
from .sandbox import SandboxLimits

PROTOCOL_VERSION = bot_pb2.PROTOCOL_VERSION_1
REFEREE_VERSION = "hegemon 0.1"


@dataclass(frozen=True)
class TimeControl:
    """Deadlines (seconds) and fault limits for the bots of a game."""

    startup: float = 10.0  # from process start to an answered Hello
    decision: float = 2.0  # one decision
    bank: float = 60.0  # all of one seat's decisions in one game
    max_strikes: int = 5  # late/illegal/malformed answers tolerated; one more forfeits
    max_message_bytes: int = 1 << 20  # the largest answer the referee reads
    sandbox: SandboxLimits = SandboxLimits()  # limits of every local bot process


@dataclass(frozen=True)
class Fault:
    """A named fault of one seat: startup, crash, timeout, illegal or protocol."""

    seat: int
    bot: str
    kind: str
    detail: str
    decision: int


def channel_options(limits: TimeControl) -> list[tuple[str, Any]]:
    return [
        ("grpc.max_receive_message_length", limits.max_message_bytes),
        ("grpc.max_send_message_length", 16 << 20),
        ("grpc.max_metadata_size", 16 << 10),  # a bot's headers/trailers/status text
        ("grpc.enable_retries", 0),
        ("grpc.use_local_subchannel_pool", 1),
    ]


class BotLink:
    """One bot the referee talks to: ``await link.open()``, then reusable across games."""

    def __init__(self, command: BotCommand, time_control: TimeControl):
        self.command = command
        self.time = time_control
        self.name = command.name
        self.process: BotProcess | None = None
        self.channel: grpc.Channel | None = None
        self.stub: Any = None
        self.hello: Any = None
        self.startup_error: str = ""
        self.games = 0
        self._discarded = False
        self._keepalive: Any = None

    # -------------------------------------------------------------- life cycle
    async def open(self) -> bool:
        """Start (or reach) the bot and wait for its Hello within the start-up deadline."""
        address = self.command.remote
        if address is None:
            try:
                self.process = await spawn(self.command, limits=self.time.sandbox)
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
                        address, options=channel_options(self.time)
                    )
                    self.stub = bot_pb2_grpc.BotStub(self.channel)
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
            if self.process is not None and self.process.socket_problem:
                self.startup_error += f" ({self.process.socket_problem})"
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
        self._keep_spinning()
        return True

    def _keep_spinning(self) -> None:
        """Hold one health ``Watch`` stream open for the life of the link.

        A sync grpc channel starts a polling thread when its first call begins and stops it when
        its last call ends, so sequential calls would each pay for a new thread (measured: over
        half of the referee's cost per decision). A standing stream keeps that thread alive.
        A bot without the health service just ends the stream; calls then still work.
        """
        health = health_pb2_grpc.HealthStub(self.channel)
        self._keepalive = health.Watch(health_pb2.HealthCheckRequest(service=""))

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
        if self._keepalive is not None:
            self._keepalive.cancel()
            self._keepalive = None
        if self.channel is not None:
            self.channel.close()
            self.channel = None
        if self.process is not None:
            await self.process.stop()

    async def settle(self, wait: float = 0.5) -> None:
        """Give a bot whose connection just broke a moment to be seen exiting (so a crash
        names its exit status: a signal, a CPU or memory limit)."""
        if self.process is not None and self.process.process is not None and not self.exited:
            with trio.move_on_after(wait):
                await self.process.process.wait()

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
            tail = self.process.log_tail()
            return f"the bot process ended ({how})" + (f": {tail[-200:]}" if tail else "")
        code = bridge.rpc_code(exc) if exc is not None else None
        return f"the bot stopped answering ({code.name if code else 'no connection'})"

    # -------------------------------------------------------------- the calls
    async def start_game(
        self, game: Game, game_id: str, seat: int, names: list[str], time_control: TimeControl
    ) -> Fault | None:
        request = codec.start_game_request(
            game_id=game_id,
            seat=seat,
            seat_names=names,
            rules=game.rules,
            board=game.board,
            decision_ms=int(time_control.decision * 1000),
            time_bank_ms=int(time_control.bank * 1000),
        )
        try:
            await bridge.call(self.stub.StartGame, request, self.time.startup)
        except grpc.RpcError as exc:
            kind = "crash" if self.exited else "startup"
            return Fault(seat, self.name, kind, f"StartGame failed: {self.crash_detail(exc)}", 0)
        self.games += 1
        return None

    def decide_request(
        self, game_id: str, view: View, events: list[Any], error: str, strikes: int, bank: float
    ) -> Any:
        """The Decide request; ``events`` are event messages already redacted for this seat."""
        request = codec.view_to_proto(
            view,
            (),
            error,
            strikes,
            max(0, int(bank * 1000)),
            game_id=game_id,
            deadline_ms=int(min(self.time.decision, max(bank, 0)) * 1000),
        )
        request.events.extend(events)
        return request

    def parse_action(self, reply: Any, game_id: str) -> Any:
        """The engine action in a reply; raises codec.ProtocolError (a ValueError) if malformed."""
        return codec.action_from_proto(reply, game_id)

    async def end_game(self, game_id: str, places: tuple[int, ...] | None, reason: str) -> None:
        request = codec.end_game_request(game_id, places, reason)
        try:
            await bridge.call(self.stub.EndGame, request, min(self.time.decision, 2.0))
        except grpc.RpcError:
            pass  # the game is over; a bot that does not listen loses nothing but the news


encode_event = codec.event_to_proto
