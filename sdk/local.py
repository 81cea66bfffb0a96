"""Play a game between Python bots in this process, without gRPC: quick testing for bot authors.

>>> from hegemon.sdk import Bot, play_local
>>> result = play_local([Bot(), Bot(), Bot()], "classic", seed=1, options={"turn_limit": 5})
>>> sorted(result.places)[0]
1

The game is run by the referee's own core (:class:`hegemon.referee.arbiter.Arbiter`), so each
bot sees exactly what it would see from the referee: its own view, the events since its
previous decision (another seat's drawn card hidden), and the error text when its previous
answer was refused. A refused or failed answer is replaced by the engine's default action and
counted (``faults``); one strike more than the limit forfeits the seat, whose armies stay on
the board as neutral. ``strict=True`` raises :class:`LocalFault` at the first fault instead.
The game is untimed unless a ``time_control`` is given (a bot in this process cannot be
interrupted: an answer that took too long is refused once it comes). With ``protocol=True``
every request and answer also goes through the protocol messages
(:mod:`hegemon.referee.wire.codec`), exactly as over gRPC but without a socket (full views:
no view deltas). The bots' orders (:mod:`hegemon.referee.orders`: policies, blitz attacks) are
played out by the referee's core as in a real game; ``orders=False`` ignores them, so every
decision is asked (the game is the same; only fewer decisions reach the bots with orders).
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from hegemon.referee.actions import Action
from hegemon.referee.events import Event
from hegemon.referee.game import Game
from hegemon.referee.notes import Jotting
from hegemon.referee.orders import Blitz, Policies
from hegemon.referee.rules import RuleSet, make_rules
from hegemon.referee.timecontrol import TimeControl
from hegemon.referee.wire import codec
from hegemon.referee.wire.notes import notes_from_reply

from .bot import Bot, GameContext, make_view
from .server import BotServicer

if TYPE_CHECKING:
    # the referee's core and trio load when a game is played, not with the SDK: a bot that
    # only serves never needs them
    from hegemon.referee.arbiter import Arbiter, Ask, Failure, Fault, GameStart

__all__ = ["LocalFault", "LocalGame", "play_local"]

UNTIMED = TimeControl(decision=math.inf, bank=math.inf)


class LocalFault(RuntimeError):
    """Raised by ``play_local(..., strict=True)`` when a bot fails or answers illegally."""


@dataclass
class LocalGame:
    """The result of :func:`play_local`."""

    places: tuple[int, ...]  # places[seat], 1 = winner
    reason: str  # "conquest", "turn limit", ...
    rounds: int
    actions: list[tuple[int, Action]] = field(default_factory=list)  # (seat, answer) in order
    decisions: list[int] = field(default_factory=list)  # decisions asked, per seat
    seconds: list[float] = field(default_factory=list)  # time spent deciding, per seat
    faults: list[tuple[int, str]] = field(default_factory=list)  # (seat, why), refused answers
    game: Game | None = field(default=None, repr=False)  # the finished engine game
    record: str = field(default="", repr=False)  # the game record (hegemon-record/1)


def _as_is(event: Event) -> Event:
    return event


class InProcessBot:
    """A transport of the referee's core to a :class:`Bot` in this process: direct calls, or
    with ``protocol=True`` the protocol messages through a :class:`BotServicer`.

    ``shared`` holds, per bot object, what its seats share: its servicer and whether its
    games were ended (a bot in several seats is told once)."""

    def __init__(
        self,
        bot: Bot,
        seat: int,
        *,
        protocol: bool,
        strict: bool,
        decision_ms: int,
        shared: dict[int, dict[str, Any]],
    ):
        self.bot = bot
        self.seat = seat
        self.name = bot.name
        self.protocol = protocol
        self.strict = strict
        self.decision_ms = decision_ms
        self.context: GameContext | None = None
        self.mine = shared.setdefault(id(bot), {"ended": False})
        if protocol:
            self.mine.setdefault("servicer", BotServicer(bot))
        self.encode_event: Callable[[Event], Any] = codec.event_to_proto if protocol else _as_is
        self._note: Jotting | None = None

    def take_note(self) -> Jotting | None:
        """The notes the bot attached to its last answer (once)."""
        note, self._note = self._note, None
        return note

    alive = True
    startup_error = ""

    async def resume(self) -> None:
        """Nothing to resume: the bot runs only when called."""

    async def pause(self) -> None:
        """Nothing to pause."""

    def discard(self) -> None:
        """A forfeited seat is simply not asked again."""

    def _ms(self, seconds: float, otherwise: int) -> int:
        return max(0, int(seconds * 1000)) if math.isfinite(seconds) else otherwise

    def _failed(self, what: str, exc: Exception) -> str:
        reason = f"{type(exc).__name__}: {exc}"
        if self.strict:
            raise LocalFault(f"seat {self.seat} ({self.name}) failed on {what}: {reason}") from exc
        return reason

    async def start_game(
        self,
        start: GameStart,
        timeout: float,  # noqa: ASYNC109 - the Seat protocol's gRPC deadline, unused in-process
    ) -> Failure | Policies | None:
        game, names = start.game, tuple(start.names)
        decision_ms = self._ms(start.time.decision, self.decision_ms)
        bank_ms = self._ms(start.time.bank, 0)
        try:
            if self.protocol:
                request = codec.start_game_request(
                    start.game_id, self.seat, names, game.rules, game.board, decision_ms, bank_ms
                )
                reply = self.mine["servicer"].StartGame(request, None)
                if reply.HasField("policies"):
                    return codec.policies_from_proto(reply.policies)
            else:
                self.context = self.bot.start_game(
                    GameContext(
                        start.game_id,
                        self.seat,
                        names,
                        game.rules,
                        game.board,
                        decision_ms,
                        bank_ms,
                    )
                )
                return self.bot.standing_orders(self.context)
        except Exception as exc:  # the bot's bug: it cannot play this game
            from hegemon.referee.arbiter import Failure

            return Failure("startup", f"StartGame failed: {self._failed('StartGame', exc)}")
        return None

    async def decide(self, ask: Ask) -> Action | Blitz | Failure:
        bank_ms = self._ms(ask.bank, 0)
        deadline_ms = self._ms(ask.deadline, self.decision_ms)
        try:
            if self.protocol:
                request = codec.view_to_proto(
                    ask.view,
                    (),
                    ask.error,
                    ask.strikes,
                    bank_ms,
                    game_id=ask.game_id,
                    deadline_ms=deadline_ms,
                )
                request.events.extend(ask.events)
                reply = self.mine["servicer"].Decide(request, None)
                answer = codec.answer_from_proto(reply, ask.game_id)
                self._note = notes_from_reply(reply)
                return answer
            assert self.context is not None  # started
            view = make_view(
                ask.view, self.context, ask.events, ask.error, ask.strikes, bank_ms, deadline_ms
            )
            self.context.take_note()  # only what is jotted while deciding rides on the answer
            answer = self.bot.answer(view)
            self._note = self.context.take_note()
            return answer
        except Exception as exc:  # the bot failed: the referee would count a strike
            pending = ask.view.pending
            kind = pending.kind.value if pending is not None else "?"
            from hegemon.referee.arbiter import Failure

            return Failure("protocol", self._failed(kind, exc))

    async def end_game(
        self,
        game_id: str,
        places: tuple[int, ...] | None,
        reason: str,
        timeout: float,  # noqa: ASYNC109 - the Seat protocol's gRPC deadline, unused in-process
    ) -> None:
        if self.mine["ended"]:
            return
        self.mine["ended"] = True
        if self.protocol:
            self.mine["servicer"].EndGame(codec.end_game_request(game_id, places, reason), None)
        else:
            self.bot.end_game(game_id, places or (), reason)


def local_game_id(seed: int) -> str:
    """The default id of a local game: stable for a seed (so ``play_local`` is deterministic)
    but not the seed itself, which bots must not be handed."""
    digest = hashlib.blake2b(str(seed).encode(), digest_size=8, person=b"hegemon-localid")
    return f"local-{digest.hexdigest()}"


def play_local(
    bots: Sequence[Bot],
    rules: RuleSet | str = "classic",
    seed: int = 0,
    *,
    options: Mapping[str, Any] | None = None,
    game_id: str | None = None,
    protocol: bool = False,
    strict: bool = False,
    decision_ms: int = int(TimeControl.decision * 1000),
    max_decisions: int = 1_000_000,
    decision_limit: int = 0,
    time_control: TimeControl | None = None,
    orders: bool = True,
) -> LocalGame:
    """Play one game, ``bots[i]`` in seat ``i`` (the same bot object may sit in several
    seats), and return its :class:`LocalGame`.

    The referee's own loop runs the game (:class:`hegemon.referee.arbiter.Arbiter`), with a
    real game's strike limit (``time_control.max_strikes``, default
    :class:`~hegemon.referee.timecontrol.TimeControl`'s): a refused or failed answer gets the
    default action and a strike, one strike over the limit forfeits the seat.
    ``decision_ms`` is the deadline the bots are told when the game is untimed (no
    ``time_control``); ``orders=False`` ignores the bots' orders (every decision is asked).
    A game still running after ``max_decisions`` decisions (bots that never
    attack, under rules without a turn limit) stops with a :class:`LocalFault` that says so;
    a ``decision_limit`` ends it instead, ranked as at a round limit (the backstop of
    :mod:`hegemon.referee.limits`: reason ``"decision limit"``).
    """
    import trio

    from hegemon.referee.arbiter import Arbiter

    if isinstance(rules, str):
        rules = make_rules(rules, options)
    elif options:
        raise ValueError("give options with a preset name, not with a RuleSet")
    game = Game(rules, len(bots), seed, decision_limit=decision_limit)
    game_id = game_id if game_id is not None else local_game_id(seed)
    shared: dict[int, dict[str, Any]] = {}
    seats = [
        InProcessBot(
            bot, seat, protocol=protocol, strict=strict, decision_ms=decision_ms, shared=shared
        )
        for seat, bot in enumerate(bots)
    ]
    actions: list[tuple[int, Action]] = []
    faults: list[tuple[int, str]] = []

    def on_fault(fault: Fault) -> None:
        faults.append((fault.seat, fault.detail))
        if strict:
            pending = game.pending
            kind = pending.kind.value if pending is not None else "?"
            raise LocalFault(
                f"seat {fault.seat} ({fault.bot}): {fault.kind} answer to {kind}: {fault.detail}"
            )

    def on_progress(arbiter: Arbiter) -> None:
        if len(game.history) >= max_decisions and not game.over:
            raise LocalFault(
                f"the game did not end within {max_decisions:,} decisions (round {game.round}): "
                "bots that never attack can play forever; give the rules a turn limit, e.g. "
                "options={'turn_limit': 100}, or a larger max_decisions"
            )

    arbiter = Arbiter(
        game,
        seats,
        game_id,
        time_control or UNTIMED,
        header={"sandbox": "in-process"},
        on_progress=on_progress,
        on_answer=lambda seat, action: actions.append((seat, action)),
        on_fault=on_fault,
        orders=orders,
    )
    played = trio.run(arbiter.play)
    return LocalGame(
        places=played.places,
        reason=played.reason,
        rounds=game.round,
        actions=actions,
        decisions=[s.asked for s in played.seats],
        seconds=[s.think_time for s in played.seats],
        faults=faults,
        game=game,
        record=played.record,
    )
