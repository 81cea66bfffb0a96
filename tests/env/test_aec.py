"""The PettingZoo AEC environment: the library's own API and seed tests on every preset, and a
random masked game that ends with honest terminations and truncations."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from hegemon.env import aec
from hegemon.referee.encoding import layout_of
from hegemon.referee.rules import PRESETS
from tests.helpers.env import greedy_choice, play_aec, players_of, random_choice

SHORT = {"turn_limit": 3}


# api_test warns that a dict observation is unusual unless the environment is one of
# PettingZoo's own (whose board games, chess and go, have the same observation/action_mask
# dict); its failures are assertions, which stay errors
@pytest.mark.filterwarnings("ignore::UserWarning:pettingzoo.test.api_test")
@pytest.mark.parametrize("preset", list(PRESETS))
def test_api_test_passes(preset):
    api_test(aec(preset, players_of(preset), options=SHORT, seed=3), num_cycles=300)


@pytest.mark.parametrize("preset", list(PRESETS))
def test_seed_test_passes(preset):
    seed_test(lambda: aec(preset, players_of(preset), options=SHORT), num_cycles=100)


def test_turn_limit_truncates_every_seat_still_in():
    env = aec("classic", 3, options={"turn_limit": 2})
    env.reset(seed=5)
    outcome = play_aec(env, random_choice(np.random.default_rng(1)))
    assert env.game.finish_reason == "turn limit"
    assert {agent: (term, trunc) for agent, (_, term, trunc) in outcome.items()} == {
        f"seat_{s}": (False, True) for s in range(3)
    }, "a game cut at its turn limit truncates, nobody won it"


def test_rewards_follow_the_places():
    env = aec("classic", 3, options={"turn_limit": 2}, reward="place")
    env.reset(seed=9)
    outcome = play_aec(env, random_choice(np.random.default_rng(0)))
    places = env.game.places
    assert places is not None
    assert {a: r for a, (r, _, _) in outcome.items()} == {
        f"seat_{s}": 1.0 - (places[s] - 1) for s in range(3)
    }


def test_a_conquest_terminates_every_seat():
    env = aec("classic", 3, reward="win")
    env.reset(seed=1)
    rng = np.random.default_rng(1)
    outcome = play_aec(env, greedy_choice(layout_of(env.game.board), rng), max_iter=20_000)
    places = env.game.places
    assert places is not None and env.game.finish_reason == "conquest"
    winner = places.index(1)
    assert outcome == {f"seat_{s}": (1.0 if s == winner else -1.0, True, False) for s in range(3)}


def test_shaping_pays_territory_share_changes():
    env = aec("classic", 3, options={"turn_limit": 2}, reward="share")
    env.reset(seed=9)
    outcome = play_aec(env, random_choice(np.random.default_rng(0)))
    game = env.game
    assert game.places is not None
    # the shaping adds up to the final share of the territories (every seat starts with none)
    assert {a: r for a, (r, _, _) in outcome.items()} == pytest.approx(
        {
            f"seat_{s}": 1.0 - (game.places[s] - 1) + game.territory_count[s] / game.board.size
            for s in range(3)
        }
    )


def test_same_seed_same_game():
    first, second = aec("classic-2004", 4, options=SHORT), aec("classic-2004", 4, options=SHORT)
    for env in (first, second):
        env.reset(seed=11)
        play_aec(env, random_choice(np.random.default_rng(4)))
    assert first.game.history == second.game.history


def test_bad_reward_is_refused():
    with pytest.raises(ValueError, match="unknown reward 'gold'"):
        aec("classic", 3, reward="gold")


def player_counts(preset: str) -> list[int]:
    """Every player count ``preset`` is played with."""
    if preset.startswith("two-player"):
        return [2]
    return [4, 5, 6] if preset == "team-2004" else [3, 4, 5, 6]


@pytest.mark.parametrize(("preset", "players"), [(p, n) for p in PRESETS for n in player_counts(p)])
def test_every_preset_and_player_count_plays_to_its_turn_limit(preset, players):
    env = aec(preset, players, options={"turn_limit": 1})
    env.reset(seed=players)
    outcome = play_aec(env, random_choice(np.random.default_rng(players)))
    assert env.game.over
    assert set(outcome) == {f"seat_{s}" for s in range(players)}
