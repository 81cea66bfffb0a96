"""A member's own bots as ``GET /api/me/bots`` (and ``hegemon me``) shows them: each bot's
versions with their states (and a refusal's or a disabling's reason), its rating and rank on
every ladder or season a version plays, its last games with its place, and its faults grouped
by kind. Only the bots the user owns (theirs and their teams'): an admin gets theirs too, not
everyone's (the admin pages show the arena's)."""

from __future__ import annotations

from typing import Any

from hegemon.leaderboard.accounts.ownership import is_mine, teams_of
from hegemon.leaderboard.store import BotRow, UserRow

from .data import Arena
from .fault_groups import CAUSES

LAST_GAMES = 5
"""How many of a bot's last games are shown."""


def my_bots(arena: Arena, user: UserRow) -> dict[str, Any]:
    """``{"user", "role", "bots": [...]}``: ``user``'s bots by name, each as :func:`one_bot`."""
    names: dict[str, list[BotRow]] = {}
    teams = teams_of(arena.store, user)
    for bot in arena.store.bots():  # by name, then version
        if is_mine(user.id, bot, teams):
            names.setdefault(bot.name, []).append(bot)
    return {
        "user": user.name,
        "role": user.role,
        "bots": [one_bot(arena, name, versions) for name, versions in names.items()],
    }


def one_bot(arena: Arena, name: str, versions: list[BotRow]) -> dict[str, Any]:
    """One bot name's versions (newest first), standings, last games and grouped faults."""
    standings: list[dict[str, Any]] = []
    faults: list[dict[str, Any]] = []
    marks: dict[int | None, list[str]] = {}
    for version in versions:
        data = arena.bot(version)
        for season in data["seasons"]:
            row = season["row"]
            if row is not None:
                standings.append(
                    {
                        "season": season["season"],
                        "version": version.label,
                        "rank": row["rank"],
                        "rating": row["rating"],
                        "games": row["games"],
                    }
                )
        faults.extend(data["faults"])
        marks = {v["id"]: v["marks"] for v in data["versions"]}  # pinned, playing
    labels = {v.label for v in versions}
    games = arena.games(bot=name, limit=LAST_GAMES)["games"]
    return {
        "name": name,
        "versions": [
            {
                "id": v.id,
                "label": v.label,
                "version": v.version,
                "state": v.state,
                "marks": marks.get(v.id, []),
                "reason": v.reason or None,
                "added_at": v.added_at.isoformat() if v.added_at else None,
            }
            for v in reversed(versions)
        ],
        "standings": standings,
        "last_games": [_my_game(g, labels) for g in games],
        "faults": group_by_kind(faults),
    }


def _my_game(game: dict[str, Any], labels: set[str]) -> dict[str, Any]:
    """A listed game from its seat of mine (the first, if a bot sat twice)."""
    seats = [s for s, label in enumerate(game["seats"]) if label.split("#")[0] in labels]
    seat = seats[0] if seats else None
    return {
        "id": game["id"],
        "season": game["season"],
        "finished_at": game["finished_at"],
        "seat": seat,
        "version": None if seat is None else game["seats"][seat],
        "place": None if seat is None else game["places"][seat],
        "players": len(game["seats"]),
    }


def group_by_kind(faults: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``[{"kind", "cause", "count", "last_game"}]``, most frequent first (ties by kind)."""
    groups: dict[str, dict[str, Any]] = {}
    for fault in faults:
        kind = str(fault.get("kind"))
        group = groups.setdefault(
            kind, {"kind": kind, "cause": CAUSES.get(kind, kind), "count": 0, "last_game": None}
        )
        group["count"] += 1
        group["last_game"] = max(group["last_game"] or 0, int(fault["game"]))
    return sorted(groups.values(), key=lambda g: (-g["count"], g["kind"]))
