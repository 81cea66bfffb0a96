"""``hegemon challenge BOT``: unrated test games of one of your versions against active bots you
name (``--vs planner,random``) or its ladder neighbours, in the arena you signed in to
(``hegemon login``); ``--wait`` follows them to the end and prints the results, with the SPRT
of the run when there is one opponent (as ``hegemon bench`` prints it); ``--json`` prints the
site's JSON (``POST /api/challenges``, ``GET /api/challenges/{id}``)."""

from __future__ import annotations

import json
import time
from typing import Any

import typer

from .common import console, fail

POLL = 2.0
"""Seconds between two looks at a challenge being played (``--wait``)."""


def challenge_command(
    bot: str = typer.Argument(..., help="Your bot's name."),
    version: int | None = typer.Option(
        None, "--version", help="The version that plays (default: the active one)."
    ),
    vs: str = typer.Option(
        "", "--vs", help="Opponents' names, comma-separated (default: its ladder neighbours)."
    ),
    games: int = typer.Option(10, "--games", help="How many games."),
    ladder: str | None = typer.Option(
        None, "--ladder", help="The ladder whose rules they play (default: the only one)."
    ),
    wait: bool = typer.Option(False, "--wait", help="Follow the games and print the results."),
    as_json: bool = typer.Option(False, "--json", help="Print the site's JSON."),
) -> None:
    """Unrated test games of your bot: against active bots you name or its ladder neighbours;
    results, replays and logs as for ladder games, and the SPRT against one opponent."""
    import httpx

    from .games import ArenaSource, _error_of

    source = ArenaSource("hegemon challenge")
    body = {"bot": bot, "version": version, "games": games, "ladder": ladder,
            "vs": [name for name in vs.split(",") if name.strip()]}  # fmt: skip
    try:
        answer = source.client.post("/api/challenges", json=body)
    except httpx.HTTPError as exc:
        fail(f"cannot reach {source.where}: {type(exc).__name__}")
    if answer.status_code == 401:
        fail(f"{source.where} did not take your token: sign in again (hegemon login URL)")
    if answer.status_code != 201:
        fail(f"{source.where} refused the challenge: {_error_of(answer).removeprefix('refused: ')}")
    data: dict[str, Any] = answer.json()
    if wait:
        while not data["finished"]:
            if not as_json:
                console.print(f"{data['done']} of {data['games']} games played", highlight=False)
            time.sleep(POLL)
            data = source.json(f"/api/challenges/{data['id']}", "the challenge")
    if as_json:
        print(json.dumps(data, indent=1))
        return
    for line in summary(data, source.where):
        console.print(line, highlight=False, markup=False, soft_wrap=True)


def summary(data: dict[str, Any], where: str) -> list[str]:
    """The lines ``hegemon challenge`` prints of a challenge (``GET /api/challenges/{id}``)."""
    names = ", ".join(o["bot"] for o in data["opponents"])
    lines = [
        f"challenge {data['id']}: {data['bot']} against {names} ({data['chosen']}), "
        f"{data['games']} unrated games of {data['rules']} — {where.rstrip('/')}{data['url']}",
        f"{data['done']} of {data['games']} played" + (" · finished" if data["finished"] else ""),
    ]
    for game in data["results"]:
        lines.append(
            f"  game {game['id']}: place {game['place']} of {len(game['places'])} · "
            f"{', '.join(game['seats'])}"
        )
    lines += [
        f"  against {o['bot']}: finished ahead {o['ahead']:g} of {o['games']}"
        for o in data["opponents"]
    ]
    if data["sprt"]:
        lines.append(f"SPRT: {data['sprt']['line']}")
    return lines
