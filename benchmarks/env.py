"""Learning-environment throughput: steps per second with uniformly random masked actions.

    python benchmarks/env.py [--steps 20000] [--preset classic] [--players 4]

Four figures, each a step being one atomic step of ``hegemon.referee.encoding`` with its
observation encoded (the observation and mask of the next step are part of the step):

- aec: the PettingZoo AEC environment, one process (``env.last()`` then ``env.step``);
- single: the Gymnasium environment, one seat against ``random`` sample bots played by the
  referee's loop (their decisions are not counted as steps);
- vector: ``hegemon.env.vector`` with one copy per core (AsyncVectorEnv, a process each), its
  steps summed over the copies;
- memory: the Python memory one AEC environment holds after a reset (tracemalloc, the mean
  over 10 environments).

Games are cut at a turn limit of 30 rounds so that every figure mixes set-up and play. The
last line is ``env: N steps/s`` for the AEC environment. The machines are shared: the one-process
figures are also given per CPU second of the process, which other load does not change.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import tracemalloc
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hegemon.env import aec, single, vector

OPTIONS = {"turn_limit": 30}


def choose(rng: np.random.Generator, mask: np.ndarray) -> int:
    """A uniformly random legal index (``rng.choice`` would cost as much as a step)."""
    legal = mask.nonzero()[0]
    return int(legal[rng.integers(len(legal))]) if len(legal) else 0


def rates(done: int, wall: float, cpu: float) -> tuple[float, float]:
    """(steps per wall second, steps per CPU second of this process)."""
    return done / wall, done / max(cpu, 1e-9)


def bench_aec(preset: str, players: int, steps: int) -> tuple[float, float]:
    env = aec(preset, players, options=OPTIONS)
    rng = np.random.default_rng(0)
    done, seed = 0, 0
    start, cpu = time.perf_counter(), time.process_time()
    while done < steps:
        env.reset(seed=seed)
        seed += 1
        for _ in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(choose(rng, obs["action_mask"]))
            done += 1
            if done >= steps:
                break
    return rates(done, time.perf_counter() - start, time.process_time() - cpu)


def bench_single(preset: str, players: int, steps: int) -> tuple[float, float]:
    env = single(preset, ["random"] * (players - 1), options=OPTIONS)
    rng = np.random.default_rng(0)
    done, seed = 0, 0
    start, cpu = time.perf_counter(), time.process_time()
    try:
        while done < steps:
            obs, _ = env.reset(seed=seed)
            seed += 1
            while done < steps:
                obs, _, terminated, truncated, _ = env.step(choose(rng, obs["action_mask"]))
                done += 1
                if terminated or truncated:
                    break
    finally:
        env.close()
    return rates(done, time.perf_counter() - start, time.process_time() - cpu)


def bench_vector(preset: str, players: int, steps: int, copies: int) -> float:
    envs = vector(copies, preset, ["random"] * (players - 1), options=OPTIONS)
    rng = np.random.default_rng(0)
    try:
        obs, _ = envs.reset(seed=0)
        start = time.perf_counter()
        for _ in range(steps // copies):
            actions = np.array([choose(rng, m) for m in obs["action_mask"]])
            obs, *_ = envs.step(actions)
        elapsed = time.perf_counter() - start
    finally:
        envs.close()
    return (steps // copies) * copies / elapsed


def memory_per_env(preset: str, players: int, count: int = 10) -> float:
    tracemalloc.start()
    before = tracemalloc.take_snapshot()
    envs = [aec(preset, players, options=OPTIONS) for _ in range(count)]
    for seed, env in enumerate(envs):
        env.reset(seed=seed)
        env.observe(env.agent_selection)
    after = tracemalloc.take_snapshot()
    tracemalloc.stop()
    grown = sum(s.size_diff for s in after.compare_to(before, "filename"))
    return grown / count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=20_000)
    parser.add_argument("--preset", default="classic")
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    cores = min(2, os.cpu_count() or 1)
    memory = memory_per_env(args.preset, args.players)
    print(f"memory: {memory / 1024:,.0f} KiB per AEC environment")
    wall, cpu = bench_single(args.preset, args.players, args.steps // 4)
    print(f"single: {wall:,.0f} steps/s, {cpu:,.0f} per CPU second (opponents' time included)")
    vector_rate = bench_vector(args.preset, args.players, args.steps // 2, cores)
    print(f"vector: {vector_rate:,.0f} steps/s ({cores} copies, a process each)")
    wall, cpu = bench_aec(args.preset, args.players, args.steps)
    print(f"aec: {cpu:,.0f} steps per CPU second")
    print(f"env: {wall:,.0f} steps/s")


if __name__ == "__main__":
    main()
