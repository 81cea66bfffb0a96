"""The version of each bot that plays, as the pages show it: a ladder's board has one row per
bot — the version now playing (pinned by its owner, else the newest active one:
:mod:`hegemon.leaderboard.store.pins`) with its own rating and games — and a bot's page lists
every version with its rating, games and state. Pure functions over the boards' dicts."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from hegemon.leaderboard.store import BotRow

PINNED, PLAYING = "pinned", "playing"
"""The marks a version gets beside its state on its bot's page."""


def one_row_per_bot(board: dict[str, Any], playing: Iterable[str]) -> dict[str, Any]:
    """``board`` (a ladder's: :func:`hegemon.leaderboard.boards.board_dict`) with only the rows
    of the versions ``playing`` (their labels), ranks counted again within each group, and each
    row's P(>next) kept only where the row below it is still the one it was computed against.
    Adds ``playing`` (the labels), ``earlier_versions`` (rows left out: versions that no longer
    play, shown on their bots' pages) and ``waiting`` (versions playing that have no game in
    the board yet)."""
    shown = set(playing)
    rows: list[dict[str, Any]] = board.get("rows", [])
    place = {r["label"]: i for i, r in enumerate(rows)}
    kept = [r for r in rows if r["label"] in shown]
    ranks: Counter[int] = Counter()
    out = []
    for i, row in enumerate(kept):
        ranks[row["group"]] += 1
        below = kept[i + 1] if i + 1 < len(kept) else None
        same = below is not None and below["group"] == row["group"]
        still_next = same and place[below["label"]] == place[row["label"]] + 1  # type: ignore[index]
        p_next = row["p_stronger_than_next"] if still_next else None
        out.append({**row, "rank": ranks[row["group"]], "p_stronger_than_next": p_next})
    labels = {r["label"] for r in out}
    result = {
        **board,
        "rows": out,
        "playing": sorted(shown),
        "earlier_versions": len(rows) - len(out),
        "waiting": sorted(shown - labels),
    }
    if "crosstable" in board:
        result["crosstable"] = [
            c for c in board["crosstable"] if c["row"] in labels and c["column"] in labels
        ]
    return result


def version_marks(version: BotRow, playing: int | None, pinned: int | None) -> list[str]:
    """What a version is beside its state: ``pinned`` (its owner chose it), ``playing`` (it
    plays in new ladder games)."""
    marks = [PINNED] if version.id is not None and version.id == pinned else []
    return marks + ([PLAYING] if version.id is not None and version.id == playing else [])


def version_standing(board: dict[str, Any], label: str) -> dict[str, Any] | None:
    """A version's rank, rating and games on one (unfiltered) board; None: no games there."""
    row = next((r for r in board.get("rows", []) if r["label"] == label), None)
    if row is None:
        return None
    return {"rank": row["rank"], "rating": row["rating"], "games": row["games"]}
