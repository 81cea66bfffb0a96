"""A bot put in a recorded game's seat: what it answers at one decision, and the game played on.

:func:`ask_at` starts the bot in its sandbox, tells it its seat (``StartGame``) and asks it the
recorded decision in one ``Decide`` whose events are everything that seat had been told, from
the set-up on: the very view the original bot had (its own cards and missions, the public
board), and the whole history in its own redaction. :func:`play_on` then plays the game on from
that position with the bots given for each seat and fresh chance from a new seed: the record's
seed is never reused for what comes after (a finished game's seed is public, but the deck's
order beyond the position would otherwise be known to whoever read the record).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from ..actions import Action
from ..arbiter import Arbiter, Ask, Failure, GameResult, GameStart
from ..chance import Chance
from ..events import Event
from ..game import Game, IllegalAction
from ..limits import DEFAULT_DECISION_LIMIT
from ..notes import Budget, Jotting, clean
from ..orders import Blitz, Policies
from ..replaying import RecordedPosition
from ..timecontrol import TimeControl
from .labels import seat_labels
from .link import DEFAULT_LIMITS, BotLimits, BotLink
from .match import clock_of, sandbox_of
from .process import BotCommand
from .session import link_pool, seated


@dataclass(frozen=True)
class Probe:
    """What the bot answered at the position: ``action`` (None if it gave no answer: see
    ``failure``), and whether the engine accepts it there (``illegal``: the engine's reason)."""

    action: Action | None
    failure: str
    illegal: str
    bot: str
    log: str = ""
    """What the bot wrote (stdout and stderr) from its start to its answer, capped."""
    note: dict[str, Any] | None = None
    """The note and marks it attached to its answer, checked as a record keeps them."""


class _Answered(Exception):
    """Raised through the arbiter once the probed seat answered: nothing more is asked."""


class _Silent:
    """A seat that is never asked in a probe: it only has to be present."""

    def __init__(self, name: str):
        self.name = name

    @property
    def alive(self) -> bool:
        return True

    @property
    def startup_error(self) -> str:
        return ""

    def encode_event(self, event: Event) -> Any:
        return event

    async def start_game(self, start: GameStart, timeout: float) -> Failure | Policies | None:  # noqa: ASYNC109 - the Transport protocol's signature
        return None

    async def decide(self, ask: Ask) -> Action | Blitz | Failure:
        raise _Answered  # the probed seat's decision is over (answered, late or forfeited)

    async def end_game(
        self,
        game_id: str,
        places: tuple[int, ...] | None,
        reason: str,
        timeout: float,  # noqa: ASYNC109 - the Transport protocol's signature
    ) -> None:
        return None

    async def resume(self) -> None:
        return None

    async def pause(self) -> None:
        return None

    def discard(self) -> None:
        return None


class _Once:
    """The probed seat's link: the bot's first answer is kept, then the game stops."""

    def __init__(self, link: BotLink):
        self.link = link
        self.name = link.name
        self.encode_event = link.encode_event
        self.answer: Action | Blitz | Failure | None = None
        self.jotting: Jotting | None = None
        self.asked = False

    @property
    def alive(self) -> bool:
        return self.link.alive

    @property
    def startup_error(self) -> str:
        return self.link.startup_error

    @property
    def startup_fault(self) -> str:
        return self.link.startup_fault

    @property
    def cpu_meter(self) -> Callable[[], float] | None:
        return self.link.cpu_meter

    def breach(self) -> Failure | None:
        return self.link.breach()

    async def start_game(self, start: GameStart, timeout: float) -> Failure | Policies | None:  # noqa: ASYNC109 - the Transport protocol's signature
        return await self.link.start_game(start, timeout)

    async def decide(self, ask: Ask) -> Action | Blitz | Failure:
        if self.asked:  # late the first time: the arbiter applied the default and asks again
            raise _Answered
        self.asked = True
        self.answer = await self.link.decide(ask)
        self.jotting = self.link.take_note()
        raise _Answered

    async def end_game(
        self,
        game_id: str,
        places: tuple[int, ...] | None,
        reason: str,
        timeout: float,  # noqa: ASYNC109 - the Transport protocol's signature
    ) -> None:
        await self.link.end_game(game_id, places, reason, timeout)

    async def resume(self) -> None:
        await self.link.resume()

    async def pause(self) -> None:
        await self.link.pause()

    def discard(self) -> None:
        self.link.discard()


def judge(game: Game, answer: Action | Blitz | Failure | None, bot: str) -> Probe:
    """The probe's outcome: the answer, and the engine's word on it at this position."""
    if answer is None:
        return Probe(None, "it gave no answer in time", "", bot)
    if isinstance(answer, Failure):
        return Probe(None, f"{answer.kind}: {answer.detail}".rstrip(": "), "", bot)
    action = answer.first if isinstance(answer, Blitz) else answer
    try:
        game.clone().apply(action)
    except IllegalAction as exc:
        return Probe(action, "", exc.reason, bot)
    return Probe(action, "", "", bot)


async def ask_at(
    position: RecordedPosition,
    command: BotCommand,
    time_control: TimeControl,
    limits: BotLimits = DEFAULT_LIMITS,
) -> Probe:
    """Start ``command``'s bot, seat it where the record's decision ``position.n`` was asked,
    and return what it answers there (under ``time_control``'s deadline)."""
    async with link_pool(time_control, restart_per_game=True, limits=limits) as pool:
        link = await pool.acquire(command)
        probed = _Once(link)
        links: list[Any] = [_Silent(name) for name in position.seats]
        links[position.seat] = probed
        arbiter = Arbiter(
            position.game.clone(),
            links,
            position.game_id,
            time_control,
            position.seats,
            told=position.history,
            orders=False,
        )
        try:
            await arbiter.play()
        except _Answered:
            pass
        finally:
            log = link.process.log_since(0) if link.process is not None else b""
            await pool.release(link)
        faults = [f for seat in arbiter.seats for f in seat.faults]
        answer = probed.answer
        if answer is None and faults:  # it never started, or broke a ceiling on the way
            answer = Failure(faults[0].kind, faults[0].detail)
        said = log.decode("utf-8", "replace")
        jotting = probed.jotting
        note = None if jotting is None else clean(jotting, position.game.board.size, Budget())
        judged = judge(position.game, answer, seat_labels([link])[0])
        return replace(judged, log=said, note=note)


def reseeded(game: Game, seed: int) -> Game:
    """A copy of ``game`` whose chance from here on comes from ``seed``, and which ends at the
    default decision limit at the latest, as every game the product plays does."""
    copy = game.clone()
    copy.seed = seed
    copy.rng = Chance(seed)
    if not copy.decision_limit:
        copy.decision_limit = DEFAULT_DECISION_LIMIT
    return copy


async def play_on(
    position: RecordedPosition,
    commands: Sequence[BotCommand],
    seed: int,
    time_control: TimeControl,
    on_progress: Callable[[Any], Any] | None = None,
    limits: BotLimits = DEFAULT_LIMITS,
) -> GameResult:
    """Play the game on from ``position`` to its end, ``commands[i]`` in seat ``i``, with
    chance from ``seed``: every seat is first told the game's history in its own redaction."""
    game = reseeded(position.game, seed)
    async with (
        link_pool(time_control, restart_per_game=True, limits=limits) as pool,
        seated(pool, commands) as ready,
    ):
        arbiter = Arbiter(
            game,
            ready,
            position.game_id,
            time_control,
            seat_labels(ready),
            header={
                "sandbox": sandbox_of(ready),
                "clock": clock_of(ready, time_control),
                "played_on_from": position.n,
            },
            on_progress=on_progress,
            told=position.history,
        )
        return await arbiter.play()
