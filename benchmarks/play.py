"""Benchmark of a single ``hegemon play``: does the arena cost little beyond the bots' own time?

Run:  .venv/bin/python benchmarks/play.py [--games 3] [--turn-limit 0] [--bots a,b,c,d]

Per game (the four sample bots as real processes, in their sandbox, as ``hegemon play`` runs
them; seeds 1, 2, ...):

- **start-up (slowest)**: each bot started *alone* (nothing else starting), its time from spawn
  to its ``Hello``; the slowest of the seats. This is the floor a game's start cannot beat.
- **playing time**: the referee's own clock from the first decision to the result
  (``GameResult.duration``).
- **wall**: :func:`hegemon.referee.runner.session.play_one` from call to return (start every
  bot, play, write the record, stop every bot), and also the ``hegemon play`` command as a
  subprocess (interpreter and imports included; its game, with the same seed but other game id,
  hence other bot randomness, has its own playing time, which the command prints).
- **ratio** = wall ÷ (playing time + slowest start-up); the target is at most 1.5.

The last line is ``play: ratio R (play_one), R2 (hegemon play command)``, medians over games.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import trio

from hegemon.leaderboard.botspec import resolve
from hegemon.referee.rules import RuleSet, make_rules
from hegemon.referee.runner.link import BotLink
from hegemon.referee.runner.session import play_one
from hegemon.referee.timecontrol import TimeControl

CLI = "import sys; from hegemon.leaderboard.cli import main; sys.argv[0] = 'hegemon'; main()"


async def startup_alone(commands: list, time_control: TimeControl) -> list[float]:
    """Each bot's start-up time when it starts alone."""
    times = []
    for command in commands:
        link = BotLink(command, time_control)
        try:
            assert await link.open(), link.startup_error
            times.append(link.startup_time)
        finally:
            await link.close()
    return times


def rules_for(turn_limit: int) -> RuleSet:
    return make_rules("classic", {"turn_limit": turn_limit} if turn_limit else None)


def one_game(specs: list[str], seed: int, turn_limit: int, out: Path) -> dict[str, float]:
    time_control = TimeControl()
    commands = [resolve(s) for s in specs]
    alone = trio.run(startup_alone, commands, time_control)
    began = time.perf_counter()
    result = trio.run(
        play_one, commands, rules_for(turn_limit), seed, time_control, out / f"{seed}.jsonl"
    )
    wall = time.perf_counter() - began
    argv = [sys.executable, "-c", CLI, "play", "--seed", str(seed)]
    for s in specs:
        argv += ["--bot", s]
    if turn_limit:
        argv += ["--set", f"turn_limit={turn_limit}"]
    began = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True, cwd=out, check=False)
    cli_wall = time.perf_counter() - began
    if done.returncode != 0:
        raise SystemExit(f"hegemon play failed: {done.stderr.strip()[-500:]}")
    # the command's own game (its bots' randomness differs): "(N decisions in X s)"
    said = re.search(r"\((\d+) decisions in ([\d.]+) s\)", done.stdout)
    assert said is not None, done.stdout[-500:]
    cli_playing = float(said.group(2))
    floor = result.duration + max(alone)
    return {
        "startup": max(alone),
        "playing": result.duration,
        "wall": wall,
        "cli_wall": cli_wall,
        "ratio": wall / floor,
        "cli_playing": cli_playing,
        "cli_ratio": cli_wall / (cli_playing + max(alone)),
        "decisions": result.decisions,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--turn-limit", type=int, default=0, help="0: no limit")
    parser.add_argument("--bots", default="aggressive,continental,planner,random")
    args = parser.parse_args()
    specs = [s for s in args.bots.split(",") if s]
    load = os.getloadavg()[0]
    print(f"machine: {os.cpu_count()} cores, load average {load:.2f} at start")
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        os.environ["HEGEMON_HOME"] = folder
        for seed in range(1, args.games + 1):
            row = one_game(specs, seed, args.turn_limit, Path(folder))
            rows.append(row)
            print(
                f"seed {seed}: start-up (slowest, alone) {row['startup']:.3f} s, playing "
                f"{row['playing']:.3f} s ({row['decisions']:.0f} decisions), wall "
                f"{row['wall']:.3f} s (ratio {row['ratio']:.2f}); hegemon play: its game "
                f"{row['cli_playing']:.1f} s, wall {row['cli_wall']:.3f} s "
                f"(ratio {row['cli_ratio']:.2f})"
            )
    print(f"load average {os.getloadavg()[0]:.2f} at end")

    def med(key: str) -> float:
        return statistics.median(r[key] for r in rows)

    print(
        f"median: start-up {med('startup'):.3f} s, playing {med('playing'):.3f} s, "
        f"wall {med('wall'):.3f} s, hegemon play {med('cli_wall'):.3f} s"
    )
    print(
        f"play: ratio {med('ratio'):.2f} (play_one), {med('cli_ratio'):.2f} (hegemon play command)"
    )


if __name__ == "__main__":
    main()
