"""A killed ``hegemon train --workers N`` leaves no process behind: its game-playing workers
end with it — SIGTERM (what a scheduler or ``kill`` sends) and SIGKILL alike, when it cannot
shut its pool down itself. Before, each worker waited for games for ever, holding its memory."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

from tests.helpers.league import alive, descendants, kill_all, start_hegemon, wait_for

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGKILL], ids=["sigterm", "sigkill"])
def test_a_killed_trainer_takes_its_workers_with_it(how, tmp_path):
    log = tmp_path / "train.log"
    trainer = start_hegemon(
        "train", "--workers", "2", "--games", "400", "--players", "3", "--set", "turn_limit=5",
        "--out", str(tmp_path / "bot"), home=tmp_path, log=log,
    )  # fmt: skip
    workers: list[int] = []
    try:

        def playing() -> bool:  # both workers started, and a game played: the pool at work
            workers[:] = [p for p in descendants(trainer.pid) if "spawn_main" in cmdline(p)]
            return len(workers) == 2 and "games 1" in log.read_text()

        wait_for("the trainer's two workers playing", playing)
        os.kill(trainer.pid, how)
        trainer.wait(timeout=60)
        wait_for("its workers to end", lambda: not any(alive(p) for p in workers))
    finally:
        kill_all(sorted({trainer.pid, *workers, *descendants(trainer.pid)}))  # orphans too
        trainer.wait()


def cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""
