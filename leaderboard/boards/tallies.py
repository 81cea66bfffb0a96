"""What a board needs from its games, kept as running counts so a stored board grows by the
games added since it was stored instead of being made again from every game.

:class:`BoardState` holds, for a pool of seasons: how many games and the newest id, the counts
of finishing patterns (what the Plackett–Luce fit needs), per bot games / wins / places /
faults, the crosstable, and the incremental Elo (ratings and the chart's history, games in
schedule order). All of it but the Elo is a sum over games, so adding games in any order gives
what counting every game again gives; the Elo continues only when the new games come after the
last one in schedule order (else the caller counts every game again).

:func:`load_rows` reads only the columns needed, the JSON ones as text decoded in one go, and
:meth:`BoardState.add` counts a batch with numpy.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import sqlalchemy as sa
from sqlmodel import col, select

from ..ratings import Tally
from ..store import GameRow, MatchRow, Store

FORMAT = 1
"""Version of :meth:`BoardState.dump` (another one is counted again)."""


@dataclass
class Rows:
    """A batch of finished games in schedule order (season, then match number)."""

    ids: list[int]
    order: list[tuple[int, int]]  # (season id, match number)
    seats: list[list[int]]  # bot ids in seat order
    places: list[list[int]]
    faults: list[list[int]]  # seats with a fault


def _decode(texts: Sequence[Any]) -> list[Any]:
    """JSON values read as text (or already decoded by the driver), decoded in one call."""
    if all(isinstance(t, str) for t in texts):
        return json.loads("[" + ",".join(texts) + "]") if texts else []
    return [json.loads(t) if isinstance(t, str) else t for t in texts]


def load_rows(store: Store, season_ids: Sequence[int], after: int = 0) -> Rows:
    """The finished games of these seasons with an id above ``after``, in schedule order."""
    text = sa.Text()
    query = (
        select(  # type: ignore[call-overload]  # sqlmodel types up to 4 columns
            col(GameRow.id),
            col(MatchRow.season_id),
            col(MatchRow.number),
            sa.cast(col(MatchRow.seats), text),
            sa.cast(col(GameRow.places), text),
            sa.cast(col(GameRow.faults), text),
        )
        .join(MatchRow, col(MatchRow.id) == col(GameRow.match_id))
        .where(col(MatchRow.season_id).in_(list(season_ids)), col(GameRow.id) > after)
        .order_by(col(MatchRow.season_id), col(MatchRow.number))
    )
    with store.session() as s:
        rows = s.exec(query).all()
    faults = [
        [int(f.get("seat", -1)) for f in (fs or ()) if isinstance(f, dict)]
        for fs in _decode([r[5] if r[5] not in ("[]", None) else "[]" for r in rows])
    ]
    return Rows(
        ids=[int(r[0]) for r in rows],
        order=[(int(r[1]), int(r[2])) for r in rows],
        seats=_decode([r[3] for r in rows]),
        places=_decode([r[4] for r in rows]),
        faults=faults,
    )


@dataclass
class BoardState:
    """Running counts of a board's games (see the module docstring)."""

    games: int = 0
    last_game_id: int = 0
    last_order: tuple[int, int] = (0, 0)
    patterns: dict[str, int] = field(default_factory=dict)
    """Finishing pattern → games: place groups best first, ``|`` between groups, bot ids
    (sorted) joined by ``,`` within one."""
    faults: dict[int, int] = field(default_factory=dict)
    """Bot id → faults in its games."""
    cross: dict[tuple[int, int], list[float]] = field(default_factory=dict)
    """(a, b) → [a ahead of b (a tie: one half), games together]."""
    elo: dict[int, float] | None = None
    """Incremental Elo after the last game (``None``: not kept for this board)."""
    history: dict[int, list[list[float]]] = field(default_factory=dict)
    """Bot id → [[game number in schedule order, Elo after it], ...]."""

    def follows(self, rows: Rows) -> bool:
        """Whether ``rows`` all come after the counted games in schedule order (the Elo can
        then continue)."""
        return not rows.order or rows.order[0] > self.last_order

    def add(self, rows: Rows) -> None:
        """Count a batch (for the Elo, games must follow: :meth:`follows`)."""
        if not rows.ids:
            return
        by_size: dict[int, list[int]] = {}
        for i, seats in enumerate(rows.seats):
            by_size.setdefault(len(seats), []).append(i)
        for idx in by_size.values():
            self._count(
                np.array([rows.seats[i] for i in idx], dtype=np.int64),
                np.array([rows.places[i] for i in idx], dtype=np.int64),
            )
        for seats, faulty in zip(rows.seats, rows.faults, strict=True):
            for seat in faulty:
                if 0 <= seat < len(seats):
                    bot = int(seats[seat])
                    self.faults[bot] = self.faults.get(bot, 0) + 1
        if self.elo is not None:
            self._elo(rows)
        self.games += len(rows.ids)
        self.last_game_id = max(self.last_game_id, *rows.ids)
        self.last_order = max(self.last_order, rows.order[-1])

    def _count(self, seats: np.ndarray[Any, Any], places: np.ndarray[Any, Any]) -> None:
        # a pattern: seats sorted by (place, bot id) with the places sorted alongside
        order = np.lexsort((seats, places), axis=1)
        s_sorted = np.take_along_axis(seats, order, axis=1)
        p_sorted = np.take_along_axis(places, order, axis=1)
        keys, counts = np.unique(np.hstack([s_sorted, p_sorted]), axis=0, return_counts=True)
        k = seats.shape[1]
        for key, count in zip(keys.tolist(), counts.tolist(), strict=True):
            groups: list[list[str]] = []
            for j in range(k):
                if j and key[k + j] == key[k + j - 1]:
                    groups[-1].append(str(key[j]))
                else:
                    groups.append([str(key[j])])
            text = "|".join(",".join(g) for g in groups)
            self.patterns[text] = self.patterns.get(text, 0) + count
        ids, inverse = np.unique(seats, return_inverse=True)
        local = inverse.reshape(seats.shape)
        n = ids.size
        ahead = np.zeros((n, n))
        met = np.zeros((n, n), dtype=np.int64)
        for i in range(k):
            for j in range(k):
                if i == j:
                    continue
                a, b = local[:, i], local[:, j]
                np.add.at(met, (a, b), 1)
                score = (places[:, i] < places[:, j]) + 0.5 * (places[:, i] == places[:, j])
                np.add.at(ahead, (a, b), score)
        for a, b in zip(*np.nonzero(met), strict=True):
            pair = (int(ids[a]), int(ids[b]))
            cell = self.cross.setdefault(pair, [0.0, 0])
            cell[0] += float(ahead[a, b])
            cell[1] += int(met[a, b])

    def _elo(self, rows: Rows, k: float = 32.0, initial: float = 1500.0) -> None:
        """:func:`~hegemon.leaderboard.ratings.incremental_elo` over bot ids, continued from
        the stored ratings (the same sums, in a loop without the general checks: every game
        here comes from the store)."""
        ratings = self.elo if self.elo is not None else {}
        history = self.history
        x = self.games
        for seats, places in zip(rows.seats, rows.places, strict=True):
            x += 1
            n = len(seats)
            before = [ratings.get(b, initial) for b in seats]
            deltas = [0.0] * n
            factor = k / (n - 1)
            for a in range(n):
                ra, pa = before[a], places[a]
                for b in range(a + 1, n):
                    pb = places[b]
                    score = 1.0 if pa < pb else 0.5 if pa == pb else 0.0
                    change = factor * (score - 1.0 / (1.0 + 10.0 ** ((before[b] - ra) / 400.0)))
                    deltas[a] += change
                    deltas[b] -= change
            for bot, old, delta in zip(seats, before, deltas, strict=True):
                ratings[bot] = old + delta
                history.setdefault(bot, []).append([x, round(old + delta, 1)])
        self.elo = ratings

    def tally(self, labels: dict[int, str]) -> Tally:
        """The patterns with bots named by ``labels`` (for the fit)."""
        out = Tally()
        for text, count in self.patterns.items():
            key = tuple(
                tuple(sorted(labels[int(b)] for b in group.split(","))) for group in text.split("|")
            )
            out[key] = out.get(key, 0) + count
        return out

    # ------------------------------------------------------------------ storage
    def dump(self) -> dict[str, Any]:
        """As JSON (the history is kept apart: :meth:`dump_history`)."""
        return {
            "format": FORMAT,
            "games": self.games,
            "last_game_id": self.last_game_id,
            "last_order": list(self.last_order),
            "patterns": self.patterns,
            "faults": {str(b): v for b, v in self.faults.items()},
            "cross": [[a, b, *v] for (a, b), v in self.cross.items()],
            "elo": None if self.elo is None else {str(b): r for b, r in self.elo.items()},
        }

    def dump_history(self) -> dict[str, Any]:
        return {"games": self.games, "series": {str(b): p for b, p in self.history.items()}}

    @classmethod
    def load(cls, data: dict[str, Any] | None, history: dict[str, Any] | None) -> BoardState | None:
        """From :meth:`dump` and :meth:`dump_history` (``None`` if either is missing or of
        another format)."""
        if not data or data.get("format") != FORMAT:
            return None
        elo = data.get("elo")
        if elo is not None and (history is None or history.get("games") != data["games"]):
            return None
        return cls(
            games=int(data["games"]),
            last_game_id=int(data["last_game_id"]),
            last_order=(int(data["last_order"][0]), int(data["last_order"][1])),
            patterns={str(k): int(v) for k, v in data["patterns"].items()},
            faults={int(b): int(v) for b, v in data["faults"].items()},
            cross={(int(a), int(b)): [float(x), int(n)] for a, b, x, n in data["cross"]},
            elo=None if elo is None else {int(b): float(r) for b, r in elo.items()},
            history={}
            if history is None
            else {int(b): p for b, p in history.get("series", {}).items()},
        )
