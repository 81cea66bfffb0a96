"""A real ``hegemon web`` for the tests: a subprocess on a free loopback port over an arena
home, until the ``with`` block ends; or an app of the test's own served by uvicorn in a thread
(:func:`serving`)."""

from __future__ import annotations

import contextlib
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from hegemon.leaderboard.store import Store
from tests.helpers.league import (
    CLI,
    ROOT,
    SeasonSpec,
    create_season,
    env_for,
    free_port,
    hegemon,
    register_samples,
)
from tests.helpers.web import play_matches


@contextlib.contextmanager
def running_web(
    home: Path, log: Path, command: Sequence[str] = ("web",), **env: str
) -> Iterator[str]:
    """``hegemon web`` (or ``command``, e.g. ``("arena", "--workers", "1")``) over the arena in
    ``home`` with ``env`` added (its output to ``log``); yields its URL once it answers, and
    stops it after."""
    port = free_port()
    with log.open("w") as out:  # the child keeps its own copy of the descriptor
        proc = subprocess.Popen(
            [sys.executable, "-c", CLI, *command, "--port", str(port)],
            cwd=ROOT,
            env=env_for(home, **env),
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
                    pytest.fail(f"hegemon {command[0]} exited: {log.read_text()}")
                if time.monotonic() > deadline:
                    pytest.fail(f"hegemon {command[0]} never answered: {log.read_text()}")
                time.sleep(0.05)
        yield url
    finally:
        proc.terminate()
        proc.wait(60)


@contextlib.contextmanager
def serving(app: Any) -> Iterator[str]:
    """The ASGI ``app`` served by uvicorn on a free loopback port in a thread; yields its URL
    once it listens, and stops it after."""
    import uvicorn

    from tests.helpers.league import free_port

    port = free_port()
    server = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", proxy_headers=False)
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    started = threading.Event()
    # uvicorn sets .started once it listens; wait on it without sleeping blind
    while not server.started and thread.is_alive():
        started.wait(0.02)
    assert server.started, "the web server did not start"
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)


@contextlib.contextmanager
def served_seasons(home: Path, games: dict[str, int]) -> Iterator[tuple[str, Store]]:
    """``hegemon web`` over a new arena in ``home``: the sample bots and, per name in
    ``games``, a season of that many real (in-process) games; yields its URL and the store."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("HEGEMON_HOME", str(home))
        mp.delenv("HEGEMON_DB", raising=False)
        with Store() as store:
            bots = register_samples(store)
            for seed, (name, count) in enumerate(games.items(), 5):
                season = create_season(store, SeasonSpec(name=name, games=count, seed=seed), bots)
                play_matches(store, season, home / "records", name)
        with running_web(home, home / "web.log") as url, Store(create=False) as store:
            yield url, store


def cli_logins(home: Path, url: str, passwords: dict[str, str]) -> dict[str, Path]:
    """``hegemon login`` at ``url`` as each user of ``passwords`` (name → password), each in a
    configuration folder of their own under ``home``: user → its ``XDG_CONFIG_HOME``."""
    configs = {user: home / f"config-{user}" for user in passwords}
    for user, config in configs.items():
        signed = hegemon(
            "login", url, "--name", user, "--password-stdin",
            env=env_for(home, XDG_CONFIG_HOME=str(config)), stdin=passwords[user] + "\n",
        )  # fmt: skip
        assert signed.returncode == 0, signed.stdout + signed.stderr
    return configs
