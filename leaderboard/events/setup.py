"""Making a final event: the checks and the creation that ``hegemon event create`` and the
admins' form share. Its entrants are frozen at entry (the exact bot version ids, best first:
the ladder board's order, or the order listed); its first round is stored with it, the next
ones are made as rounds finish (:mod:`.progress`). Every refusal is a one-line
:class:`~hegemon.leaderboard.seasons.setup.SetupError`.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..seasons.setup import Plan, SetupError, bots_named, check_plan, new_season
from .formats import FORMATS, KNOCKOUT, ROUND_ROBIN, SWISS, FormatError, swiss_rounds
from .rounds import Shape, first_round, planned_rounds

if TYPE_CHECKING:
    from ..store import BotRow, EventRow, SeasonRow, Store

MAX_GAMES = 5000
"""Games a round-robin may schedule: all seatings of a large field grow fast."""


@dataclass(frozen=True)
class EventPlan(Plan):
    """What a new event is asked to be: a :class:`Plan` (rules, seats, time) and its format,
    entrants (``ladder`` and ``top``, or ``bots``: ``NAME@vN`` refs), seed (None: secret)."""

    format: str = KNOCKOUT
    ladder: str | None = None
    top: int | None = None
    bots: str = ""
    advance: int = 1
    rounds: int | None = None  # Swiss (default: swiss_rounds)
    rotate: bool = True
    seed: int | None = None


@dataclass(frozen=True)
class CreatedEvent:
    """An event just stored: its season, row and entrants (best first)."""

    season: SeasonRow
    event: EventRow
    entrants: list[BotRow]


def _from_ladder(store: Store, plan: EventPlan) -> tuple[list[BotRow], str]:
    """The top ``plan.top`` versions of the ladder's board (one per bot, active ones)."""
    from ..boards import board

    ladder = store.season_by_name(plan.ladder or "")
    if ladder is None or not ladder.is_ladder:
        known = ", ".join(s.name for s in store.seasons() if s.is_ladder) or "none"
        raise SetupError(f"no ladder named '{plan.ladder}' (ladders: {known})")
    if plan.top is None or plan.top < 1:
        raise SetupError("--top must be a number of bots, at least 1")
    chosen: list[BotRow] = []
    names: set[str] = set()
    for row in board(store, ladder).rows:
        bot = store.get_bot(row.bot_id)
        if bot is None or bot.state != "active" or bot.name in names:
            continue
        names.add(bot.name)
        chosen.append(bot)
        if len(chosen) == plan.top:
            return chosen, f"the top {plan.top} of ladder {ladder.name}"
    raise SetupError(
        f"ladder {ladder.name} ranks {len(chosen)} active bots; --top {plan.top} asks for more"
    )


def _listed(store: Store, plan: EventPlan) -> tuple[list[BotRow], str]:
    """The versions ``plan.bots`` names, in its order (each ``NAME`` at its latest)."""
    refs = [r for r in re.split(r"[,\s]+", plan.bots) if r]
    return bots_named(store, refs), "versions chosen by the organisers"


def entrants(store: Store, plan: EventPlan) -> tuple[list[BotRow], str]:
    """The event's entrants, best first, and where they came from (said on its page)."""
    if (plan.ladder is None) == (not plan.bots.strip()):
        raise SetupError("give the entrants one way: --ladder NAME --top N, or --bots A,B,…")
    return _from_ladder(store, plan) if plan.ladder is not None else _listed(store, plan)


def check_shape(plan: EventPlan, count: int) -> Shape:
    """The event's :class:`Shape` for ``count`` entrants, or why it cannot be played."""
    if plan.format not in FORMATS:
        raise SetupError(f"unknown format '{plan.format}' (formats: {', '.join(FORMATS)})")
    seats = plan.players
    if count < seats:
        raise SetupError(f"{seats} seats per table need at least {seats} bots; {count} given")
    rounds = 1
    if plan.format == SWISS:
        rounds = plan.rounds if plan.rounds is not None else swiss_rounds(count, seats)
        if rounds < 1:
            raise SetupError(f"--rounds must be at least 1; got {rounds}")
        if count % seats:
            raise SetupError(
                f"a Swiss of {count} bots at tables of {seats} leaves {count % seats} without "
                f"a table: give a multiple of {seats} bots"
            )
    advance = plan.advance if plan.format == KNOCKOUT else 0
    shape = Shape(plan.format, seats, advance, rounds, plan.rotate)
    try:
        planned_rounds(shape, count)
    except FormatError as exc:
        raise SetupError(str(exc)) from None
    if plan.format == ROUND_ROBIN:
        games = math.comb(count, seats) * (seats if plan.rotate else 1)
        if games > MAX_GAMES:
            raise SetupError(
                f"a round-robin of {count} bots at tables of {seats} is {games} games (at most "
                f"{MAX_GAMES}); take fewer bots, --no-rotations, or a Swiss"
            )
    return shape


def create_event(store: Store, plan: EventPlan) -> CreatedEvent:
    """Check ``plan`` and store the event: its season (kind ``event``), entrants, first round
    and row with the seed's hash (the seed itself is shown once the event ends)."""
    from hegemon.referee.chance import MAX_SEED, new_seed
    from hegemon.referee.limits import bounded
    from hegemon.referee.record import seed_hash

    from ..seasons.schedule import ScheduledMatch, match_seed
    from ..store import EVENT, EventRow, StoreError

    checked = check_plan(plan, "event")
    if plan.seed is not None and not 0 <= plan.seed <= MAX_SEED:
        raise SetupError(f"--seed must be between 0 and {MAX_SEED}")
    if store.season_by_name(plan.name) is not None:
        raise SetupError(f"a season named '{plan.name}' already exists")
    chosen, source = entrants(store, plan)
    shape = check_shape(plan, len(chosen))
    ids = [b.id for b in chosen if b.id is not None]
    seed = new_seed() if plan.seed is None else plan.seed
    schedule, number = [], 1
    for table, seated in enumerate(first_round(shape, ids), start=1):
        for seats in shape.games(seated):
            schedule.append(ScheduledMatch(number, table, seats, match_seed(seed, table)))
            number += 1
    # every game ends (a round waits for its last); rotations share their dice, so no bot
    # keeps a process (and what it saw) from one rotation to the next
    season = new_season(
        plan.name, bounded(checked.rules), plan.players, schedule, seed, checked.time,
        kind=EVENT, keep_memory=not plan.rotate,
    )  # fmt: skip
    try:
        stored = store.create_season(season, ids, schedule)
        row = EventRow(
            season_id=stored.id or 0, format=shape.format, advance=shape.advance,
            rounds=planned_rounds(shape, len(ids)), rotate=shape.rotate, source=source,
            seed_hash=seed_hash(seed), round_starts=[1],
        )  # fmt: skip
        with store.session(write=True) as s:
            s.add(row)
    except StoreError as exc:
        raise SetupError(str(exc)) from None
    return CreatedEvent(stored, row, chosen)
