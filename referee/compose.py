"""Compose a Risiko! Master world from six tiles (seed 003 "I QUADRANTI"; docs/rules.md §7).

A layout is rows of tile names, written as a *map spec*:
``tiles:Delta,Tau,Epsilon/Omega,Alfa,Sigma`` (rows north to south, tiles west to east). The
spec is the map's name, so a rule set's ``map`` option, and with it every game record, names
the whole world.

The rules of seed 003 ("Confini terrestri / Confini marini / planisfero"):

- land borders: where two tiles meet, the territories reaching the shared edge at the same
  sector border each other; a land sector facing sea means the borders do not match (refused);
- sea borders: coastal territories of two tiles border each other when their band sectors touch
  edge to edge (the same sector of the shared edge; never diagonally, i.e. never sector k with
  k ± 1);
- the world is a planisphere: the east edge of each row meets its west edge; north and south
  edges stay open (no wrap);
- dotted lines (a tile's ``links``) are borders like any other;
- "fate in modo che il totale dei territori in gioco sia multiplo del numero dei giocatori e
  che tutti i confini siano fra di loro coerenti": a layout is refused when a border does not
  match or the territory count is not a multiple of the player count.

>>> composed = compose(parse_spec(EXAMPLE))
>>> composed.board.size, composed.board.total_value()
(60, 175)
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache
from typing import Any

from .board import Board, MapError, builtin_map, parse_map
from .decks import master_deck
from .tiles import COAST, LAND, SEA, SECTORS, Tile, all_tiles, tile

PREFIX = "tiles:"
TILES_PER_WORLD = 6
# The rulebook's victory example: these six tiles, worth 175 together (threshold 88).
EXAMPLE = "tiles:Delta,Tau,Epsilon/Omega,Alfa,Sigma"
DRAW_ATTEMPTS = 5000


class CompositionError(MapError):
    """A layout seed 003 does not allow; ``problems`` says every reason."""


@dataclass(frozen=True, slots=True)
class Layout:
    """Tile names by row (north first) and column (west first)."""

    rows: tuple[tuple[str, ...], ...]

    @property
    def spec(self) -> str:
        return PREFIX + "/".join(",".join(row) for row in self.rows)

    def tiles(self) -> list[Tile]:
        return [tile(name) for row in self.rows for name in row]

    def meetings(self) -> list[tuple[str, str, str, str]]:
        """Every pair of facing edges: (tile, side, other tile, other side). Each row wraps
        east to west; rows meet north to south with no wrap."""
        found = []
        for r, row in enumerate(self.rows):
            for c, name in enumerate(row):
                found.append((name, "east", row[(c + 1) % len(row)], "west"))
                if r + 1 < len(self.rows):
                    found.append((name, "south", self.rows[r + 1][c], "north"))
        return found


@dataclass(frozen=True, slots=True)
class Composed:
    """A composed world: its board and what a drawing needs."""

    layout: Layout
    board: Board
    data: dict[str, Any]  # the map file (parse_map's form plus layout, links, sea borders)


def parse_spec(spec: str) -> Layout:
    """The layout a map spec names; CompositionError if it is not one."""
    if not spec.startswith(PREFIX):
        raise CompositionError(spec, [f"a composed map's name starts with '{PREFIX}'"])
    rows = tuple(tuple(n.strip() for n in row.split(",")) for row in spec[len(PREFIX) :].split("/"))
    problems = _shape_problems(rows)
    if problems:
        raise CompositionError(spec, problems)
    return Layout(tuple(tuple(tile(n).name for n in row) for row in rows))


def layout_of(names: list[str], columns: int = 3) -> Layout:
    """Six tile names laid row by row, ``columns`` to a row."""
    rows = tuple(tuple(names[i : i + columns]) for i in range(0, len(names), columns))
    return parse_spec(PREFIX + "/".join(",".join(r) for r in rows))


def _shape_problems(rows: tuple[tuple[str, ...], ...]) -> list[str]:
    problems = []
    names = [n for row in rows for n in row]
    if len(names) != TILES_PER_WORLD:
        problems.append(f"a world is {TILES_PER_WORLD} tiles, not {len(names)}")
    if len({len(r) for r in rows}) != 1 or len(rows[0]) < 2:
        problems.append("every row must hold the same number of tiles, at least 2")
    known = {n.lower() for n in all_tiles()}
    unknown = [n for n in names if n.lower() not in known]
    if unknown:
        problems.append(f"unknown tile(s) {', '.join(unknown)} (tiles: {', '.join(all_tiles())})")
    if len({n.lower() for n in names}) != len(names):
        problems.append("each tile may be laid once")
    return problems


def border_problems(layout: Layout) -> list[str]:
    """Why the borders of ``layout`` do not match (empty if they do): a land sector facing a
    sector of sea."""
    problems = []
    for a, side_a, b, side_b in layout.meetings():
        ea, eb = tile(a).edges[side_a], tile(b).edges[side_b]
        for k in range(SECTORS):
            if (ea[k].kind == LAND) != (eb[k].kind == LAND):
                land, sea = (f"{a} {side_a}", f"{b} {side_b}")
                if eb[k].kind == LAND:
                    land, sea = sea, land
                problems.append(f"{land} sector {k} is land but {sea} sector {k} is sea")
    return problems


def count_problems(layout: Layout, players: int) -> list[str]:
    """Why the territory count does not suit ``players`` (empty if it does)."""
    count = sum(len(t.territories) for t in layout.tiles())
    if players > 0 and count % players:
        return [f"{count} territories is not a multiple of {players} players"]
    return []


def compose(layout: Layout, players: int = 0) -> Composed:
    """The world ``layout`` makes, refused (CompositionError naming every reason) when its
    borders do not match or, with ``players``, its territory count is not a multiple of it."""
    problems = border_problems(layout) + count_problems(layout, players)
    if problems:
        raise CompositionError(layout.spec, problems)
    tiles = layout.tiles()
    land: list[tuple[str, str]] = []
    sea: list[tuple[str, str]] = []
    links: list[tuple[str, str]] = []
    for t in tiles:
        land.extend(t.borders)
        links.extend(t.links)
    for a, side_a, b, side_b in layout.meetings():
        ea, eb = tile(a).edges[side_a], tile(b).edges[side_b]
        for k in range(SECTORS):
            if ea[k].kind == LAND:
                land.append((ea[k].territory, eb[k].territory))
            elif ea[k].kind == COAST and eb[k].kind == COAST:
                sea.append((ea[k].territory, eb[k].territory))
    borders: dict[frozenset[str], tuple[str, str]] = {}
    for pair in land + links + sea:
        if pair[0] != pair[1]:
            borders.setdefault(frozenset(pair), pair)
    data: dict[str, Any] = {
        "name": layout.spec,
        "title": "Risiko! Master world of " + ", ".join(t.name for t in tiles),
        "layout": [list(row) for row in layout.rows],
        "continents": [
            {"name": t.name, "bonus": t.bonus, "territories": t.territory_names()} for t in tiles
        ],
        "territories": [
            {"name": x.name, "insignia": x.insignia, "value": x.value}
            for t in tiles
            for x in t.territories
        ],
        "borders": [list(p) for p in borders.values()],
        "links": [list(p) for p in links],
        "sea_borders": [list(p) for p in dict.fromkeys(sea) if p[0] != p[1]],
        "cards": master_deck().entries(),  # seed 003: "Un mazzo da 44 carte speciali"
    }
    return Composed(layout, parse_map(data, layout.spec), data)


def draw_layout(seed: int, players: int, columns: int = 3) -> Layout:
    """Six tiles drawn and laid from ``seed`` so that they compose for ``players``: the same
    seed always gives the same world."""
    rng = random.Random(f"hegemon-tiles:{seed}:{players}:{columns}")
    names = list(all_tiles())
    for _ in range(DRAW_ATTEMPTS):
        chosen = rng.sample(names, TILES_PER_WORLD)
        layout = layout_of(chosen, columns)
        if not border_problems(layout) and not count_problems(layout, players):
            return layout
    raise CompositionError(f"seed {seed}", [f"no matching layout found for {players} players"])


@cache
def map_board(name: str) -> Board:
    """The board a rule set's ``map`` option names: a built-in map, or a composed world."""
    if name.startswith(PREFIX):
        return compose(parse_spec(name)).board
    return builtin_map(name)


__all__ = [
    "EXAMPLE",
    "SEA",
    "Composed",
    "CompositionError",
    "Layout",
    "border_problems",
    "compose",
    "count_problems",
    "draw_layout",
    "layout_of",
    "map_board",
    "parse_spec",
]
