"""The ceiling of one bot (referee/runner/sandbox/ceiling.py, cgroups.py): its cgroups lie
beneath the referee's own, a paused bot gets no CPU and answers once resumed, a paused bot
can be killed and cleaned up, and ``hegemon doctor`` says what is in force. Each runs with the
cgroups this machine offers and with them turned off (the watcher and signals)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
import trio

from hegemon.leaderboard.botspec import resolve
from hegemon.referee.runner import bridge
from hegemon.referee.runner.link import BotLink
from hegemon.referee.runner.process import BotCommand, spawn
from hegemon.referee.runner.sandbox import Ceiling, SandboxLimits, cgroups, doctor
from hegemon.referee.runner.sandbox.ceiling import freeze_deferred
from hegemon.referee.timecontrol import TimeControl
from hegemon.referee.wire import bot_pb2
from tests.helpers.league import wait_gone

TC = TimeControl(startup=15, decision=2.0, bank=20.0, max_strikes=3)

SPINNER = textwrap.dedent("""
    import os, threading
    for _ in range(3):
        if os.fork() == 0:
            while True:
                pass
    def spin():
        while True:
            pass
    for _ in range(2):
        threading.Thread(target=spin, daemon=True).start()
    spin()
""")


@pytest.fixture(params=["auto", "off"], ids=["cgroups", "no-cgroups"])
def mechanism(request, monkeypatch):
    monkeypatch.setenv(cgroups.CGROUPS_ENV, request.param)
    return request.param


def burn(seconds: float) -> None:
    """Spend ``seconds`` of this process's own CPU time (an interval no clock can shorten)."""
    start = time.process_time()
    while time.process_time() - start < seconds:
        pass


async def until(condition, limit: float = 30) -> None:
    with trio.fail_after(limit):
        while not condition():  # noqa: ASYNC110 - the state of processes we do not run
            await trio.sleep(0.02)


def test_cgroups_lie_beneath_the_referees_own(mechanism):
    own = {}
    with open("/proc/self/cgroup") as f:
        for line in f:
            hid, names, path = line.rstrip("\n").split(":", 2)
            for name in names.split(",") if hid != "0" else ["v2"]:
                own[name] = path
    ceiling = Ceiling(SandboxLimits())
    try:
        groups = ceiling.cgroups
        if mechanism == "off":
            assert groups is None
            assert ceiling.memory_mechanism() == "watcher"
            assert ceiling.freezer_mechanism() == "signals"
            return
        for controller, folder in (groups.dirs if groups else {}).items():
            assert groups is not None  # the loop runs over its folders only
            version = groups.version[controller]
            mine = own[controller] if version == 1 else own["v2"]
            assert folder.parent.as_posix().endswith(mine.rstrip("/")), (folder, mine)
            assert folder.name.startswith("hegemon-bot-") and folder.is_dir()
    finally:
        assert ceiling.close()
    assert groups is None or not any(f.exists() for f in groups.dirs.values())


def test_a_paused_bot_gets_no_cpu_and_runs_again_once_resumed(mechanism):
    """Three children and three threads spin; paused, together they gain (almost) no CPU time
    while the referee burns some of its own; resumed, they run; stopped while paused, nothing
    of them is left."""

    async def run() -> tuple[float, list[int]]:
        bot = await spawn(BotCommand("spinner", (sys.executable, "-c", SPINNER)))
        ceiling = bot.ceiling
        assert ceiling is not None, "a spawned bot has a ceiling"
        try:
            await until(lambda: len(ceiling.pids()) >= 5 and bot.total_cpu_seconds() > 0.3)
            bot.pause()
            await until(lambda: all(state(pid) in "Tt" or frozen(bot) for pid in ceiling.pids()))
            before = bot.total_cpu_seconds()
            burn(0.5)
            gained = bot.total_cpu_seconds() - before
            bot.resume()
            await until(lambda: bot.total_cpu_seconds() > before + gained + 0.3)
            bot.pause()
            pids = ceiling.pids()
        finally:
            await bot.stop()
        return gained, pids

    gained, pids = trio.run(run)
    assert gained < 0.05, f"a paused bot computed {gained:.3f} s"
    # killed while stopped, a process still needs its turn on a CPU to die and be reaped
    assert not wait_gone(pids, 5)


def test_a_paused_bot_answers_once_resumed(mechanism):
    async def run() -> str:
        link = BotLink(resolve("random"), TC)
        assert await link.open(), link.startup_error
        try:
            assert link.process is not None
            link.process.pause()
            assert link.process.paused
            link.process.resume()
            request = bot_pb2.HelloRequest(protocol_version=1)
            hello = await bridge.call(link.stub.Hello, request, 5.0)
            return str(hello.name)
        finally:
            await link.close()

    assert trio.run(run)


def test_a_bot_paused_soon_is_frozen_before_another_bot_runs(mechanism):
    """The referee pauses a bot ``soon`` after each answer: asked again at once, it was never
    frozen; once another bot is resumed (or the referee waits), it is frozen — and the CPU it
    spins meanwhile counts toward its next decision, not lost between two clocks."""

    async def run() -> tuple[bool, bool, bool, float]:
        first = await spawn(BotCommand("spinner", (sys.executable, "-c", SPINNER)))
        second = await spawn(BotCommand("spinner", (sys.executable, "-c", SPINNER)))
        try:
            await until(lambda: first.total_cpu_seconds() > 0.3)
            first.resume()
            first.pause(soon=True)
            never_frozen = not first.paused
            first.resume()  # asked again at once: it ran all along
            first.pause(soon=True)
            burn(0.3)  # the referee's own work: the spinner takes CPU meanwhile
            second.resume()  # another bot is asked: the first is frozen before it runs
            frozen_before_other = first.paused
            second.pause(soon=True)
            freeze_deferred()  # what a link's pause schedules for the referee's next wait
            both_frozen = first.paused and second.paused
            first.resume()
            return never_frozen, frozen_before_other, both_frozen, first.cpu_since_resume()
        finally:
            await first.stop()
            await second.stop()

    never_frozen, frozen_before_other, both_frozen, charged = trio.run(run)
    assert never_frozen and frozen_before_other and both_frozen
    assert charged > 0.05, f"the CPU spun before the freeze was not charged: {charged:.3f} s"


IDLER = textwrap.dedent("""
    import time
    print("idle", flush=True)
    time.sleep(3)  # blocked, as a bot between two requests: no CPU time
    while True:
        pass
""")


def test_an_idle_bot_paused_soon_is_not_frozen_till_it_computes(mechanism):
    """A bot seen idle between two decisions, and idle still, costs no freeze (and no thaw);
    once it computes, the next look freezes it, and what it computed counts toward its next
    decision."""

    async def run() -> tuple[bool, bool, float]:
        idler = await spawn(BotCommand("idler", (sys.executable, "-c", IDLER)))
        other = await spawn(BotCommand("other", (sys.executable, "-c", "input()")))
        try:
            await until(lambda: "idle" in idler.log_tail(100))
            idler.resume()
            idler.pause(soon=True)
            other.resume()  # not yet seen idle between two decisions: frozen, as always
            assert idler.paused
            other.pause(soon=True)
            idler.resume()  # it used no CPU time since it answered: seen idle
            idler.pause(soon=True)
            other.resume()  # another bot is asked: the idler, idle, is left as it is
            left_running = not idler.paused
            other.pause(soon=True)
            before = idler.total_cpu_seconds()
            await until(lambda: idler.total_cpu_seconds() > before + 0.1)  # it computes
            freeze_deferred()  # the referee's next look
            frozen = idler.paused
            idler.resume()
            return left_running, frozen, idler.cpu_since_resume()
        finally:
            await idler.stop()
            await other.stop()

    left_running, frozen, charged = trio.run(run)
    assert left_running, "an idle bot was frozen"
    assert frozen, "a bot computing between its decisions was not frozen"
    assert charged > 0.05, f"the CPU it used unasked was not charged: {charged:.3f} s"


def test_the_doctor_says_what_is_in_force(mechanism):
    checks = doctor.report()
    names = [c.name for c in checks]
    assert "bubblewrap" in names and "seccomp" in names and "uid pool" in names
    text = doctor.render(checks)
    last = text.splitlines()[-1]
    assert last.startswith("protection: ")
    if mechanism == "off" or not cgroups.places().get("memory"):
        assert "memory ceiling by the watcher" in last
    else:
        assert "memory ceiling by cgroup v" in last


def test_hegemon_doctor_prints_the_report_and_fails_only_on_a_failed_check():
    out = subprocess.run(
        [sys.executable, "-c", "from hegemon.leaderboard.cli import main; main()", "doctor"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    lines = out.stdout.splitlines()
    assert lines[-1].startswith("protection: bots get "), out.stdout + out.stderr
    assert any(line.endswith("HEGEMON_SANDBOX=auto") for line in lines)
    failed = [line for line in lines if line.startswith("FAIL")]
    assert out.returncode == (1 if failed else 0), out.stdout


def state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return "T"


def frozen(bot) -> bool:
    groups = bot.ceiling.cgroups
    if groups is None or not groups.has("freezer"):
        return False
    folder = groups.dirs["freezer"]
    if groups.version["freezer"] == 1:
        return (folder / "freezer.state").read_text().strip() == "FROZEN"
    return "frozen 1" in (folder / "cgroup.events").read_text()


def test_all_processes_together_meet_the_cpu_ceiling(mechanism):
    """Three children and three threads spin: together they pass the bot's CPU ceiling long
    before any one process reaches its own RLIMIT_CPU; the whole bot is stopped with the
    named fault ``cpu``."""

    async def run() -> tuple[tuple[str, str] | None, list[int], str]:
        limits = SandboxLimits(cpu_seconds=2)
        bot = await spawn(BotCommand("spinner", (sys.executable, "-c", SPINNER)), limits=limits)
        ceiling, process = bot.ceiling, bot.process
        assert ceiling is not None and process is not None, "a spawned bot runs, under a ceiling"
        try:
            await until(lambda: len(ceiling.pids()) >= 5)
            pids = ceiling.pids()
            with trio.fail_after(60):
                await process.wait()
            return bot.limit_fault(), pids, bot.log_tail()
        finally:
            await bot.stop()

    fault, pids, log = trio.run(run)
    assert fault is not None and fault[0] == "cpu", (fault, log)
    assert "cpu fault" in log
    assert not wait_gone(pids, 30)  # killed; a loaded machine may take a moment to end them
