"""The engine's quick paths behave exactly as the plain code they stand in for."""

from __future__ import annotations

import dataclasses
import random

import pytest

from hegemon.referee import Game, IllegalAction, checks, make_rules
from hegemon.referee.actions import Attack, Trade
from hegemon.referee.chance import Chance, KeyedStream
from hegemon.referee.decisions import Decision, Kind, Kinds, Phase, Phases, shared
from hegemon.referee.events import Battle
from hegemon.referee.policies import random_action
from hegemon.referee.shapes import shape_error


def test_quick_init_keeps_a_frozen_dataclass_frozen_with_its_defaults_and_equality() -> None:
    trade = Trade((1, 2, 3))
    assert trade.bonus_territory == -1  # the default
    assert trade == Trade(cards=(1, 2, 3), bonus_territory=-1)
    assert hash(trade) == hash(Trade((1, 2, 3), -1))
    with pytest.raises(dataclasses.FrozenInstanceError):
        trade.bonus_territory = 4  # type: ignore[misc]
    assert dataclasses.replace(trade, bonus_territory=2) == Trade((1, 2, 3), 2)
    with pytest.raises(TypeError):
        Attack(1, 2)  # type: ignore[call-arg]  # a field without default is still required
    battle = Battle(0, 1, 2, 3, (6, 5), (4,), 0, 1)
    assert battle.to_dict()["attack_dice"] == [6, 5]


def test_a_shared_decision_equals_a_new_one() -> None:
    made = shared(Kind.DEFEND, 2, maximum=2, source=4, target=5, attack_dice=3)
    assert made == Decision(Kind.DEFEND, 2, maximum=2, source=4, target=5, attack_dice=3)
    assert shared(Kind.DEFEND, 2, maximum=2, source=4, target=5, attack_dice=3) is made


def test_quick_dice_are_the_dice_rolled_byte_by_byte() -> None:
    quick = Chance(11).attack(0)
    assert isinstance(quick, KeyedStream)
    slow = quick.copy()
    for i in range(5_000):  # across many 64-byte blocks and rejected bytes
        count = 1 + i % 3
        assert quick.roll(count) == slow._roll_slowly(count)
    assert quick.state() == slow.state()


def test_quick_dice_as_a_tuple_are_the_roll() -> None:
    quick = Chance(5).defend(1)
    assert isinstance(quick, KeyedStream)
    slow = quick.copy()
    for i in range(3_000):
        count = 1 + i % 3
        assert quick.dice(count) == tuple(slow.roll(count))
    assert quick.state() == slow.state()


def test_a_copied_chance_keeps_its_seat_streams_apart_from_the_original() -> None:
    chance = Chance(3)
    chance.attack(1).roll(2)
    copy = chance.copy()
    assert copy.attack(1).roll(3) == chance.attack(1).roll(3)
    copy.attack(1).roll(3)
    assert copy.getstate() != chance.getstate()
    assert copy.defend(2).roll(2) == chance.defend(2).roll(2)


def test_kinds_and_phases_are_every_enum_member() -> None:
    assert {name: getattr(Kinds, name) for name in Kind.__members__} == dict(Kind.__members__)
    assert {name: getattr(Phases, name) for name in Phase.__members__} == dict(Phase.__members__)


ODD_VALUES = (-1, 0, 1, 2, 3, 4, 41, 42, True, 1.0, None, "1")


@pytest.mark.parametrize("preset", ["classic", "classic-2004", "risiko-master-base"])
def test_the_quick_attack_check_accepts_exactly_what_the_full_checks_accept(preset: str) -> None:
    """_on_attack tells a classic game's legal attack at a glance; whatever it accepts, the
    full checks accept, and it refuses (with their message) whatever they refuse."""
    rng = random.Random(preset)
    for seed in range(6):
        game = Game(make_rules(preset, {"turn_limit": 30}), 4, seed)
        play = random.Random(seed)
        while game.places is None:
            if game.pending is not None and game.pending.kind is Kind.ATTACK:
                sources = [t for t, p in enumerate(game.owner) if p == game.pending.player]
                for _ in range(40):
                    source = rng.choice(sources + list(ODD_VALUES))
                    neighbours = (
                        game.board.neighbours[source]
                        if type(source) is int and 0 <= source < 42
                        else ()
                    )
                    target = rng.choice(list(neighbours) + list(ODD_VALUES))
                    action = Attack(source, target, rng.choice(ODD_VALUES))  # type: ignore[arg-type]
                    expected = shape_error(action)  # the full path: the shape, then the rules
                    if not expected:
                        try:
                            checks.attack(game, action)
                        except IllegalAction as refused:
                            expected = str(refused)
                    try:
                        game.check(action)
                        got = ""
                    except IllegalAction as refused:
                        got = str(refused)
                    assert got == expected, action
            game.apply(random_action(game, play))


@pytest.mark.parametrize(
    "preset", ["classic", "classic-2004", "team-2004", "two-player-2004-active"]
)
def test_a_game_without_events_is_the_same_game(preset: str) -> None:
    rules = make_rules(preset, {"turn_limit": 40})
    players = 2 if rules.two_player != "off" else 4
    for seed in range(3):
        full, bare = Game(rules, players, seed), Game(rules, players, seed, events=False)
        rng_full, rng_bare = random.Random(seed), random.Random(seed)
        while full.places is None:
            full.apply(random_action(full, rng_full))
            assert bare.apply(random_action(bare, rng_bare)) == []
            assert (bare.pending, bare.owner, bare.armies) == (
                full.pending,
                full.owner,
                full.armies,
            )
        assert (bare.places, bare.history, bare.finish_reason) == (
            full.places,
            full.history,
            full.finish_reason,
        )
