"""Risiko! Master trades (issue "every edition exactly as printed", items 2 and 5; seed 003
"TRIS DI CARTE", "CONQUISTA DELLA CARTA"): cards only while reinforcing, never forced."""

from __future__ import annotations

import pytest

from hegemon.referee import Attack, Occupy, Pass, Place, make_rules
from hegemon.referee.decisions import Kind
from hegemon.referee.events import Eliminated
from tests.helpers.game import arrange, give_cards, pending, setup_done

BASE, EXPERT, MASTER = "risiko-master-base", "risiko-master-expert", "risiko-master-master"
LEVELS = (BASE, EXPERT, MASTER)


def master_duel(preset: str, foe_cards: int):
    """``me`` (to move, placing) beside ``foe``'s last territory ``b``; foe holds
    ``foe_cards`` cards. Returns (game, me, a, b)."""
    game = setup_done(preset)
    me = game.current
    foe, third = (me + 1) % 4, (me + 2) % 4
    board = game.board
    a = max(range(board.size), key=lambda t: (len(board.neighbours[t]), -t))
    b = board.neighbours[a][0]
    owner = [third] * board.size
    owner[a], owner[b] = me, foe
    owner[board.size - 1 if board.size - 1 not in (a, b) else 0] = (me + 3) % 4
    armies = [2] * board.size
    armies[a], armies[b] = 40, 1
    arrange(game, owner, armies)
    game.round = 5  # Expert: "A partire dal quinto turno di gioco, è possibile eliminare"
    plain = [c for c in range(board.card_count) if board.card_insignia[c] != "wild"]
    give_cards(game, foe, plain[:foe_cards])
    while pending(game).kind is not Kind.PLACE:
        game.apply(Pass())
    game.apply(Place(((a, pending(game).armies),)))
    while pending(game).kind is not Kind.ATTACK:
        game.apply(Pass())
    return game, me, a, b


@pytest.mark.parametrize("preset", LEVELS)
def test_master_cards_are_played_only_at_the_start_of_the_turn(preset):
    """Seed 003, Base "CONQUISTA DELLA CARTA": the cards "possono essere utilizzate solo
    all'inizio del turno, nella fase dei rinforzi" (Expert and Master keep every Base rule they do
    not change). Taking an eliminated player's 8 cards poses no trade in mid-turn."""
    game, me, a, b = master_duel(preset, foe_cards=8)
    events: list = []
    while not [e for e in events if type(e) is Eliminated]:
        events = game.apply(Attack(a, b, 3))
    assert len(game.players[me].cards) >= 8
    if pending(game).kind is Kind.OCCUPY:
        game.apply(Occupy(pending(game).minimum))
    assert pending(game).kind in (Kind.ATTACK, Kind.FORTIFY)  # no trade now


@pytest.mark.parametrize("preset", LEVELS)
def test_master_never_forces_a_trade(preset):
    """Seed 003: "il giocatore di turno può giocare uno o più tris di carte" — may; no hand
    limit: with 12 cards holding sets the trade decision may still be declined."""
    assert make_rules(preset).must_trade_at == 0
    game = setup_done(preset)
    me = game.current
    board = game.board
    give_cards(
        game, me, [c for c in range(board.card_count) if board.card_insignia[c] != "wild"][:12]
    )
    while pending(game).kind is not Kind.ATTACK:
        d = pending(game)
        assert not d.forced
        if d.kind is Kind.PLACE:
            game.apply(
                Place(((next(t for t in range(board.size) if game.owner[t] == me), d.armies),))
            )
        else:
            game.apply(Pass())
    assert len(game.players[me].cards) == 12
