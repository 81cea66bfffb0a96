"""The suite's own plumbing (tests/helpers/order.py, progress.py), on a small suite of its own
run by real pytest processes: the longest files first, their lengths recorded, and a line of
progress as tests finish, under two workers too."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers.order import read_durations, write_durations

ROOT = Path(__file__).resolve().parent.parent.parent

SHARED = """
import os
import pytest

@pytest.fixture(scope="module")
def season():
    with open(os.environ["MADE"], "a") as made:
        made.write("season\\n")
    return "played"

@pytest.mark.parametrize("n", range(4))
def test_reads_the_season(season, n):
    assert season == "played"

def test_alone():
    pass
"""
SLOW = """
import pytest

@pytest.mark.slow
def test_long():
    pass

def test_short():
    pass
"""
TIMED = """
def test_measured():
    pass
"""


@pytest.fixture(scope="module")
def small_suite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("suite")
    (folder / "conftest.py").write_text(
        'pytest_plugins = ["tests.helpers.order", "tests.helpers.progress"]\n'
    )
    (folder / "test_shared.py").write_text(SHARED)
    (folder / "test_slow.py").write_text(SLOW)
    (folder / "test_timed.py").write_text(TIMED)
    (folder / "tests").mkdir()
    (folder / "tests" / "durations.txt").write_text("# seconds\n95.0 test_timed.py\n")
    return folder


def pytest_run(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    env.update(PYTHONPATH=str(ROOT), MADE=str(folder / "made.txt"))
    command = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--rootdir", str(folder)]
    return subprocess.run(
        [*command, *args], cwd=folder, env=env, capture_output=True, text=True, timeout=120
    )


def test_the_longest_files_run_first_each_files_tests_together(small_suite):
    done = pytest_run(small_suite, "--collect-only", "-q", "-p", "no:xdist")
    assert done.returncode == 0, done.stdout + done.stderr
    order = [line for line in done.stdout.splitlines() if "::" in line]
    # measured 95 s; a slow test (20 s) and a short one; five short ones (1 s)
    assert order == [
        "test_timed.py::test_measured",
        "test_slow.py::test_long",
        "test_slow.py::test_short",
        *(f"test_shared.py::test_reads_the_season[{n}]" for n in range(4)),
        "test_shared.py::test_alone",
    ]


def test_under_two_workers_progress_is_shown_and_durations_recorded(small_suite):
    args = ("-n", "2", "--dist", "loadfile", "-o", "progress_every=0", "--durations-record")
    done = pytest_run(small_suite, "-q", *args)
    assert done.returncode == 0, done.stdout + done.stderr
    assert (small_suite / "made.txt").read_text() == "season\n"  # once for its file
    assert "8 passed" in done.stdout
    assert "8/8 tests (100%) in 0:" in done.stdout, done.stdout
    recorded = read_durations(small_suite / "tests" / "durations.txt")
    assert set(recorded) == {"test_shared.py", "test_slow.py", "test_timed.py"}, recorded


def test_a_failure_is_counted_on_the_progress_line(tmp_path):
    (tmp_path / "conftest.py").write_text('pytest_plugins = ["tests.helpers.progress"]\n')
    (tmp_path / "test_one.py").write_text("def test_fails():\n    assert False\n")
    done = pytest_run(tmp_path, "-q", "-p", "no:xdist", "-o", "progress_every=0")
    assert done.returncode == 1
    assert "1/1 tests (100%) in 0:00, 1 failed" in done.stdout, done.stdout


def test_recorded_durations_read_back(tmp_path):
    path = tmp_path / "durations.txt"
    write_durations({"a.py": 12.34, "b.py": 0.1}, path)
    assert read_durations(path) == {"a.py": 12.3, "b.py": 0.1}
