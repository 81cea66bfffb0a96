"""``hegemon ladder create|list|status``: continuous ladders, seasons that never end
(:mod:`hegemon.leaderboard.ladder`). They are played by ``hegemon season run NAME``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import typer

from hegemon.referee.limits import DEFAULT_ROUND_LIMIT

from .common import (
    clock_option,
    console,
    db_option,
    decision_time_option,
    fail,
    max_strikes_option,
    open_store,
    read_store,
    rules_option,
    rules_text,
    set_option,
    startup_time_option,
    store_exists,
    time_bank_option,
    time_option,
)
from .season import status_command as season_status

if TYPE_CHECKING:
    from ..store import Store

ladder_app = typer.Typer(
    name="ladder",
    help="Create and follow ladders: seasons that never end.",
    no_args_is_help=True,
    add_completion=False,
)


@ladder_app.command("create")
def create_command(
    name: str = typer.Argument(..., help="The ladder's name (unique among seasons)."),
    rules: str = rules_option(),
    option: list[str] = set_option(),
    players: int = typer.Option(4, "--players", help="Seats per game."),
    round_limit: int | None = typer.Option(
        None,
        "--round-limit",
        help="Rounds after which a game ends, ranked by territories then armies "
        f"(default: the rules' turn_limit, else {DEFAULT_ROUND_LIMIT}; every game ends).",
        show_default=False,
    ),
    startup_time: float = startup_time_option(),
    decision_time: float = decision_time_option(),
    time_bank: float = time_bank_option(),
    time: str | None = time_option(),
    clock: str = clock_option(),
    max_strikes: int = max_strikes_option(),
    db: str | None = db_option(),
) -> None:
    """Create a ladder: every bot's latest version plays, a new version replaces the old one,
    and its matchmaker makes the next games as games finish (play it: hegemon season run)."""
    from ..seasons.setup import Plan, SetupError, check_plan, create_ladder

    plan = Plan(
        name, rules, option, players, time, startup_time, decision_time, time_bank, clock,
        max_strikes, round_limit,
    )  # fmt: skip
    try:
        check_plan(plan, "ladder")  # before the database is made
    except SetupError as exc:
        fail(str(exc))
    store = open_store(db)
    try:
        created = create_ladder(store, plan)
    except SetupError as exc:
        fail(str(exc))
    finally:
        store.close()
    ladder, rule_set, entrants = created.season, created.rules, created.bots
    console.print(
        f"created ladder [bold]{ladder.name}[/]: "
        f"{rules_text(rule_set.preset, rule_set.options())}, {players} players, "
        f"games end after {rule_set.turn_limit} rounds, "
        f"time {created.time} ({clock} clock), {len(entrants)} entrants now"
        + (f" ({', '.join(b.label for b in entrants)})" if entrants else ""),
        highlight=False,
        soft_wrap=True,
    )
    if len(entrants) < players:
        console.print(
            f"it needs at least {players} bots to play; add them with: hegemon bot add NAME PATH",
            highlight=False,
            soft_wrap=True,
        )
    console.print(f"run it with: hegemon season run {ladder.name}", highlight=False)


def _ladder_rows(store: Store) -> list[tuple[Any, Any, int]]:
    from ..ladder import ladder_entrants

    entrants = len(ladder_entrants(store))
    return [
        (s, store.progress(s.id), entrants)  # type: ignore[arg-type]
        for s in store.seasons()
        if s.is_ladder
    ]


@ladder_app.command("list")
def list_command(db: str | None = db_option()) -> None:
    """List the ladders with their games so far."""
    from rich.table import Table

    rows = read_store(db, _ladder_rows) if store_exists(db) else []
    if not rows:
        console.print("no ladders yet; create one with: hegemon ladder create NAME")
        return
    table = Table(title="Ladders")
    for column in ("name", "rules", "players", "games", "pending", "entrants", "status"):
        table.add_column(column, style="bold" if column == "name" else None)
    for season, progress, entrants in rows:
        table.add_row(
            season.name,
            rules_text(season.preset, season.options),
            str(season.players),
            str(progress.done),
            str(progress.pending + progress.claimed),
            str(entrants),
            season.status,
        )
    console.print(table)


@ladder_app.command("status")
def status_command(
    name: str = typer.Argument(..., help="The ladder."),
    db: str | None = db_option(),
) -> None:
    """A ladder's games so far, its runners and its board (as hegemon season status)."""
    season_status(name, method="pl", db=db)
