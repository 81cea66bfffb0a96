"""The clock measures the bot, not the machine: a decision's time is the CPU time of the bot's
own processes (children, orphaned grandchildren and threads included), so a busy machine makes
no bot late (waiting for a CPU is never idle time), while a bot that sleeps or blocks still
meets a backstop on its idle time. ``--clock wall`` keeps the wall clock. Real bot processes,
real gRPC, a really busy machine.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
import trio
from typer.testing import CliRunner

from hegemon.leaderboard.botspec import resolve
from hegemon.leaderboard.cli import app as APP
from hegemon.referee.rules import make_rules
from hegemon.referee.runner.process import BotCommand
from hegemon.referee.runner.session import play_one
from hegemon.referee.timecontrol import TimeControl
from tests.helpers.processes import spinners

ROOT = Path(__file__).resolve().parent.parent.parent
BOTS = Path(__file__).resolve().parent.parent / "bots"
# dealt territories and one round: about 30 decisions a seat (the tests need more than 10),
# half a game of claims and four rounds, whose clocked bot computed on every one of them
RULES = make_rules("classic", {"turn_limit": 1, "setup": "deal"})
TIME = TimeControl(startup=20, decision=0.5, bank=60.0, max_strikes=2)


def clocked(mode: str, fraction: float) -> BotCommand:
    return BotCommand(
        f"clocked-{mode}", (sys.executable, str(BOTS / "clocked.py"), mode, str(fraction))
    )


def play(bot: BotCommand, time_control: TimeControl = TIME):
    commands = [bot, resolve("random"), resolve("random")]
    return trio.run(play_one, commands, RULES, 5, time_control)


def header(record: str) -> dict:
    return json.loads(record.splitlines()[0])


@pytest.fixture
def busy_machine():
    """Two spinning processes per core for the length of the test."""
    with spinners(2 * (os.cpu_count() or 1)):
        yield


@pytest.fixture
def busy_cpu():
    """One CPU kept busy by ten spinning processes pinned to it: a thread pinned there gets
    at most an eleventh of it. Yields the CPU's number."""
    cpu = max(os.sched_getaffinity(0))
    with spinners(10, cpu):
        yield cpu


def starved(mode: str, *cpu: int) -> BotCommand:
    """The clocked bot computing for 60 % of each of its first three deadlines."""
    argv = (sys.executable, str(BOTS / "clocked.py"), mode, "0.6", *map(str, cpu))
    return BotCommand(f"clocked-{mode}", argv)


def took(log: str) -> list[float]:
    """The wall seconds of each computation the clocked bot logged."""
    return [float(line.split()[1]) for line in log.splitlines() if line.startswith("took ")]


def first_seat(result) -> dict:
    """What the tests read of the clocked bot's seat, as JSON can carry it."""
    seat = result.seats[0]
    return {
        "out": seat.out,
        "decisions": seat.decisions,
        "faults": [fault.detail for fault in seat.faults],
        "log": (result.logs[0] or b"").decode(),
    }


def play_on_one_cpu(mode: str, cpu: int) -> dict:
    """:func:`first_seat` of a game whose referee runs on ``cpu`` alone, so its bots do
    too: they inherit it, and keep the referee's priority."""
    script = (
        "import json, os, sys\n"
        "os.sched_setaffinity(0, {int(sys.argv[1])})  # before any thread starts\n"
        "from tests.runner.test_bot_clock import first_seat, play, starved\n"
        "print(json.dumps(first_seat(play(starved(sys.argv[2])))))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, str(cpu), mode],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.splitlines()[-1])


IDLE = "it was idle (neither computing nor waiting for a CPU) for 2.500 s: it slept or blocked"


@pytest.mark.slow
def test_waiting_for_a_cpu_is_never_idle_time(busy_cpu):
    """A bot that computes for 60 % of its deadline while it gets an eleventh of a CPU takes
    well over the idle backstop in wall time, every time: it waited for the CPU, so it is
    never late (before, it was late at the backstop)."""
    seat = play_on_one_cpu("starved", busy_cpu)
    walls = took(seat["log"])
    assert len(walls) == 3 and min(walls) > TIME.backstop(TIME.decision), walls  # really starved
    assert seat["faults"] == [] and seat["decisions"] > 10, seat["faults"]


@pytest.mark.slow
def test_a_bot_that_lowers_its_own_priority_is_idle_while_it_waits(busy_cpu):
    """The same bot, at the lowest priority it gave itself (nice 19), chose to wait: its wait
    is idle time, and it is late at the backstop each time (the third time forfeits it)."""
    seat = play_on_one_cpu("niced", busy_cpu)
    assert seat["out"] == "timeout", seat["faults"]
    assert [IDLE in fault for fault in seat["faults"]] == [True] * 3, seat["faults"]


@pytest.mark.slow
def test_a_bot_that_pins_itself_to_a_busy_cpu_is_idle_while_it_waits(busy_cpu):
    """A bot (in a game free to use every CPU) that pins itself to the one it knows is busy
    chose to wait too: late at the backstop each time."""
    seat = first_seat(play(starved("pinned", busy_cpu)))
    assert seat["out"] == "timeout", seat["faults"]
    assert [IDLE in fault for fault in seat["faults"]] == [True] * 3, seat["faults"]


@pytest.mark.slow
def test_a_busy_machine_makes_no_bot_late(busy_machine):
    """A bot computing for 60 % of every deadline, on a machine with two spinners per core
    (its wall time per decision is well past the deadline): never late on the CPU clock."""
    result = play(clocked("share", 0.6))
    seat = result.seats[0]
    assert seat.faults == [] and seat.decisions > 10, seat.faults
    assert 0 < seat.think_time < seat.decisions * TIME.decision
    assert header(result.record)["clock"] == "cpu"


@pytest.mark.parametrize("mode", ["child", "thread"])
def test_computing_in_a_grandchild_or_a_thread_counts(mode):
    """CPU time spent in an orphaned grandchild or in a thread is the bot's: every decision is
    charged at least what the bot computed for it (the SDK answers a few forced decisions
    without asking the bot's code: those computed nothing)."""
    result = play(clocked(mode, 0.2), TimeControl(startup=20, decision=1.0, bank=60.0))
    seat = result.seats[0]
    log = (result.logs[0] or b"").decode()
    computed = [float(line.split()[1]) for line in log.splitlines() if line.startswith("computed ")]
    assert seat.faults == [] and len(computed) > 10, seat.faults
    assert seat.think_time >= sum(computed), (seat.think_time, sum(computed))


def test_computing_past_the_deadline_is_late():
    """A bot computing for 1.5 deadlines is late every time; the third time forfeits it."""
    seat = play(clocked("share", 1.5)).seats[0]
    assert seat.out == "timeout", seat.faults
    # the words are those of the CPU clock, unless the machine was too busy to let the bot
    # use its deadline's CPU time before the referee's last resort, the wall cap
    assert all(f.detail.startswith("late: no answer within 0.500 s") for f in seat.faults)


@pytest.mark.slow
def test_a_bot_that_sleeps_is_not_late_until_the_backstop():
    """Sleeping 1.5 deadlines costs no CPU time: no fault. Sleeping past the wall-clock
    backstop is late all the same. (Deadlines of 0.2 s: the game's dozes are its length.)"""
    quick = TimeControl(startup=20, decision=0.2, bank=60.0, max_strikes=1)
    dozing = play(clocked("sleep", 1.5), replace(quick, max_strikes=TIME.max_strikes)).seats[0]
    assert dozing.faults == [] and dozing.decisions > 10, dozing.faults
    asleep = play(clocked("sleep", 2 * quick.backstop(0.2) / 0.2), quick).seats[0]
    assert asleep.out == "timeout", asleep.faults
    idle = "it was idle (neither computing nor waiting for a CPU) for 1.600 s: it slept"
    assert idle in asleep.faults[0].detail


def test_the_wall_clock_is_kept_on_request(tmp_path):
    """``clock="wall"`` (``--clock wall``): a bot that sleeps past its deadline is late, and the
    record says which clock timed the game."""
    wall = TimeControl(startup=20, decision=0.5, bank=60.0, max_strikes=2, clock="wall")
    result = play(clocked("sleep", 1.5), wall)
    seat = result.seats[0]
    assert seat.out == "timeout"
    assert seat.faults[0].detail.startswith("late: no answer within 0.500 s; the default")
    assert header(result.record)["clock"] == "wall"
    record = tmp_path / "game.jsonl"
    args = ["play", *("--bot", "random") * 3, "--set", "turn_limit=1", "-q"]
    done = CliRunner().invoke(APP, [*args, "--clock", "wall", "--record", str(record)])
    assert done.exit_code == 0, done.output
    assert header(record.read_text())["clock"] == "wall"
    bad = CliRunner().invoke(APP, [*args, "--clock", "sun", "--record", str(record), "--force"])
    assert bad.exit_code != 0 and "--clock must be one of cpu, wall" in bad.output, bad.output
