"""``hegemon new``: the starter folder's own tests pass, and it passes ``hegemon bot check`` as
created, in Python and in JavaScript."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

HEGEMON = str(Path(sys.executable).parent / "hegemon")


def hegemon(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([HEGEMON, *args], cwd=cwd, capture_output=True, text=True, timeout=300)


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
