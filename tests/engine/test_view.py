"""The per-seat view: own cards, other seats' counts only, no deck/seed/discard, and the
pending decision only for the seat that must decide."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest

from hegemon.referee import Game, legal, make_rules, redact
from hegemon.referee.decisions import Kind
from hegemon.referee.events import CardDrawn, Conquered
from hegemon.referee.view import View, view_for
from tests.helpers.game import (
    aggressive_action,
    cards_with,
    give_cards,
    pass_turn,
    pending,
    setup_done,
)

SECRET_WORDS = ("deck", "discard", "seed", "rng", "history")


@pytest.fixture
def game():
    g = setup_done("classic", seed=31)
    b = g.board
    hands = [
        cards_with(b, "infantry", 2),
        cards_with(b, "cavalry", 3),
        [],
        cards_with(b, "wild", 1),
    ]
    for seat, hand in enumerate(hands):
        for c in hand:
            g.deck.remove(c)
        g.players[seat].cards[:] = hand
    g.discard.extend([g.deck.pop(), g.deck.pop()])
    return g


def test_a_seat_sees_its_own_cards_and_only_counts_of_others(game):
    for seat in range(4):
        view = view_for(game, seat)
        assert view.seat == seat
        assert list(view.hand) == game.players[seat].cards
        assert [s.cards for s in view.seats] == [len(p.cards) for p in game.players]
        for s in view.seats:
            assert type(s.cards) is int
            assert not any(
                isinstance(getattr(s, f.name), (list, tuple))
                for f in dataclasses.fields(s)
                if f.name != "shown_missions"  # public: missions shown to all (mission-2004)
            )


def test_no_deck_seed_or_discard_in_the_view(game):
    view = view_for(game, 0)
    names = {f.name for f in dataclasses.fields(View)}
    for word in SECRET_WORDS:
        assert not any(word in n for n in names), word
    data = view.to_dict()
    json.dumps(data)  # plain data
    flat = json.dumps(data)
    for word in SECRET_WORDS:
        assert f'"{word}' not in flat
    assert str(game.seed) not in {str(v) for v in data.values()}
    rules = view.rules.to_dict()
    assert "seed" not in rules


def test_pending_only_for_its_seat(game):
    current = pending(game).player
    for seat in range(4):
        view = view_for(game, seat)
        if seat == current:
            assert view.pending == game.pending
            assert view.to_dict()["pending"]["kind"] == pending(game).kind.value
        else:
            assert view.pending is None and view.to_dict()["pending"] is None


def test_public_board_and_counts(game):
    view = view_for(game, 2)
    assert list(view.owner) == game.owner and list(view.armies) == game.armies
    for s in view.seats:
        assert s.territories == game.territory_count[s.seat]
        assert s.armies == sum(a for t, a in enumerate(game.armies) if game.owner[t] == s.seat)
    assert view.trade_count == game.trade_count
    assert view.next_trade_value == game.next_trade_value() == 4
    assert (view.round, view.current) == (game.round, game.current)


def test_view_is_a_copy(game):
    view = view_for(game, 0)
    assert isinstance(view.owner, tuple) and isinstance(view.armies, tuple)
    assert isinstance(view.hand, tuple)
    game.armies[0] += 5
    game.players[0].cards.append(99)
    assert view.armies[0] == game.armies[0] - 5
    assert 99 not in view.hand
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.hand = (1, 2, 3)  # type: ignore[misc]  # the write a frozen view must refuse


def test_legal_options_from_a_view_match_the_game():
    g = Game(make_rules("classic-2004"), 4, 32)
    rng = random.Random(3)
    checked = 0
    while not g.over and checked < 300:
        d = pending(g)
        view = view_for(g, d.player)
        if d.kind is Kind.ATTACK:
            assert legal.attacks(view, d.player) == legal.attacks(g, d.player)
            checked += 1
        if d.kind is Kind.FORTIFY:
            assert list(legal.fortifies(view, d.player)) == list(legal.fortifies(g, d.player))
        if d.kind is Kind.TRADE:
            assert legal.trades(view.hand, view.board) == legal.trades(
                g.players[d.player].cards, g.board
            )
        g.apply(aggressive_action(g, rng))
    assert checked


def test_drawn_cards_are_redacted_for_everyone_else():
    g = Game(make_rules("classic", {"turn_limit": 30}), 4, 33)
    rng = random.Random(4)
    drawn: list[CardDrawn] = []
    while not g.over and len(drawn) < 5:
        events = g.apply(aggressive_action(g, rng))
        drawn += [e for e in events if type(e) is CardDrawn]
    assert drawn
    for e in drawn:
        assert redact(e, e.player) == e
        for other in range(4):
            if other != e.player:
                hidden = redact(e, other)
                assert isinstance(hidden, CardDrawn)
                assert hidden.card == -1 and hidden.player == e.player
    conquered = Conquered(0, 1, 2, 3)
    assert redact(conquered, 2) is conquered


def test_the_view_after_the_end():
    g = setup_done("classic", seed=34, turn_limit=1)
    give_cards(g, 1, [0, 1])
    while not g.over:
        pass_turn(g)
    for seat in range(4):
        view = view_for(g, seat)
        assert view.pending is None
        assert len(view.hand) == len(g.players[seat].cards)
