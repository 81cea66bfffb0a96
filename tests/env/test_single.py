"""The single-seat Gymnasium environment: Gymnasium's own checker, a whole game against sample
bots played by the referee's loop, the vector version, and bad arguments."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium.spaces import Discrete
from gymnasium.utils.env_checker import check_env

from hegemon.env import single, vector
from hegemon.sample_bots.random import RandomBot
from hegemon.sdk import Bot, play_local
from tests.helpers.env import random_choice, steps_for

SHORT = {"turn_limit": 3}


def play_episode(env, choose, seed: int):
    """One episode with ``choose(mask)``; (steps, total reward, terminated, truncated, last
    info)."""
    obs, _ = env.reset(seed=seed)
    steps, total = 0, 0.0
    while True:
        obs, reward, terminated, truncated, info = env.step(choose(obs["action_mask"]))
        steps, total = steps + 1, total + reward
        if terminated or truncated:
            return steps, total, terminated, truncated, info


@pytest.mark.parametrize("preset", ["classic", "mission-2004", "risiko-master-master"])
def test_check_env_passes(preset):
    env = single(preset, ["random", "random"], options=SHORT)
    try:
        check_env(env, skip_render_check=True)
    finally:
        env.close()


def test_a_game_against_sample_bots_ends_with_the_learners_place():
    env = single("classic", ["random", "aggressive"], options=SHORT, reward="place")
    try:
        steps, total, terminated, truncated, info = play_episode(
            env, random_choice(np.random.default_rng(0)), seed=3
        )
    finally:
        env.close()
    assert steps > 0 and terminated != truncated
    assert info["place"] in (1, 2, 3)
    assert total == 1.0 - (info["place"] - 1)


def test_the_opponents_play_as_in_play_local():
    """A learner that answers what a bot of the SDK's defaults answers gets the very game
    play_local plays with that bot in its seat: the opponents are run as in the arena."""
    env = single("classic-2004", ["random", "random"], options=SHORT)
    env.reset(seed=5)
    learner = env
    try:
        done = False
        while not done:
            assert learner._asked is not None
            view = learner._asked.view
            for index in steps_for(learner.game.default_action(), view, view.pending):
                _, _, terminated, truncated, _ = env.step(index)
                done = terminated or truncated
        game = learner.game
    finally:
        env.close()
    local = play_local([Bot(), RandomBot(), RandomBot()], "classic-2004", 5, options=SHORT)
    assert local.game is not None and local.game.history == game.history


def test_an_illegal_index_gets_the_default_action():
    env = single("classic", ["random", "random"], options=SHORT)
    try:
        obs, _ = env.reset(seed=2)
        illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
        _, _, terminated, truncated, info = env.step(illegal)
    finally:
        env.close()
    assert "not legal" in info["illegal"]
    assert not (terminated or truncated)


def test_vector_env_steps_several_games():
    envs = vector(2, "classic", ["random", "random"], options=SHORT, asynchronous=True)
    try:
        obs, _ = envs.reset(seed=7)
        assert obs["observation"].shape[0] == 2
        rng = np.random.default_rng(0)
        finished = np.zeros(2, dtype=bool)
        for _ in range(5_000):
            # a finished copy's last observation has nothing legal: its next step (any action)
            # is Gymnasium's autoreset
            actions = [
                int(rng.choice(np.flatnonzero(m))) if m.any() else 0 for m in obs["action_mask"]
            ]
            obs, rewards, terminated, truncated, _ = envs.step(np.array(actions))
            assert rewards.shape == (2,)
            finished |= terminated | truncated
            if finished.all():
                break
        assert finished.all(), "each copy plays its game to the end"
    finally:
        envs.close()


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"opponents": ["nobody"]}, "unknown opponent 'nobody'"),
        ({"opponents": ["random"], "seat": 5}, "seat 5 is not one of the 2 players' seats"),
        ({"reward": "gold"}, "unknown reward 'gold'"),
    ],
)
def test_bad_arguments_are_refused(kwargs, message):
    with pytest.raises(ValueError, match=message):
        single("classic", **kwargs)


@pytest.mark.parametrize("preset", ["classic", "two-player-classic"])
def test_action_masks_follow_maskable_ppo_and_the_observation(preset):
    """sb3-contrib's MaskablePPO asks ``env.action_masks()`` before each step: a bool vector of
    the action space's size, which must be the observation's mask at every step of a game
    (all False after the last one)."""
    opponents = ["random"] if preset.startswith("two-player") else ["random", "random"]
    env = single(preset, opponents, options=SHORT)
    rng = np.random.default_rng(1)
    try:
        with pytest.raises(RuntimeError, match="reset"):
            env.action_masks()
        obs, _ = env.reset(seed=4)
        steps = 0
        while True:
            masks = env.action_masks()
            assert masks.dtype == np.bool_
            assert isinstance(env.action_space, Discrete)
            assert masks.shape == (env.action_space.n,)
            assert np.array_equal(masks, obs["action_mask"].astype(bool))
            assert masks.any()
            obs, _, terminated, truncated, _ = env.step(int(rng.choice(np.flatnonzero(masks))))
            steps += 1
            if terminated or truncated:
                break
        assert steps > 10
        assert not env.action_masks().any() and not obs["action_mask"].any()
    finally:
        env.close()
