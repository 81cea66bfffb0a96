"""The forced trade of docs/rules.md §1 (issue 11 item 4): a full hand obliges one set, not a hand
below the limit. Each test names the rulebook it follows."""

from __future__ import annotations

import pytest

from hegemon.referee import Pass, Trade
from hegemon.referee.decisions import Kind
from tests.helpers.game import (
    arrange,
    card_set,
    cards_with,
    give_cards,
    next_seat,
    pass_turn,
    setup_done,
)


def full_hand_turn(preset: str, hand: list[int], **options):
    """The next seat's turn starts holding ``hand`` (none of it shows one of its territories)."""
    game = setup_done(preset, seed=11, **options)
    seat = next_seat(game)
    others = [p for p in range(4) if p != seat]
    owner = [seat] * game.board.size
    for i, t in enumerate(c for c in hand if c < game.board.size):
        owner[t] = others[i % 3]
    arrange(game, owner)
    give_cards(game, seat, hand)
    pass_turn(game)
    assert game.current == seat
    return game, seat


def nine_cards(board) -> list[int]:
    """Nine cards holding three sets (3 infantry, 3 cavalry, 3 artillery)."""
    return [c for i in ("infantry", "cavalry", "artillery") for c in cards_with(board, i, 3)]


@pytest.mark.parametrize("preset", ["classic-2000", "classic", "classic-2004"])
def test_a_full_hand_obliges_one_set_only(preset):
    # seed 001 (p. 9): with 5 or more cards a player "MÅ ... bytte ut minst ett sett" — at least
    # one set; seed 004: "trebuie să tranzacționați cel puțin un set" and "puteți" (may) trade a
    # second; seed 000: "ON PAKKO vaihtaa yksi tai useampi sarja" (one or more).
    board = setup_done(preset).board
    game, seat = full_hand_turn(preset, nine_cards(board))
    d = game.pending
    assert d.kind is Kind.TRADE and d.forced and d.player == seat
    game.apply(Trade(tuple(game.players[seat].cards[:3])))
    d = game.pending
    assert len(game.players[seat].cards) == 6
    assert d.kind is Kind.TRADE and not d.forced  # the second set is the player's choice
    assert game.is_legal(Pass())
    game.apply(Pass())
    assert game.pending.kind is Kind.PLACE


def test_every_set_option_follows_the_estonian_text():
    # seed 002: with 5 or 6 cards "pead sa ühe komplekti ära andma ja teise, kui see on täis" —
    # you must hand in one set, and the second one if it is complete.
    board = setup_done().board
    inf, cav = cards_with(board, "infantry", 3), cards_with(board, "cavalry", 3)
    game, _seat = full_hand_turn("classic", inf + cav, forced_trade="every_set")
    game.apply(Trade(card_set(inf)))
    d = game.pending
    assert d.kind is Kind.TRADE and d.forced
    assert not game.is_legal(Pass())
    game.apply(Trade(card_set(cav)))
    assert game.pending.kind is Kind.PLACE


def test_fewer_than_five_cards_never_oblige():
    # seed 001 (p. 9): 3 cavalry and 1 infantry need not be traded
    board = setup_done().board
    hand = cards_with(board, "cavalry", 3) + cards_with(board, "infantry", 1)
    game, _seat = full_hand_turn("classic-2000", hand)
    assert game.pending.kind is Kind.TRADE and not game.pending.forced
