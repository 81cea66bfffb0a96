"""Capital Risk with two players (issue "every edition exactly as printed", item 7; seed 001
"AVANSERTE SPILLEREGLER", "Erobring av hovedsteder")."""

from __future__ import annotations

import pytest

from hegemon.referee import Attack, Game, GameSetupError, make_rules
from hegemon.referee.decisions import Kind
from hegemon.referee.view import view_for
from hegemon.sdk.helpers import capitals_to_win
from tests.helpers.game import pending
from tests.helpers.two_player import advance_to, decision
from tests.helpers.two_player import arrange as arrange_seats


def test_capital_risk_for_two_plays_with_two_capitals():
    """Seed 001: the advanced rules "gjelder for både 2 spillere og fra 3-6 spillere"; "Antall
    spillere 2-3 ... Antall hovedsteder 2". The neutral colour is no player: it picks no capital
    and does not raise the count."""
    rules = make_rules("two-player-capital-2000")
    assert rules.capitals == "on" and rules.two_player == "2000"
    game = Game(rules, 2, 4)
    while game.round == 0:
        d = pending(game)
        if d.kind is Kind.CAPITAL:
            assert d.player in (0, 1)
        game.apply(game.default_action())
    assert [p.capital >= 0 for p in game.players] == [True, True, False]
    assert capitals_to_win(view_for(game, 0)) == 2
    me = game.current
    other = 1 - me
    mine = game.players[me].capital
    theirs = game.players[other].capital
    source = next(n for n in game.board.neighbours[theirs] if n != mine)
    owner = list(game.owner)
    owner[mine], owner[source] = me, me
    owner[theirs] = other
    armies = list(game.armies)
    armies[source], armies[theirs] = 40, 1
    arrange_seats(game, owner, armies)
    advance_to(game, Kind.ATTACK, me)
    while not game.over:
        d = decision(game)
        if d.kind is Kind.ATTACK:
            game.apply(Attack(source, theirs, 3))
        else:
            game.apply(game.default_action())
    assert game.places is not None
    assert game.finish_reason == "capitals" and game.places[me] == 1


@pytest.mark.parametrize(
    "preset", ["two-player-2000", "two-player-2004-passive", "two-player-classic"]
)
def test_capitals_on_a_two_player_preset_count_the_players_only(preset):
    # four neutrals (2004) made it 6 seats: 4 capitals needed, so nobody could win
    game = Game(make_rules(preset, {"capitals": "on"}), 2, 1)
    assert capitals_to_win(view_for(game, 0)) == 2


def test_capital_2000_for_two_names_the_two_player_game():
    with pytest.raises(GameSetupError, match="two-player-capital-2000"):
        Game(make_rules("capital-2000"), 2, 1)
