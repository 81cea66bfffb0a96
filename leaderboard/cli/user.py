"""``hegemon user add|invite|list|disable|enable|token|tokens|revoke`` and ``hegemon game
void``: the organiser's accounts and admin actions, run where the database is (no sign-in:
whoever can open the database is the organiser)."""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import TYPE_CHECKING

import typer

from .common import console, db_option, fail, open_store

if TYPE_CHECKING:
    from ..store import Store

user_app = typer.Typer(
    name="user",
    help="Add, invite, list and disable users; their API tokens.",
    no_args_is_help=True,
    add_completion=False,
)
game_app = typer.Typer(
    name="game",
    help="Admin actions on played games (void one).",
    no_args_is_help=True,
    add_completion=False,
)


@game_app.callback()
def game_group() -> None:
    """Admin actions on played games (void one)."""  # a group even with one command


_DURATION = re.compile(r"^(\d+)([mhdw])$")
_UNITS = {"m": "minutes", "h": "hours", "d": "days", "w": "weeks"}


def parse_lifetime(text: str) -> timedelta:
    """``30m``, ``12h``, ``7d`` or ``2w`` as a duration (an error line for anything else).

    >>> parse_lifetime("7d"), parse_lifetime("12h")
    (datetime.timedelta(days=7), datetime.timedelta(seconds=43200))
    """
    found = _DURATION.match(text.strip())
    if not found or int(found.group(1)) == 0:
        fail(f"--expires {text!r}: give a number and a unit, like 30m, 12h, 7d or 2w")
    return timedelta(**{_UNITS[found.group(2)]: int(found.group(1))})


@contextmanager
def _accounts(db: str | None, create: bool = False) -> Iterator[Store]:
    """The database, its account errors failing with one line."""
    from ..accounts import AccountError
    from ..store import StoreError

    store = open_store(db, create=create)
    try:
        yield store
    except (AccountError, StoreError) as exc:
        fail(str(exc))
    finally:
        store.close()


def _user_id(store: Store, name: str) -> int:
    """The id of the user ``name`` (an error line if there is none)."""
    from ..accounts.users import get_user

    user = get_user(store, name)
    assert user.id is not None
    return user.id


def _read_password(from_stdin: bool) -> str:
    if from_stdin:
        return sys.stdin.readline().rstrip("\r\n")
    return str(typer.prompt("password", hide_input=True, confirmation_prompt=True))


# ---------------------------------------------------------------------------------- users
@user_app.command("add")
def add_command(
    name: str = typer.Argument(..., help="The user's name (they sign in with it)."),
    admin: bool = typer.Option(False, "--admin", help="An admin (an organiser), not a member."),
    password_stdin: bool = typer.Option(
        False, "--password-stdin", help="Read the password from the first line of stdin."
    ),
    db: str | None = db_option(),
) -> None:
    """Add a user; the password is asked twice (or read from stdin)."""
    from ..accounts import AccountError
    from ..accounts.passwords import check_new_password
    from ..accounts.users import add_user, check_name

    try:
        check_name(name)
        password = _read_password(password_stdin)
        check_new_password(password)
    except AccountError as exc:
        fail(str(exc))
    with _accounts(db, create=True) as store:
        user = add_user(store, name, password, "admin" if admin else "member")
    console.print(f"user {user.name} added ({user.role})", highlight=False)


@user_app.command("invite")
def invite_command(
    admin: bool = typer.Option(False, "--admin", help="The invited user will be an admin."),
    expires: str = typer.Option("7d", "--expires", help="How long it lasts: 30m, 12h, 7d, 2w."),
    url: str | None = typer.Option(
        None, "--url", help="The site's address, to print the sign-up link whole."
    ),
    db: str | None = db_option(),
) -> None:
    """Make a single-use invitation; its code is printed once (only its hash is kept)."""
    from ..accounts.invitations import create_invitation

    lifetime = parse_lifetime(expires)
    with _accounts(db, create=True) as store:
        code = create_invitation(store, "admin" if admin else "member", lifetime)
    link = f"{(url or '').rstrip('/')}/signup?code={code}"
    typer.echo(f"invitation ({'admin' if admin else 'member'}, expires in {expires}): {link}")
    typer.echo("It is shown only this once; it makes one account.")


@user_app.command("list")
def list_command(db: str | None = db_option()) -> None:
    """The users, their role and whether they are disabled."""
    from rich.table import Table

    from ..accounts.users import list_users

    with _accounts(db) as store:
        users = list_users(store)
    if not users:
        typer.echo("no users (add one with: hegemon user add NAME --admin)")
        return
    table = Table(title="Users")
    for column in ("name", "role", "state", "created"):
        table.add_column(column)
    for u in users:
        state = "disabled" if u.disabled else "active"
        table.add_row(u.name, u.role, state, f"{u.created_at:%Y-%m-%d %H:%M}")
    console.print(table)


def _set_disabled(name: str, db: str | None, disabled: bool) -> None:
    from ..accounts.users import set_disabled

    with _accounts(db) as store:
        set_disabled(store, name, disabled)
    typer.echo(f"user {name} {'disabled' if disabled else 'enabled'}")


@user_app.command("disable")
def disable_command(
    name: str = typer.Argument(..., help="The user."), db: str | None = db_option()
) -> None:
    """Disable a user: they cannot sign in, their sessions and tokens stop working at once."""
    _set_disabled(name, db, True)


@user_app.command("enable")
def enable_command(
    name: str = typer.Argument(..., help="The user."), db: str | None = db_option()
) -> None:
    """Enable a disabled user again."""
    _set_disabled(name, db, False)


# ---------------------------------------------------------------------------------- tokens
@user_app.command("token")
def token_command(
    name: str = typer.Argument(..., help="The user the token acts as."),
    label: str = typer.Option("cli", "--name", help="What to call the token."),
    db: str | None = db_option(),
) -> None:
    """Make an API token for a user; it is printed once (only its hash is kept)."""
    from ..accounts.tokens import create_token

    with _accounts(db) as store:
        row, value = create_token(store, _user_id(store, name), label)
    typer.echo(f"token {row.id} ({row.name}) for {name}, shown only this once:")
    typer.echo(value)


@user_app.command("tokens")
def tokens_command(
    name: str = typer.Argument(..., help="The user."), db: str | None = db_option()
) -> None:
    """A user's API tokens with their last use (never their values)."""
    from rich.table import Table

    from ..accounts.tokens import list_tokens

    with _accounts(db) as store:
        tokens = list_tokens(store, _user_id(store, name))
    table = Table(title=f"API tokens of {name}")
    for column in ("id", "name", "created", "last used", "state"):
        table.add_column(column)
    for t in tokens:
        used = f"{t.last_used_at:%Y-%m-%d %H:%M}" if t.last_used_at else "never"
        state = "revoked" if t.revoked_at else "active"
        table.add_row(str(t.id), t.name, f"{t.created_at:%Y-%m-%d %H:%M}", used, state)
    console.print(table)


@user_app.command("revoke")
def revoke_command(
    name: str = typer.Argument(..., help="The user."),
    token_id: int = typer.Argument(..., help="The token's id (hegemon user tokens NAME)."),
    db: str | None = db_option(),
) -> None:
    """Revoke one of a user's API tokens (it stops working at once)."""
    from ..accounts.tokens import revoke_token

    with _accounts(db) as store:
        revoke_token(store, _user_id(store, name), token_id)
    typer.echo(f"token {token_id} of {name} revoked")


# ---------------------------------------------------------------------------------- games
@game_app.command("void")
def void_command(
    game_id: int = typer.Argument(..., help="The game's id (as in /game/ID on the site)."),
    reason: str = typer.Option("", "--reason", help="Why (kept with the match)."),
    db: str | None = db_option(),
) -> None:
    """Void a finished game: its result leaves every board (its record stays on disk)."""
    from ..accounts.games import void_game

    with _accounts(db) as store:
        match = void_game(store, game_id, "the organiser (CLI)", reason)
    typer.echo(f"game {game_id} (match #{match.number}) voided")
