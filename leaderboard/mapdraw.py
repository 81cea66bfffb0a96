"""Draw a composed Risiko! Master world as a PNG (Pillow), for a person to check a layout.

Each tile is a square; a territory is a dot at its capital with its code and value; land
borders are solid lines, dotted-line links dashed, sea borders blue. Borders that cross the
east-west wrap are drawn as two stubs leaving the picture at either side.
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw

from hegemon.referee.compose import Composed
from hegemon.referee.tiles import all_tiles

TILE = 260  # pixels per tile
MARGIN = 20
SEA = (196, 222, 240)
LAND = (236, 226, 196)
INK = (40, 40, 40)
SEA_LINE = (30, 90, 200)


def _positions(composed: Composed) -> dict[str, tuple[float, float]]:
    where: dict[str, tuple[float, float]] = {}
    for r, row in enumerate(composed.layout.rows):
        for c, name in enumerate(row):
            for t in all_tiles()[name].territories:
                where[t.name] = (
                    MARGIN + (c + t.at[0]) * TILE,
                    MARGIN + (r + t.at[1]) * TILE,
                )
    return where


def _dashed(draw: ImageDraw.ImageDraw, a: tuple[float, float], b: tuple[float, float]) -> None:
    steps = 12
    for i in range(0, steps, 2):
        p = (a[0] + (b[0] - a[0]) * i / steps, a[1] + (b[1] - a[1]) * i / steps)
        q = (a[0] + (b[0] - a[0]) * (i + 1) / steps, a[1] + (b[1] - a[1]) * (i + 1) / steps)
        draw.line([p, q], fill=INK, width=2)


def draw_png(composed: Composed, path: Path) -> None:
    """Write the picture of ``composed`` to ``path``."""
    rows = composed.layout.rows
    width = len(rows[0]) * TILE
    size = (width + 2 * MARGIN, len(rows) * TILE + 2 * MARGIN)
    image = Image.new("RGB", size, SEA)
    draw = ImageDraw.Draw(image)
    where = _positions(composed)
    for r, row in enumerate(rows):
        for c, name in enumerate(row):
            x, y = MARGIN + c * TILE, MARGIN + r * TILE
            draw.rectangle([x, y, x + TILE, y + TILE], outline=INK, width=1)
            draw.text((x + 6, y + 4), f"{name}  bonus {all_tiles()[name].bonus}", fill=INK)
    sea = {frozenset(p) for p in composed.data["sea_borders"]}
    links = {frozenset(p) for p in composed.data["links"]}
    for a, b in composed.data["borders"]:
        pa, pb = where[a], where[b]
        colour = SEA_LINE if frozenset((a, b)) in sea else INK
        if abs(pa[0] - pb[0]) > width / 2:  # across the east-west wrap
            left, right = (pa, pb) if pa[0] < pb[0] else (pb, pa)
            mid_y = (left[1] + right[1]) / 2
            draw.line([left, (MARGIN, mid_y)], fill=colour, width=2)
            draw.line([right, (MARGIN + width, mid_y)], fill=colour, width=2)
        elif frozenset((a, b)) in links:
            _dashed(draw, pa, pb)
        else:
            draw.line([pa, pb], fill=colour, width=2)
    board = composed.board
    for t in board.territories:
        px, py = where[t.name]
        draw.ellipse([px - 9, py - 9, px + 9, py + 9], fill=LAND, outline=INK)
        code = next(
            tt.code
            for tt in all_tiles()[board.continents[t.continent].name].territories
            if tt.name == t.name
        )
        draw.text((px - 12, py + 10), f"{code} {t.value}", fill=INK)
    image.save(path, format="PNG")
