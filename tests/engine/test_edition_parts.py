"""The later editions are parts plugged into the engine (``hegemon.referee.editions``): a game
holds only the parts its rule set plays, a clone copies them, and no edition module reaches
into the engine's private members."""

import ast
import random
from pathlib import Path

import pytest

from hegemon.referee import Game, make_rules
from hegemon.referee.editions.alliances import AlliancesPart
from hegemon.referee.editions.capitals import CapitalsPart
from hegemon.referee.editions.master import MasterPart
from hegemon.referee.editions.missions import MissionsPart
from hegemon.referee.editions.neutrals import NeutralsPart
from hegemon.referee.editions.teams import TeamsPart
from hegemon.referee.policies import random_action

REFEREE = Path(__file__).resolve().parent.parent.parent / "referee"
EDITIONS = REFEREE / "editions"
EDITION_MODULES = (
    "contract",
    "parts",
    "missions",
    "capitals",
    "master",
    "teams",
    "neutrals",
    "alliances",
)

# preset -> (players, the parts it plays)
PRESET_PARTS = {
    "classic": (4, set()),
    "classic-2000": (4, set()),
    "mission-2000": (4, {MissionsPart}),
    "mission-2004": (4, {MissionsPart}),
    "capital-2000": (4, {CapitalsPart}),
    "team-2004": (4, {TeamsPart}),
    "two-player-2000": (2, {NeutralsPart}),
    "two-player-capital-2000": (2, {NeutralsPart, CapitalsPart}),
    "two-player-2004-active": (2, {NeutralsPart, AlliancesPart}),
    "risiko-master-base": (4, {MasterPart}),
    "risiko-master-master": (4, {MasterPart}),
}


def private_game_members(source: str) -> list[str]:
    """``game._x`` / ``self.game._x`` attribute accesses in ``source`` (not dunders)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Attribute) or not node.attr.startswith("_"):
            continue
        if node.attr.startswith("__"):
            continue
        owner = node.value
        is_game = (isinstance(owner, ast.Name) and owner.id == "game") or (
            isinstance(owner, ast.Attribute) and owner.attr == "game"
        )
        if is_game:
            found.append(f"line {node.lineno}: .{node.attr}")
    return found


def test_the_scan_finds_a_private_member():
    assert private_game_members("def f(game):\n    game._ask_attack()\n") == [
        "line 2: ._ask_attack"
    ]
    assert private_game_members("x = self.game._phase") == ["line 1: ._phase"]
    assert private_game_members("game.ask_attack(); game.__class__") == []


@pytest.mark.parametrize("module", EDITION_MODULES)
def test_no_edition_module_uses_a_private_member_of_the_game(module):
    source = (EDITIONS / f"{module}.py").read_text(encoding="utf-8")
    assert private_game_members(source) == []


@pytest.mark.parametrize("preset", sorted(PRESET_PARTS))
def test_a_game_holds_only_the_parts_its_rule_set_plays(preset):
    players, expected = PRESET_PARTS[preset]
    game = Game(make_rules(preset), players=players, seed=3)
    assert {type(p) for p in game.parts} == expected


def _play(game: Game, rng: random.Random, steps: int) -> list:
    events = []
    for _ in range(steps):
        if game.over:
            break
        events.extend(game.apply(random_action(game, rng)))
    return events


@pytest.mark.parametrize("preset", sorted(p for p, (_, parts) in PRESET_PARTS.items() if parts))
def test_a_clone_plays_on_without_touching_the_original(preset):
    """Playing a clone to its end leaves the original exactly where it was: it goes on as a
    game that was never cloned does (the parts' state was copied, not shared)."""
    players, _ = PRESET_PARTS[preset]
    rules = make_rules(preset, {"turn_limit": 30})
    original = Game(rules, players=players, seed=11)
    twin = Game(rules, players=players, seed=11)
    _play(original, random.Random(5), 400)
    _play(twin, random.Random(5), 400)
    clone = original.clone()
    _play(clone, random.Random(99), 5000)
    assert _play(original, random.Random(7), 5000) == _play(twin, random.Random(7), 5000)
    assert original.places == twin.places
