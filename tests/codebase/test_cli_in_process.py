"""The suite's ``hegemon`` commands run in its own process (tests/helpers/cli.py) answer exactly
as the real command does: the same exit status, stdout and stderr, for a table, an error and a
usage error, and nothing of the call is left behind in the test's process."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

# its one-BLAS-thread defaults go into os.environ when it is first imported, not by a call
import hegemon.leaderboard.ratings  # noqa: F401
from hegemon.leaderboard.store import Store
from tests.helpers.cli import in_process, run_in_process
from tests.helpers.league import ROOT, env_for, hegemon_argv
from tests.helpers.web import store_season

COMMANDS = [
    ("leaderboard", "league"),
    ("leaderboard", "league", "--csv", "--crosstable"),
    ("season", "status", "league"),
    ("season", "list"),
    ("games", "--season", "league", "--limit", "3"),
    ("season", "status", "nope"),  # a one-line error
    ("leaderboard", "--no-such-option"),  # a usage error
    ("user", "list"),
]


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A home holding a season of five played games."""
    home = tmp_path_factory.mktemp("home")
    with Store(str(home / "arena.db")) as store:
        store_season(store, home / "records", "league", games=5, seed=3)
    return home


@pytest.mark.parametrize("args", COMMANDS, ids=" ".join)
def test_a_command_in_process_answers_as_the_process_does(played, args):
    env = env_for(played)
    assert in_process(args, env)
    real = subprocess.run(
        hegemon_argv(*args), cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    environ, cwd = dict(os.environ), os.getcwd()
    here = run_in_process(args, env, ROOT)
    assert (here.returncode, here.stdout, here.stderr) == (
        real.returncode,
        real.stdout,
        real.stderr,
    )
    assert dict(os.environ) == environ and os.getcwd() == cwd  # nothing of the call stays


def test_a_console_first_made_at_another_width_draws_at_the_commands(played, monkeypatch):
    """The worker imported the commands' consoles under whatever COLUMNS a test had set then
    (here 40); the command still draws at its own environment's width (a clean clone's CI run
    truncated a season's name so)."""
    from rich.console import Console

    from hegemon.leaderboard.cli import common

    made_then = Console(_environ={"COLUMNS": "40"})
    for console in (common.console, common.errors):
        monkeypatch.setattr(console, "_width", made_then._width)
    args = ("season", "list")
    env = env_for(played)
    real = subprocess.run(
        hegemon_argv(*args), cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    here = run_in_process(args, env, ROOT)
    assert (here.returncode, here.stdout) == (real.returncode, real.stdout)
    assert common.console._width == made_then._width  # and left as it was found


def test_input_reaches_the_command_and_its_writes_are_kept(tmp_path):
    env = env_for(tmp_path)
    added = run_in_process(
        ("user", "add", "ada", "--password-stdin"), env, ROOT, "a long passphrase\n"
    )
    assert added.returncode == 0, added.stderr
    listed = subprocess.run(
        hegemon_argv("user", "list"), cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert "ada" in listed.stdout, listed.stdout + listed.stderr


def test_a_database_error_is_the_same_one_line(tmp_path):
    (tmp_path / "arena.db").mkdir()  # the database path is a folder
    env = env_for(tmp_path)
    here = run_in_process(("season", "list"), env, ROOT)
    real = subprocess.run(
        hegemon_argv("season", "list"), cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert (here.returncode, here.stdout, here.stderr) == (
        real.returncode,
        real.stdout,
        real.stderr,
    )
    assert here.returncode == 2 and "it is a folder" in here.stderr


def test_an_uncaught_exception_is_its_traceback_and_status_1(tmp_path, monkeypatch):
    """What the interpreter prints for a command that crashes, so that a test asserting no
    traceback still sees one (no command crashes on purpose: one is made to)."""
    from hegemon.leaderboard.cli import season

    def broken(*args: object) -> None:
        raise RuntimeError("the store broke")

    (tmp_path / "arena.db").touch()
    monkeypatch.setattr(season, "read_store", broken)
    here = run_in_process(("season", "list"), env_for(tmp_path), ROOT)
    assert here.returncode == 1
    assert here.stderr.startswith("Traceback (most recent call last):")
    assert here.stderr.rstrip().endswith("RuntimeError: the store broke")


def test_commands_that_need_a_process_are_left_to_one():
    env = dict(os.environ)
    for args in [
        ("season", "run", "league"),
        ("play", "--bot", "random"),
        ("web",),
        ("games", "download", "out", "--season", "league"),
        ("games", "--arena"),
        ("games", "--mine", "--json"),
        ("logs", "1"),
        ("login", "http://127.0.0.1:1"),
        ("bot", "add", "random", "random"),
    ]:
        assert not in_process(args, env), args
    cheaper = dict(env, HEGEMON_PASSWORD_COST="real")  # the console script checks this first
    assert not in_process(("user", "add", "ada"), cheaper)
