"""The observation kept up to date between steps (``SeatObserver``) is the observation encoded
afresh from the seat's view, for every seat at every step of random play — in editions with
hidden cards, missions, capitals and bribes too."""

from __future__ import annotations

import numpy as np
import pytest

from hegemon.env import aec
from hegemon.env.observer import SeatObserver
from hegemon.referee.encoding import action_mask, encode
from hegemon.referee.view import view_for
from tests.helpers.env import players_of

PRESETS = [
    "classic",
    "mission-2004",
    "capital-2000",
    "two-player-2004-active",
    "risiko-master-expert",
    "team-2004",
]


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("seed", [1, 2])
def test_the_kept_observation_equals_the_one_encoded_afresh_for_every_seat(preset, seed):
    players = players_of(preset)
    env = aec(preset, players, options={"turn_limit": 6})
    env.reset(seed=seed)
    game = env.game
    observers = [SeatObserver(game, s) for s in range(players)]
    rng = np.random.default_rng(seed)
    steps = 0
    for agent in env.agent_iter(max_iter=3_000):
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        seat = env.possible_agents.index(agent)
        view = view_for(game, seat)
        assert np.array_equal(obs["observation"], encode(view, view.pending, env.partial))
        assert np.array_equal(obs["action_mask"], action_mask(view, view.pending, env.partial))
        for seat, observer in enumerate(observers):
            if rng.random() < 0.3:  # an observer also sees several steps' changes at once
                continue
            view = view_for(game, seat)
            partial = env.partial if view.pending is not None else None
            expected = encode(view, view.pending, partial)
            assert np.array_equal(observer.observe(view.pending, partial), expected), (
                f"{preset}: seat {seat} differs at step {steps}"
            )
            assert observer.view() == view
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
    assert steps > 100
