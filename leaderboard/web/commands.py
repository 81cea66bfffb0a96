"""The command-line side of the web views: ``hegemon web``, ``hegemon report`` and the replay
viewer file. :func:`register` adds the commands to hegemon's typer app; :func:`replay_html`
is the function behind ``hegemon replay GAME --html OUT.html`` (and ``play --html``)."""

from __future__ import annotations

from pathlib import Path

import typer


def replay_html(record: Path, out: Path) -> None:
    """Write the self-contained replay viewer of the record ``record`` to ``out`` (exits 1
    with a one-line message if the record cannot be read or replayed)."""
    from hegemon.referee.record import RecordError

    from .replay import write_replay_html

    try:
        write_replay_html(record, out)
    except (OSError, RecordError) as exc:
        typer.echo(f"hegemon: cannot write the replay of {record}: {exc}", err=True)
        raise typer.Exit(1) from None
    typer.echo(f"replay viewer written to {out}")


def web(
    db: str | None = typer.Option(None, "--db", help="database file or URL (default: the usual)"),
    host: str = typer.Option("127.0.0.1", "--host", help="address to listen on"),
    port: int = typer.Option(8000, "--port", help="port to listen on"),
) -> None:
    """Serve the leaderboards, bots, games and replays as web pages (read-only), with a JSON
    API under /api/."""
    from hegemon.leaderboard.paths import db_target
    from hegemon.leaderboard.store import StoreError

    from .server import serve

    typer.echo(f"hegemon web: http://{host}:{port}/ (Ctrl+C stops)")
    try:
        serve(db_target(db), host, port)
    except StoreError as exc:
        typer.echo(f"hegemon: {exc}", err=True)
        raise typer.Exit(1) from None


def report(
    out: Path = typer.Argument(..., help="folder to write the pages into"),
    db: str | None = typer.Option(None, "--db", help="database file or URL (default: the usual)"),
    replays: bool = typer.Option(True, "--replays/--no-replays", help="a replay page per game"),
) -> None:
    """Write the web pages as static files (they work from disk, for publishing anywhere)."""
    from hegemon.leaderboard.paths import db_target
    from hegemon.leaderboard.store import StoreError

    from .report import write_report

    try:
        written = write_report(db_target(db), out, replays=replays)
    except StoreError as exc:
        typer.echo(f"hegemon: {exc}", err=True)
        raise typer.Exit(1) from None
    typer.echo(f"{len(written)} pages written to {out} (open {out / 'index.html'})")


def replay_command(
    record: Path = typer.Argument(..., help="a game record (.jsonl)"),
    html: Path = typer.Option(..., "--html", help="write the replay viewer to this file"),
) -> None:
    """Write a game's replay viewer: one HTML file that works from disk."""
    replay_html(record, html)


def register(app: typer.Typer) -> None:
    """Add ``web`` and ``report`` to hegemon's command line (``replay --html`` is wired into
    the existing ``replay`` command by calling :func:`replay_html`)."""
    app.command("web")(web)
    app.command("report")(report)
