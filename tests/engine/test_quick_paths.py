"""The engine's quick paths behave exactly as the plain code they stand in for."""

from __future__ import annotations

import dataclasses

import pytest

from hegemon.referee.actions import Attack, Trade
from hegemon.referee.chance import Chance, KeyedStream
from hegemon.referee.decisions import Decision, Kind, shared
from hegemon.referee.events import Battle


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
