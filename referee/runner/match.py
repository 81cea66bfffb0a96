"""Playing one game between connected bots: deadlines, time banks, strikes and forfeits.

The referee asks the pending seat for each decision, with a per-decision deadline and a per-game
time bank (like a chess clock: every decision's time comes out of the bank). A late, illegal or
malformed answer gets the engine's default action and a strike, and the bot is told why in its
next request. A crash, an empty bank or too many strikes forfeit the seat: its armies stay on the
board as neutral and the game goes on for the others.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

import grpc
import trio

from ..actions import Action, Forfeit
from ..events import CardDrawn, Event, redact
from ..game import Game, IllegalAction
from ..record import Recorder
from ..view import view_for
from . import bridge
from .link import BotLink, Fault, TimeControl, encode_event


@dataclass
class SeatState:
    """One seat during a game: its bot, its clock, its strikes and what it has not yet been told."""

    index: int
    link: BotLink
    bank: float
    strikes: int = 0
    unseen: list[Any] = field(default_factory=list)  # event messages, already redacted
    last_error: str = ""
    faults: list[Fault] = field(default_factory=list)
    out: str = ""  # why the seat was removed, if it was
    decisions: int = 0
    think_time: float = 0.0


@dataclass
class GameResult:
    game_id: str
    places: tuple[int, ...]
    reason: str
    record: str
    seats: list[SeatState]
    decisions: int
    duration: float
    game: Game

    @property
    def faults(self) -> list[Fault]:
        return [f for s in self.seats for f in s.faults]


class Referee:
    """Runs one game: ``await Referee(game, links, game_id, time_control).play()``."""

    def __init__(
        self,
        game: Game,
        links: list[BotLink],
        game_id: str,
        time_control: TimeControl,
        seat_names: list[str] | None = None,
        on_progress: Any = None,
    ):
        self.game = game
        self.game_id = game_id
        self.time = time_control
        self.names = seat_names or [link.name for link in links]
        self.recorder = Recorder(
            game,
            {
                "game_id": game_id,
                "seats": self.names,
                "map": game.board.name,
                "sandbox": sandbox_of(links),
            },
        )
        self.seats = [SeatState(i, link, time_control.bank) for i, link in enumerate(links)]
        self.on_progress = on_progress
        self._tell(game.opening_events)

    # -------------------------------------------------------------- faults
    def _fault(self, seat: SeatState, kind: str, detail: str) -> None:
        fault = Fault(
            seat.index, seat.link.name, kind, printable(detail)[:300], len(self.game.history)
        )
        seat.faults.append(fault)
        self.recorder.lines.append(
            {
                "type": "fault",
                "seat": seat.index,
                "fault": kind,
                "detail": fault.detail,
                "n": fault.decision,
            }
        )

    def _forfeit(self, seat: SeatState, kind: str, detail: str) -> None:
        if seat.out or not self.game.players[seat.index].active:
            return
        self._fault(seat, kind, detail)
        seat.out = kind
        self._apply(Forfeit(seat.index, f"{kind}: {printable(detail)[:120]}"))
        seat.link.discard()

    def _apply(self, action: Action) -> None:
        self._tell(self.recorder.apply(action))

    def _tell(self, events: list[Event]) -> None:
        """Queue ``events`` for every seat still playing; each is encoded once, and a drawn
        card is encoded apart for the seats that may not see it."""
        for event in events:
            message = encode_event(event)
            hidden = None
            if type(event) is CardDrawn:
                hidden = encode_event(redact(event, -1))
            for seat in self.seats:
                if not seat.out:
                    seat.unseen.append(
                        message if hidden is None or event.player == seat.index else hidden
                    )

    # -------------------------------------------------------------- the game
    async def start(self) -> None:
        """Tell every bot its seat; a bot that refuses or fails is forfeited."""

        async def start_one(seat: SeatState) -> None:
            error = await seat.link.start_game(
                self.game, self.game_id, seat.index, self.names, self.time
            )
            if error is not None:
                self._forfeit(seat, error.kind, error.detail)

        async with trio.open_nursery() as nursery:
            for seat in self.seats:
                if seat.link.alive:
                    nursery.start_soon(start_one, seat)
                else:
                    self._forfeit(
                        seat, "startup", seat.link.startup_error or "the bot did not start"
                    )

    async def play(self) -> GameResult:
        started = time.monotonic()
        await self.start()
        game = self.game
        decisions = 0
        while not game.over:
            decision = game.pending
            seat = self.seats[decision.player]
            action = await self._ask(seat)
            decisions += 1
            if game.over or seat.out:
                continue  # the seat was forfeited while we asked
            if action is None:
                action = game.default_action()
            try:
                self._apply(action)
            except IllegalAction as exc:
                seat.last_error = exc.reason
                self._strike(seat, "illegal", exc.reason)
                if not seat.out:
                    self._apply(game.default_action())
            if self.on_progress is not None:
                self.on_progress(self)
        await self._end_all()
        return GameResult(
            self.game_id,
            game.places,
            game.finish_reason,
            self.recorder.text(),
            self.seats,
            decisions,
            time.monotonic() - started,
            game,
        )

    def _strike(self, seat: SeatState, kind: str, detail: str) -> None:
        seat.strikes += 1
        if seat.strikes > self.time.max_strikes:
            self._forfeit(
                seat, kind, f"{detail} (strike {seat.strikes}, limit {self.time.max_strikes})"
            )
        else:
            self._fault(seat, kind, detail)

    async def _ask(self, seat: SeatState) -> Action | None:
        """The seat's answer, or None (after recording why) when the default must be applied."""
        link = seat.link
        request = link.decide_request(
            self.game_id,
            view_for(self.game, seat.index),
            seat.unseen,
            seat.last_error,
            seat.strikes,
            seat.bank,
        )
        seat.unseen = []
        seat.last_error = ""
        timeout = min(self.time.decision, seat.bank)
        started = time.monotonic()
        try:
            reply = await bridge.call(link.stub.Decide, request, timeout=timeout)
        except grpc.RpcError as exc:
            elapsed = time.monotonic() - started
            seat.bank -= elapsed
            seat.think_time += elapsed
            code = bridge.rpc_code(exc)
            if code in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.CANCELLED):
                await link.settle()
            if link.exited or code in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.CANCELLED):
                self._forfeit(seat, "crash", link.crash_detail(exc))
            elif code is grpc.StatusCode.DEADLINE_EXCEEDED:
                if seat.bank <= 0:
                    self._forfeit(seat, "timeout", f"time bank of {self.time.bank:g} s used up")
                else:
                    seat.last_error = (
                        f"late: no answer within {timeout:.3f} s; the default action was applied"
                    )
                    self._strike(seat, "timeout", seat.last_error)
            else:
                seat.last_error = (
                    f"protocol error: {code.name if code else 'unknown'}: {_details(exc)}"
                )
                self._strike(seat, "protocol", seat.last_error)
            return None
        elapsed = time.monotonic() - started
        seat.bank -= elapsed
        seat.think_time += elapsed
        seat.decisions += 1
        try:
            return link.parse_action(reply, self.game_id)
        except ValueError as exc:
            seat.last_error = f"protocol error: {exc}"
            self._strike(seat, "protocol", seat.last_error)
            return None

    async def _end_all(self) -> None:
        async def end_one(seat: SeatState) -> None:
            await seat.link.end_game(self.game_id, self.game.places, self.game.finish_reason)

        async with trio.open_nursery() as nursery:
            for seat in self.seats:
                if not seat.out and seat.link.alive:
                    nursery.start_soon(end_one, seat)


def printable(text: str) -> str:
    """``text`` (often the bot's own words: its log, its error) with every control or
    formatting character — terminal escapes, bidi overrides, newlines — made a space."""
    return "".join(ch if ch.isprintable() else " " for ch in text)


def sandbox_of(links: list[BotLink]) -> str:
    """The weakest sandbox a local bot of this game ran in: ``rlimits`` (bubblewrap missing:
    no isolation) or ``bubblewrap``; ``remote`` when the referee started none of the bots."""
    kinds = {link.sandbox for link in links} - {"remote", "none"}
    if not kinds:
        return "remote"
    return "rlimits" if "rlimits" in kinds else "bubblewrap"


def _details(exc: BaseException) -> str:
    details = getattr(exc, "details", None)
    try:
        return str(details() if callable(details) else exc)[:200]
    except Exception:
        return "no details"
