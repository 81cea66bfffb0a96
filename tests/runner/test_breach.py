"""A breach of a bot's ceiling is always the same fault: the kernel stopping one process of a
bot (a child over the memory ceiling) while the bot plays on is a ``memory`` fault at once,
every time, with the same record every time.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
import trio

from hegemon.leaderboard.botspec import resolve
from hegemon.referee.rules import make_rules
from hegemon.referee.runner import sandbox
from hegemon.referee.runner.link import BotLimits
from hegemon.referee.runner.process import BotCommand
from hegemon.referee.runner.sandbox import SandboxLimits
from hegemon.referee.runner.sandbox import ceiling as ceiling_module
from hegemon.referee.runner.session import play_one
from hegemon.referee.timecontrol import TimeControl

BOTS = Path(__file__).resolve().parent.parent / "bots"
# 2 GiB of address space per process (a forked gRPC server plus 600 MiB fits), the bot's
# processes together 1 GiB: three children of 600 MiB pass it; the kernel or the watcher
# stops them there, so the machine never gives this test more than about 1 GiB at a time
LIMITS = SandboxLimits(memory_bytes=2 << 30, total_memory_bytes=1 << 30)
TIME = TimeControl(startup=20, decision=2.0, bank=30.0, start_game=20)
# the breach comes at the game's start: what follows only has to end, soon (dealt territories,
# one round), fifteen times over
RULES = make_rules("classic", {"turn_limit": 1, "setup": "deal"})
RUNS = 10


def play_once(bot: str = "memory_children") -> tuple[str, list[tuple[str, str]], str, str]:
    """The seat of ``bot`` (of tests/bots): why it went out, its faults, the end of its log;
    and the record."""
    hog = BotCommand(bot.replace("_", "-"), (sys.executable, str(BOTS / f"{bot}.py")))
    commands = [hog, resolve("random"), resolve("aggressive")]

    async def main():
        return await play_one(
            commands,
            RULES,
            seed=7,
            time_control=TIME,
            game_id="game-breach",
            limits=BotLimits(sandbox=LIMITS),
        )

    result = trio.run(main)
    faults = [(f.kind, f.detail) for f in result.seats[0].faults]
    log = (result.logs[0] or b"").decode("utf-8", "replace")[-2000:]
    return result.seats[0].out, faults, log, result.record


@pytest.fixture
def unlucky_watcher(monkeypatch):
    """The ceiling watcher looks at a bot only every few milliseconds, and the bot may answer
    in between: here it looks only when a bot starts, which makes that bad luck certain."""
    monkeypatch.setattr(ceiling_module, "WATCH_INTERVAL", 3600.0)
    yield
    monkeypatch.undo()
    ceiling_module._watcher.wake()  # back to its usual pace for the tests that follow


@pytest.mark.slow
def test_a_child_killed_for_the_memory_ceiling_is_a_memory_fault_every_time(unlucky_watcher):
    """Ten runs in a row (one at a time: the kernel holds each to about 1 GiB): ten
    ``memory`` forfeits at the start of the game, and ten identical records — whenever the
    watcher happens to look."""
    records = set()
    for run in range(RUNS):
        out, faults, log, record = play_once()
        assert out == "memory", (run, faults, log)
        assert faults[-1][0] == "memory" and "memory ceiling" in faults[-1][1], (run, faults)
        assert not faults_of_others(record), (run, record[-500:])
        records.add(record)
    assert len(records) == 1, "the same bot and seed gave different records"


def faults_of_others(record: str) -> list[dict]:
    """The record's faults of every seat but the hostile bot's (seat 0)."""
    lines = [json.loads(line) for line in record.splitlines()]
    return [line for line in lines if line["type"] == "fault" and line["seat"] != 0]


@pytest.fixture
def no_pids_cgroup(monkeypatch):
    """The referee as on a kernel that gives it no pids controller: RLIMIT_NPROC of the bot's
    own uid is then the whole process limit."""
    found = sandbox.cgroups.places
    monkeypatch.setattr(
        ceiling_module, "places", lambda: {k: v for k, v in found().items() if k != "pids"}
    )


def check_the_fork_bomb_is_stopped_by_the_rlimit_alone(runs: int) -> None:
    """Without a counter of refused forks nothing can name the breach, and how the refused
    bot ends varies (gRPC aborts when it cannot start a thread, or stops answering): it
    still never passes its limit, is put out with a fault, and the others play on."""
    for run in range(runs):
        out, faults, log, record = play_once("fork_children")
        assert out and faults, (run, out, log)
        assert faults[-1][0] != "processes", (run, faults)  # no counter said so
        assert "Resource temporarily unavailable" in log, (run, log)  # refused by the kernel
        assert not faults_of_others(record), (run, record[-500:])


@pytest.mark.slow
def test_forking_past_the_process_limit_is_a_processes_fault_every_time(unlucky_watcher):
    """A bot whose fork is refused at its process limit (the pids cgroup) and which then
    plays on is stopped with a ``processes`` fault at once, every time, with the same record
    every time — before, the refusal killed nothing and the bot played on. On a kernel with
    no pids controller for the referee, the rlimit's outcome (the next test) is asserted."""
    if not sandbox.cgroups.places().get("pids"):
        check_the_fork_bomb_is_stopped_by_the_rlimit_alone(3)
        return
    records = set()
    for run in range(3):
        out, faults, log, record = play_once("fork_children")
        assert out == "processes", (run, faults, log)
        assert "a fork was refused" in faults[-1][1], (run, faults)
        records.add(record)
    assert len(records) == 1, "the same bot and seed gave different records"


@pytest.mark.slow
def test_without_a_pids_cgroup_the_rlimit_alone_stops_a_fork_bomb(no_pids_cgroup):
    """The fallback of a kernel without the pids controller, here too."""
    check_the_fork_bomb_is_stopped_by_the_rlimit_alone(2)
