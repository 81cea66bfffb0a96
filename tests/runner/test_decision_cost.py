"""What a decision costs the referee, counted (never timed), with real bot processes on real
DecideStreams: bots idle between their decisions have their CPU counter read about twice a
decision (read at the referee's every turn and wait, it was eight times with three bots), and
games on streams leave no file descriptor behind (each stream's hand-over eventfd is closed
with it)."""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable
from typing import Any

import trio

from hegemon.referee.game import Game
from hegemon.referee.runner.link import BotLink
from hegemon.referee.runner.match import Referee
from hegemon.referee.runner.process import BotCommand
from hegemon.referee.runner.sandbox.ceiling import Ceiling
from tests.helpers.processes import BOTS
from tests.runner.test_runner import FAST, SHORT, assert_all_gone, started_pids

__all__ = ["started_pids"]

STREAMING = BotCommand("stream", (sys.executable, str(BOTS / "stream_hostile.py"), "stream_only"))
GAMES = 3


def _open_fds() -> int:
    return len(os.listdir("/proc/self/fd"))


async def _games(reads: Callable[[], int]) -> dict[str, Any]:
    """A warm-up game, then GAMES more between the same three streaming bots: the decisions
    asked, the CPU counter reads on trio's thread and the open descriptors around them."""
    links = [BotLink(STREAMING, FAST) for _ in range(3)]
    try:
        for link in links:
            assert await link.open(), link.startup_error
        await Referee(Game(SHORT, 3, 0), links, "warm-up", FAST).play()
        fds, read0 = _open_fds(), reads()
        decisions = 0
        for n in range(GAMES):
            result = await Referee(Game(SHORT, 3, n + 1), links, f"game-{n}", FAST).play()
            assert result.faults == []
            decisions += result.decisions
        return {
            "decisions": decisions,
            "reads": reads() - read0,
            "fds": (fds, _open_fds()),
        }
    finally:
        for link in links:
            await link.close()


def test_idle_bots_cost_two_cpu_reads_a_decision_and_streams_leave_no_descriptor(
    monkeypatch, started_pids
):
    main = threading.get_ident()
    count = [0]
    read = Ceiling.cpu_seconds

    def counted(self: Ceiling) -> float:
        if threading.get_ident() == main:  # the watcher thread's own looks are not counted
            count[0] += 1
        return read(self)

    monkeypatch.setattr(Ceiling, "cpu_seconds", counted)
    seen = trio.run(_games, lambda: count[0])
    assert seen["decisions"] > 100
    # one read when a bot is paused, one when it is resumed; the start and end of each game
    # (StartGame, EndGame: a resume and a pause each) add a few
    per_decision = seen["reads"] / seen["decisions"]
    assert per_decision < 2.5, f"{per_decision:.2f} CPU counter reads a decision"
    before, after = seen["fds"]
    assert after == before, f"{after - before} descriptors left open by {GAMES} games"
    assert_all_gone(started_pids)
