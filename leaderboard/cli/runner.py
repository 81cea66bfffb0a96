"""``hegemon runner --arena URL --token T`` (a runner on another machine, over HTTP, with no
database) and ``hegemon runner-token create|list|revoke`` (the organiser's runner tokens, run
where the database is)."""

from __future__ import annotations

import typer

from .common import console, db_option, fail, open_store, sandbox_ready

token_app = typer.Typer(
    name="runner-token",
    help="Make, list and revoke the tokens runners on other machines join with.",
    no_args_is_help=True,
    add_completion=False,
)


def runner_command(
    arena: str = typer.Option(..., "--arena", help="The arena's web address (http[s]://…)."),
    token: str = typer.Option(
        ...,
        "--token",
        envvar="HEGEMON_RUNNER_TOKEN",
        help="A runner token (hegemon runner-token create NAME); better given as "
        "$HEGEMON_RUNNER_TOKEN, out of the process list.",
        show_default=False,
    ),
    worker: str | None = typer.Option(
        None, "--worker", help="This runner's id in the arena (default: host:pid:random)."
    ),
) -> None:
    """Play an arena's matches over HTTP, with a runner token and no database: claim a
    match, fetch its bots, play it in this machine's sandbox, post the record. Ctrl-C stops."""
    import signal

    import trio

    from ..arena.http_runner.client import ArenaClient, Unreachable
    from ..arena.http_runner.loop import HttpRunner, TokenRefused
    from ..arena.http_runner.protocol import WORKER
    from ..seasons.liveness import default_worker_id

    if not arena.startswith(("http://", "https://")):
        fail(f"--arena {arena!r}: give the arena's address, like https://arena.example.org")
    name = worker or default_worker_id()
    if not WORKER.match(name):
        fail("--worker: letters, digits, '.', '_', ':' or '-', at most 100")
    sandbox_ready()

    def say(line: str) -> None:
        console.print(f"runner {name}: {line}", highlight=False, soft_wrap=True)

    async def main() -> str:
        """Run until stopped (""), or why the runner cannot go on."""
        runner = HttpRunner(ArenaClient(arena, token, say), name, say)
        problem = ""
        with trio.open_signal_receiver(signal.SIGINT, signal.SIGTERM) as signals:
            async with trio.open_nursery() as nursery:

                async def stop() -> None:
                    async for _ in signals:
                        say("stopping (the game in play is given back)")
                        nursery.cancel_scope.cancel()
                        return

                nursery.start_soon(stop)
                try:
                    await runner.run()
                except TokenRefused as exc:
                    problem = f"the arena refused the runner token: {exc}"
                except Unreachable as exc:
                    problem = str(exc)
                nursery.cancel_scope.cancel()  # the signals' watcher too
        return problem

    from hegemon.referee.runner import steady

    steady.settle()  # start-up is over: its objects out of the collector's sight
    say(f"started, playing for {arena}")
    problem = trio.run(main)
    if problem:
        fail(problem, code=1)


@token_app.command("create")
def create_command(
    name: str = typer.Argument(..., help="What to call it (its runners are NAME/… in claims)."),
    db: str | None = db_option(),
) -> None:
    """Make a runner token; it is printed once (only its hash is kept)."""
    from ..store import StoreError
    from ..store.runner_tokens import create_runner_token

    with open_store(db) as store:
        try:
            value = create_runner_token(store, name)
        except StoreError as exc:
            fail(str(exc))
    typer.echo(f"runner token {name}, shown only this once:")
    typer.echo(value)


@token_app.command("list")
def list_command(db: str | None = db_option()) -> None:
    """The runner tokens with their last use (never their values)."""
    from rich.table import Table

    from ..store.runner_tokens import runner_tokens

    with open_store(db, create=False) as store:
        tokens = runner_tokens(store)
    table = Table(title="Runner tokens")
    for column in ("name", "created", "last used", "state"):
        table.add_column(column)
    for t in tokens:
        used = f"{t.last_used_at:%Y-%m-%d %H:%M}" if t.last_used_at else "never"
        state = "revoked" if t.revoked_at else "active"
        table.add_row(t.name, f"{t.created_at:%Y-%m-%d %H:%M}", used, state)
    console.print(table)


@token_app.command("revoke")
def revoke_command(
    name: str = typer.Argument(..., help="The token's name."), db: str | None = db_option()
) -> None:
    """Revoke a runner token: its runners are refused at their next request."""
    from ..store.runner_tokens import revoke_runner_token

    with open_store(db, create=False) as store:
        if not revoke_runner_token(store, name):
            fail(f"no active runner token named {name!r}")
    typer.echo(f"runner token {name} revoked")
