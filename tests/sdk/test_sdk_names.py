"""``BotView.territory`` and ``BotView.continent``: the board by name, as a bot author reads it."""

from __future__ import annotations

import pytest

from hegemon.referee import Game, make_rules
from hegemon.referee.view import view_for
from hegemon.sdk import Bot, play_local
from hegemon.sdk.context import GameContext, make_view


def a_view(seat: int = 0):
    game = Game(make_rules("classic", {"setup": "deal"}), 3, 7)
    context = GameContext("g", seat, ("a", "b", "c"), game.rules, game.board)
    return game, make_view(view_for(game, seat), context)


def test_a_territory_by_name_matches_the_view_by_index():
    game, view = a_view()
    siam = view.territory("Siam")
    t = game.board.index("Siam")
    assert (siam.index, siam.owner, siam.armies) == (t, game.owner[t], game.armies[t])
    assert siam.continent == "Asia"
    assert set(siam.neighbours) == {"China", "India", "Indonesia"}
    assert siam.mine == (game.owner[t] == 0)
    assert view.territory(t) == siam
    assert view.territory("siam") == siam  # case does not matter


def test_a_continent_by_name_says_who_holds_it():
    game, view = a_view()
    australia = view.continent("Australia")
    assert australia.bonus == 2 and len(australia.territories) == 4
    held = [game.owner[game.board.index(n)] for n in australia.territories]
    assert australia.held == held.count(0)
    assert australia.owner == (held[0] if len(set(held)) == 1 else None)
    assert australia.mine == (held.count(0) == 4)


def test_a_mistyped_name_suggests_the_nearest():
    _, view = a_view()
    with pytest.raises(KeyError, match="did you mean 'Siam'"):
        view.territory("Siama")
    with pytest.raises(KeyError, match="Australia"):
        view.continent("Austalia")
    with pytest.raises(KeyError, match="no territory 99"):
        view.territory(99)


def test_a_bot_can_play_by_names_alone():
    seen = []

    class ByName(Bot):
        def attack(self, view, decision):
            seen.append(view.continent("Australia").held)
            return super().attack(view, decision)

    result = play_local([ByName(), Bot(), Bot()], "classic", seed=3, options={"turn_limit": 3})
    assert seen and not result.faults


def test_play_local_ends_a_game_that_cannot_end_with_a_clear_message():
    from hegemon.sdk import LocalFault

    with pytest.raises(LocalFault, match=r"did not end within 2,000 decisions.*turn_limit"):
        play_local([Bot(), Bot(), Bot()], "classic", seed=1, max_decisions=2000)


def test_play_local_forfeits_a_seat_after_a_real_games_strikes():
    from hegemon.referee.timecontrol import TimeControl
    from hegemon.sdk import Place

    class Cheat(Bot):
        def place(self, view, decision):
            return Place(((0, 10_000),))  # never legal

    result = play_local([Cheat(), Bot(), Bot()], "classic", seed=2, options={"turn_limit": 5})
    assert len(result.faults) == TimeControl().max_strikes + 1
    assert result.places[0] == 3  # forfeited: below every seat still playing
