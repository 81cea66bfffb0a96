"""``hegemon event create|show|list|run``: final events (:mod:`hegemon.leaderboard.events`).
An arena's runners play them beside its ladders (``hegemon arena``); ``event run`` plays one
here, round after round, until it ends."""

from __future__ import annotations

import json
from functools import partial
from typing import Any

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
    set_option,
    startup_time_option,
    store_exists,
    time_bank_option,
    time_option,
)


def plural(count: int, word: str) -> str:
    """``1 game``, ``2 games``."""
    return f"{count} {word}{'' if count == 1 else 's'}"


event_app = typer.Typer(
    name="event",
    help="Create, run and follow final events: the top of a ladder plays a final.",
    no_args_is_help=True,
    add_completion=False,
)


@event_app.command("create")
def create_command(
    name: str = typer.Argument(..., help="The event's name (unique among seasons)."),
    format: str = typer.Option(
        "knockout", "--format", help="round-robin (every seating), swiss, or knockout."
    ),
    ladder: str | None = typer.Option(None, "--ladder", help="Take the entrants from this ladder."),
    top: int | None = typer.Option(None, "--top", help="How many of the ladder's board enter."),
    bots: str = typer.Option("", "--bots", help="Or the entrants: NAME@vN, … best first."),
    advance: int = typer.Option(1, "--advance", help="A knockout: how many of a table go on."),
    rounds: int | None = typer.Option(None, "--rounds", help="A Swiss: rounds (default: enough)."),
    rotate: bool = typer.Option(
        True, "--rotations/--no-rotations", help="Each table plays every rotation of its seats."
    ),
    seed: int | None = typer.Option(None, "--seed", help="The seed (default: secret random)."),
    rules: str = rules_option(),
    option: list[str] = set_option(),
    players: int = typer.Option(4, "--players", help="Seats per table."),
    round_limit: int | None = typer.Option(
        None,
        "--round-limit",
        help=f"Rounds after which a game ends (default: the rules', else {DEFAULT_ROUND_LIMIT}).",
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
    """Create a final event: its entrants' versions are frozen now, its seed's SHA-256 is
    published now and the seed itself when it ends (play it: hegemon arena, or event run)."""
    from ..events.setup import EventPlan, create_event
    from ..seasons.setup import SetupError

    plan = EventPlan(
        name, rules, option, players, time, startup_time, decision_time, time_bank, clock,
        max_strikes, round_limit, format=format, ladder=ladder, top=top, bots=bots,
        advance=advance, rounds=rounds, rotate=rotate, seed=seed,
    )  # fmt: skip
    store = open_store(db)
    try:
        created = create_event(store, plan)
    except SetupError as exc:
        fail(str(exc))
    finally:
        store.close()
    event = created.event
    console.print(
        f"created event [bold]{name}[/]: {event.format}, {len(created.entrants)} entrants "
        f"({event.source}: {', '.join(b.label for b in created.entrants)}), tables of "
        f"{players}, {event.rounds} round{'s' if event.rounds > 1 else ''}, "
        f"{created.season.games} games in round 1",
        highlight=False,
        soft_wrap=True,
    )
    console.print(f"seed sha256: {event.seed_hash}", highlight=False, soft_wrap=True)
    console.print(f"play it with: hegemon event run {name}", highlight=False)


def _view(db: str | None, name: str) -> dict[str, Any]:
    from ..events.view import event_view

    found = read_store(db, lambda store: event_view(store, name)) if store_exists(db) else None
    if found is None:
        fail(f"no event named '{name}'")
    return found


@event_app.command("show")
def show_command(
    name: str = typer.Argument(..., help="The event."),
    as_json: bool = typer.Option(False, "--json", help="Print it as JSON."),
    db: str | None = db_option(),
) -> None:
    """An event's rounds, tables, standings, seed hash (and seed once it ended)."""
    view = _view(db, name)
    if as_json:
        print(json.dumps(view, indent=2))
        return
    console.print(
        f"[bold]{view['name']}[/]: {view['format']}, {view['status']}, {view['source']}",
        highlight=False,
        soft_wrap=True,
    )
    console.print(f"seed sha256 {view['seed_hash']} · seed {view['seed']}", highlight=False)
    for r in view["rounds"]:
        console.print(f"round {r['round']}:", highlight=False)
        for t in r["tables"]:
            order = " > ".join(t["order"]) if t["order"] else "playing"
            going = f" (on: {', '.join(t['advancing'])})" if t["advancing"] else ""
            console.print(
                f"  table {t['table']}: {', '.join(t['bots'])} — {order}{going}",
                highlight=False,
                soft_wrap=True,
            )
    title = "final standings" if view["final"] else "standings so far"
    console.print(f"{title}:", highlight=False)
    for row in view["standings"]:
        console.print(
            f"  {row['place']:>2}. {row['bot']}  {plural(row['points'], 'point')} in "
            f"{plural(row['games'], 'game')}",
            highlight=False,
        )
    if view["winner"]:
        console.print(f"winner: [bold]{view['winner']}[/]", highlight=False)


@event_app.command("list")
def list_command(db: str | None = db_option()) -> None:
    """The events: format, status, winner."""
    from ..events.view import event_names

    rows = read_store(db, event_names) if store_exists(db) else []
    if not rows:
        console.print("no events yet; create one with: hegemon event create NAME")
    for row in rows:
        won = f", won by {row['winner']}" if row["winner"] else ""
        console.print(
            f"{row['name']}: {row['format']}, {row['status']}{won}", highlight=False, soft_wrap=True
        )


@event_app.command("run")
def run_command(
    name: str = typer.Argument(..., help="The event to play."),
    concurrency: int = typer.Option(1, "--concurrency", "-j", help="Games played at once."),
    db: str | None = db_option(),
) -> None:
    """Play an event's games here, round after round, until it ends (beside others running
    it, or an arena's runners)."""
    import trio

    from ..events.progress import advance_events, load
    from ..seasons.runner import run_season
    from ..store import FINISHED
    from .common import sandbox_ready

    if concurrency < 1:
        fail(f"--concurrency must be at least 1; got {concurrency}")
    if not store_exists(db):
        fail(f"no event named '{name}'")
    store = open_store(db, create=False)
    try:
        state = load(store, name)
        if state is None:
            fail(f"no event named '{name}'")
        sandbox_ready()
        while state is not None and state.season.status != FINISHED:
            season = state.season
            trio.run(partial(run_season, store, season, concurrency=concurrency))
            for step in advance_events(store):
                if step.season.name == name:
                    made = f"round {step.round} made: {plural(step.tables, 'table')}"
                    said = "ended" if step.standings is not None else made
                    console.print(f"{name}: {said}", highlight=False)
            state = load(store, name)
    finally:
        store.close()
    show_command(name, False, db)
