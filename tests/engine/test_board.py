"""The map loader: the classic map's data (docs/map-data.md §1) and each kind of broken map file."""

from __future__ import annotations

import copy
import json
from collections import Counter

import pytest

from hegemon.referee import MapError, builtin_map, load_map, parse_map
from hegemon.referee.board import MAPS_DIR

CLASSIC = MAPS_DIR / "classic.json"

# docs/map-data.md §1.1
CONTINENTS = {
    "North America": (9, 5),
    "South America": (4, 2),
    "Europe": (7, 5),
    "Africa": (6, 3),
    "Asia": (12, 7),
    "Australia": (4, 2),
}

# docs/map-data.md §1.3, the 83 borders
BORDERS = """
Alaska;Northwest Territory|Alaska;Alberta|Alaska;Kamchatka|Northwest Territory;Greenland
Northwest Territory;Alberta|Northwest Territory;Ontario|Greenland;Ontario|Greenland;Quebec
Greenland;Iceland|Alberta;Ontario|Alberta;Western United States|Ontario;Quebec
Ontario;Western United States|Ontario;Eastern United States|Quebec;Eastern United States
Western United States;Eastern United States|Western United States;Central America
Eastern United States;Central America|Central America;Venezuela|Venezuela;Peru|Venezuela;Brazil
Peru;Brazil|Peru;Argentina|Brazil;Argentina|Brazil;North Africa|Iceland;Scandinavia
Iceland;Great Britain|Scandinavia;Great Britain|Scandinavia;Northern Europe|Scandinavia;Ukraine
Great Britain;Northern Europe|Great Britain;Western Europe|Northern Europe;Western Europe
Northern Europe;Southern Europe|Northern Europe;Ukraine|Western Europe;Southern Europe
Western Europe;North Africa|Southern Europe;Ukraine|Southern Europe;North Africa
Southern Europe;Egypt|Southern Europe;Middle East|Ukraine;Ural|Ukraine;Afghanistan
Ukraine;Middle East|North Africa;Egypt|North Africa;East Africa|North Africa;Congo
Egypt;East Africa|Egypt;Middle East|East Africa;Congo|East Africa;South Africa
East Africa;Madagascar|East Africa;Middle East|Congo;South Africa|South Africa;Madagascar
Ural;Siberia|Ural;Afghanistan|Ural;China|Siberia;Yakutsk|Siberia;Irkutsk|Siberia;Mongolia
Siberia;China|Yakutsk;Kamchatka|Yakutsk;Irkutsk|Kamchatka;Irkutsk|Kamchatka;Mongolia
Kamchatka;Japan|Irkutsk;Mongolia|Mongolia;Japan|Mongolia;China|Afghanistan;China
Afghanistan;Middle East|Afghanistan;India|China;India|China;Siam|Middle East;India|India;Siam
Siam;Indonesia|Indonesia;New Guinea|Indonesia;Western Australia|New Guinea;Western Australia
New Guinea;Eastern Australia|Western Australia;Eastern Australia
"""
EXPECTED_BORDERS = {frozenset(p.split(";")) for p in BORDERS.replace("\n", "|").split("|") if p}


@pytest.fixture(scope="module")
def board():
    return load_map(CLASSIC)


# ---------------------------------------------------------------------- the classic map
def test_classic_has_42_territories_in_6_continents(board):
    assert board.size == 42
    assert len({t.name for t in board.territories}) == 42
    got = {c.name: (len(c.territories), c.bonus) for c in board.continents}
    assert got == CONTINENTS
    every = sorted(t for c in board.continents for t in c.territories)
    assert every == list(range(42))


def test_classic_has_the_83_borders_of_mapdata(board):
    assert EXPECTED_BORDERS and len(EXPECTED_BORDERS) == 83
    got = {frozenset((board.name_of(a), board.name_of(b))) for a, b in board.borders()}
    assert got == EXPECTED_BORDERS
    assert sum(len(n) for n in board.neighbours) == 166


def test_adjacency_is_symmetric_and_matches_neighbours(board):
    for t in range(board.size):
        assert set(board.neighbours[t]) == board.adjacency[t]
        for n in board.neighbours[t]:
            assert t in board.adjacency[n]
        assert t not in board.adjacency[t]


@pytest.mark.parametrize(
    "a, b",
    [
        ("Alaska", "Kamchatka"),
        ("Siam", "Indonesia"),
        ("Brazil", "North Africa"),
        ("Egypt", "Southern Europe"),
        ("Great Britain", "Western Europe"),
        ("East Africa", "Middle East"),
    ],
)
def test_sea_lines_printed_in_the_rulebooks_are_borders(board, a, b):
    assert board.index(b) in board.adjacency[board.index(a)]


def test_classic_cards_are_14_of_each_insignia_plus_2_wild(board):
    assert board.card_count == 44
    assert board.wild_cards == 2
    assert Counter(board.card_insignia) == {
        "infantry": 14,
        "cavalry": 14,
        "artillery": 14,
        "wild": 2,
    }
    assert board.card_label(43) == board.card_label(42) == "wild card"
    assert board.card_label(5).startswith(f"{board.name_of(5)} (")
    assert board.card_insignia[board.index("Alaska")] == "infantry"
    assert board.card_insignia[board.index("Greenland")] == "cavalry"
    assert board.card_insignia[board.index("Siam")] == "artillery"


def test_builtin_map_and_round_trip(board):
    assert builtin_map("classic") == board
    assert parse_map(board.to_dict()) == board
    with pytest.raises(MapError, match=r"no built-in map called 'atlantis'.*classic"):
        builtin_map("atlantis")


# ---------------------------------------------------------------------- broken maps
def classic_data():
    return json.loads(CLASSIC.read_text(encoding="utf-8"))


def write(tmp_path, data, name="broken.json"):
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


def problems_of(path):
    with pytest.raises(MapError) as info:
        load_map(path)
    err = info.value
    assert str(path) in str(err), "the message names the file"
    assert err.source == str(path)
    assert len(err.problems) >= 1
    for p in err.problems:
        assert p in str(err)
    return err.problems


def test_missing_file(tmp_path):
    problems = problems_of(tmp_path / "nowhere.json")
    assert "cannot read" in problems[0]


def test_bad_json(tmp_path):
    path = write(tmp_path, '{"name": "x", "territories": [')
    problems = problems_of(path)
    assert "not valid JSON" in problems[0] and "line 1" in problems[0]


def test_a_directory_is_not_a_map(tmp_path):
    assert "cannot read" in problems_of(tmp_path)[0]


def test_not_utf8(tmp_path):
    path = tmp_path / "latin1.json"
    path.write_bytes('{"name": "Br\u00e9sil"}'.encode("latin-1"))
    assert "UTF-8" in problems_of(path)[0]


@pytest.mark.parametrize("text", ["[]", '"a map"', "42", "null"])
def test_top_level_not_an_object(tmp_path, text):
    assert "object" in problems_of(write(tmp_path, text))[0]


def test_missing_sections_are_all_named(tmp_path):
    problems = problems_of(write(tmp_path, {"name": "x"}))
    joined = "\n".join(problems)
    for key in ("territories", "continents", "borders"):
        assert f"'{key}'" in joined


def test_unknown_border_names(tmp_path):
    data = classic_data()
    data["borders"].append(["Alaska", "Atlantis"])
    data["borders"].append(["Narnia", "Peru"])
    problems = problems_of(write(tmp_path, data))
    assert any("Atlantis" in p and "unknown territory" in p for p in problems)
    assert any("Narnia" in p and "unknown territory" in p for p in problems)
    assert len(problems) == 2


def test_border_listed_in_both_directions_is_reported(tmp_path):
    data = classic_data()
    data["borders"].append(["Kamchatka", "Alaska"])
    problems = problems_of(write(tmp_path, data))
    assert problems == ["border Kamchatka - Alaska: listed twice"]


def test_border_listed_one_way_is_symmetric():
    board = parse_map(classic_data())
    a, k = board.index("Alaska"), board.index("Kamchatka")
    assert k in board.adjacency[a] and a in board.adjacency[k]


@pytest.mark.parametrize(
    "pair",
    [["Alaska"], ["Alaska", "Peru", "Japan"], "Alaska;Peru", ["Alaska", 3], ["Peru", "Peru"]],
)
def test_malformed_borders(tmp_path, pair):
    data = classic_data()
    data["borders"].append(pair)
    problems = problems_of(write(tmp_path, data))
    assert len(problems) == 1
    assert "border" in problems[0]


def test_territory_in_two_continents_and_in_none(tmp_path):
    data = classic_data()
    europe = next(c for c in data["continents"] if c["name"] == "Europe")
    asia = next(c for c in data["continents"] if c["name"] == "Asia")
    asia["territories"].append("Iceland")  # Iceland: Europe and Asia
    europe["territories"].remove("Ukraine")  # Ukraine: no continent
    problems = problems_of(write(tmp_path, data))
    assert any(
        "Iceland" in p and "two continents" in p and "Europe" in p and "Asia" in p for p in problems
    )
    assert any("Ukraine" in p and "no continent" in p for p in problems)


def test_continent_names_an_unknown_territory(tmp_path):
    data = classic_data()
    data["continents"][0]["territories"].append("Atlantis")
    data["continents"][0]["territories"].append(["Alaska"])
    problems = problems_of(write(tmp_path, data))
    assert any("North America" in p and "Atlantis" in p for p in problems)
    assert len(problems) == 2


def test_duplicate_names(tmp_path):
    data = classic_data()
    data["territories"].append({"name": "Peru", "insignia": "cavalry"})
    data["continents"].append(dict(data["continents"][0]))
    problems = problems_of(write(tmp_path, data))
    assert any("'Peru'" in p and "used twice" in p for p in problems)
    assert any("'North America'" in p and "used twice" in p for p in problems)


def test_bad_fields_are_each_reported(tmp_path):
    data = classic_data()
    data["territories"][0]["insignia"] = "navy"
    data["territories"][1]["value"] = -1
    data["continents"][1]["bonus"] = "two"
    data["wild_cards"] = True
    data["name"] = ""
    problems = problems_of(write(tmp_path, data))
    joined = "\n".join(problems)
    assert "'navy'" in joined and "Alaska" in joined
    assert "Northwest Territory" in joined and "-1" in joined
    assert "South America" in joined and "'two'" in joined
    assert "wild_cards" in joined
    assert "'name'" in joined
    assert len(problems) == 5


def test_a_map_may_bring_a_deck_of_its_own(tmp_path):
    """A ``cards`` list replaces the card per territory (Risiko! Master's 44 on its worlds)."""
    data = classic_data()
    data["cards"] = [{"insignia": "cavalry", "extra": 2}, {"insignia": "wild"}] * 3
    del data["wild_cards"]  # counted from the cards
    board = load_map(write(tmp_path, data, "own.json"))
    assert board.own_deck and board.card_count == 6 and board.wild_cards == 3
    assert board.card_label(0) == "cavalry (+2)" and board.card_label(1) == "wild card"
    assert board.card_territory(0) == -1 and board.extra_armies(0) == 2


def test_a_bad_deck_of_its_own_is_reported_card_by_card(tmp_path):
    data = classic_data()
    data["cards"] = [{"insignia": "navy"}, {"insignia": "wild", "extra": 3}, {"id": 7}]
    problems = problems_of(write(tmp_path, data))
    assert any(p.startswith("cards[0]") and "'navy'" in p for p in problems)
    assert any(p.startswith("cards[1]") and "extra 3" in p for p in problems)
    assert any(p.startswith("cards[2]") and "id 7 must be 2" in p for p in problems)
    assert any("'wild_cards' 2 disagrees" in p for p in problems)


def test_disconnected_map(tmp_path):
    data = classic_data()
    # cut Australia off: remove Siam - Indonesia
    data["borders"] = [b for b in data["borders"] if set(b) != {"Siam", "Indonesia"}]
    problems = problems_of(write(tmp_path, data))
    assert len(problems) == 1
    assert "not connected" in problems[0]
    assert "Indonesia" in problems[0] or "Siam" in problems[0]


def test_disconnected_map_is_reported_with_other_problems(tmp_path):
    data = classic_data()
    data["borders"] = [b for b in data["borders"] if set(b) != {"Siam", "Indonesia"}]
    data["borders"].append(["Alaska", "Atlantis"])
    problems = problems_of(write(tmp_path, data))
    assert any("Atlantis" in p for p in problems)
    assert any("not connected" in p for p in problems), "every problem is reported at once"


def test_territory_without_borders(tmp_path):
    data = classic_data()
    data["borders"] = [b for b in data["borders"] if "Madagascar" not in b]
    problems = problems_of(write(tmp_path, data))
    assert any("Madagascar" in p and "no borders" in p for p in problems)


def test_every_problem_of_a_thoroughly_broken_file_is_listed(tmp_path):
    data = copy.deepcopy(classic_data())
    data["borders"].append(["Alaska", "Atlantis"])
    data["territories"].append({"name": "Peru", "insignia": "cavalry"})
    data["continents"][2]["territories"].remove("Iceland")
    data["continents"][3]["territories"].append("Brazil")
    problems = problems_of(write(tmp_path, data))
    assert len(problems) == 4, problems
