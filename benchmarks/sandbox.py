"""What the sandbox costs.

1. A bot's start (spawn → Hello): with no sandbox at all (a plain process the referee reaches
   by its socket), under bubblewrap and under the rlimits fallback — both with the bot's
   ceiling (its cgroups, or the watcher) — with the same bot.
2. One game's decisions per second under bubblewrap and under the fallback.
3. Freezing (each bot paused between its decisions, see
   :mod:`hegemon.referee.runner.sandbox.ceiling`): decisions per second on vs off.

    .venv/bin/python benchmarks/sandbox.py

Targets (issue 8): start-up with the ceiling ≤ 150 ms more than without a sandbox; freezing
on ≤ 1.1× the time per decision of freezing off. Last lines say both.
"""

from __future__ import annotations

import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import trio

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from hegemon.leaderboard.botspec import resolve  # noqa: E402
from hegemon.referee.rules import make_rules  # noqa: E402
from hegemon.referee.runner import sandbox  # noqa: E402
from hegemon.referee.runner.link import BotLink  # noqa: E402
from hegemon.referee.runner.process import BotCommand, BotProcess  # noqa: E402
from hegemon.referee.runner.sandbox import cgroups  # noqa: E402
from hegemon.referee.runner.session import play_one  # noqa: E402
from hegemon.referee.timecontrol import TimeControl  # noqa: E402

STARTS = 6
GAMES = 3
PAIRS = 4
TC = TimeControl(startup=30, decision=5, bank=600)
RULES = make_rules("classic", {"turn_limit": 30})


async def sandboxed_starts() -> list[float]:
    times = []
    for _ in range(STARTS):
        link = BotLink(resolve("random"), TC)
        started = time.perf_counter()
        ok = await link.open()
        times.append(time.perf_counter() - started)
        assert ok, link.startup_error
        await link.close()
    return times


def listening(path: str) -> bool:
    with socket.socket(socket.AF_UNIX) as probe:
        try:
            probe.connect(path)
        except OSError:
            return False
    return True


async def plain_starts() -> list[float]:
    """The same bot as a plain child process, reached by its socket: no sandbox at all."""
    times = []
    for _ in range(STARTS):
        folder = tempfile.mkdtemp(prefix="hegemon-bench-")
        address = f"unix:{folder}/bot.sock"
        started = time.perf_counter()
        child = subprocess.Popen(  # noqa: ASYNC220 - on the trio thread, as the runner does
            [sys.executable, "-m", "hegemon.sample_bots.random", "--address", address],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        # polls a child's socket: no event to wait for (else gRPC's reconnect backoff is timed)
        while not listening(f"{folder}/bot.sock"):  # noqa: ASYNC110 - another process's state
            await trio.sleep(0.002)
        link = BotLink(BotCommand("plain", (), remote=address), TC)
        ok = await link.open()
        times.append(time.perf_counter() - started)
        assert ok, link.startup_error
        await link.close()
        child.kill()
        child.wait()
        shutil.rmtree(folder, ignore_errors=True)
    return times


def game_rate() -> float:
    """Decisions per second over a few games (the median)."""
    commands = [resolve("random"), resolve("aggressive"), resolve("random")]
    rates = []
    for seed in range(GAMES):
        result = trio.run(play_one, commands, RULES, seed + 7, TC)
        rates.append(result.decisions / result.duration)
    return statistics.median(rates)


def _patch(owner: type, name: str, value: object) -> Callable[[], None]:
    original = owner.__dict__[name]
    setattr(owner, name, value)
    return lambda: setattr(owner, name, original)


@contextmanager
def freezing(on: bool) -> Iterator[None]:
    """Freezing on or off. Where the runner does not pause bots itself yet, "on" freezes
    every bot but the one asked (as the runner will)."""
    undo: list[Callable[[], None]] = []
    if not on:
        undo.append(_patch(BotProcess, "pause", lambda self, **_: None))
    else:
        calls: list[int] = []
        pause = BotProcess.pause

        def counted(self: BotProcess, soon: bool = False) -> None:
            calls.append(1)
            pause(self, soon)

        undo.append(_patch(BotProcess, "pause", counted))
        if not _runner_pauses(calls):
            undo.append(_wrap_decisions())
    try:
        yield
    finally:
        for step in reversed(undo):
            step()


def _runner_pauses(calls: list[int]) -> bool:
    commands = [resolve("random"), resolve("random"), resolve("random")]
    trio.run(play_one, commands, make_rules("classic", {"turn_limit": 2}), 1, TC)
    return bool(calls)


def _wrap_decisions() -> Callable[[], None]:
    """Before a bot is asked: freeze every other bot of the game, thaw this one (so a seat
    asked several times in a row is not frozen in between); thaw each before any other call
    (``StartGame``, ``EndGame``)."""
    make_request, start, end = BotLink.decide_bytes, BotLink.start_game, BotLink.end_game
    seen: dict[int, BotProcess] = {}

    def request(self: BotLink, *args: object) -> object:
        if self.process is not None:
            seen[id(self.process)] = self.process
            for other in seen.values():
                if other is not self.process:
                    other.pause()
            self.process.resume()
        return make_request(self, *args)  # type: ignore[arg-type]

    async def thawed(self: BotLink, call: Callable[..., Any], *args: object) -> Any:
        if self.process is not None:
            self.process.resume()
        return await call(self, *args)

    async def start_game(self: BotLink, *args: object) -> Any:
        return await thawed(self, start, *args)

    async def end_game(self: BotLink, *args: object) -> Any:
        return await thawed(self, end, *args)

    undo = [
        _patch(BotLink, "decide_bytes", request),
        _patch(BotLink, "start_game", start_game),
        _patch(BotLink, "end_game", end_game),
    ]

    def restore() -> None:
        for step in undo:
            step()

    return restore


def measure(mode: str) -> tuple[float, float]:
    os.environ[sandbox.SANDBOX_ENV] = mode
    start = statistics.median(trio.run(sandboxed_starts))
    rate = game_rate()
    print(f"{mode:10s} start {start * 1000:7.1f} ms (median of {STARTS})   {rate:,.0f} decisions/s")
    return start, rate


def main() -> None:
    if sandbox.bwrap_path() is None:
        sys.exit("bubblewrap is not installed: nothing to compare")
    found = cgroups.places()
    print(
        f"seccomp: {sandbox.seccomp_status()}; uid pool: "
        f"{'yes' if sandbox.is_root() else 'no (not root)'}; cgroups: "
        + (", ".join(f"{n} v{p.version}" for n, p in found.items()) or "none (the watcher)")
    )
    plain = statistics.median(trio.run(plain_starts))
    print(f"{'none':10s} start {plain * 1000:7.1f} ms (median of {STARTS})")
    bw_start, bw_rate = measure("bubblewrap")
    rl_start, rl_rate = measure("rlimits") if not sandbox.is_root() else (float("nan"), 1.0)
    os.environ[sandbox.SANDBOX_ENV] = "bubblewrap"
    ratios, offs, ons = [], [], []
    for _ in range(PAIRS):  # interleaved: this machine's load drifts
        with freezing(False):
            offs.append(game_rate())
        with freezing(True):
            ons.append(game_rate())
        ratios.append(offs[-1] / ons[-1])
    off, on = statistics.median(offs), statistics.median(ons)
    print(f"freezing   off {off:,.0f} decisions/s, on {on:,.0f} decisions/s (medians of {PAIRS})")
    if not sandbox.is_root():
        print(
            f"rlimits vs bubblewrap: start {1000 * (bw_start - rl_start):+.0f} ms, "
            f"decisions/s ×{bw_rate / rl_rate:.2f}"
        )
    print(
        f"sandbox: start with the ceiling +{1000 * (bw_start - plain):.0f} ms over no sandbox "
        "(target ≤ 150)"
    )
    ratio = statistics.median(ratios)
    print(
        f"sandbox: time per decision with freezing ×{ratio:.2f} "
        f"(median of {PAIRS} pairs, target ≤ 1.1)"
    )


if __name__ == "__main__":
    main()
