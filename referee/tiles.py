"""Risiko! Master tiles (docs/rules.md §7, docs/map-data.md §5): hegemon's 12 quadrants as data.

Seed 003 prints 12 quadrants that are laid six at a time into a world; the printed tiles are not
public, so ``referee/data/tiles/*.json`` holds tiles of hegemon's own design in that spirit. Six
reuse the names and total values the rulebook's victory example shows (Alfa 23, Delta 31,
Omega 28, Tau 32, Epsilon 45, Sigma 16; together 175, 60 territories). A tile file::

    {"name": "Tau", "letter": "T", "bonus": 5, "total": 32,
     "territories": [{"name": "Tekis", "code": "TKT", "value": 3, "insignia": "infantry",
                      "at": [0.2, 0.23]}, ...],
     "borders": [["Tekis", "Geme"], ...],       # land borders inside the tile
     "links": [["Cinis", "Peler"]],             # dotted lines: borders between non-touching ones
     "edges": {"north": [...4 sectors...], "east": [...], "south": [...], "west": [...]}}

Each edge is cut into :data:`SECTORS` squares, listed west to east (north, south) or north to
south (east, west). A sector is ``"land:NAME"`` (territory NAME reaches the tile's edge there and
meets the neighbouring tile's land), ``"coast:NAME"`` (a square of the sea border band that
NAME's coast touches) or ``"sea"`` (open sea, no coast). ``code`` is the territory's initials
and its quadrant's letter; ``at`` is where its capital is drawn, in tile units. The cards are not
the territories': a composed world plays with the 44 of :mod:`hegemon.referee.decks`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from .board import INSIGNIA, MapError

TILES_DIR = Path(__file__).parent / "data" / "tiles"
SIDES = ("north", "east", "south", "west")
SECTORS = 4
LAND, COAST, SEA = "land", "coast", "sea"


@dataclass(frozen=True, slots=True)
class TileTerritory:
    name: str
    code: str
    value: int
    insignia: str
    at: tuple[float, float]


@dataclass(frozen=True, slots=True)
class Sector:
    """One square of a tile's edge: ``kind`` is land, coast or sea; ``territory`` names the
    territory reaching (land) or touching (coast) it, "" for open sea."""

    kind: str
    territory: str


@dataclass(frozen=True, slots=True)
class Tile:
    """One quadrant: a continent of territories with its bonus, total value and four edges."""

    name: str
    letter: str
    bonus: int
    total: int
    territories: tuple[TileTerritory, ...]
    borders: tuple[tuple[str, str], ...]
    links: tuple[tuple[str, str], ...]
    edges: dict[str, tuple[Sector, ...]]

    def territory_names(self) -> list[str]:
        return [t.name for t in self.territories]


def _sector(raw: Any, where: str, names: set[str], problems: list[str]) -> Sector:
    if raw == SEA:
        return Sector(SEA, "")
    kind, _, name = str(raw).partition(":")
    if kind not in (LAND, COAST) or name not in names:
        problems.append(f"{where}: {raw!r} must be 'sea', 'land:NAME' or 'coast:NAME' of this tile")
        return Sector(SEA, "")
    return Sector(kind, name)


def _whole(value: Any, least: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= least


def parse_tile(data: Any, source: str = "<tile>") -> Tile:
    """Validate tile data (decoded JSON) and build a :class:`Tile`; every problem found is
    reported at once in one :class:`~hegemon.referee.board.MapError`."""
    if not isinstance(data, dict):
        raise MapError(source, ["the top level must be an object"])
    problems: list[str] = []
    name, letter = data.get("name"), data.get("letter")
    if not isinstance(name, str) or not name:
        problems.append("'name' must be a non-empty string")
        name = "?"
    if not isinstance(letter, str) or len(letter) != 1:
        problems.append("'letter' must be one character")
        letter = "?"
    bonus: Any = data.get("bonus")  # JSON: checked below before use
    total: Any = data.get("total")
    if not _whole(bonus, 0):
        problems.append(f"'bonus' {bonus!r} must be a whole number >= 0")
        bonus = 0
    territories: list[TileTerritory] = []
    codes: set[str] = set()
    for i, t in enumerate(data.get("territories") or []):
        where = f"territories[{i}]"
        if not isinstance(t, dict) or not isinstance(t.get("name"), str) or not t["name"]:
            problems.append(f"{where}: needs a non-empty 'name'")
            continue
        code, ins = t.get("code"), t.get("insignia")
        value: Any = t.get("value")
        at = t.get("at")
        if not isinstance(code, str) or not code.endswith(str(letter)) or code in codes:
            problems.append(
                f"{where}: code {code!r} must be unique and end in the letter {letter!r}"
            )
        codes.add(str(code))
        if not _whole(value, 1):
            problems.append(f"{where}: value {value!r} must be a whole number >= 1")
            value = 1
        if ins not in INSIGNIA:
            problems.append(f"{where}: insignia {ins!r} is not one of {', '.join(INSIGNIA)}")
            ins = INSIGNIA[0]
        if not (
            isinstance(at, list) and len(at) == 2 and all(isinstance(c, (int, float)) for c in at)
        ):
            problems.append(f"{where}: 'at' must be [x, y]")
            at = [0.5, 0.5]
        territories.append(
            TileTerritory(t["name"], str(code), int(value), ins, (float(at[0]), float(at[1])))
        )
    names = {t.name for t in territories}
    if not territories:
        problems.append("'territories' must be a non-empty list")
    elif len(names) != len(territories):
        problems.append("a territory name is used twice")
    if _whole(total, 1) and total != sum(t.value for t in territories):
        problems.append(
            f"'total' {total} is not the sum of the territory values "
            f"({sum(t.value for t in territories)})"
        )
    elif not _whole(total, 1):
        problems.append(f"'total' {total!r} must be a whole number >= 1")
    pairs: dict[str, list[tuple[str, str]]] = {"borders": [], "links": []}
    for key, found in pairs.items():
        for pair in data.get(key) or []:
            if not (isinstance(pair, list) and len(pair) == 2 and set(pair) <= names):
                problems.append(f"{key}: {pair!r} must be two territories of this tile")
            elif pair[0] == pair[1]:
                problems.append(f"{key}: {pair!r} joins a territory to itself")
            else:
                found.append((pair[0], pair[1]))
    edges: dict[str, tuple[Sector, ...]] = {}
    raw_edges = data.get("edges")
    for side in SIDES:
        raw = raw_edges.get(side) if isinstance(raw_edges, dict) else None
        if not isinstance(raw, list) or len(raw) != SECTORS:
            problems.append(f"edges.{side}: must list {SECTORS} sectors")
            edges[side] = (Sector(SEA, ""),) * SECTORS
            continue
        edges[side] = tuple(
            _sector(s, f"edges.{side}[{k}]", names, problems) for k, s in enumerate(raw)
        )
        # the middle sectors always hold land or a coast, so that every two tiles laid side by
        # side are joined (a composed world is always connected)
        if any(edges[side][k].kind == SEA for k in (1, 2)):
            problems.append(f"edges.{side}: the middle sectors (1, 2) must be land or coast")
    _check_connected(names, pairs["borders"] + pairs["links"], problems)
    if problems:
        raise MapError(source, problems)
    return Tile(
        name,
        letter,
        int(bonus),
        int(total),
        tuple(territories),
        tuple(pairs["borders"]),
        tuple(pairs["links"]),
        edges,
    )


def _check_connected(names: set[str], pairs: list[tuple[str, str]], problems: list[str]) -> None:
    if not names:
        return
    reached = {min(names)}
    grew = True
    while grew:
        grew = False
        for a, b in pairs:
            if (a in reached) != (b in reached):
                reached |= {a, b}
                grew = True
    if reached != names:
        problems.append(
            f"the tile is not connected: cannot reach {', '.join(sorted(names - reached))}"
        )


def load_tile(path: Path) -> Tile:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise MapError(str(path), [f"cannot read the tile: {exc}"]) from None
    return parse_tile(data, str(path))


@cache
def all_tiles() -> dict[str, Tile]:
    """The 12 built-in tiles by name, in a fixed order (by file name). Territory names and
    codes are unique across all of them, so any six compose without clashes."""
    tiles = [load_tile(p) for p in sorted(TILES_DIR.glob("*.json"))]
    seen: dict[str, str] = {}
    problems = []
    for tile in tiles:
        for t in tile.territories:
            for key in (t.name, t.code):
                if key in seen and seen[key] != tile.name:
                    problems.append(f"{key} is used by tiles {seen[key]} and {tile.name}")
                seen[key] = tile.name
    if problems:
        raise MapError(str(TILES_DIR), problems)
    return {t.name: t for t in tiles}


def tile(name: str) -> Tile:
    """A built-in tile by name (case-insensitive); MapError naming the tiles if unknown."""
    tiles = all_tiles()
    for key, found in tiles.items():
        if key.lower() == name.lower():
            return found
    raise MapError(name, [f"no tile called '{name}' (tiles: {', '.join(tiles)})"])
