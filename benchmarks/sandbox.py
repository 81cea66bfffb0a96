"""What the sandbox costs: a bot's start (spawn → Hello) and one game's decisions per second,
under bubblewrap and under the plain rlimits fallback, with the same bots and seeds.

    .venv/bin/python benchmarks/sandbox.py

Last line: ``sandbox: start +X ms, decisions/s ×Y (bubblewrap vs rlimits)``.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

import trio

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from hegemon.referee.rules import make_rules  # noqa: E402
from hegemon.referee.runner import sandbox  # noqa: E402
from hegemon.referee.runner.bots import resolve  # noqa: E402
from hegemon.referee.runner.link import BotLink, TimeControl  # noqa: E402
from hegemon.referee.runner.session import play_one  # noqa: E402

STARTS = 6
TC = TimeControl(startup=30, decision=5, bank=600)


async def start_times() -> list[float]:
    times = []
    for _ in range(STARTS):
        link = BotLink(resolve("random"), TC)
        started = time.perf_counter()
        ok = await link.open()
        times.append(time.perf_counter() - started)
        assert ok, link.startup_error
        await link.close()
    return times


def measure(mode: str) -> tuple[float, float]:
    os.environ[sandbox.SANDBOX_ENV] = mode
    start = statistics.median(trio.run(start_times))
    commands = [resolve("random"), resolve("aggressive"), resolve("random")]
    result = trio.run(play_one, commands, make_rules("classic", {"turn_limit": 30}), 7, TC)
    rate = result.decisions / result.duration
    print(
        f"{mode:10s} start {start * 1000:7.1f} ms (median of {STARTS})   "
        f"{result.decisions} decisions in {result.duration:.2f} s = {rate:,.0f}/s"
    )
    return start, rate


def main() -> None:
    if sandbox.bwrap_path() is None:
        sys.exit("bubblewrap is not installed: nothing to compare")
    uid_pool = "yes" if sandbox.is_root() else "no (not root)"
    print(f"seccomp: {sandbox.seccomp_status()}; uid pool: {uid_pool}")
    bw_start, bw_rate = measure("bubblewrap")
    rl_start, rl_rate = measure("rlimits")
    print(
        f"sandbox: start {1000 * (bw_start - rl_start):+.0f} ms, "
        f"decisions/s ×{bw_rate / rl_rate:.2f} (bubblewrap vs rlimits)"
    )


if __name__ == "__main__":
    main()
