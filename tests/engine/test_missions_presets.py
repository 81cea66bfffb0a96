"""The presets of issue 11 as rule sets: listed and described (``hegemon rules``), built from
their edition's core preset (docs/rules.md §6), and written to records so that a classic record
stays what it was before these options existed."""

from __future__ import annotations

import pytest

from hegemon.referee.rules import PRESET_HELP, PRESETS, make_rules, rules_from_dict

NEW = ("mission-2000", "mission-2004", "capital-2000")


def test_the_new_presets_are_listed_and_described():
    for name in NEW:
        assert name in PRESETS and PRESET_HELP[name]


@pytest.mark.parametrize(
    "preset, base, options",
    [
        # docs/rules.md §6: mission-2000 is classic-2000 with insignia values and §2
        ("mission-2000", "classic-2000", {"card_values": "insignia", "missions": "2000"}),
        # mission-2004 is classic-2004 with insignia values (no golden cavalry, seed 000)
        ("mission-2004", "classic-2004", {"card_values": "insignia", "missions": "2004"}),
        ("capital-2000", "classic-2000", {"capitals": "on"}),
    ],
)
def test_each_preset_is_its_core_preset_and_its_objective(preset, base, options):
    assert make_rules(preset).options() == make_rules(base, options).options()


@pytest.mark.parametrize(
    "preset, overrides",
    [
        ("classic", {}),
        ("classic", {"missions": "2000"}),
        ("classic-2000", {"forced_trade": "every_set"}),
        ("mission-2000", {}),
        ("mission-2000", {"missions": "none", "destroyed_by_other": "completed"}),
        ("capital-2000", {"capitals": "off"}),
        ("mission-2004", {}),
    ],
)
def test_record_form_round_trips(preset, overrides):
    rules = make_rules(preset, overrides)
    assert rules_from_dict(rules.to_dict()) == rules


def test_a_classic_record_header_holds_no_later_option():
    data = make_rules("classic").to_dict()
    assert not {"missions", "capitals", "destroyed_by_other", "forced_trade"} & set(data)
    assert make_rules("mission-2000").to_dict()["missions"] == "2000"
