"""``hegemon me``: your bots in the arena you signed in to (``hegemon login``) — each version
and its state (a refusal's reason), rating and rank on each ladder or season, the last games
and the faults grouped by kind, and your challenges (test games) with their progress and SPRT;
a few tables, or ``--json`` (the site's ``/api/me/bots`` with ``/api/me/challenges``'s list).
Only your own bots: an admin sees theirs here too, and the arena's on its admin pages."""

from __future__ import annotations

import json
from typing import Any

import typer

from .common import console


def me_command(
    as_json: bool = typer.Option(False, "--json", help="Print the site's JSON."),
) -> None:
    """Your bots in the arena you signed in to: states, ranks, faults — each version and its
    state, rating and rank on each ladder, the last games, the faults grouped by kind — and
    your challenges, newest first."""
    from .games import ArenaSource

    source = ArenaSource("hegemon me")
    data = source.json("/api/me/bots", "your bots")
    data["challenges"] = source.json("/api/me/challenges", "your challenges")["challenges"]
    if as_json:
        print(json.dumps(data, indent=1))
        return
    console.print(
        f"{data['user']} ({data['role']}) · {source.where}", highlight=False, markup=False
    )
    bots = data["bots"]
    if not bots:
        console.print("no bots yet: hegemon submit NAME FOLDER", highlight=False)
    else:
        for title, columns, rows in tables(bots):
            _print(title, columns, rows)
    _print(*challenges_table(data["challenges"]))


def challenges_table(
    challenges: list[dict[str, Any]],
) -> tuple[str, list[str], list[list[str]]]:
    """(title, columns, rows) of ``hegemon me``'s challenges, from ``/api/me/challenges``."""
    rows = [
        [
            str(c["id"]),
            c["bot"],
            ", ".join(c["opponents"]),
            f"{c['done']} of {c['games']}" + (" · finished" if c["finished"] else ""),
            c["sprt"] or "–",
        ]
        for c in challenges
    ]
    return "challenges", ["challenge", "bot", "against", "played", "SPRT"], rows


def tables(bots: list[dict[str, Any]]) -> list[tuple[str, list[str], list[list[str]]]]:
    """(title, columns, rows) of each table ``hegemon me`` prints, from ``/api/me/bots``."""
    versions = [
        [
            v["label"],
            " · ".join([v["state"], *v.get("marks", [])]),
            v["reason"] or "",
            str(v["added_at"] or "")[:16].replace("T", " "),
        ]
        for b in bots
        for v in b["versions"]
    ]
    standings = [
        [s["version"], s["season"], _text(s["rank"]), _whole(s["rating"]), str(s["games"])]
        for b in bots
        for s in b["standings"]
    ]
    games = [
        [b["name"], str(g["id"]), g["season"] or "", g["version"] or "", _place(g)]
        for b in bots
        for g in b["last_games"]
    ]
    faults = [
        [b["name"], f["cause"], f["kind"], str(f["count"]), _text(f["last_game"])]
        for b in bots
        for f in b["faults"]
    ]
    return [
        ("versions", ["version", "state", "reason", "submitted"], versions),
        ("standings", ["version", "ladder", "rank", "rating", "games"], standings),
        ("last games", ["bot", "game", "ladder", "version", "place"], games),
        ("faults", ["bot", "cause", "kind", "count", "last game"], faults),
    ]


def _print(title: str, columns: list[str], rows: list[list[str]]) -> None:
    from rich.table import Table
    from rich.text import Text

    if not rows:
        console.print(f"{title}: none", highlight=False)
        return
    table = Table(title=title, title_justify="left")
    for column in columns:
        table.add_column(column, overflow="fold")
    for row in rows:
        table.add_row(*(Text(cell) for cell in row))  # no markup from a reason
    console.print(table)


def _text(value: Any) -> str:
    return "–" if value is None else str(value)


def _whole(rating: Any) -> str:
    return "–" if rating is None else str(round(float(rating)))


def _place(game: dict[str, Any]) -> str:
    return "–" if game["place"] is None else f"{game['place']} of {game['players']}"
