"""The referee's commands: ``hegemon rules``, ``verify``, ``replay``, ``play``."""

from __future__ import annotations

from pathlib import Path
from typing import NoReturn, Optional

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
    preset: Optional[str] = typer.Argument(None, help="A preset to show; omit to list them all."),
    option: list[str] = typer.Option([], "--set", help="Override an option: NAME=VALUE (repeatable)."),
) -> None:
    """List the rule-set presets, or show one preset's options and values."""
    if preset is None:
        table = Table(title="Rule sets", show_lines=False)
        table.add_column("preset", style="bold")
        table.add_column("description")
        for name in PRESETS:
            table.add_row(name, PRESET_HELP.get(name, ""))
        console.print(table)
        console.print("Show one: [bold]hegemon rules PRESET[/]; override options with --set NAME=VALUE.")
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
    app.command("verify")(verify_command)
