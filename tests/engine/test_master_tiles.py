"""Risiko! Master tiles and the map composer (seed 003, "I QUADRANTI"; docs/rules.md §7;
docs/map-data.md §5)."""

from __future__ import annotations

import copy
import json
from collections import deque

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hegemon.referee import Game, make_rules
from hegemon.referee.board import MapError
from hegemon.referee.compose import (
    EXAMPLE,
    CompositionError,
    compose,
    draw_layout,
    layout_of,
    parse_spec,
)
from hegemon.referee.tiles import LAND, SECTORS, TILES_DIR, all_tiles, parse_tile

ROW_NAMES = list(all_tiles())


def test_twelve_tiles_with_the_rulebook_names_and_totals():
    """Seed 003 "COMPONENTI DEL GIOCO": "12 'quadranti'"; the victory example "23 Alfa + 31
    Delta + 28 Omega + 32 Tau + 45 Epsilon + 16 Sigma = 175"."""
    tiles = all_tiles()
    assert len(tiles) == 12
    example = {"Alfa": 23, "Delta": 31, "Omega": 28, "Tau": 32, "Epsilon": 45, "Sigma": 16}
    for name, total in example.items():
        assert tiles[name].total == total == sum(t.value for t in tiles[name].territories)
    assert sum(example.values()) == 175


def test_codes_are_initials_and_quadrant_letter():
    """Seed 003: "una sigla (composta dalle lettere iniziali del suo nome e di quello del
    Quadrante di appartenenza)"."""
    for tile in all_tiles().values():
        assert tile.letter == tile.name[0]
        for t in tile.territories:
            assert t.code[0] == t.name[0].upper() and t.code[-1] == tile.letter


def test_a_broken_tile_is_refused_with_every_reason():
    data = json.loads((TILES_DIR / "tau.json").read_text())
    bad = copy.deepcopy(data)
    bad["total"] += 1
    bad["edges"]["east"][1] = "land:Nowhere"
    bad["territories"][0]["value"] = 0
    with pytest.raises(MapError) as info:
        parse_tile(bad, "tau-broken")
    text = str(info.value)
    assert "'total'" in text and "edges.east[1]" in text and "value 0" in text


def test_the_example_world_is_175_points_on_60_territories():
    composed = compose(parse_spec(EXAMPLE))
    assert composed.board.total_value() == 175
    assert composed.board.size == 60  # a multiple of 3, 4, 5 and 6 players
    assert [c.bonus for c in composed.board.continents] == [
        all_tiles()[c.name].bonus for c in composed.board.continents
    ]


def test_sea_borders_touch_edge_to_edge_not_diagonally():
    """Seed 003 "Confini marini": "considerati confinanti fra di loro se hanno almeno un
    settore adiacente (non in diagonale)"."""
    layout = parse_spec(EXAMPLE)
    composed = compose(layout)
    expected = set()
    diagonal_only = set()
    for a, side_a, b, side_b in layout.meetings():
        ea, eb = all_tiles()[a].edges[side_a], all_tiles()[b].edges[side_b]
        for k in range(SECTORS):
            if ea[k].kind == eb[k].kind == "coast":
                expected.add(frozenset((ea[k].territory, eb[k].territory)))
            for j in (k - 1, k + 1):
                if 0 <= j < SECTORS and ea[k].kind == eb[j].kind == "coast":
                    diagonal_only.add(frozenset((ea[k].territory, eb[j].territory)))
    sea = {frozenset(p) for p in composed.data["sea_borders"]}
    assert sea == expected
    board = composed.board
    for pair in diagonal_only - expected:
        a, b = sorted(pair)
        if not _tile_border(a, b) and not _land_or_sea(composed, a, b):
            assert board.index(b) not in board.adjacency[board.index(a)]


def _tile_border(a: str, b: str) -> bool:
    return any({a, b} == set(p) for t in all_tiles().values() for p in t.borders + t.links)


def _land_or_sea(composed, a: str, b: str) -> bool:
    return any({a, b} == set(p) for p in composed.data["borders"] if list(p) in ([a, b], [b, a]))


def test_dotted_lines_are_borders():
    """Seed 003: "collegati fra di loro da linee tratteggiate nere. Questi territori sono
    considerati, a tutti gli effetti, confinanti"."""
    composed = compose(parse_spec(EXAMPLE))
    board = composed.board
    assert composed.data["links"]
    for a, b in composed.data["links"]:
        assert board.index(b) in board.adjacency[board.index(a)]


def _oracle_refused(names: list[str], players: int) -> bool:
    """Refusal computed straight from the edge data, independently of the composer."""
    rows = [names[:3], names[3:]]
    tiles = all_tiles()
    pairs = []
    for r, row in enumerate(rows):
        for c in range(3):
            pairs.append((tiles[row[c]].edges["east"], tiles[row[(c + 1) % 3]].edges["west"]))
            if r == 0:
                pairs.append((tiles[row[c]].edges["south"], tiles[rows[1][c]].edges["north"]))
    mismatch = any((x[k].kind == LAND) != (y[k].kind == LAND) for x, y in pairs for k in range(4))
    count = sum(len(tiles[n].territories) for n in names)
    return mismatch or count % players != 0


def _connected(board) -> bool:
    seen = {0}
    queue = deque([0])
    while queue:
        for n in board.neighbours[queue.popleft()]:
            if n not in seen:
                seen.add(n)
                queue.append(n)
    return len(seen) == board.size


@settings(max_examples=150, deadline=None)
@given(
    st.permutations(ROW_NAMES).map(lambda p: list(p[:6])),
    st.integers(min_value=3, max_value=6),
)
def test_composition_is_refused_exactly_when_the_rules_say(names, players):
    """Seed 003 "PREPARAZIONE DEL GIOCO": "facendo in modo che il totale dei territori in gioco
    sia multiplo del numero dei giocatori e che tutti i confini siano fra di loro coerenti"."""
    layout = layout_of(names)
    refused = _oracle_refused(names, players)
    if refused:
        with pytest.raises(CompositionError):
            compose(layout, players)
        return
    board = compose(layout, players).board
    assert all(a in board.adjacency[b] for a in range(board.size) for b in board.adjacency[a])
    assert _connected(board)
    assert board.size % players == 0


@pytest.mark.parametrize("seed", range(40))
def test_drawn_worlds_wrap_east_west_only(seed):
    """Seed 003: "i bordi esterni EST-OVEST sono fra di loro adiacenti, al contrario di quelli
    NORD-SUD"."""
    players = 3 + seed % 4
    layout = draw_layout(seed, players)
    assert draw_layout(seed, players) == layout  # the same seed, the same world
    composed = compose(layout, players)
    board = composed.board
    tiles = all_tiles()
    tile_of = {board.name_of(t): c.name for c in board.continents for t in c.territories}
    rows = layout.rows
    pos = {name: (r, c) for r, row in enumerate(rows) for c, name in enumerate(row)}
    wrapped = False
    for a, b in board.borders():
        ta, tb = tile_of[board.name_of(a)], tile_of[board.name_of(b)]
        if ta == tb:
            continue
        (ra, ca), (rb, cb) = pos[ta], pos[tb]
        if ra == rb:
            assert (ca - cb) % 3 in (1, 2)
            wrapped |= {ca, cb} == {0, 2}
        else:
            assert ca == cb and abs(ra - rb) == 1  # never top row to bottom row's south
    assert wrapped
    # every border between the rows comes from a south edge meeting the north edge below it,
    # never from the world's north rim meeting its south rim
    vertical = {
        frozenset((x.territory, y.territory))
        for c in range(3)
        for x, y in zip(
            tiles[rows[0][c]].edges["south"], tiles[rows[1][c]].edges["north"], strict=True
        )
    }
    for a, b in board.borders():
        ta, tb = tile_of[board.name_of(a)], tile_of[board.name_of(b)]
        if ta != tb and pos[ta][0] != pos[tb][0]:
            assert frozenset((board.name_of(a), board.name_of(b))) in vertical


def test_the_map_option_takes_a_composed_world_and_refuses_a_bad_one():
    rules = make_rules("classic", {"map": EXAMPLE})
    assert Game(rules, players=4, seed=1).board.total_value() == 175
    from hegemon.referee.rules import RulesError

    with pytest.raises(RulesError, match="is land but"):
        make_rules("classic", {"map": "tiles:Tau,Alfa,Epsilon/Omega,Delta,Sigma"})
