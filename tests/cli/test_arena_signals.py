"""``hegemon arena`` stops on SIGTERM or Ctrl-C at any moment of its start-up, not only once
its site answers: a real arena is signalled at once, after its first line (runners about to
start), and as soon as a runner runs (the web server still loading), and each time it exits
within a bounded wait — cleanly, not killed by the signal's default action — with every runner
it started stopped by it."""

from __future__ import annotations

import glob
import signal
import subprocess
from pathlib import Path

import pytest

from hegemon.leaderboard.store import Store
from tests.helpers.league import (
    alive,
    descendants,
    free_port,
    kill_all,
    start_hegemon,
    wait_for,
)

RUNNER = b"hegemon.leaderboard.arena.runner"


def runners_of(arena: int) -> list[int]:
    """The live runner processes started by the arena ``arena`` (each is told its parent's
    pid: found by that even once the arena is gone and they were left to others)."""
    found = []
    for path in glob.glob("/proc/[0-9]*/cmdline"):
        try:
            argv = Path(path).read_bytes().split(b"\0")
        except OSError:
            continue
        if RUNNER in argv and b"--parent" in argv:
            parent = argv[argv.index(b"--parent") + 1]
            pid = int(path.split("/")[2])
            if parent == str(arena).encode() and alive(pid):
                found.append(pid)
    return found


def says(log: Path, text: str) -> bool:
    return log.is_file() and text in log.read_text(encoding="utf-8", errors="replace")


MOMENTS = {
    "at once": lambda arena, log: True,
    "after its first line": lambda arena, log: says(log, "hegemon arena:"),
    "once a runner runs": lambda arena, log: runners_of(arena.pid) or arena.poll() is not None,
}


@pytest.mark.parametrize(
    ("moment", "how"),
    [
        ("at once", signal.SIGTERM),
        ("after its first line", signal.SIGTERM),
        ("once a runner runs", signal.SIGTERM),
        ("once a runner runs", signal.SIGINT),
    ],
)
def test_a_signal_during_start_up_stops_the_arena_and_its_runners(tmp_path, moment, how):
    home = tmp_path / "home"
    home.mkdir()
    Store(str(home / "arena.db")).close()
    log = tmp_path / "arena.log"
    port = str(free_port())
    arena = start_hegemon("arena", "--workers", "2", "--port", port, home=home, log=log)
    try:
        wait_for(moment, lambda: MOMENTS[moment](arena, log), every=0.01)
        started = runners_of(arena.pid)
        arena.send_signal(how)
        try:
            arena.wait(120)  # a guard against hanging: a lost signal keeps it serving
        except subprocess.TimeoutExpired:
            pytest.fail(f"the arena kept running after {how.name} {moment}: {log.read_text()}")
    finally:
        if arena.poll() is None:
            kill_all([arena.pid, *descendants(arena.pid)])
            arena.wait(30)
    said = log.read_text(encoding="utf-8", errors="replace")
    assert "Traceback" not in said
    if moment != "at once":  # before Python runs a line of hegemon, the signal's default ends it
        assert arena.returncode == 0, f"{how.name} {moment}: exit {arena.returncode}: {said}"
    assert runners_of(arena.pid) == [], f"runners left running (started: {started})"
