"""A ladder's board as the pages show it, one row per bot (:func:`one_row_per_bot`): the rows of
the versions playing, ranked again, P(>next) kept only against the row it was computed with,
the crosstable of the rows shown, and what is left out or waiting said."""

from __future__ import annotations

from typing import Any

from hegemon.leaderboard.web.playing import one_row_per_bot


def row(label: str, rank: int, p_next: float | None, group: int = 1) -> dict[str, Any]:
    name, _, version = label.partition("@v")
    return {
        "label": label, "bot": name, "version": int(version), "rank": rank, "group": group,
        "games": 10, "p_stronger_than_next": p_next,
    }  # fmt: skip


BOARD: dict[str, Any] = {
    "games": 40,
    "rows": [
        row("a@v2", 1, 0.9),
        row("a@v1", 2, 0.8),  # retired: left out
        row("b@v1", 3, 0.7),
        row("c@v1", 4, None),
        row("d@v1", 1, None, group=2),
    ],
    "crosstable": [
        {"row": "a@v2", "column": "b@v1", "share": 0.6},
        {"row": "a@v1", "column": "b@v1", "share": 0.4},
    ],
}


def test_one_row_per_bot_ranks_again_and_keeps_only_true_p_next() -> None:
    shown = one_row_per_bot(BOARD, ["a@v2", "b@v1", "c@v1", "d@v1", "e@v3"])
    rows = {r["label"]: r for r in shown["rows"]}
    assert list(rows) == ["a@v2", "b@v1", "c@v1", "d@v1"]
    assert [r["rank"] for r in shown["rows"]] == [1, 2, 3, 1]  # per group, as the board's
    assert rows["a@v2"]["p_stronger_than_next"] is None  # computed against a@v1, not b@v1
    assert rows["b@v1"]["p_stronger_than_next"] == 0.7  # c@v1 is still the row below it
    assert shown["crosstable"] == [BOARD["crosstable"][0]]
    assert shown["earlier_versions"] == 1
    assert shown["waiting"] == ["e@v3"]  # playing, no game here yet
    assert shown["games"] == BOARD["games"]  # the caption's count: every game it rests on
    assert len(BOARD["rows"]) == 5  # the kept board itself is left as it was
