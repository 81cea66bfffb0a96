"""``hegemon pin NAME VERSION`` and ``hegemon unpin NAME``: choose which version of your bot
plays in the arena you signed in to (``hegemon login``) — roll back to an earlier version, or
keep one playing when a newer passes its check; unpinned, the newest active version plays.
Over the site's ``POST /api/bots/{name}/pin``; one line, or ``--json``."""

from __future__ import annotations

import json
from typing import Any

import typer

from .common import console, fail

JSON_OPTION = typer.Option(False, "--json", help="Print the site's JSON answer.")


def pin_command(
    name: str = typer.Argument(..., help="Your bot's name in the arena."),
    version: str = typer.Argument(..., help="The version that plays from now on: 2 or v2."),
    as_json: bool = JSON_OPTION,
) -> None:
    """Choose the version of your bot that plays in new ladder games (a game already started
    finishes with its version): roll back to an earlier one, or hold one."""
    _send("hegemon pin", name, version.strip().removeprefix("v"), as_json)


def unpin_command(
    name: str = typer.Argument(..., help="Your bot's name in the arena."),
    as_json: bool = JSON_OPTION,
) -> None:
    """Let your bot's newest active version play again (undo hegemon pin)."""
    _send("hegemon unpin", name, None, as_json)


def _send(asked: str, name: str, version: str | None, as_json: bool) -> None:
    """POST the pin to the signed-in arena; print its one line (or its JSON), or fail with the
    site's one-line reason."""
    import httpx

    from .games import ArenaSource, _error_of

    source = ArenaSource(asked)
    path = f"/api/bots/{_quoted(name)}/pin"
    try:
        response = source.client.post(path, json={"version": version})
    except httpx.HTTPError as exc:
        fail(f"cannot reach {source.where}: {type(exc).__name__}", code=1)
    if response.status_code == 401:
        fail(f"{source.where} did not take your token: sign in again (hegemon login URL)", code=1)
    if response.status_code != 200:
        fail(f"not changed: {_error_of(response)}", code=1)
    body: dict[str, Any] = response.json()
    if as_json:
        print(json.dumps(body, indent=1))
    else:
        console.print(body["message"], highlight=False, markup=False, soft_wrap=True)


def _quoted(name: str) -> str:
    """``name`` as one path segment (any character it holds cannot reach another route)."""
    from urllib.parse import quote

    return quote(name, safe="")
