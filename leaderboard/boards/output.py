"""A board as the user sees it: CSV, JSON, or a rich table with its crosstable."""

from __future__ import annotations

import csv
import io
import json
from collections import Counter
from collections.abc import Sequence
from typing import Any

from ..ratings import PROVISIONAL_GAMES
from .model import Leaderboard, LeaderboardRow

CSV_FIELDS = [
    "rank",
    "bot",
    "version",
    "rating",
    "low",
    "high",
    "games",
    "wins",
    "mean_place",
    "faults",
    "p_stronger_than_next",
    "group",
]


NOT_COMPARABLE = (
    "not comparable: these bots fall into {groups} groups that never met, directly or through "
    "others; ratings compare only within a group, ranks and P(>next) are per group"
)
"""The note under a board of several groups (the web page says the same)."""


def _num(value: float | None, digits: int) -> str:
    return "" if value is None else f"{value:.{digits}f}"


def _csv_row(row: LeaderboardRow) -> list[str]:
    return [
        str(row.rank),
        row.name,
        str(row.version),
        _num(row.rating, 1),
        _num(row.low, 1),
        _num(row.high, 1),
        str(row.games),
        str(row.wins),
        _num(row.mean_place, 3),
        str(row.faults),
        _num(row.p_next, 3),
        str(row.group),
    ]


def to_csv(boards: Sequence[Leaderboard], with_preset: bool = False) -> str:
    """The boards as CSV (one header). With ``with_preset`` a first ``rule_set`` column;
    with crosstables, one column per bot (``vs <bot>``: share of their games finished ahead)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    cross = any(b.cross is not None for b in boards)
    labels: list[str] = []
    for board in boards:
        for row in board.rows:
            if row.label not in labels:
                labels.append(row.label)
    header = (["rule_set"] if with_preset else []) + CSV_FIELDS
    if cross:
        header += [f"vs {label}" for label in labels]
    writer.writerow(header)
    for board in boards:
        ids = {r.label: r.bot_id for r in board.rows}
        for row in board.rows:
            line = ([board.preset] if with_preset else []) + _csv_row(row)
            if cross and board.cross is not None:
                for label in labels:
                    other = ids.get(label)
                    cell = board.cross.get((row.bot_id, other)) if other is not None else None
                    line.append("" if cell is None else f"{cell[0] / cell[1]:.3f}")
            writer.writerow(line)
    return out.getvalue()


def _json_row(row: LeaderboardRow) -> dict[str, Any]:
    return {
        "rank": row.rank,
        "bot": row.name,
        "version": row.version,
        "label": row.label,
        "rating": None if row.rating is None else round(row.rating, 1),
        "interval": None
        if row.low is None or row.high is None
        else [round(row.low, 1), round(row.high, 1)],
        "games": row.games,
        "provisional": row.provisional,
        "wins": row.wins,
        "mean_place": round(row.mean_place, 3),
        "faults": row.faults,
        "p_stronger_than_next": None if row.p_next is None else round(row.p_next, 3),
        "group": row.group,
    }


def board_dict(board: Leaderboard) -> dict[str, Any]:
    data: dict[str, Any] = {
        "title": board.title,
        "season": board.season,
        "rule_set": board.preset,
        "method": board.method,
        "games": board.games,
        "bootstrap_seed": board.seed,
        "groups": board.groups,
        "rows": [_json_row(r) for r in board.rows],
    }
    if board.cross is not None:
        labels = {r.bot_id: r.label for r in board.rows}
        data["crosstable"] = [
            {
                "row": labels[a],
                "column": labels[b],
                "ahead": ahead,
                "games": n,
                "share": round(ahead / n, 3),
            }
            for (a, b), (ahead, n) in sorted(board.cross.items())
            if a in labels and b in labels
        ]
    if board.unrated is not None:
        data["unrated"] = board.unrated
    data.update(board.extra)
    return data


def to_json(boards: Sequence[Leaderboard], single: bool = True) -> str:
    """One board as a JSON object (``single``), or a list of boards."""
    if single and len(boards) == 1:
        return json.dumps(board_dict(boards[0]), indent=2)
    return json.dumps([board_dict(b) for b in boards], indent=2)


def render_board(board: Leaderboard, console: Any) -> None:
    """The board as a rich table (and the crosstable below it, if computed)."""
    from rich import box
    from rich.table import Table

    pl = board.method == "pl"
    table = Table(
        title=f"{board.title} · {board.games} game{'s' if board.games != 1 else ''}"
        f" · {'Plackett–Luce' if pl else 'incremental Elo'}",
        box=box.SIMPLE_HEAD,
        title_justify="left",
        collapse_padding=True,
        pad_edge=False,
    )
    grouped = board.groups > 1
    if grouped:
        table.add_column("group", justify="right")
    table.add_column("#", justify="right")
    table.add_column("bot", style="bold", no_wrap=True)
    table.add_column("ver", justify="right")
    table.add_column("rating", justify="right")
    if pl:
        table.add_column("95% interval", justify="right", no_wrap=True)
    table.add_column("games", justify="right")
    table.add_column("wins", justify="right")
    table.add_column("mean\nplace", justify="right")
    table.add_column("faults", justify="right")
    if pl:
        table.add_column("P(>\nnext)", justify="right")
    for row in board.rows:
        mark = "?" if row.provisional else ""  # explained under the table
        cells = [str(row.group)] if grouped else []
        cells += [str(row.rank), row.name, f"v{row.version}", f"{_num(row.rating, 0) or '–'}{mark}"]
        if pl:
            cells.append(
                "–" if row.low is None or row.high is None else f"{row.low:.0f}–{row.high:.0f}"
            )
        cells += [
            str(row.games),
            str(row.wins),
            f"{row.mean_place:.2f}",
            f"[red]{row.faults}[/]" if row.faults else "0",
        ]
        if pl:
            cells.append("" if row.p_next is None else f"{row.p_next:.0%}")
        table.add_row(*cells)
    console.print(table)
    if board.unrated is not None:
        console.print(f"[yellow]ratings {board.unrated}[/]", highlight=False, soft_wrap=True)
    if grouped:
        console.print(NOT_COMPARABLE.format(groups=board.groups), highlight=False, soft_wrap=True)
    if any(row.provisional for row in board.rows):
        console.print(
            f"? provisional: fewer than {PROVISIONAL_GAMES} games, the rating rests mostly on "
            "the prior",
            highlight=False,
            soft_wrap=True,
        )
    if board.cross is not None:
        render_crosstable(board, console)


def render_crosstable(board: Leaderboard, console: Any) -> None:
    from rich.table import Table

    assert board.cross is not None
    from rich import box

    table = Table(
        title="how often the row bot finished ahead of the column bot (games together)",
        box=box.SIMPLE_HEAD,
        title_justify="left",
        collapse_padding=True,
        pad_edge=False,
    )
    table.add_column("", style="bold")
    names = Counter(r.name for r in board.rows)
    for row in board.rows:
        table.add_column(row.name if names[row.name] == 1 else row.label, justify="right")
    for a in board.rows:
        cells = [a.label]
        for b in board.rows:
            cell = board.cross.get((a.bot_id, b.bot_id))
            if a.bot_id == b.bot_id:
                cells.append("·")
            elif cell is None:
                cells.append("–")
            else:
                cells.append(f"{cell[0] / cell[1]:.0%} ({cell[1]})")
        table.add_row(*cells)
    console.print(table)
