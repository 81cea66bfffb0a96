"""The referee's core: one game between bots, whatever carries the messages.

:class:`Arbiter` asks the pending seat for each decision, keeps every seat's clock and strikes,
applies the engine's default action for a late, illegal or malformed answer (and tells the bot
why in its next request), forfeits a seat that crashes, runs out of time or collects too many
strikes (its armies stay on the board as neutral), tells each seat only what it may see, and
records the game. The rules of the clock are those of :mod:`hegemon.referee.timecontrol`.

Orders (:mod:`hegemon.referee.orders`, opt-in by each bot): a seat's standing policies (given
when its game starts) and a blitz it answered an ATTACK with are played out here without asking
its bot, exactly as if it had answered each decision itself (the same actions, dice, events and
record); the seat's clock is charged for the one answer that gave the order, earns no increment
for the decisions the order answered, and its bot hears what happened with its next request.

The bots are reached through a :class:`Transport`: the gRPC link of the match runner
(:class:`hegemon.referee.runner.link.BotLink`), a Python bot in this process
(:func:`hegemon.sdk.play_local`), or a scripted fake in the tests. The clock is trio's
(``trio.current_time``, ``trio.move_on_after``), so the time rules run instantly under
``trio.testing.MockClock``. This module does I/O only through its transports: it never
imports grpc, the match runner or the SDK.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import trio

from .actions import Action, Forfeit
from .bottext import no_paths, printable
from .events import Event, private_to, redact
from .game import Game, IllegalAction
from .notes import Budget, Jotting, clean, note_line
from .orders import NO_POLICIES, Blitz, Policies, automatic
from .record import Recorder
from .timecontrol import TimeControl
from .view import View, view_for


@dataclass(frozen=True)
class Fault:
    """A named fault of one seat: startup, crash, timeout, illegal or protocol."""

    seat: int
    bot: str
    kind: str
    detail: str
    decision: int


@dataclass(frozen=True)
class Failure:
    """Why a transport got no answer: ``timeout``, ``crash``, ``protocol`` (a malformed or
    refused answer) or ``startup``; ``detail`` is the text for the record and the bot."""

    kind: str
    detail: str


@dataclass(frozen=True)
class GameStart:
    """What a seat is told when its game starts."""

    game: Game
    game_id: str
    seat: int
    names: Sequence[str]
    time: TimeControl


@dataclass(frozen=True)
class Ask:
    """One decision asked of one seat. ``events`` are what happened since the seat was last
    asked, already redacted for it and encoded by its transport's ``encode_event``."""

    game_id: str
    view: View
    events: list[Any]
    error: str  # why the previous answer was not applied; empty if it was
    strikes: int
    bank: float  # seconds left in the seat's bank
    deadline: float  # seconds allowed for this answer
    clock: str = "wall"  # "cpu": the deadline is of the bot's CPU time (see timecontrol)


class Transport(Protocol):
    """How the arbiter reaches one bot. A deadline is also enforced by the arbiter (the
    transport is cancelled when it passes), so a transport may honour it or not. A transport
    that sandboxes its bot may also offer ``breach() -> Failure | None``: the fault of a bot
    its sandbox stopped at a ceiling, asked when the bot did not answer in time. One that
    carries a bot's notes offers ``take_note() -> Jotting | None``: what the bot attached to
    the answer ``decide`` just returned (asked once, right after it)."""

    name: str

    @property
    def alive(self) -> bool:
        """Can the bot be asked (it started, is not discarded, has not exited)?"""
        ...

    @property
    def startup_error(self) -> str:
        """Why the bot is not alive, when it never started."""
        ...

    def encode_event(self, event: Event) -> Any:
        """An event (already redacted for the seat) as the transport carries it."""
        ...

    async def start_game(
        self,
        start: GameStart,
        timeout: float,  # noqa: ASYNC109 - the bot's deadline, for gRPC (a trio scope cannot cancel its thread)
    ) -> Failure | Policies | None:
        """Start the game for the bot: a failure, or the bot's standing policies (None: it
        gave none)."""
        ...

    async def decide(self, ask: Ask) -> Action | Blitz | Failure:
        """The bot's answer (a :class:`Blitz` is an attack that is also an order)."""
        ...

    async def end_game(
        self,
        game_id: str,
        places: tuple[int, ...] | None,
        reason: str,
        timeout: float,  # noqa: ASYNC109 - the bot's deadline, for gRPC (a trio scope cannot cancel its thread)
    ) -> None: ...

    async def resume(self) -> None:
        """Let the bot run: it is about to be asked something."""

    async def pause(self) -> None:
        """The bot has answered: it may be stopped until it is asked again."""

    def discard(self) -> None:
        """The seat was forfeited: the bot may not play on."""


CpuMeter = Callable[[], float]
"""CPU seconds a bot's own processes used since its transport last resumed it. A transport
that can tell offers one as its ``cpu_meter`` attribute (None, or absent, when it cannot)."""


def cpu_meter(time: TimeControl, link: Transport) -> CpuMeter | None:
    """The meter a seat's decisions are timed by, or None: they are timed on the wall clock
    (``clock`` is ``wall``, or the transport cannot measure its bot's CPU time)."""
    if time.clock != "cpu":
        return None
    meter: CpuMeter | None = getattr(link, "cpu_meter", None)
    return meter


@dataclass
class SeatState:
    """One seat during a game: its bot, its clock, its strikes and what it has not yet been told."""

    index: int
    link: Transport
    bank: float
    strikes: int = 0
    unseen: list[Any] = field(default_factory=list)  # encoded events, already redacted
    last_error: str = ""
    faults: list[Fault] = field(default_factory=list)
    out: str = ""  # why the seat was removed, if it was
    asked: int = 0  # decisions asked
    decisions: int = 0  # decisions answered (in time, well-formed)
    think_time: float = 0.0  # seconds spent on decisions
    setup_time: float = 0.0  # seconds spent on StartGame and EndGame
    policies: Policies = NO_POLICIES  # standing orders, from StartGame
    order: Blitz | None = None  # the blitz being played out, until the seat is asked again
    automatic: int = 0  # decisions its orders answered (not asked)
    notes: Budget = field(default_factory=Budget)  # what is left of its notes' text


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
    automatic: int = 0  # decisions answered by orders, not asked
    logs: list[bytes | None] = field(default_factory=list)
    """Each seat's output during the game (capped; None where its transport keeps none)."""

    @property
    def faults(self) -> list[Fault]:
        return [f for s in self.seats for f in s.faults]


class Arbiter:
    """Runs one game: ``await Arbiter(game, transports, game_id, time_control).play()``.

    ``on_progress(arbiter)`` is called after every decision, ``on_answer(seat, action)`` for
    every answer applied as given (an order's answers included), ``on_fault(fault)`` for
    every fault (it may raise to stop the game). ``orders=False`` ignores every order (a blitz
    is its first attack, policies are not applied): every decision is asked. ``told``: what
    every seat is told first, each its own redaction (default: the game's set-up events; a game
    taken up mid-way, :mod:`hegemon.referee.runner.probe`: everything that happened so far)."""

    def __init__(
        self,
        game: Game,
        links: Sequence[Transport],
        game_id: str,
        time_control: TimeControl,
        seat_names: Sequence[str] | None = None,
        *,
        header: dict[str, Any] | None = None,
        on_progress: Callable[[Any], Any] | None = None,
        on_answer: Callable[[int, Action], Any] | None = None,
        on_fault: Callable[[Fault], Any] | None = None,
        orders: bool = True,
        told: Sequence[Event] | None = None,
    ):
        self.game = game
        self.game_id = game_id
        self.time = time_control
        self.names = list(seat_names or [link.name for link in links])
        # a neutral colour's seat (two-player games) has no bot: "neutral" (the protocol's word)
        self.names += ["neutral"] * (len(game.players) - len(self.names))
        head = {"game_id": game_id, "seats": self.names, "map": game.board.name}
        self.recorder = Recorder(game, {**head, **(header or {})})
        self.seats = [SeatState(i, link, time_control.bank) for i, link in enumerate(links)]
        self.on_progress = on_progress
        self.on_answer = on_answer
        self.on_fault = on_fault
        self.orders = orders
        # a game played on from a recorded position tells every seat its whole history first
        self._tell(list(told) if told is not None else game.opening_events)

    # -------------------------------------------------------------- faults
    def _fault(self, seat: SeatState, kind: str, detail: str) -> None:
        # the detail is its bot's owner's to read: no path of the machine the bot ran on
        text = no_paths(printable(detail))[:300]
        fault = Fault(seat.index, seat.link.name, kind, text, len(self.game.history))
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
        if self.on_fault is not None:
            self.on_fault(fault)

    def _forfeit(self, seat: SeatState, kind: str, detail: str) -> None:
        if seat.out or not self.game.players[seat.index].active:
            return
        self._fault(seat, kind, detail)
        seat.out = kind
        if not self.game.over:  # the others' forfeits may have ended it already (all failed)
            # the kind alone: the public record and every seat see the forfeit, while the
            # detail (the bot's own error and log) stays in the owner-only fault line
            self._apply(Forfeit(seat.index, kind))
        seat.link.discard()

    def _strike(self, seat: SeatState, kind: str, detail: str) -> None:
        seat.strikes += 1
        if seat.strikes > self.time.max_strikes:
            self._forfeit(
                seat, kind, f"{detail} (strike {seat.strikes}, limit {self.time.max_strikes})"
            )
        else:
            self._fault(seat, kind, detail)

    def _apply(self, action: Action) -> None:
        self._tell(self.recorder.apply(action))

    def _tell(self, events: list[Event]) -> None:
        """Queue ``events`` for every seat still playing, each encoded once per kind of
        transport. A drawn card is hidden from the other seats (a forfeit says its fault kind
        only: the detail is in the record's fault line, never in the event)."""
        game = self.game  # a seat eliminated is never asked again: nothing queued for it
        playing = [s for s in self.seats if not s.out and game.players[s.index].active]
        encoders: dict[Any, list[Any]] = {}
        for seat in playing:
            encoders.setdefault(seat.link.encode_event, [])
        for happened in events:
            owner = private_to(happened)  # the one seat that sees what ``hidden`` hides
            hidden = redact(happened, -1) if owner >= 0 else None
            coded = {
                encode: (encode(happened), None if hidden is None else encode(hidden))
                for encode in encoders
            }
            for seat in playing:
                message, secret = coded[seat.link.encode_event]
                seat.unseen.append(message if hidden is None or owner == seat.index else secret)

    # -------------------------------------------------------------- the game
    async def start(self) -> None:
        """Tell every bot its seat; a bot that refuses, fails or never started is forfeited."""

        async def start_one(seat: SeatState) -> None:
            start = GameStart(self.game, self.game_id, seat.index, self.names, self.time)
            began = trio.current_time()
            await seat.link.resume()
            failure: Failure | Policies | None = None
            with trio.move_on_after(self.time.start_game) as scope:
                failure = await seat.link.start_game(start, self.time.start_game)
            if isinstance(failure, Policies):
                seat.policies, failure = failure, None
            await seat.link.pause()
            seat.setup_time += trio.current_time() - began
            if scope.cancelled_caught:
                failure = _breach(seat.link) or Failure(
                    "startup", f"StartGame failed: no answer within {self.time.start_game:g} s"
                )
            if failure is not None:
                self._forfeit(seat, failure.kind, failure.detail)

        async with trio.open_nursery() as nursery:
            for seat in self.seats:
                if seat.link.alive:
                    nursery.start_soon(start_one, seat)
                else:
                    kind = getattr(seat.link, "startup_fault", "startup")  # e.g. a ceiling's
                    self._forfeit(seat, kind, seat.link.startup_error or "the bot did not start")

    async def play(self) -> GameResult:
        """Play the game to its end and return its result (the record included)."""
        started = trio.current_time()
        await self.start()
        game = self.game
        decisions = 0
        while not game.over:
            pending = game.pending
            assert pending is not None  # a game not over always waits for someone
            seat = self.seats[pending.player]
            auto = self._automatic(seat)
            if auto is not None:
                self._apply(auto)
                seat.automatic += 1
                if self.on_answer is not None:
                    self.on_answer(seat.index, auto)
                if self.on_progress is not None:
                    self.on_progress(self)
                continue
            answer = await self._ask(seat)
            decisions += 1
            if game.over or seat.out:
                continue  # the seat was forfeited while we asked
            action = answer.first if isinstance(answer, Blitz) else answer
            if (action is None or not self._applied(seat, action)) and not seat.out:
                self._apply(game.default_action())
            elif isinstance(answer, Blitz) and self.orders:
                seat.order = answer  # applied: the next rolls are the order's
            if self.on_progress is not None:
                self.on_progress(self)
        await self._end_all()
        assert game.places is not None  # the game is over
        return GameResult(
            self.game_id,
            game.places,
            game.finish_reason,
            self.recorder.text(),
            self.seats,
            decisions,
            trio.current_time() - started,
            game,
            sum(seat.automatic for seat in self.seats),
        )

    def _automatic(self, seat: SeatState) -> Action | None:
        """The action the seat's orders answer the pending decision with, or None: ask it (and
        its blitz, if any, is over)."""
        game = self.game
        pending = game.pending
        if not self.orders or seat.out or pending is None:
            return None
        action = automatic(pending, seat.order, seat.policies, game.owner, game.armies)
        if action is not None and game.is_legal(action):
            return action
        seat.order = None
        return None

    def _applied(self, seat: SeatState, action: Action) -> bool:
        """Apply the seat's answer; if the engine refuses it, strike the seat and say why."""
        try:
            self._apply(action)
        except IllegalAction as exc:
            seat.last_error = exc.reason
            self._strike(seat, "illegal", exc.reason)
            return False
        if self.on_answer is not None:
            self.on_answer(seat.index, action)
        return True

    async def _ask(self, seat: SeatState) -> Action | Blitz | None:
        """The seat's answer, or None (after recording why) when the default must be applied."""
        if seat.bank <= 0:  # its last answer came at the very last moment: nothing left
            self._forfeit(seat, "timeout", f"time bank of {self.time.bank:g} s used up")
            return None
        deadline = min(self.time.decision, seat.bank)
        link = seat.link
        meter = cpu_meter(self.time, link)
        ask = Ask(
            self.game_id,
            view_for(self.game, seat.index),
            seat.unseen,
            seat.last_error,
            seat.strikes,
            seat.bank,
            deadline,
            "wall" if meter is None else "cpu",
        )
        seat.unseen = []
        seat.last_error = ""
        seat.asked += 1
        # on the CPU clock the transport stops a bot past its CPU time or idle too long (it
        # sleeps or blocks); the wall clock is only the last resort
        limit = deadline if meter is None else self.time.wall_cap(deadline)
        await link.resume()
        started = trio.current_time()
        answer: Action | Blitz | Failure = Failure("timeout", "")
        with trio.move_on_after(limit):
            answer = await link.decide(ask)
        wall = trio.current_time() - started
        await link.pause()
        elapsed = wall if meter is None else meter()
        seat.bank -= elapsed
        seat.think_time += elapsed
        if (isinstance(answer, Failure) and answer.kind == "timeout") or elapsed > deadline:
            breach = _breach(link)
            if breach is not None:  # it hung because its sandbox stopped it: that fault
                self._forfeit(seat, breach.kind, breach.detail)
                return None
            if seat.bank <= 0:
                self._forfeit(seat, "timeout", f"time bank of {self.time.bank:g} s used up")
            else:
                why = answer.detail if isinstance(answer, Failure) else ""
                late = _lateness(deadline, limit, elapsed, meter is not None, why)
                seat.last_error = f"late: {late}"
                seat.last_error += "; the default action was applied"
                self._strike(seat, "timeout", seat.last_error)
            return None
        if isinstance(answer, Failure):
            if answer.kind == "protocol":
                seat.last_error = answer.detail
                self._strike(seat, "protocol", answer.detail)
            else:
                self._forfeit(seat, answer.kind, answer.detail)
            return None
        seat.decisions += 1
        seat.bank += self.time.increment
        self._note(seat)
        return answer

    def _note(self, seat: SeatState) -> None:
        """Keep what the seat attached to its answer as its private ``note`` line, before the
        answer's action line. A transport that carries notes offers ``take_note()``."""
        take: Callable[[], Jotting | None] | None = getattr(seat.link, "take_note", None)
        jotting = take() if take is not None else None
        if jotting is None:
            return
        fields = clean(jotting, self.game.board.size, seat.notes)
        if fields is not None:
            self.recorder.lines.append(note_line(seat.index, len(self.game.history), fields))

    async def _end_all(self) -> None:
        async def end_one(seat: SeatState) -> None:
            began = trio.current_time()
            await seat.link.resume()
            with trio.move_on_after(self.time.end_game):
                await seat.link.end_game(
                    self.game_id, self.game.places, self.game.finish_reason, self.time.end_game
                )
            await seat.link.pause()
            seat.setup_time += trio.current_time() - began

        async with trio.open_nursery() as nursery:
            for seat in self.seats:
                if not seat.out and seat.link.alive:
                    nursery.start_soon(end_one, seat)


def _breach(link: Transport) -> Failure | None:
    """The ceiling fault of a bot that did not answer in time, if its sandbox stopped any of
    its processes (a bot whose fork or memory was refused may hang rather than answer): the
    same fault whether the refusal made it hang or it answered. A transport that can tell
    offers ``breach()``; the others never breach."""
    breach: Callable[[], Failure | None] | None = getattr(link, "breach", None)
    return breach() if breach is not None else None


def _lateness(deadline: float, limit: float, elapsed: float, cpu: bool, why: str) -> str:
    """Why an answer was late, on the clock the seat was timed by (the same words for the
    same cause: they go into the record). ``why`` is the transport's reason, if it gave one
    (a bot idle too long on the CPU clock)."""
    said = f"no answer within {deadline:.3f} s"
    if not cpu:
        return said
    if elapsed > deadline:
        return f"{said} of CPU time"
    if why:
        return f"{said}: {why}"
    return f"{said}: none after {limit:.3f} s of wall time"
