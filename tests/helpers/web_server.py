"""A real ``hegemon web`` for the tests: a subprocess on a free loopback port over an arena
home, until the ``with`` block ends."""

from __future__ import annotations

import contextlib
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.helpers.league import CLI, ROOT, env_for, free_port


@contextlib.contextmanager
def running_web(home: Path, log: Path) -> Iterator[str]:
    """``hegemon web`` over the arena in ``home`` (its output to ``log``); yields its URL once
    it answers, and stops it after."""
    port = free_port()
    with log.open("w") as out:  # the child keeps its own copy of the descriptor
        proc = subprocess.Popen(
            [sys.executable, "-c", CLI, "web", "--port", str(port)],
            cwd=ROOT,
            env=env_for(home),
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:  # until it answers (it exits, or a minute passes: fail)
            try:
                with urllib.request.urlopen(url + "/api/seasons", timeout=5) as response:
                    if response.status == 200:
                        break
            except OSError:
                if proc.poll() is not None:
                    pytest.fail(f"hegemon web exited: {log.read_text()}")
                if time.monotonic() > deadline:
                    pytest.fail(f"hegemon web never answered: {log.read_text()}")
                time.sleep(0.05)
        yield url
    finally:
        proc.terminate()
        proc.wait(10)
