"""``hegemon arena``: the web server with accounts, runners and the ladders' matchmaker in one
command (:mod:`hegemon.leaderboard.arena`)."""

from __future__ import annotations

import threading

import typer

from .common import console, fail, sandbox_ready
from .web import KEEP_ALIVE, MAX_CONNECTIONS, MAX_UPLOADS, READ_TIMEOUT, web_limits


def arena_command(
    workers: int = typer.Option(
        2, "--workers", help="Runner processes (each plays a check game and a match at once)."
    ),
    db: str | None = typer.Option(
        None,
        "--database",
        "--db",
        help="The arena's database: a SQLite file or a postgresql:// URL "
        "(default: $HEGEMON_HOME/arena.db).",
    ),
    host: str = typer.Option("127.0.0.1", "--host", help="Address the web server listens on."),
    port: int = typer.Option(8000, "--port", help="Port the web server listens on."),
    trusted_proxy: list[str] = typer.Option(
        [],
        "--trusted-proxy",
        help="Address of a reverse proxy whose X-Forwarded-For/-Proto headers are believed "
        "(repeatable; default: none, every forwarded header is ignored).",
    ),
    web: bool = typer.Option(
        True, "--web/--no-web", help="--no-web: runners only (more runners on another machine)."
    ),
    read_timeout: float = READ_TIMEOUT,
    keep_alive: int = KEEP_ALIVE,
    max_connections: int = MAX_CONNECTIONS,
    max_uploads: int = MAX_UPLOADS,
) -> None:
    """Run an arena: the web site (accounts, submissions, boards), WORKERS runners playing
    check games and the seasons' and ladders' games, and the ladders' matchmaker. Ctrl-C
    stops it all; runners on other machines join with: hegemon arena --no-web --database URL."""
    from ..arena.stopping import stop_on_signals

    # first: a signal during the (slow) start-up below is kept, and stops it at the next step
    stop = stop_on_signals()
    from ..arena.supervisor import run_arena
    from ..paths import db_target
    from ..store import Store, StoreError

    if workers < 0 or (workers == 0 and not web):
        fail("--workers must be at least 1 (or 0 with the web server only)")
    if workers:
        sandbox_ready()
    target = db_target(db)
    try:
        Store(target).close()  # created and migrated before any runner opens it
    except StoreError as exc:
        fail(str(exc), code=1)

    def say(line: str) -> None:
        console.print(line, highlight=False, soft_wrap=True)

    def serve_web(stop: threading.Event) -> None:
        from ..web.server import serve

        limits = web_limits(read_timeout, keep_alive, max_connections, max_uploads)
        serve(target, host, port, trusted_proxy, stop, limits)

    say(
        f"hegemon arena: {workers} runner(s) over {target}"
        + (f"; web on http://{host}:{port}/" if web else "")
        + " (Ctrl+C stops)"
    )
    try:
        run_arena(target, workers, serve_web if web else None, say, stop)
    except StoreError as exc:
        fail(str(exc), code=1)
