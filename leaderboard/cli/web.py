"""``hegemon web`` and ``hegemon report``, and :func:`replay_html`, behind ``hegemon replay GAME
--html OUT.html`` and ``hegemon play --html``."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import typer

if TYPE_CHECKING:
    from ..web.limits import WebLimits

# what one client may take of the web server (leaderboard/web/limits.py; docs/security.md)
READ_TIMEOUT = typer.Option(
    10.0,
    "--read-timeout",
    min=0.1,
    help="Seconds a client may take to send a request's headers, or pause inside its body.",
)
KEEP_ALIVE = typer.Option(
    5, "--keep-alive", min=1, help="Seconds an idle connection is kept open between requests."
)
MAX_CONNECTIONS = typer.Option(
    1000,
    "--max-connections",
    min=1,
    help="Connections served at once; past them a request gets 503 (retry later).",
)
MAX_UPLOADS = typer.Option(
    4, "--max-uploads", min=1, help="Bot uploads received at once; past them an upload gets 503."
)


def web_limits(
    read_timeout: float, keep_alive: int, max_connections: int, max_uploads: int
) -> WebLimits:
    """The web server's limits from its command's options."""
    from ..web.limits import WebLimits

    return WebLimits(read_timeout, keep_alive, max_connections, max_uploads)


def replay_html(record: Path, out: Path) -> None:
    """Write the self-contained replay viewer of the record ``record`` to ``out`` (exits 1
    with a one-line message if the record cannot be read or replayed)."""
    from hegemon.referee.record import RecordError
    from hegemon.referee.viewer import replay_html as viewer

    from .records import checked_record_text

    text = checked_record_text(record)
    try:
        out.write_text(viewer(text, record.stem), encoding="utf-8")
    except (OSError, RecordError) as exc:
        typer.echo(f"hegemon: cannot write the replay of {record}: {exc}", err=True)
        raise typer.Exit(1) from None
    typer.echo(f"replay viewer written to {out}")


def web(
    db: str | None = typer.Option(None, "--db", help="database file or URL (default: the usual)"),
    host: str = typer.Option("127.0.0.1", "--host", help="address to listen on"),
    port: int = typer.Option(8000, "--port", help="port to listen on"),
    trusted_proxy: list[str] = typer.Option(
        [],
        "--trusted-proxy",
        help="address of a reverse proxy whose X-Forwarded-For/-Proto are believed (repeatable)",
    ),
    read_timeout: float = READ_TIMEOUT,
    keep_alive: int = KEEP_ALIVE,
    max_connections: int = MAX_CONNECTIONS,
    max_uploads: int = MAX_UPLOADS,
) -> None:
    """Serve the leaderboards, bots, games and replays as web pages, with a JSON API under
    /api/. Read-only for an arena without users; with users, they sign in (hegemon user)."""
    from hegemon.leaderboard.paths import db_target
    from hegemon.leaderboard.store import StoreError

    from ..web.server import serve

    typer.echo(f"hegemon web: http://{host}:{port}/ (Ctrl+C stops)")
    try:
        limits = web_limits(read_timeout, keep_alive, max_connections, max_uploads)
        serve(db_target(db), host, port, trusted_proxy, limits=limits)
    except StoreError as exc:
        typer.echo(f"hegemon: {exc}", err=True)
        raise typer.Exit(1) from None


def report(
    out: Path = typer.Argument(..., help="folder to write the pages into"),
    db: str | None = typer.Option(None, "--db", help="database file or URL (default: the usual)"),
    replays: bool = typer.Option(True, "--replays/--no-replays", help="a replay page per game"),
    private: bool = typer.Option(
        False, "--private", help="keep the bots' logs and fault details in (not for publishing)"
    ),
) -> None:
    """Write the web pages as static files (they work from disk, for publishing anywhere).
    The bots' logs and fault details are their owners' and are left out unless --private."""
    from hegemon.leaderboard.paths import db_target
    from hegemon.leaderboard.store import StoreError

    from ..web.report import write_report

    try:
        written = write_report(db_target(db), out, replays=replays, private=private)
    except StoreError as exc:
        typer.echo(f"hegemon: {exc}", err=True)
        raise typer.Exit(1) from None
    typer.echo(f"{len(written)} pages written to {out} (open {out / 'index.html'})")
