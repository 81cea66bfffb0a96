"""Where to draw each territory of a map: a shipped layout if the map has one, else one computed
from the map's borders (a force-directed layout, seeded from the map so it never changes)."""

from __future__ import annotations

import hashlib
import json
import math
import random
from typing import Any

from hegemon.referee.board import MAPS_DIR, Board
from hegemon.referee.compose import PREFIX, parse_spec
from hegemon.referee.tiles import tile

LAYOUTS_DIR = MAPS_DIR.parent / "layouts"
WIDTH, HEIGHT = 1000, 560
MARGIN = 40


def map_layout(board: Board) -> list[tuple[float, float]]:
    """(x, y) of each territory on a ``WIDTH`` x ``HEIGHT`` canvas, in territory order."""
    if board.name.startswith(PREFIX):
        return tile_layout(board)
    path = LAYOUTS_DIR / f"{board.name}.json"
    if path.is_file():
        data = json.loads(path.read_text(encoding="utf-8"))
        points = data.get("territories", {})
        if all(t.name in points for t in board.territories):
            return [(float(points[t.name][0]), float(points[t.name][1])) for t in board.territories]
    return force_layout(board)


def tile_layout(board: Board) -> list[tuple[float, float]]:
    """A composed Risiko! Master world drawn from its layout: each tile a cell of the grid its
    map spec names, each territory at its capital's place on its tile."""
    rows = parse_spec(board.name).rows
    cell_w = (WIDTH - 2 * MARGIN) / len(rows[0])
    cell_h = (HEIGHT - 2 * MARGIN) / len(rows)
    where: dict[str, tuple[float, float]] = {}
    for r, row in enumerate(rows):
        for c, name in enumerate(row):
            for t in tile(name).territories:
                where[t.name] = (
                    round(MARGIN + (c + t.at[0]) * cell_w, 1),
                    round(MARGIN + (r + t.at[1]) * cell_h, 1),
                )
    return [where[t.name] for t in board.territories]


def force_layout(board: Board, iterations: int = 300) -> list[tuple[float, float]]:
    """A spring layout of the border graph: neighbours pull, every pair pushes apart, and a
    territory is also pulled towards its continent's centre so continents stay together."""
    seed = int.from_bytes(hashlib.sha256(board.name.encode()).digest()[:8], "big")
    rng = random.Random(seed)
    n = board.size
    pos = [[rng.uniform(0, 1), rng.uniform(0, 1)] for _ in range(n)]
    ideal = 1.0 / math.sqrt(max(n, 1))
    step = 0.1
    for _ in range(iterations):
        move = [[0.0, 0.0] for _ in range(n)]
        for a in range(n):
            for b in range(a + 1, n):
                dx, dy = pos[a][0] - pos[b][0], pos[a][1] - pos[b][1]
                d = math.hypot(dx, dy) or 1e-6
                push = ideal * ideal / d
                if b in board.adjacency[a]:
                    push -= d * d / ideal
                move[a][0] += dx / d * push
                move[a][1] += dy / d * push
                move[b][0] -= dx / d * push
                move[b][1] -= dy / d * push
        centres = {}
        for c in board.continents:
            xs = [pos[t] for t in c.territories]
            centres[c.index] = (
                sum(p[0] for p in xs) / len(xs),
                sum(p[1] for p in xs) / len(xs),
            )
        for t in range(n):
            cx, cy = centres[board.territories[t].continent]
            move[t][0] += (cx - pos[t][0]) * 0.5
            move[t][1] += (cy - pos[t][1]) * 0.5
            d = math.hypot(*move[t]) or 1e-6
            pos[t][0] += move[t][0] / d * min(d, step)
            pos[t][1] += move[t][1] / d * min(d, step)
        step = max(step * 0.98, 0.002)
    return _fit(pos)


def _fit(pos: list[list[float]]) -> list[tuple[float, float]]:
    xs, ys = [p[0] for p in pos], [p[1] for p in pos]
    span_x = (max(xs) - min(xs)) or 1.0
    span_y = (max(ys) - min(ys)) or 1.0
    return [
        (
            round(MARGIN + (x - min(xs)) / span_x * (WIDTH - 2 * MARGIN), 1),
            round(MARGIN + (y - min(ys)) / span_y * (HEIGHT - 2 * MARGIN), 1),
        )
        for x, y in zip(xs, ys, strict=True)
    ]


def map_data(board: Board) -> dict[str, Any]:
    """The map as the replay viewer draws it: territories with positions, continents, borders."""
    points = map_layout(board)
    return {
        "name": board.name,
        "width": WIDTH,
        "height": HEIGHT,
        "territories": [
            {"name": t.name, "continent": t.continent, "x": x, "y": y}
            for t, (x, y) in zip(board.territories, points, strict=True)
        ],
        "continents": [{"name": c.name, "bonus": c.bonus} for c in board.continents],
        "borders": [list(b) for b in board.borders()],
    }
