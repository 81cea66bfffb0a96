"""A toy edition added the way docs/adding-an-edition.md says, with nothing in the engine
touched: its part (state, ``create``, ``copy``, hooks) and its board rules (an
:class:`AttackLimits` of its own), registered in ``PARTS``. And the guide's checklist names
every file a new action of an edition touches."""

import random
import re
from pathlib import Path

import pytest

from hegemon.referee import Game, IllegalAction, legal, make_rules
from hegemon.referee.actions import Attack
from hegemon.referee.decisions import Kind
from hegemon.referee.editions import parts
from hegemon.referee.editions.contract import Edition
from hegemon.referee.events import Conquered, Reinforced
from hegemon.referee.holdings import AttackLimits
from hegemon.referee.policies import attack_happy_action
from hegemon.referee.position import Position
from hegemon.referee.rules import RuleSet
from hegemon.referee.view import view_for

ROOT = Path(__file__).resolve().parent.parent.parent
GUIDE = ROOT / "docs" / "adding-an-edition.md"
#: The toy's stand-in for a rule-set option of its own (a real edition adds one to rules.py)
TOY_ROUNDS = 37
SANCTUARY = 0  # the territory no one may attack


class SanctuaryLimits(AttackLimits):
    """The toy's board rules: territory 0 is a sanctuary, never attacked."""

    def __init__(self) -> None:
        super().__init__(strict=True)

    def protected(self, state: Position, target: int) -> bool:
        return target == SANCTUARY


class BountyPart(Edition):
    """The toy's part: each conquest earns the conqueror one more army at its next turn."""

    __slots__ = ("bounty",)

    def __init__(self, bounty: list[int]) -> None:
        self.bounty = bounty

    @classmethod
    def create(cls, game: Game) -> "BountyPart | None":
        return cls([0] * len(game.players)) if game.rules.turn_limit == TOY_ROUNDS else None

    def copy(self) -> "BountyPart":
        return BountyPart(list(self.bounty))

    @classmethod
    def limits_for(cls, rules: RuleSet) -> AttackLimits | None:
        return SanctuaryLimits() if rules.turn_limit == TOY_ROUNDS else None

    def after_conquest(self, game: Game, attacker: int, defender: int, target: int) -> None:
        self.bounty[attacker] += 1

    def reinforcements(self, game: Game, player: int, due: tuple[int, int]) -> tuple[int, int]:
        earned, self.bounty[player] = self.bounty[player], 0
        return due[0] + earned, due[1]


@pytest.fixture
def toy(monkeypatch):
    """The toy registered as the guide's checklist says: its part added to ``PARTS``."""
    monkeypatch.setattr(parts, "PARTS", (*parts.PARTS, BountyPart))
    return make_rules("classic", {"turn_limit": TOY_ROUNDS})


def play(game: Game, seed: int) -> list[object]:
    rng = random.Random(seed)
    events: list[object] = []
    while not game.over:
        events.extend(game.apply(attack_happy_action(game, rng)))
    return events


def test_a_game_of_the_toy_rule_set_plays_its_part_and_board_rules(toy):
    game = Game(toy, 4, seed=3)
    assert [type(p) for p in game.parts] == [BountyPart]
    assert type(game.limits) is SanctuaryLimits
    classic = Game(make_rules("classic"), 4, seed=3)
    assert classic.parts == () and type(classic.limits) is AttackLimits


def test_the_toy_bounty_is_paid_at_the_conquerors_next_turn(toy):
    game = Game(toy, 4, seed=3)
    rng = random.Random(3)
    owed = [0] * 4
    paid = 0
    while not game.over:
        for event in game.apply(attack_happy_action(game, rng)):
            if isinstance(event, Conquered):
                owed[event.player] += 1
            elif isinstance(event, Reinforced):
                territories = game.territory_count[event.player]
                classic_due = max(3, territories // 3)
                assert event.from_territories == classic_due + owed[event.player]
                paid += owed[event.player]
                owed[event.player] = 0
    assert paid > 0


def test_no_one_attacks_the_sanctuary_in_the_game_or_in_a_view(toy):
    game = Game(toy, 4, seed=5)
    events = play(game, 5)
    assert not [e for e in events if isinstance(e, Conquered) and e.territory == SANCTUARY]
    game = Game(toy, 4, seed=6)
    rng = random.Random(6)
    refused = 0
    while not game.over:
        d = game.pending
        assert d is not None
        if d.kind is Kind.ATTACK:
            view = view_for(game, d.player)
            assert all(t != SANCTUARY for _, t, _ in legal.attacks(view, d.player))
            for source in game.board.neighbours[SANCTUARY]:
                mine = game.owner[source] == d.player != game.owner[SANCTUARY]
                if mine and game.armies[source] > 1:
                    with pytest.raises(IllegalAction, match="may not be attacked now"):
                        game.check(Attack(source, SANCTUARY, 1))
                    refused += 1
        game.apply(attack_happy_action(game, rng))
    assert refused


def test_a_clone_copies_the_toy_part(toy):
    game = Game(toy, 4, seed=8)
    rng = random.Random(8)
    while game.round < 3:
        game.apply(attack_happy_action(game, rng))
    part = game.part(BountyPart)
    assert part is not None
    before = (list(part.bounty), list(game.owner), list(game.armies))
    play(game.clone(), 8)
    assert (list(part.bounty), list(game.owner), list(game.armies)) == before


# ------------------------------------------------------------------ the checklist
#: Where the product spells an action or its decision kind: a file naming every one of the
#: editions' own actions is one a new action must touch too.
PRODUCT = ("referee", "sdk", "sample_bots", "env", "protos")
SKIPPED = re.compile(r"(_pb2(_grpc)?\.pyi?|node_modules|/static/)")


def files_naming(words: list[str]) -> set[str]:
    pattern = re.compile(r"\b(" + "|".join(map(re.escape, words)) + r")\b")
    found = set()
    for top in PRODUCT:
        for path in (ROOT / top).rglob("*"):
            rel = path.relative_to(ROOT).as_posix()
            if path.suffix not in {".py", ".proto", ".js"} or SKIPPED.search(rel):
                continue
            if pattern.search(path.read_text(encoding="utf-8", errors="replace")):
                found.add(rel)
    return found


def test_the_checklist_names_every_file_a_new_action_touches():
    touched = None
    for action, (kind, _) in parts.EDITION_ACTIONS.items():
        words = [action.__name__, kind.value, kind.name]
        files = files_naming(words)
        touched = files if touched is None else touched & files
    assert touched and "referee/actions.py" in touched
    checklist = GUIDE.read_text(encoding="utf-8").split("## 5. Checklist", 1)[1]
    missing = sorted(f for f in touched if f"`{f}`" not in checklist)
    assert not missing, f"docs/adding-an-edition.md's checklist does not name {missing}"
