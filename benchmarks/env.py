"""Learning-environment throughput: steps per second with uniformly random masked actions.

    python benchmarks/env.py [--steps 20000] [--preset classic] [--players 4] [--copies 16]
    python benchmarks/env.py --against ../main [--rounds 5] [--figure aec]

Four figures, each a step being one atomic step of ``hegemon.referee.encoding`` with its
observation encoded (the observation and mask of the next step are part of the step):

- aec: the PettingZoo AEC environment, one process (``env.last()`` then ``env.step``);
- single: the Gymnasium environment, one seat against ``random`` sample bots played by the
  referee's loop (their decisions are not counted as steps);
- vector: ``hegemon.env.vector`` on ``--workers`` processes (default 2), with one copy per
  worker and with ``--copies`` (default 16) shared among them, its steps summed over the copies,
  per second of wall (beside the single figure's wall rate: the ratio is the one that needs two
  free cores) and the CPU a step takes in the workers and this process together. Its policy is
  batched, as a learner's is (a network's forward pass over every copy's observation): one
  numpy call draws a random legal action for every copy (``masked_random``). With ``--copies``
  it is measured twice: stepped as one group (``step``), and double-buffered, the copies in
  two groups a worker, each group's actions chosen and sent as soon as it is done while the
  workers step the others (``step_async`` and ``step_wait_any``, the loop of a learner that
  overlaps its policy with the environment);
- memory: the Python memory one AEC environment holds after a reset (tracemalloc, the mean
  over 10 environments).

Games are cut at a turn limit of 30 rounds so that every figure mixes set-up and play. The
last line is ``env: N steps/s`` for the AEC environment. The machines are shared: the one-process
figures are also given per CPU second of the process, which other load does not change.

``--against CHECKOUT`` compares this checkout with another (e.g. main's) in one sitting: one
figure (``--figure``: ``aec`` or ``single`` steps per CPU second), measured ``--rounds`` times
in each, the two alternating, each run a fresh process of that checkout's own ``.venv``
(``python`` when it has none) with that checkout first on its path; it prints every run, the
machine's load average, and the medians and their ratio. The other checkout's ``benchmarks/env.py``
only needs ``bench_aec`` and ``bench_single``, which every version has.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hegemon.env import aec, single, vector
from hegemon.env.batched import HegemonVector

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


def masked_random(rng: np.random.Generator, masks: np.ndarray) -> np.ndarray:
    """A uniformly random legal index for every copy at once, in one numpy call: a learner's
    policy is batched (a network's forward pass over the copies' observations), and this is
    its honest stand-in (0 where nothing is legal)."""
    return np.where(masks != 0, rng.random(masks.shape), -1.0).argmax(axis=1)


def bench_vector(
    preset: str, players: int, steps: int, copies: int, workers: int, groups: int = 1
) -> tuple[float, float]:
    """(steps per wall second, CPU microseconds per step: this process's and the workers').

    With ``groups`` > 1, the loop of a double-buffered learner (:func:`double_buffered`)."""
    grouped: dict[str, Any] = {"groups": groups} if groups > 1 else {}  # (before groups: one)
    envs = vector(
        copies, preset, ["random"] * (players - 1), options=OPTIONS, workers=workers, **grouped
    )
    assert isinstance(envs, HegemonVector)
    rng = np.random.default_rng(0)
    rounds = steps // copies
    try:
        obs, _ = envs.reset(seed=0)
        pids = [p.pid for p in envs.processes]
        start, cpu, theirs = time.perf_counter(), time.process_time(), process_cpu(pids)
        if groups == 1:
            for _ in range(rounds):
                obs, *_ = envs.step(masked_random(rng, obs["action_mask"]))
            done = rounds * copies
        else:
            done = double_buffered(envs, obs["action_mask"], rng, rounds * copies)
        elapsed = time.perf_counter() - start
        used = time.process_time() - cpu + process_cpu(pids) - theirs
    finally:
        envs.close()
    return done / elapsed, used / done * 1e6


def double_buffered(
    envs: HegemonVector, masks: np.ndarray, rng: np.random.Generator, steps: int
) -> int:
    """A double-buffered learner's loop: every group stepping, each served (its actions chosen
    and sent) as soon as it is done, until ``steps`` are sent; the steps done."""
    sent = done = 0
    for group, part in enumerate(envs.groups):
        envs.step_async(masked_random(rng, masks[part.start : part.stop]), group)
        sent += len(part)
    while done < sent:
        group, (obs, *_) = envs.step_wait_any()
        done += len(envs.groups[group])
        if sent < steps:
            envs.step_async(masked_random(rng, obs["action_mask"]), group)
            sent += len(envs.groups[group])
    return done


def process_cpu(pids: list[int]) -> float:
    """CPU seconds the processes ``pids`` have used (read from ``/proc``; 0 where there is
    none)."""
    ticks = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return 0.0
        ticks += int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK")


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


RUN_ONE = """
import runpy, sys
bench = runpy.run_path("benchmarks/env.py", run_name="env_bench")
_, cpu = bench["bench_" + sys.argv[1]](sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
print(cpu)
"""


def run_in(checkout: Path, figure: str, preset: str, players: int, steps: int) -> float:
    """One measurement of ``figure`` (steps per CPU second) by ``checkout``'s own code, in a
    fresh process of its interpreter."""
    venv = checkout / ".venv" / "bin" / "python"
    python = str(venv) if venv.exists() else sys.executable
    args = [python, "-c", RUN_ONE, figure, preset, str(players), str(steps)]
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    out = subprocess.run(args, cwd=checkout, env=env, capture_output=True, text=True, check=True)
    return float(out.stdout.split()[-1])


def compare(other: Path, figure: str, preset: str, players: int, steps: int, rounds: int) -> None:
    """Alternate this checkout and ``other`` ``rounds`` times on ``figure``; print the runs,
    the load and the medians."""
    here = Path(__file__).resolve().parent.parent
    runs: dict[Path, list[float]] = {here: [], other: []}
    for round_ in range(rounds):
        for checkout in (other, here) if round_ % 2 else (here, other):
            runs[checkout].append(run_in(checkout, figure, preset, players, steps))
            print(f"{checkout.name}: {runs[checkout][-1]:,.0f} steps per CPU second", flush=True)
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    mine, theirs = statistics.median(runs[here]), statistics.median(runs[other])
    print(f"load average (1, 5, 15 min): {load}")
    print(f"{figure}: median {mine:,.0f} here, {theirs:,.0f} in {other.name}: {mine / theirs:.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=20_000)
    parser.add_argument("--preset", default="classic")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--against", type=Path, help="another checkout to alternate with")
    parser.add_argument("--rounds", type=int, default=5, help="runs of each, alternated")
    parser.add_argument("--figure", choices=("aec", "single"), default="aec")
    parser.add_argument("--workers", type=int, default=2, help="the vector environment's")
    parser.add_argument("--copies", type=int, default=16, help="the vector environment's")
    args = parser.parse_args()
    if args.against is not None:
        steps = args.steps if args.figure == "aec" else args.steps // 4
        compare(args.against.resolve(), args.figure, args.preset, args.players, steps, args.rounds)
        return
    memory = memory_per_env(args.preset, args.players)
    print(f"memory: {memory / 1024:,.0f} KiB per AEC environment")
    alone, cpu = bench_single(args.preset, args.players, args.steps // 4)
    print(f"single: {alone:,.0f} steps/s, {cpu:,.0f} per CPU second (opponents' time included)")
    print(f"single: {1e6 / cpu:,.0f} µs CPU per step")
    workers = args.workers
    for copies in sorted({workers, args.copies}):
        for groups in (1, 2 * workers) if copies >= 2 * workers else (1,):
            steps = args.steps // 2
            wall, used = bench_vector(args.preset, args.players, steps, copies, workers, groups)
            how = f"double-buffered, {groups} groups" if groups > 1 else "one group"
            print(
                f"vector: {wall:,.0f} steps/s ({copies} copies on {workers} workers, {how}), "
                f"{used:,.0f} µs CPU per step (workers and this process); "
                f"{wall / alone:.2f}x single's steps/s"
            )
    wall, cpu = bench_aec(args.preset, args.players, args.steps)
    print(f"aec: {cpu:,.0f} steps per CPU second")
    print(f"env: {wall:,.0f} steps/s")


if __name__ == "__main__":
    main()
