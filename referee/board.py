"""Board data: territories, continents, borders and cards, loaded from map files.

A map is a JSON file (see ``referee/data/maps/classic.json``)::

    {"name": "classic",
     "continents": [{"name": "Europe", "bonus": 5, "territories": ["Iceland", ...]}, ...],
     "territories": [{"name": "Iceland", "insignia": "infantry", "value": 1}, ...],
     "borders": [["Iceland", "Greenland"], ...],
     "wild_cards": 2}

Inside the engine every territory, continent and card is a small integer index, so the hot
path never hashes names. A map's deck is one card per territory (card ``i < len(territories)``
shows territory ``i``, with its insignia) plus ``wild_cards`` wild cards after them, unless the
map brings a deck of its own: a ``"cards"`` list of ``{"insignia": "infantry" | "cavalry" |
"artillery" | "wild", "extra": 0 | 1 | 2}``, card ``k`` being entry ``k``, showing no territory
(Risiko! Master's 44, ``data/decks/risiko-master.json``; docs/rules.md §7).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

INSIGNIA = ("infantry", "cavalry", "artillery")
WILD = "wild"
MAPS_DIR = Path(__file__).parent / "data" / "maps"


class MapError(ValueError):
    """A map file is unreadable or inconsistent; the message names the file and every problem."""

    def __init__(self, source: str, problems: list[str]):
        self.source = source
        self.problems = problems
        listed = "\n".join(f"  - {p}" for p in problems)
        super().__init__(f"{source}: {len(problems)} problem(s) in the map:\n{listed}")


@dataclass(frozen=True, slots=True)
class Territory:
    index: int
    name: str
    continent: int
    insignia: str
    value: int = 1


@dataclass(frozen=True, slots=True)
class Continent:
    index: int
    name: str
    bonus: int
    territories: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Board:
    """An immutable, validated map. Build one with :func:`load_map` or :func:`parse_map`."""

    name: str
    territories: tuple[Territory, ...]
    continents: tuple[Continent, ...]
    neighbours: tuple[tuple[int, ...], ...]
    adjacency: tuple[frozenset[int], ...]
    wild_cards: int
    card_insignia: tuple[str, ...]
    card_territories: tuple[int, ...]  # the territory each card shows, -1 for none
    # Risiko! Master: extra armies shown on each card (seed 003); empty: none on any card
    card_extra: tuple[int, ...] = ()

    @property
    def size(self) -> int:
        return len(self.territories)

    @property
    def card_count(self) -> int:
        return len(self.card_insignia)

    def index(self, name: str) -> int:
        """The index of the territory called ``name`` (KeyError if unknown)."""
        return _name_index(self)[name]

    def name_of(self, territory: int) -> str:
        return self.territories[territory].name

    @property
    def own_deck(self) -> bool:
        """The deck is a deck of its own (Risiko! Master's): no card shows a territory."""
        return all(t < 0 for t in self.card_territories)

    def card_territory(self, card: int) -> int:
        """The territory ``card`` shows, -1 for none (a wild card, a card of a deck of its own)."""
        return self.card_territories[card]

    def card_label(self, card: int) -> str:
        """``Alaska (infantry)``, ``wild card``, or on a deck of its own ``cavalry (+2)``."""
        shown = self.card_territories[card]
        if shown >= 0:
            t = self.territories[shown]
            return f"{t.name} ({t.insignia})"
        insignia, extra = self.card_insignia[card], self.extra_armies(card)
        label = "wild card" if insignia == WILD else insignia
        return f"{label} (+{extra})" if extra else label

    def extra_armies(self, card: int) -> int:
        """The extra armies ``card`` shows, added when it is traded (0 on classic maps)."""
        return self.card_extra[card] if card < len(self.card_extra) else 0

    def borders(self) -> list[tuple[int, int]]:
        """Every border once, as (lower index, higher index)."""
        return [(a, b) for a, ns in enumerate(self.neighbours) for b in ns if a < b]

    def total_value(self) -> int:
        return sum(t.value for t in self.territories)

    def to_dict(self) -> dict[str, Any]:
        """The map in its file form (names, not indices)."""
        names = [t.name for t in self.territories]
        return {
            "name": self.name,
            "continents": [
                {"name": c.name, "bonus": c.bonus, "territories": [names[t] for t in c.territories]}
                for c in self.continents
            ],
            "territories": [
                {"name": t.name, "insignia": t.insignia, "value": t.value} for t in self.territories
            ],
            "borders": [[names[a], names[b]] for a, b in self.borders()],
            "wild_cards": self.wild_cards,
        } | ({"cards": self.deck_entries()} if self.own_deck else {})

    def deck_entries(self) -> list[dict[str, Any]]:
        """The deck as a map file's ``"cards"`` list (card ``k`` is entry ``k``)."""
        return [
            {"insignia": ins, "extra": self.extra_armies(k)}
            for k, ins in enumerate(self.card_insignia)
        ]


@cache
def _name_index(board: Board) -> dict[str, int]:
    return {t.name: t.index for t in board.territories}


def parse_map(data: Any, source: str = "<map>") -> Board:
    """Validate map data (already decoded from JSON) and build a :class:`Board`.

    Every problem found is reported at once in one :class:`MapError`.
    """
    problems: list[str] = []
    if not isinstance(data, dict):
        raise MapError(source, ["the top level must be an object"])
    name: Any = data.get("name")  # JSON: every field is checked below before use
    if not isinstance(name, str) or not name:
        problems.append("'name' must be a non-empty string")
    raw_territories: Any = data.get("territories")
    raw_continents: Any = data.get("continents")
    raw_borders: Any = data.get("borders")
    missing = [
        key
        for key, value in (
            ("territories", raw_territories),
            ("continents", raw_continents),
            ("borders", raw_borders),
        )
        if not isinstance(value, list) or not value
    ]
    if missing:
        problems.extend(f"'{key}' must be a non-empty list" for key in missing)
        raise MapError(source, problems)

    names: list[str] = []
    insignia: list[str] = []
    values: list[int] = []
    index: dict[str, int] = {}
    for i, entry in enumerate(raw_territories):
        if (
            not isinstance(entry, dict)
            or not isinstance(entry.get("name"), str)
            or not entry["name"]
        ):
            problems.append(f"territories[{i}]: needs a non-empty 'name'")
            continue
        tname = entry["name"]
        if tname in index:
            problems.append(f"territory '{tname}': the name is used twice")
            continue
        ins = entry.get("insignia")
        if ins not in INSIGNIA:
            problems.append(
                f"territory '{tname}': insignia {ins!r} is not one of {', '.join(INSIGNIA)}"
            )
        value = entry.get("value", 1)
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            problems.append(f"territory '{tname}': value {value!r} must be a whole number >= 0")
            value = 1
        index[tname] = len(names)
        names.append(tname)
        insignia.append(ins if ins in INSIGNIA else INSIGNIA[0])
        values.append(value)

    continent_of: dict[int, int] = {}
    continents: list[tuple[str, int, list[int]]] = []
    seen_continents: set[str] = set()
    for ci, entry in enumerate(raw_continents):
        if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
            problems.append(f"continents[{ci}]: needs a 'name'")
            continue
        cname = entry["name"]
        if cname in seen_continents:
            problems.append(f"continent '{cname}': the name is used twice")
        seen_continents.add(cname)
        bonus = entry.get("bonus")
        if not isinstance(bonus, int) or isinstance(bonus, bool) or bonus < 0:
            problems.append(f"continent '{cname}': bonus {bonus!r} must be a whole number >= 0")
            bonus = 0
        members: list[int] = []
        for tname in entry.get("territories") or []:
            if not isinstance(tname, str) or tname not in index:
                problems.append(f"continent '{cname}': unknown territory '{tname}'")
                continue
            t = index[tname]
            if t in continent_of:
                other = continents[continent_of[t]][0]
                problems.append(
                    f"territory '{tname}' is in two continents: '{other}' and '{cname}'"
                )
                continue
            continent_of[t] = len(continents)
            members.append(t)
        if not members:
            problems.append(f"continent '{cname}': has no territories")
        continents.append((cname, bonus, members))
    for t, tname in enumerate(names):
        if t not in continent_of:
            problems.append(f"territory '{tname}' is in no continent")

    adjacency: list[set[int]] = [set() for _ in names]
    for bi, pair in enumerate(raw_borders):
        if not (
            isinstance(pair, list) and len(pair) == 2 and all(isinstance(p, str) for p in pair)
        ):
            problems.append(f"borders[{bi}]: must be a pair of territory names, got {pair!r}")
            continue
        a, b = pair
        unknown = [p for p in pair if p not in index]
        if unknown:
            problems.append(f"border {a} - {b}: unknown territory '{unknown[0]}'")
            continue
        if a == b:
            problems.append(f"border {a} - {b}: a territory cannot border itself")
            continue
        ia, ib = index[a], index[b]
        if ib in adjacency[ia]:
            problems.append(f"border {a} - {b}: listed twice")
        adjacency[ia].add(ib)
        adjacency[ib].add(ia)
    for t, tname in enumerate(names):
        if names and not adjacency[t]:
            problems.append(f"territory '{tname}' has no borders")
    bordered = [t for t in range(len(names)) if adjacency[t]]
    if bordered:  # territories with no borders at all are reported above
        reached = {bordered[0]}
        frontier = [bordered[0]]
        while frontier:
            for n in adjacency[frontier.pop()]:
                if n not in reached:
                    reached.add(n)
                    frontier.append(n)
        if len(reached) != len(bordered):
            cut = sorted(names[t] for t in bordered if t not in reached)
            problems.append(
                f"the map is not connected: cannot reach {', '.join(cut[:5])}"
                + (" …" if len(cut) > 5 else "")
            )
    wild = data.get("wild_cards", 2)
    if not isinstance(wild, int) or isinstance(wild, bool) or wild < 0:
        problems.append(f"'wild_cards' {wild!r} must be a whole number >= 0")
        wild = 0
    deck = [(ins, 0, t) for t, ins in enumerate(insignia)] + [(WILD, 0, -1)] * wild
    if "cards" in data:
        deck = [(ins, extra, -1) for ins, extra in parse_cards(data["cards"], problems)]
        own_wild = sum(1 for ins, _, _ in deck if ins == WILD)
        if "wild_cards" in data and wild != own_wild:
            problems.append(f"'wild_cards' {wild!r} disagrees with the {own_wild} of 'cards'")
        wild = own_wild
    if problems:
        raise MapError(source, problems)

    territories = tuple(
        Territory(i, names[i], continent_of[i], insignia[i], values[i]) for i in range(len(names))
    )
    return Board(
        name=name,
        territories=territories,
        continents=tuple(
            Continent(i, c[0], c[1], tuple(sorted(c[2]))) for i, c in enumerate(continents)
        ),
        neighbours=tuple(tuple(sorted(a)) for a in adjacency),
        adjacency=tuple(frozenset(a) for a in adjacency),
        wild_cards=wild,
        card_insignia=tuple(ins for ins, _, _ in deck),
        card_territories=tuple(t for _, _, t in deck),
        card_extra=tuple(e for _, e, _ in deck) if any(e for _, e, _ in deck) else (),
    )


def parse_cards(raw: Any, problems: list[str]) -> list[tuple[str, int]]:
    """A deck of its own (a map's or a deck file's ``"cards"``): (insignia, extra armies) per
    card, card ``k`` being entry ``k``; every problem found is added to ``problems``."""
    if not isinstance(raw, list) or not raw:
        problems.append("'cards' must be a non-empty list")
        return []
    cards: list[tuple[str, int]] = []
    for k, entry in enumerate(raw):
        fields = entry if isinstance(entry, dict) else {}
        ins, extra = fields.get("insignia"), fields.get("extra", 0)
        if ins not in (*INSIGNIA, WILD):
            problems.append(
                f"cards[{k}]: insignia {ins!r} is not one of {', '.join((*INSIGNIA, WILD))}"
            )
            ins = WILD
        if extra not in (0, 1, 2) or isinstance(extra, bool):
            problems.append(f"cards[{k}]: extra {extra!r} must be 0, 1 or 2")
            extra = 0
        if fields.get("id", k) != k:
            problems.append(f"cards[{k}]: id {fields['id']!r} must be {k}, its place in the list")
        cards.append((ins, extra))
    return cards


def load_map(path: str | Path) -> Board:
    """Load and validate a map file; raises :class:`MapError` naming the file on any problem."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise MapError(str(path), [f"cannot read the file: {exc.strerror or exc}"]) from None
    except UnicodeDecodeError as exc:
        raise MapError(str(path), [f"not UTF-8 text: {exc.reason} at byte {exc.start}"]) from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise MapError(str(path), [f"not valid JSON: {exc.msg} at line {exc.lineno}"]) from None
    return parse_map(data, str(path))


def available_maps() -> list[str]:
    return sorted(p.stem for p in MAPS_DIR.glob("*.json"))


@cache
def builtin_map(name: str) -> Board:
    """A map shipped with hegemon, by name (e.g. ``classic``)."""
    path = MAPS_DIR / f"{name}.json"
    if not path.is_file():
        raise MapError(
            name, [f"no built-in map called '{name}' (available: {', '.join(available_maps())})"]
        )
    return load_map(path)
