"""``hegemon db``: the arena database's upkeep (moving older games' local records into it)."""

from __future__ import annotations

import typer

from .common import db_option, fail, open_store

db_app = typer.Typer(
    name="db",
    help="The arena database's upkeep: move older games' local records and logs into it.",
    no_args_is_help=True,
)


@db_app.callback()
def db_group() -> None:
    """The arena database's upkeep: move older games' local records and logs into it."""


@db_app.command("import-records")
def import_records_command(db: str | None = db_option()) -> None:
    """Store in the database the records and logs of games played before they were kept there,
    read from this machine's local copies. Run it on each machine that ran games; safe to run
    again (a game stored already is skipped) and to interrupt (what was imported stays). A
    missing or unreadable record is reported in one line and skipped."""
    from ..seasons.imports import import_records
    from ..store import StoreError

    store = open_store(db, create=False)
    try:
        report = import_records(store, say=lambda line: typer.echo(line, err=True))
    except StoreError as exc:
        fail(f"{exc} (what was imported is kept: run it again to carry on)")
    finally:
        store.close()
    skipped = len(report.problems)
    typer.echo(
        f"imported {report.records} record(s) and {report.logs} log(s)"
        + (f"; {skipped} problem(s) above" if skipped else "")
    )
