"""Games per minute between sample bots as real processes, with process reuse and with a
restart per game; plus the resident memory of an idle sample bot and of the referee.

4-player `classic` games (random, aggressive, continental, planner, seats rotating) with a turn
limit so every game ends; the same seeds in both modes. Last line:
``games: N games/min (reuse)``.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

import trio

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from hegemon.leaderboard.botspec import resolve  # noqa: E402
from hegemon.referee.rules import make_rules  # noqa: E402
from hegemon.referee.runner.session import link_pool, play_game  # noqa: E402
from hegemon.referee.timecontrol import TimeControl  # noqa: E402

GAMES = 8
TURN_LIMIT = 40
BOTS = ["random", "aggressive", "continental", "planner"]


def rss_kb(pid: int | str = "self") -> int:
    """Resident set size of a process, in kB (from /proc)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


async def season(restart: bool) -> tuple[float, list[float], int, int]:
    rules = make_rules("classic", {"turn_limit": TURN_LIMIT})
    commands = [resolve(name) for name in BOTS]
    time_control = TimeControl(decision=5, bank=300)
    durations: list[float] = []
    referee_peak = bot_idle = 0
    started = time.perf_counter()
    async with link_pool(time_control, restart_per_game=restart) as pool:
        for n in range(GAMES):
            seats = commands[n % 4 :] + commands[: n % 4]
            t = time.perf_counter()

            def sample(referee) -> None:
                nonlocal referee_peak
                if len(referee.game.history) % 500 == 0:
                    referee_peak = max(referee_peak, rss_kb())

            await play_game(
                pool, seats, rules, seed=1000 + n, game_id=f"bench-{n}", on_progress=sample
            )
            durations.append(time.perf_counter() - t)
        if not restart:
            idle = [
                link.process.process.pid
                for links in pool._idle.values()
                for link in links
                if link.process is not None and link.process.process is not None
            ]
            bot_idle = max(rss_kb(pid) for pid in idle)
    total = time.perf_counter() - started
    return GAMES / total * 60, durations, referee_peak, bot_idle


def main() -> None:
    reuse_rate, reuse_times, referee_kb, bot_kb = trio.run(season, False)
    restart_rate, restart_times, _, _ = trio.run(season, True)
    print(f"{GAMES} four-player classic games (turn limit {TURN_LIMIT}), bots: {', '.join(BOTS)}")
    print(
        f"restart per game: {restart_rate:.1f} games/min "
        f"(median game {statistics.median(restart_times):.2f} s)"
    )
    print(
        f"process reuse:    {reuse_rate:.1f} games/min "
        f"(median game {statistics.median(reuse_times):.2f} s)"
    )
    print(
        f"resident memory: idle sample bot {bot_kb / 1024:.1f} MB, "
        f"referee during a game {referee_kb / 1024:.1f} MB"
    )
    print(f"games: {reuse_rate:.1f} games/min (reuse)")


if __name__ == "__main__":
    main()
