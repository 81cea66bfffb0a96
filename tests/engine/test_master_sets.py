"""Risiko! Master sets (issue "every edition exactly as printed", item 3; seed 003 "TRIS DI
CARTE"): the three printed sets and no others, in the engine and the SDK alike."""

from __future__ import annotations

import pytest

from hegemon.referee import IllegalAction, Trade
from hegemon.referee.cards import find_sets, is_set, set_value
from hegemon.referee.decisions import Decision, Kind
from hegemon.referee.view import view_for
from hegemon.sdk.helpers import trade_options
from tests.helpers.game import give_cards, setup_done

BASE = "risiko-master-base"


@pytest.mark.parametrize(
    ("insignia", "value"),
    [
        # seed 003 "TRIS DI CARTE": "Tre figure uguali = 8 armate Tre figure diverse = 10 Jolly
        # più due figure uguali = 12" — and nothing else
        (("infantry", "infantry", "infantry"), 8),
        (("artillery", "artillery", "artillery"), 8),
        (("infantry", "cavalry", "artillery"), 10),
        (("wild", "cavalry", "cavalry"), 12),
        (("wild", "infantry", "artillery"), None),
        (("wild", "wild", "cavalry"), None),
        (("infantry", "infantry", "cavalry"), None),
    ],
)
def test_master_sets_are_the_three_printed_ones(insignia, value):
    assert is_set(insignia, "master") is (value is not None)
    if value is not None:
        assert set_value("master", 0, insignia) == value
    # the other editions keep the wild card standing for any insignia
    assert is_set(insignia) is (insignia != ("infantry", "infantry", "cavalry"))


@pytest.mark.parametrize(
    "insignia", [("wild", "infantry", "artillery"), ("wild", "wild", "cavalry")]
)
def test_a_master_trade_of_no_printed_set_is_refused(insignia):
    game = setup_done(BASE)
    me = game.current
    board = game.board
    cards: list[int] = []
    for ins in insignia:
        cards.append(
            next(
                c
                for c in range(board.card_count)
                if board.card_insignia[c] == ins and c not in cards
            )
        )
    give_cards(game, me, cards)
    game.pending = Decision(Kind.TRADE, me)
    with pytest.raises(IllegalAction, match="not a set"):
        game.apply(Trade((cards[0], cards[1], cards[2])))
    assert find_sets(cards, board.card_insignia, "master") == []
    assert trade_options(view_for(game, me)) == []  # the SDK lists what the engine accepts
