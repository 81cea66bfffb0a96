"""The vector environment: several copies a worker process, stepped on one message through a
shared block, give exactly what Gymnasium's own one-process vector environment gives; its other
calls; and what a user sees when a copy raises or a worker dies."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np
import pytest

from hegemon.env import single, vector
from hegemon.env.batched import VectorWorkerError

SHORT = {"turn_limit": 3}
OPPONENTS = ["random", "random"]


def assert_same_infos(got: dict, expected: dict) -> None:
    assert sorted(got) == sorted(expected)
    for key, value in expected.items():
        if isinstance(value, dict):
            assert_same_infos(got[key], value)
        else:
            assert np.array_equal(got[key], value), key


Stepped = Callable[[np.ndarray, int, dict], tuple[Any, ...]]
"""Steps the batched environment on the actions (at that step), checks its infos against the
expected ones and returns its observations, rewards, terminated and truncated flags."""


def play_beside(batched: Any, plain: Any, seed: int, stepped: Stepped) -> None:
    """Step ``batched`` (by ``stepped``) beside Gymnasium's SyncVectorEnv ``plain`` of the same
    environments on the same actions (illegal indices among them) until every copy has ended an
    episode and begun another: the same observations, masks, rewards, ends and infos at every
    step."""
    rng = np.random.default_rng(seed)
    got, got_infos = batched.reset(seed=seed)
    expected, expected_infos = plain.reset(seed=seed)
    assert_same_infos(got_infos, expected_infos)
    restarted = ended = np.zeros(plain.num_envs, dtype=bool)
    for step in range(3_000):
        for key in ("observation", "action_mask"):
            np.testing.assert_array_equal(got[key], expected[key], err_msg=f"{key} {step}")
        actions = np.array([_action(rng, mask, step) for mask in got["action_mask"]])
        expected, *same, expected_infos = plain.step(actions)
        got, *rest = stepped(actions, step, expected_infos)
        for mine, theirs in zip(rest, same, strict=True):
            np.testing.assert_array_equal(mine, theirs, err_msg=str(step))
        restarted = restarted | ended  # the step after an end resets that copy
        ended = rest[1] | rest[2]
        if restarted.all():
            return
    raise AssertionError("every copy should have played an episode to its end and begun another")


def test_copies_batched_over_two_workers_play_as_gymnasium_plays_them_in_one_process():
    """Six copies on two workers (three each), step by step beside Gymnasium's SyncVectorEnv
    of the same environments and actions (illegal indices among them): the same observations,
    masks, rewards, ends and infos, through every copy's end of episode and autoreset."""
    batched = vector(6, "classic", OPPONENTS, options=SHORT, workers=2)
    plain = vector(6, "classic", OPPONENTS, options=SHORT, asynchronous=False)

    def stepped(actions: np.ndarray, step: int, expected_infos: dict) -> tuple[Any, ...]:
        got, *rest, got_infos = batched.step(actions)
        assert_same_infos(got_infos, expected_infos)
        return (got, *rest)

    try:
        assert len(batched.processes) == 2
        assert batched.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.NEXT_STEP
        play_beside(batched, plain, 11, stepped)
    finally:
        batched.close()
        plain.close()
    assert [p.exitcode for p in batched.processes] == [0, 0]


def _action(rng: np.random.Generator, mask: np.ndarray, step: int) -> int:
    """A random legal index, and every 25th step one the mask forbids."""
    legal, illegal = np.flatnonzero(mask), np.flatnonzero(mask == 0)
    if step % 25 == 24 and len(legal) and len(illegal):
        return int(illegal[0])
    return int(rng.choice(legal)) if len(legal) else 0


def test_calls_reach_every_copy_and_a_partial_reset_keeps_the_others():
    envs = vector(3, "classic", OPPONENTS, options=SHORT, workers=2)
    try:
        obs, _ = envs.reset(seed=5)
        masks = envs.call("action_masks")
        assert len(masks) == 3
        for mask, observed in zip(masks, obs["action_mask"], strict=True):
            np.testing.assert_array_equal(mask, observed.astype(bool))
        assert envs.get_attr("seat") == (0, 0, 0)
        envs.set_attr("render_mode", "ansi")
        boards = envs.render()
        assert boards is not None and all("seat" in board.lower() for board in boards)

        actions = np.array([int(np.flatnonzero(m)[-1]) for m in obs["action_mask"]])
        moved, *_ = envs.step(actions)
        again, _ = envs.reset(seed=5, options={"reset_mask": np.array([True, False, False])})
        np.testing.assert_array_equal(again["observation"][0], obs["observation"][0])
        np.testing.assert_array_equal(again["observation"][1:], moved["observation"][1:])
    finally:
        envs.close()


def test_an_exception_in_a_copy_is_raised_as_the_copy_raised_it():
    bad: Any = "seven"
    with pytest.raises(Exception) as alone:  # what one environment says
        single("classic", OPPONENTS, options=SHORT).reset(seed=bad)
    envs = vector(2, "classic", OPPONENTS, options=SHORT, workers=2)
    with pytest.raises(type(alone.value), match=str(alone.value).split(",")[0]):
        envs.reset(seed=[1, bad])
    assert envs.closed
    assert all(p.exitcode is not None for p in envs.processes), "no worker left running"


def test_a_worker_that_dies_is_reported_in_one_line():
    envs = vector(4, "classic", OPPONENTS, options=SHORT, workers=2)
    obs, _ = envs.reset(seed=1)
    envs.processes[1].kill()
    with pytest.raises(VectorWorkerError) as died:
        envs.step(np.array([int(np.flatnonzero(m)[0]) for m in obs["action_mask"]]))
    assert str(died.value) == "a worker of the vector environment stopped (exit code -9)"
    assert envs.closed
    assert all(p.exitcode is not None for p in envs.processes)
    with pytest.raises(gymnasium.error.ClosedEnvironmentError):
        envs.step(np.zeros(4, dtype=np.int64))


def test_actions_of_the_wrong_shape_are_refused_and_nothing_is_lost():
    envs = vector(2, "classic", OPPONENTS, options=SHORT, workers=1)
    try:
        obs, _ = envs.reset(seed=2)
        with pytest.raises(ValueError, match=r"^2 actions expected, got shape \(3,\)$"):
            envs.step(np.zeros(3, dtype=np.int64))
        actions = np.array([int(np.flatnonzero(m)[0]) for m in obs["action_mask"]])
        _, rewards, *_ = envs.step(actions)
        assert rewards.shape == (2,)
    finally:
        envs.close()
