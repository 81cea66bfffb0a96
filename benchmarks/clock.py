"""Does the clock measure the bot or the machine? Time faults with each clock, under load.

Run:  .venv/bin/python benchmarks/clock.py [--games 8] [--turn-limit 8] [--decision 0.1]

A bot that computes for about 70 % of each decision's allowance (benchmarks/busy_bot.py) plays
a season of 4-player games against three sample bots (random, aggressive, planner; the busy
bot's seat rotates), through the real runner: bot processes in their sandboxes, gRPC, bot
processes reused between games as in a season. The same season is played at concurrency 1 and
4, once timed by the CPU clock (``--clock cpu``, the default) and once by the wall clock
(``--clock wall``). Reported: the time faults of the busy bot and of the sample bots in each
run, and the busy bot's mean CPU time per decision.

The last line is ``clock: cpu clock N time faults (c1 a, c4 b); wall clock M (c1 c, c4 d)``.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import trio

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from hegemon.leaderboard.botspec import resolve  # noqa: E402
from hegemon.referee.rules import make_rules  # noqa: E402
from hegemon.referee.runner.process import python_command  # noqa: E402
from hegemon.referee.runner.session import link_pool, play_game  # noqa: E402
from hegemon.referee.timecontrol import TimeControl  # noqa: E402

SAMPLES = ("random", "aggressive", "planner")
SEED = 20261201


async def season(games: int, rules, time_control: TimeControl, concurrency: int) -> dict:
    """Play the season; the time faults of the busy bot and of the others, and its CPU use."""
    busy = python_command("busy", ROOT / "benchmarks" / "busy_bot.py")
    others = [resolve(name) for name in SAMPLES]
    tally = {"busy": 0, "samples": 0, "games": 0, "busy_decisions": 0, "busy_think": 0.0}
    gate = trio.Semaphore(concurrency)

    async def one(n: int, pool) -> None:
        async with gate:
            seat = n % 4
            commands = [*others[:seat], busy, *others[seat:]]
            result = await play_game(pool, commands, rules, SEED + n, f"clock-{n}")
            tally["games"] += 1
            for state in result.seats:
                late = sum(1 for f in state.faults if f.kind == "timeout")
                tally["busy" if state.index == seat else "samples"] += late
            tally["busy_decisions"] += result.seats[seat].asked
            tally["busy_think"] += result.seats[seat].think_time

    async with link_pool(time_control) as pool, trio.open_nursery() as nursery:
        for n in range(games):
            nursery.start_soon(one, n, pool)
    return tally


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--turn-limit", type=int, default=8)
    parser.add_argument("--decision", type=float, default=0.1, help="seconds per decision")
    args = parser.parse_args()
    rules = make_rules("classic", {"turn_limit": args.turn_limit})
    print(
        f"{os.cpu_count()} cores; {args.games} games of 4 seats, turn limit {args.turn_limit}, "
        f"{args.decision:g} s per decision; the busy bot computes for 70 % of it"
    )
    found: dict[tuple[str, int], dict] = {}
    for clock in ("cpu", "wall"):
        time_control = TimeControl(
            startup=30, decision=args.decision, bank=600, max_strikes=1000, clock=clock
        )
        for concurrency in (1, 4):
            tally = trio.run(season, args.games, rules, time_control, concurrency)
            found[clock, concurrency] = tally
            per = tally["busy_think"] / max(1, tally["busy_decisions"])
            print(
                f"{clock} clock, concurrency {concurrency}: {tally['games']} games, busy bot "
                f"{tally['busy']} time faults in {tally['busy_decisions']} decisions asked "
                f"({per * 1000:.0f} ms charged per decision), sample bots {tally['samples']}"
            )

    def total(clock: str) -> str:
        c1, c4 = (found[clock, c]["busy"] + found[clock, c]["samples"] for c in (1, 4))
        return f"{c1 + c4} time faults (c1 {c1}, c4 {c4})"

    print(f"clock: cpu clock {total('cpu')}; wall clock {total('wall')}")


if __name__ == "__main__":
    main()
