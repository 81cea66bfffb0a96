"""``hegemon bot add|list|check|remove|disable|enable``: the registered bots and their
versions' states."""

from __future__ import annotations

from pathlib import Path

import typer

from hegemon.sample_bots.names import NAMES as SAMPLE_BOTS

from ..seasons.setup import suggest
from .common import (
    bot_spec_problem,
    console,
    db_option,
    errors,
    fail,
    open_store,
    read_store,
    registered_names,
    store_exists,
)

BOT_FORMS = (
    "The bot, in any form play --bot takes: a sample bot's name "
    f"({', '.join(SAMPLE_BOTS)}, node), a .py or .js file, a folder, "
    '"a command line" in quotes.'
)

bot_app = typer.Typer(
    name="bot",
    help="Register, list, check and remove bots.",
    no_args_is_help=True,
    add_completion=False,
)


# ---------------------------------------------------------------------------------- commands
@bot_app.command("add")
def add_command(
    name: str = typer.Argument(..., help="The bot's name on the leaderboard."),
    path: str = typer.Argument(..., help=BOT_FORMS),
    command: str | None = typer.Option(
        None,
        "--command",
        help="The command that runs the bot "
        'in its folder, e.g. "ruby bot.rb" (default: from '
        "the file type).",
    ),
    db: str | None = db_option(),
) -> None:
    """Register a bot (a new version if NAME exists): copy its files, then check it plays a
    short game against sample bots without a fault."""
    from ..registry import RegistryError, add_bot, find_source, validate_name
    from ..store import StoreError

    try:
        validate_name(name)
        find_source(path, command)  # fail fast, before opening the database
    except RegistryError as exc:
        fail(_spec_problem(path, command, str(exc)))
    store = open_store(db)
    try:
        with console.status(f"checking {name} in a short game against two random bots…"):
            result = add_bot(store, name, path, command)
    except (RegistryError, StoreError) as exc:
        check = getattr(exc, "check", None)
        if check is not None:
            show_log_tail(check.log)
        fail(str(exc), code=1)
    finally:
        store.close()
    bot = result.bot
    if not result.new:
        console.print(
            f"already registered as {bot.name} v{bot.version} "
            f"(hash {bot.content_hash[:12]}); nothing changed",
            highlight=False,
            soft_wrap=True,
        )
        return
    check = f"; check {result.check.summary()}" if result.check else ""
    console.print(
        f"registered [bold]{bot.name} v{bot.version}[/] ({bot.language}, hash "
        f"{bot.content_hash[:12]}){check}",
        highlight=False,
        soft_wrap=True,
    )


@bot_app.command("list")
def list_command(db: str | None = db_option()) -> None:
    """List the registered bots and their versions."""
    from rich.table import Table

    if not store_exists(db):
        console.print("no bots registered yet; add one with: hegemon bot add NAME PATH")
        return
    bots = read_store(db, lambda store: store.bots())
    if not bots:
        console.print("no bots registered yet; add one with: hegemon bot add NAME PATH")
        return
    table = Table(title="Bots")
    for column in ("name", "version", "state", "language", "hash", "added", "from"):
        # a name is typed (season create --bots): never cut; the source may fold
        table.add_column(
            column,
            style="bold" if column == "name" else None,
            no_wrap=column in ("name", "version", "hash"),
            overflow="fold" if column == "from" else "ellipsis",
        )
    for bot in bots:
        table.add_row(
            bot.name,
            f"v{bot.version}",
            bot.state,
            bot.language,
            bot.content_hash[:12],
            bot.added_at.strftime("%Y-%m-%d %H:%M"),
            bot.source,
        )
    console.print(table)


@bot_app.command("check")
def check_command(
    path: str = typer.Argument(..., help=BOT_FORMS),
    command: str | None = typer.Option(
        None,
        "--command",
        help="The command that runs the bot in its folder (default: from the file type).",
    ),
    record: Path | None = typer.Option(
        None, "--record", help="Write the check game's record here."
    ),
) -> None:
    """Play the check game that `bot add` plays (against two sample random bots, classic,
    10 rounds), from a copy of the bot's files; register nothing."""
    from hegemon.leaderboard.botspec import REMOTE, resolve

    from ..registry import RegistryError, check_command, check_source, find_source

    try:
        status = console.status("playing a short game against two random bots…")
        if command is None and REMOTE.match(path.strip()) and not Path(path).exists():
            with status:  # a bot someone else started: checked where it runs
                result = check_command(resolve(path))
        else:
            try:
                source = find_source(path, command)
            except RegistryError as exc:
                fail(_spec_problem(path, command, str(exc)))
            with status:
                result = check_source(source, source.name or "candidate")
    except RegistryError as exc:
        fail(str(exc))
    if record is not None:
        try:
            record.parent.mkdir(parents=True, exist_ok=True)
            record.write_text(result.record, encoding="utf-8")
        except OSError as exc:
            fail(f"cannot write {record}: {exc.strerror or exc}")
    if not result.ok:
        show_log_tail(result.log)
        fail(f"check failed: {result.reason}", code=1)
    console.print(f"check {result.summary()}", highlight=False, soft_wrap=True)


def show_log_tail(log: str, lines: int = 10) -> None:
    """The last lines a refused bot wrote, on stderr."""
    from hegemon.referee.runner.botlog import tail

    last = tail(log, lines)
    if last:
        errors.print(f"the last {len(last)} lines of the bot's log:", highlight=False)
        for line in last:
            errors.print(f"  | {line}", highlight=False, markup=False, soft_wrap=True)


@bot_app.command("remove")
def remove_command(
    name: str = typer.Argument(..., help="The bot's name."),
    version: int | None = typer.Option(
        None, "--version", help="Only this version (default: every version)."
    ),
    db: str | None = db_option(),
) -> None:
    """Remove a bot (or one version). A bot that plays in a season cannot be removed."""
    from ..registry import RegistryError, remove_bots
    from ..store import StoreError

    if not store_exists(db):
        fail(f"unknown bot '{name}'")
    store = open_store(db, create=False)
    try:
        removed = remove_bots(store, name, version)
    except RegistryError as exc:
        hint = suggest(name, registered_names(store)) if str(exc).startswith("unknown") else ""
        fail(str(exc) + hint)
    except StoreError as exc:
        fail(str(exc))
    finally:
        store.close()
    console.print(
        "removed " + ", ".join(f"{b.name} v{b.version}" for b in removed),
        highlight=False,
        soft_wrap=True,
    )


@bot_app.command("disable")
def disable_command(
    ref: str = typer.Argument(..., help="The version: NAME@vN (NAME: its latest)."),
    reason: str = typer.Option(
        "", "--reason", help="Shown to its owner (without it: that an admin disabled it)."
    ),
    db: str | None = db_option(),
) -> None:
    """Disable a bot version: it no longer plays on the ladders (its games stay)."""
    _set_state(ref, "disabled", reason, db)


@bot_app.command("enable")
def enable_command(
    ref: str = typer.Argument(..., help="The version: NAME@vN (NAME: its latest)."),
    db: str | None = db_option(),
) -> None:
    """Make a version active again (the other active version of its name retires)."""
    _set_state(ref, "active", "", db)


def _set_state(ref: str, state: str, reason: str, db: str | None) -> None:
    from ..registry import RegistryError, set_bot_state

    if not store_exists(db):
        fail(f"unknown bot '{ref}'")
    store = open_store(db, create=False)
    try:
        changed = set_bot_state(store, ref, state, reason)
    except RegistryError as exc:
        fail(str(exc))
    finally:
        store.close()
    console.print(f"{changed.label}: {changed.state}", highlight=False, soft_wrap=True)


def _spec_problem(path: str, command: str | None, message: str) -> str:
    """``message`` with a "did you mean" when ``path`` may be a mistyped sample bot's name
    (nothing by that name exists here and no ``--command`` runs it)."""
    if command is not None or Path(path).exists():
        return message
    return bot_spec_problem(path.strip(), message)
