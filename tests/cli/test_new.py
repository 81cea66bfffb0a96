"""``hegemon new``: the starter folder's own tests pass, and it passes ``hegemon bot check`` as
created, in Python and in JavaScript."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from hegemon.referee.rules import PRESETS, make_rules
from hegemon.sample_bots.random import RandomBot
from hegemon.sdk import play_local

HEGEMON = str(Path(sys.executable).parent / "hegemon")


def hegemon(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([HEGEMON, *args], cwd=cwd, capture_output=True, text=True, timeout=300)


@pytest.mark.slow
def test_a_new_python_bot_passes_its_tests_and_the_check(tmp_path):
    made = hegemon("new", "my-bot", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    folder = tmp_path / "my-bot"
    assert sorted(p.name for p in folder.iterdir()) == [
        "README.md",
        "bot.py",
        "pyproject.toml",
        "test_bot.py",
    ]
    assert "class MyBot(Bot):" in (folder / "bot.py").read_text()
    tests = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert tests.returncode == 0, tests.stdout + tests.stderr
    assert "2 passed" in tests.stdout
    check = hegemon("bot", "check", ".", cwd=folder)
    assert check.returncode == 0, check.stdout + check.stderr
    assert "check passed" in check.stdout


@pytest.mark.skipif(shutil.which("npm") is None, reason="npm is not installed")
@pytest.mark.slow
def test_a_new_node_bot_passes_the_check(tmp_path):
    made = hegemon("new", "nodey", "--lang", "node", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    # the test command installs the sample's packages first, so npm's cache has them all
    assert "packages installed" in made.stdout, made.stdout
    check = hegemon("bot", "check", "nodey", cwd=tmp_path)
    assert check.returncode == 0, check.stdout + check.stderr
    assert "check passed" in check.stdout


def test_new_refuses_a_bad_name_a_full_folder_and_an_unknown_language(tmp_path):
    assert "not a bot name" in hegemon("new", "9lives", cwd=tmp_path).stderr
    (tmp_path / "taken").mkdir()
    (tmp_path / "taken" / "x").write_text("")
    assert "not empty" in hegemon("new", "taken", cwd=tmp_path).stderr
    wrong = hegemon("new", "ok", "--lang", "pyhton", cwd=tmp_path)
    assert wrong.returncode == 2 and "did you mean 'python'" in wrong.stderr


def _new_bot_class():
    """The class of the ``bot.py`` that ``hegemon new my-bot`` writes, loaded as a module."""
    import types

    from hegemon.leaderboard.cli.new import python_bot

    module = types.ModuleType("new_bot")
    exec(compile(python_bot("my-bot"), "bot.py", "exec"), module.__dict__)
    return module.MyBot


@pytest.mark.parametrize("preset", list(PRESETS))
def test_the_new_bot_plays_every_preset_without_a_fault(preset):
    """strict, through the protocol codec: any refused answer or exception fails the game."""
    seats = 2 if make_rules(preset).two_player != "off" else 4
    bots = [_new_bot_class()(), *(RandomBot() for _ in range(seats - 1))]
    game = play_local(bots, preset, seed=3, options={"turn_limit": 30}, strict=True, protocol=True)
    assert not game.faults and sorted(game.places)[0] == 1
