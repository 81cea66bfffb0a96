"""Making a season or a ladder: the checks and the creation that ``hegemon season create``,
``hegemon ladder create`` and the admins' web form (``/admin/competitions``) share, so that
both refuse the same input with the same words. Every refusal is a :class:`SetupError` of one
line; the command line prints it and exits, the web page shows it above its form.

Light at import (``hegemon --help`` reads :func:`suggest` through the command line's common
module): the engine, the store and the registry are imported inside the functions.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from hegemon.referee.rules import RuleSet
    from hegemon.referee.timecontrol import TimeControl

    from ..store import BotRow, SeasonRow, Store

SEASON_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.:-]{0,99}$")

TIME_FLAGS = {
    "clock": "--clock",
    "startup": "--startup-time",
    "decision": "--decision-time",
    "bank": "--time-bank (or --time)",
    "increment": "--time's increment",
    "max_strikes": "--max-strikes",
}
"""The option that sets each :class:`TimeControl` field, for error messages."""


class SetupError(Exception):
    """Why a season, a ladder or a game cannot be set up as asked: one line."""


def suggest(word: str, choices: Iterable[str]) -> str:
    """`` (did you mean 'x'?)`` for the choices nearest a mistyped ``word``, else ""."""
    close = difflib.get_close_matches(word, list(choices), n=2, cutoff=0.6)
    if not close:
        return ""
    return " (did you mean " + " or ".join(f"'{c}'" for c in close) + "?)"


def rule_set(preset: str, overrides: Sequence[str]) -> RuleSet:
    """The rule set of a preset and ``NAME=VALUE`` overrides (``--rules``, ``--set``), or a
    :class:`SetupError` with the engine's reason and a "did you mean"."""
    from hegemon.referee.rules import OPTIONS, PRESETS, RulesError, make_rules, parse_overrides

    try:
        return make_rules(preset, parse_overrides(list(overrides)))
    except RulesError as exc:
        hint = suggest(preset, PRESETS) if preset not in PRESETS else ""
        for override in overrides:
            name = override.partition("=")[0].strip()
            if not hint and name not in OPTIONS:
                hint = suggest(name, OPTIONS)
        raise SetupError(f"{exc}{hint}") from None


def default_time() -> TimeControl:
    """The default time control: the one home of its defaults is :class:`TimeControl`."""
    from hegemon.referee.timecontrol import TimeControl

    return TimeControl()


def time_control(
    time: str | None, startup: float, decision: float, bank: float, **others: Any
) -> TimeControl:
    """The :class:`TimeControl` of the time options (``time``: ``BANK+INCREMENT``, which
    overrides ``bank``), or a :class:`SetupError` naming the option at fault."""
    kind = type(default_time())
    try:
        if time is not None:
            return kind.parse(time, startup=startup, decision=decision, **others)
        return kind(startup=startup, decision=decision, bank=bank, **others)
    except ValueError as exc:
        message = str(exc)
        for field_name, flag in TIME_FLAGS.items():
            message = message.replace(f"TimeControl.{field_name} ", f"{flag} ")
        raise SetupError(message) from None


def _players_error(rules: object, players: int) -> str | None:
    """Why ``players`` seats do not suit the rule set (the engine's own word), or None."""
    from hegemon.referee.game import Game, GameSetupError

    try:
        Game(rules, players, 0)  # type: ignore[arg-type]
    except GameSetupError as exc:
        return f"{exc} (--players)"
    return None


def checked_rules(
    what: str, name: str, rules: str, option: Sequence[str], players: int, max_strikes: int
) -> RuleSet:
    """The rule set of a new season or ladder (``what``) called ``name``, after the checks
    both make: a usable name, rules the engine knows, seats they allow, strikes not negative."""
    if not SEASON_NAME.match(name):
        raise SetupError(
            f"bad {what} name {name!r}: use letters, digits, '_', '-', '.', ':' (up to 100)"
        )
    found = rule_set(rules, option)
    problem = _players_error(found, players)
    if problem:
        raise SetupError(problem)
    if max_strikes < 0:
        raise SetupError("--max-strikes cannot be negative")
    return found


def new_season(
    name: str,
    rules: Any,
    players: int,
    schedule: list[Any],
    seed: int,
    time: Any = None,
    **more: Any,
) -> SeasonRow:
    """A season (not stored yet) playing ``schedule`` under ``rules`` and the time control
    ``time``; ``more``: its other settings (``keep_memory``, ``duplicate``, ``kind``)."""
    from ..store import SeasonRow

    clock = time.clock if time is not None else "cpu"  # a season's bots run as processes
    time = time or default_time()
    return SeasonRow(
        name=name,
        preset=rules.preset,
        options=rules.options(),
        players=players,
        games=len(schedule),
        startup_time=time.startup,
        decision_time=time.decision,
        time_bank=time.bank,
        time_increment=time.increment,
        time_clock=clock,
        max_strikes=time.max_strikes,
        seed=seed,
        **more,
    )


# ---------------------------------------------------------------------------------- the plans
@dataclass(frozen=True)
class Plan:
    """What a new season or ladder is asked to be, as given (``hegemon season create`` or
    ``ladder create``'s arguments, or the admins' form). None: the default."""

    name: str
    rules: str = "classic"
    options: Sequence[str] = ()
    players: int = 4
    time: str | None = None  # BANK+INCREMENT: overrides ``bank``
    startup: float | None = None
    decision: float | None = None
    bank: float | None = None
    clock: str = "cpu"
    max_strikes: int | None = None
    round_limit: int | None = None  # the rules' turn_limit; a ladder's default: referee.limits


@dataclass(frozen=True)
class SeasonPlan(Plan):
    """A season's plan: also its bots (``NAME`` or ``NAME@vN``, comma- or space-separated),
    its games, its seed (None: secret random bits) and how it is played."""

    bots: str = ""
    games: int = 100
    seed: int | None = None
    duplicate: bool = False
    keep_memory: bool = True


@dataclass(frozen=True)
class Checked:
    """A plan that passed the checks that need no database."""

    rules: RuleSet
    time: TimeControl
    refs: list[str] = field(default_factory=list)  # a season's bots, as given


@dataclass(frozen=True)
class Created:
    """A season or ladder just stored, with its rule set, time control and bots (a ladder's:
    its entrants now)."""

    season: SeasonRow
    rules: RuleSet
    time: TimeControl
    bots: list[BotRow]


def _with_round_limit(options: Sequence[str], round_limit: int | None) -> list[str]:
    """The ``--set`` overrides with ``--round-limit`` among them (given once, at least 1)."""
    if round_limit is None:
        return list(options)
    if round_limit < 1:
        raise SetupError(f"--round-limit must be at least 1; got {round_limit}")
    if any(o.partition("=")[0].strip() == "turn_limit" for o in options):
        raise SetupError("give the round limit once: --round-limit or --set turn_limit")
    return [*options, f"turn_limit={round_limit}"]


def check_plan(plan: Plan, what: str) -> Checked:
    """The checks of a new season or ladder (``what``) that need no database. A ladder's
    games all end: its rules get the default round limit if they set none
    (:mod:`hegemon.referee.limits`), stored with it so that it shows."""
    from hegemon.referee.limits import bounded

    base = default_time()
    strikes = base.max_strikes if plan.max_strikes is None else plan.max_strikes
    options = _with_round_limit(plan.options, plan.round_limit)
    rules = checked_rules(what, plan.name, plan.rules, options, plan.players, strikes)
    if what == "ladder":
        rules = bounded(rules)
    time = time_control(
        plan.time,
        base.startup if plan.startup is None else plan.startup,
        base.decision if plan.decision is None else plan.decision,
        base.bank if plan.bank is None else plan.bank,
        max_strikes=strikes,
        clock=plan.clock,
    )
    return Checked(rules, time)


def check_season_plan(plan: SeasonPlan) -> Checked:
    """The checks of a new season that need no database: :func:`check_plan`'s, its games,
    its seed, and bots named."""
    from hegemon.referee.chance import MAX_SEED

    checked = check_plan(plan, "season")
    if plan.games < 1:
        raise SetupError(f"--games must be at least 1; got {plan.games}")
    if plan.seed is not None and not 0 <= plan.seed <= MAX_SEED:
        raise SetupError(f"--seed must be between 0 and {MAX_SEED}")
    refs = [r for r in re.split(r"[,\s]+", plan.bots) if r]
    if not refs:
        raise SetupError("--bots names no bot")
    return Checked(checked.rules, checked.time, refs)


def _name_free(store: Store, name: str) -> None:
    if store.season_by_name(name) is not None:
        raise SetupError(f"a season named '{name}' already exists")


def create_ladder(store: Store, plan: Plan) -> Created:
    """Check ``plan`` and store it as a ladder: every bot's latest active version plays, a
    new version replaces the old one, and its matchmaker makes the games as they finish."""
    from hegemon.referee.chance import new_seed

    from ..ladder import ladder_entrants
    from ..store import LADDER, StoreError

    checked = check_plan(plan, "ladder")
    try:
        _name_free(store, plan.name)
        entrants = ladder_entrants(store)
        ids = [b.id for b in entrants if b.id is not None]
        season = new_season(
            plan.name, checked.rules, plan.players, [], new_seed(), checked.time, kind=LADDER
        )
        created = store.create_season(season, ids, [])
    except StoreError as exc:
        raise SetupError(str(exc)) from None
    return Created(created, checked.rules, checked.time, entrants)


def bots_named(store: Store, refs: Sequence[str]) -> list[BotRow]:
    """The versions ``refs`` name (``NAME``: its latest, or ``NAME@vN``), in their order, each
    once; else a :class:`SetupError` (an unknown bot or version, one listed twice)."""
    from ..registry import RegistryError, lookup_bot

    try:
        chosen = [lookup_bot(store, ref) for ref in refs]
    except RegistryError as exc:
        raise SetupError(str(exc)) from None
    ids = [b.id for b in chosen]
    if len(set(ids)) != len(ids):
        twice = next(b for i, b in enumerate(chosen) if b.id in ids[:i])
        raise SetupError(f"--bots lists {twice.label} twice")
    return chosen


def create_season(store: Store, plan: SeasonPlan) -> Created:
    """Check ``plan`` and store the season with its whole schedule (nothing is played yet)."""
    from hegemon.referee.chance import new_seed

    from ..store import StoreError
    from .schedule import make_schedule

    checked = check_season_plan(plan)
    players = plan.players
    try:
        chosen = bots_named(store, checked.refs)
        ids = [b.id for b in chosen]
        if len(chosen) < players:
            raise SetupError(
                f"{players} players per game need at least {players} different bots; "
                f"--bots gives {len(chosen)}"
            )
        _name_free(store, plan.name)
        season_seed = new_seed() if plan.seed is None else plan.seed
        schedule = make_schedule(
            ids,  # type: ignore[arg-type]
            players,
            plan.games,
            season_seed,
            plan.duplicate,
            teams=checked.rules.teams == "on",  # team games spread partnerships too
        )
        season = new_season(
            plan.name,
            checked.rules,
            players,
            schedule,
            season_seed,
            checked.time,
            keep_memory=plan.keep_memory,
            duplicate=plan.duplicate,
        )
        created = store.create_season(season, ids, schedule)  # type: ignore[arg-type]
    except StoreError as exc:
        raise SetupError(str(exc)) from None
    return Created(created, checked.rules, checked.time, chosen)
