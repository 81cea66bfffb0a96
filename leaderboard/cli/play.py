"""The referee's commands: ``hegemon rules``, ``verify``, ``replay``, ``play``."""

from __future__ import annotations

from pathlib import Path
from typing import NoReturn

import typer
from rich.console import Console
from rich.table import Table

from .rules import OPTIONS, PRESET_HELP, PRESETS, RulesError, make_rules, parse_overrides

console = Console()
errors = Console(stderr=True)


def fail(message: str, code: int = 2) -> NoReturn:
    """Print one clear line to stderr and exit non-zero."""
    errors.print(f"[bold red]error:[/] {message}", highlight=False, soft_wrap=True)
    raise typer.Exit(code)


def rules_command(
    preset: str | None = typer.Argument(None, help="A preset to show; omit to list them all."),
    option: list[str] = typer.Option(
        [], "--set", help="Override an option: NAME=VALUE (repeatable)."
    ),
) -> None:
    """List the rule-set presets, or show one preset's options and values."""
    if preset is None:
        table = Table(title="Rule sets", show_lines=False)
        table.add_column("preset", style="bold")
        table.add_column("description")
        for name in PRESETS:
            table.add_row(name, PRESET_HELP.get(name, ""))
        console.print(table)
        console.print(
            "Show one: [bold]hegemon rules PRESET[/]; override options with --set NAME=VALUE."
        )
        return
    try:
        rules = make_rules(preset, parse_overrides(option))
    except RulesError as exc:
        fail(str(exc))
    changed = rules.overridden()
    table = Table(title=f"{preset}: {PRESET_HELP.get(preset, '')}")
    table.add_column("option", style="bold")
    table.add_column("value")
    table.add_column("allowed")
    table.add_column("meaning")
    for name, value in rules.options().items():
        shown = f"[yellow]{value}[/] (set)" if name in changed else str(value)
        table.add_row(name, shown, OPTIONS[name].allowed(), OPTIONS[name].help)
    console.print(table)


def verify_command(record: Path = typer.Argument(..., help="A game record (.jsonl).")) -> None:
    """Replay a game record through the engine; report the first difference, or that it matches."""
    from .record import replay

    try:
        text = record.read_text(encoding="utf-8")
    except OSError as exc:
        fail(f"cannot read {record}: {exc.strerror or exc}")
    verdict = replay(text)
    if not verdict.ok:
        fail(f"{record}: DIFFERS: {verdict.message}", code=1)
    console.print(f"{record}: OK, {verdict.message}")


def register(app: typer.Typer) -> None:
    """Add the referee's commands to the ``hegemon`` app."""
    app.command("rules")(rules_command)
    app.command("play")(play_command)
    app.command("replay")(replay_command)
    app.command("verify")(verify_command)


def _seat_names(names: list[str]) -> list[str]:
    """Seat labels, numbered where the same bot plays more than one seat."""
    seen: dict[str, int] = {}
    labels = []
    for name in names:
        seen[name] = seen.get(name, 0) + 1
        labels.append(name if names.count(name) == 1 else f"{name}#{seen[name]}")
    return labels


def play_command(
    bot: list[str] = typer.Option(
        ...,
        "--bot",
        help="A seat: sample bot name, file, folder, "
        '"command line" or host:port. Repeat for each seat.',
    ),
    rules: str = typer.Option("classic", "--rules", help="Rule-set preset (see hegemon rules)."),
    option: list[str] = typer.Option([], "--set", help="Override a rule option: NAME=VALUE."),
    seed: int | None = typer.Option(
        None, "--seed", help="Game seed (default: a fresh random one)."
    ),
    record: Path | None = typer.Option(None, "--record", help="Where to write the game record."),
    decision_time: float = typer.Option(2.0, "--decision-time", help="Seconds per decision."),
    time_bank: float = typer.Option(
        60.0, "--time-bank", help="Seconds of thinking per seat per game."
    ),
    startup_time: float = typer.Option(10.0, "--startup-time", help="Seconds for a bot to start."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No live progress."),
) -> None:
    """Play one game between bots, with live progress; print places, faults and the record path."""
    import trio

    from .game import STARTING_ARMIES
    from .runner.bots import BotSpecError, resolve
    from .runner.link import TimeControl
    from .runner.progress import LiveBoard
    from .runner.session import new_seed, play_one

    try:
        rule_set = make_rules(rules, parse_overrides(option))
    except RulesError as exc:
        fail(str(exc))
    if len(bot) not in STARTING_ARMIES:
        fail(f"rule set '{rules}' is for 3 to 6 players; got {len(bot)} --bot")
    try:
        commands = [resolve(spec) for spec in bot]
    except BotSpecError as exc:
        fail(str(exc))
    if min(decision_time, time_bank, startup_time) <= 0:
        fail("--decision-time, --time-bank and --startup-time must be positive")
    names = _seat_names([c.name for c in commands])
    game_seed = new_seed() if seed is None else seed
    record_path = record or Path("records") / f"game-{game_seed}.jsonl"
    time_control = TimeControl(startup=startup_time, decision=decision_time, bank=time_bank)
    from .record import seed_hash

    console.print(
        f"[bold]{rule_set.preset}[/] · {len(names)} seats · seed hash {seed_hash(game_seed)[:16]}…"
    )
    live = LiveBoard(names, console, enabled=not quiet)
    with live:
        result = trio.run(
            play_one,
            commands,
            rule_set,
            game_seed,
            time_control,
            record_path,
            f"game-{game_seed}",
            live.update,
            names,
        )
    live.final(result, record_path)
    console.print(f"seed {game_seed}")


def replay_command(
    record: Path = typer.Argument(..., help="A game record (.jsonl)."),
    delay: float = typer.Option(0.0, "--delay", help="Seconds to pause after each turn."),
) -> None:
    """Show a recorded game turn by turn in the terminal."""
    from .record import RecordError
    from .runner.progress import show_replay

    try:
        text = record.read_text(encoding="utf-8")
    except OSError as exc:
        fail(f"cannot read {record}: {exc.strerror or exc}")
    try:
        show_replay(text, console, delay)
    except RecordError as exc:
        fail(f"{record}: {exc}")
