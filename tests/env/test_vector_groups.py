"""The vector environment's copies in two groups stepped apart (a double-buffered learner's
loop: one group's actions chosen while the workers step the other), and its workers each on a
core of their own."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from hegemon.env import vector

from .test_vector import OPPONENTS, SHORT, assert_same_infos, play_beside


def _within(infos: dict, part: range) -> dict:
    """The infos of the copies ``part`` as a vector environment of those copies gives them."""
    kept: dict = {}
    for key, value in infos.items():
        if key.startswith("_"):
            continue
        mask = infos[f"_{key}"][part.start : part.stop]
        if not mask.any():
            continue
        kept[f"_{key}"] = mask
        kept[key] = (
            _within(value, part) if isinstance(value, dict) else value[part.start : part.stop]
        )
    return kept


@pytest.mark.parametrize("workers", [2, 3], ids=["a group a worker", "groups spread"])
def test_two_groups_stepped_apart_play_as_gymnasium_plays_the_copies_in_one_process(workers):
    """Eight copies in two groups on two workers (a group each) or three (each group spread
    over them): stepped apart, the second's
    actions sent before the first's results are read, then waited for in order or as they
    are done, or all at once with ``step``; step by step the same as Gymnasium's SyncVectorEnv
    of the same copies and actions, through every copy's end of episode and autoreset, and
    ``call`` answers in the copies' order."""
    batched = vector(8, "classic", OPPONENTS, options=SHORT, workers=workers, groups=2)
    plain = vector(8, "classic", OPPONENTS, options=SHORT, asynchronous=False)

    def stepped(actions: np.ndarray, step: int, expected_infos: dict) -> tuple[Any, ...]:
        if step % 3 == 1:
            got, *rest, got_infos = batched.step(actions)
            assert_same_infos(got_infos, expected_infos)
            return (got, *rest)
        for group, part in enumerate(batched.groups):
            batched.step_async(actions[part.start : part.stop], group)
        if step % 3 == 2:  # served in the order they are done
            done = dict(batched.step_wait_any() for _ in batched.groups)
            results = [done[group] for group in range(len(batched.groups))]
        else:
            results = [batched.step_wait(group) for group in range(len(batched.groups))]
        for part, result in zip(batched.groups, results, strict=True):
            assert_same_infos(result[4], _within(expected_infos, part))
        got = {key: np.concatenate([r[0][key] for r in results]) for key in result[0]}
        return (got, *(np.concatenate([r[i] for r in results]) for i in (1, 2, 3)))

    try:
        assert batched.groups == [range(4), range(4, 8)]
        assert len(batched.processes) == workers
        obs, _ = batched.reset(seed=21)
        masks = batched.call("action_masks")
        assert [m.tolist() for m in masks] == obs["action_mask"].astype(bool).tolist()
        play_beside(batched, plain, 21, stepped)
    finally:
        batched.close()
        plain.close()


def test_a_group_waited_for_out_of_order_or_twice_is_told_and_nothing_is_lost():
    """Misuse of the groups gets one line each; the steps sent still come back, the later
    group's first if asked first, as one step of the same copies would give them."""
    with pytest.raises(ValueError, match=r"^groups and pin are the worker processes'"):
        vector(4, "classic", OPPONENTS, options=SHORT, asynchronous=False, groups=2)
    envs = vector(4, "classic", OPPONENTS, options=SHORT, workers=2, groups=2)
    same = vector(4, "classic", OPPONENTS, options=SHORT, workers=1)
    try:
        obs, _ = envs.reset(seed=3)
        same.reset(seed=3)
        actions = np.array([int(np.flatnonzero(m)[0]) for m in obs["action_mask"]])
        with pytest.raises(RuntimeError, match=r"^group 1 is not stepping: step_async"):
            envs.step_wait(1)
        with pytest.raises(RuntimeError, match=r"^no group is stepping: step_async"):
            envs.step_wait_any()
        with pytest.raises(ValueError, match=r"^no group 2: the groups are 0 to 1$"):
            envs.step_async(actions[:2], 2)
        with pytest.raises(ValueError, match=r"^2 actions expected, got shape \(4,\)$"):
            envs.step_async(actions, 0)
        envs.step_async(actions[:2], 0)
        envs.step_async(actions[2:], 1)
        with pytest.raises(RuntimeError, match=r"^group 0 is stepping already"):
            envs.step_async(actions[:2], 0)
        with pytest.raises(RuntimeError, match=r"^group 0 is stepping: step_wait it first$"):
            envs.step(actions)
        later, *_ = envs.step_wait(1)
        earlier, *_ = envs.step_wait(0)
        expected, *_ = same.step(actions)
        for key in ("observation", "action_mask"):
            np.testing.assert_array_equal(np.concatenate([earlier[key], later[key]]), expected[key])
    finally:
        envs.close()
        same.close()


def _cores_of(pid: int) -> set[frozenset[int]]:
    """The cores each thread of process ``pid`` may run on (its copies' game threads too)."""
    tasks = Path(f"/proc/{pid}/task")
    return {frozenset(os.sched_getaffinity(int(t.name))) for t in tasks.iterdir()}


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="no CPU affinity here")
def test_pinned_workers_run_each_on_a_core_of_its_own():
    """Pinned, two workers sit on the first two cores this process may use (the only one,
    twice, on one core), their copies' game threads with them; by default a worker that
    leaves cores free is not pinned."""
    cores = sorted(os.sched_getaffinity(0))
    pinned = vector(4, "classic", OPPONENTS, options=SHORT, workers=2, pin=True)
    alone = vector(2, "classic", OPPONENTS, options=SHORT, workers=1)
    try:
        pinned.reset(seed=1)  # the workers are started, their games' threads too
        alone.reset(seed=1)
        assert [_cores_of(p.pid) for p in pinned.processes] == [
            {frozenset({cores[0]})},
            {frozenset({cores[1 % len(cores)]})},
        ]
        assert [_cores_of(p.pid) for p in alone.processes] == [{frozenset(cores)}]
    finally:
        pinned.close()
        alone.close()
