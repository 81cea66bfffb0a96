"""two-player-classic's goal (issue "every edition exactly as printed", item 6; seed 002):
all 42 territories, the neutral ones too."""

from __future__ import annotations

from hegemon.referee import Attack
from hegemon.referee.decisions import Kind
from tests.helpers.two_player import advance_to, decision, set_up
from tests.helpers.two_player import arrange as arrange_seats


def test_two_player_classic_goes_on_until_the_neutral_falls_too():
    """Seed 002: "Mängu võitmiseks peate hävitama kõik teised mängijad ja hõivama kõik 42
    territooriumi" — destroy all other players and hold all 42 territories. The opponent's fall
    does not end the game while neutral territories stand; taking the last one does."""
    game = set_up("two-player-classic", seed=10)
    mover = game.current
    victim = 1 - mover
    board = game.board
    last = next(t for t in range(42) if game.owner[t] == victim)
    source = board.neighbours[last][0]
    neutral_t = next(t for t in board.neighbours[source] if t != last)
    owner = [mover] * 42
    owner[last], owner[neutral_t] = victim, 2
    armies = [1] * 42
    armies[source] = 60
    arrange_seats(game, owner, armies)
    game.players[mover].cards.clear()
    game.players[victim].cards.clear()
    advance_to(game, Kind.ATTACK, mover)
    while game.owner[last] != mover:
        if decision(game).kind is Kind.ATTACK:
            game.apply(Attack(source, last, 3))
        else:
            game.apply(game.default_action())
    assert game.players[victim].eliminated
    assert game.pending is not None, "the game ended with a neutral territory standing"
    while not game.over:
        d = decision(game)
        if d.kind is Kind.ATTACK and game.owner[neutral_t] == 2 and game.armies[source] > 1:
            game.apply(Attack(source, neutral_t, min(3, game.armies[source] - 1)))
        else:
            game.apply(game.default_action())
    places = game.places or ()
    assert game.finish_reason == "conquest" and places[mover] == 1
    assert all(o == mover for o in game.owner)
