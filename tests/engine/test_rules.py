"""Rule-set presets and options (docs/rules.md §6): the table, overrides, every bad input."""

from __future__ import annotations

import pytest

from hegemon.referee import PRESETS, RulesError, make_rules
from hegemon.referee.rules import OPTIONS, parse_overrides, rules_from_dict, with_options

# docs/rules.md §6, a column per preset ("on (2 per turn at most)" is per_turn, plain "on" per_set)
TABLE = {
    "setup": ("claim", "claim", "deal"),
    "first_player": ("first_placer", "reroll", "random"),
    "card_values": ("escalating", "golden_cavalry", "escalating"),
    "card_territory_bonus": ("per_turn", "off", "per_set"),
    "traded_cards": ("discard", "discard", "bottom"),
    "must_trade_at": (5, 5, 5),
    "defender_dice": ("choice", "choice", "choice"),
    "defender_two_dice_from": (2, 2, 3),
    "elimination_trade": ("immediate", "immediate", "next_turn"),
    "elimination_trade_at": (6, 5, 5),
    "fortify": ("adjacent", "connected", "adjacent"),
}
COLUMNS = ("classic", "classic-2004", "classic-2000")


@pytest.mark.parametrize("column, preset", list(enumerate(COLUMNS)))
def test_presets_match_the_rules_table(column, preset):
    rules = make_rules(preset)
    assert rules.preset == preset
    assert rules.map == "classic"
    assert rules.turn_limit == 0
    for option, values in TABLE.items():
        assert getattr(rules, option) == values[column], option
    assert rules.overridden() == {}


def test_every_option_of_the_table_is_an_option():
    assert set(TABLE) <= set(OPTIONS)
    assert set(COLUMNS) <= set(PRESETS)


@pytest.mark.parametrize("preset", COLUMNS)
@pytest.mark.parametrize(
    "option, value",
    [
        ("fortify", "connected"),
        ("card_values", "insignia"),
        ("must_trade_at", 6),
        ("defender_two_dice_from", 3),
        ("turn_limit", 50),
        ("setup", "deal"),
        ("elimination_trade", "next_turn"),
    ],
)
def test_override_one_option_by_name(preset, option, value):
    rules = make_rules(preset, {option: value})
    assert getattr(rules, option) == value
    base = make_rules(preset)
    for other in OPTIONS:
        if other != option:
            assert getattr(rules, other) == getattr(base, other)
    expected = {} if getattr(base, option) == value else {option: value}
    assert rules.overridden() == expected


def test_overrides_from_a_command_line():
    overrides = parse_overrides(["fortify=connected", " turn_limit = 12 "])
    rules = make_rules("classic", overrides)
    assert rules.fortify == "connected"
    assert rules.turn_limit == 12
    with pytest.raises(RulesError, match="NAME=VALUE"):
        parse_overrides(["fortify"])


def test_rules_round_trip_through_a_dict():
    rules = make_rules("classic-2004", {"turn_limit": 9, "card_values": "insignia"})
    assert rules_from_dict(rules.to_dict()) == rules
    with pytest.raises(RulesError):
        rules_from_dict({"fortify": "adjacent"})


def test_unknown_preset_lists_the_presets():
    with pytest.raises(RulesError) as info:
        make_rules("risk-2525")
    message = str(info.value)
    assert "risk-2525" in message
    for preset in COLUMNS:
        assert preset in message


def test_unknown_option_lists_the_options():
    with pytest.raises(RulesError) as info:
        make_rules("classic", {"fortiffy": "adjacent"})
    message = str(info.value)
    assert "fortiffy" in message
    for option in ("fortify", "card_values", "turn_limit", "setup"):
        assert option in message
    with pytest.raises(RulesError, match="fortiffy"):
        with_options(make_rules("classic"), fortiffy="adjacent")


@pytest.mark.parametrize(
    "option, value, allowed",
    [
        ("fortify", "teleport", ("adjacent", "connected")),
        ("card_values", "fixed", ("escalating", "golden_cavalry", "insignia")),
        ("setup", True, ("claim", "deal")),
        ("card_territory_bonus", "on", ("off", "per_set", "per_turn")),
        ("must_trade_at", -1, ("0..10",)),
        ("must_trade_at", 11, ("0..10",)),
        ("defender_two_dice_from", 4, ("2..3",)),
        ("elimination_trade_at", "five", ("5..6",)),
        ("turn_limit", -1, ("0..100000",)),
        ("turn_limit", 2.5, ("0..100000",)),
        ("turn_limit", True, ("0..100000",)),
        ("turn_limit", None, ("0..100000",)),
        ("turn_limit", float("inf"), ("0..100000",)),
        ("turn_limit", float("nan"), ("0..100000",)),
        ("turn_limit", [3], ("0..100000",)),
    ],
)
def test_bad_values_list_what_is_allowed(option, value, allowed):
    with pytest.raises(RulesError) as info:
        make_rules("classic", {option: value})
    message = str(info.value)
    assert option in message
    for word in allowed:
        assert word in message
    with pytest.raises(RulesError):
        with_options(make_rules("classic"), **{option: value})


def test_numbers_given_as_text_are_accepted():
    assert make_rules("classic", {"turn_limit": "40"}).turn_limit == 40
    assert make_rules("classic", {"must_trade_at": 6.0}).must_trade_at == 6


def test_with_options_validates_and_copies():
    base = make_rules("classic")
    changed = with_options(base, fortify="connected", turn_limit="7")
    assert changed.fortify == "connected" and changed.turn_limit == 7
    assert base.fortify == "adjacent" and base.turn_limit == 0
