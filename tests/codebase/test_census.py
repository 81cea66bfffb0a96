"""The census's kinds of process (tests/helpers/census.py): what each command line counts as."""

from __future__ import annotations

import pytest

from tests.helpers.census import kind

TMP = "/tmp/pytest-of-ann/pytest-7/test_new0"


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["python", "-m", "pytest", "-q"], "pytest main"),
        ([".venv/bin/pytest", "-x"], "pytest main"),
        (["python", "-u", "-c", "import sys;exec(eval(sys.stdin.readline()))"], "pytest worker"),
        # a bot or a command in a test's folder is what it is, not a nested pytest run
        (["python", f"{TMP}/my-bot/bot.py", "--address", "unix:x"], "python bot.py"),
        (
            ["python", "-m", "sample_bots.planner", "--address", f"unix:{TMP}/b"],
            "python -m sample_bots.planner",
        ),
        (["hegemon", "season", "run", "ref", "--home", TMP], "hegemon season"),
        (["hegemon", "list", "--home", TMP], "hegemon CLI (other commands)"),
        (["python", "-c", "import os\nos.nice(0)\nwhile True: pass"], "spinner"),
        (["python", "-c", "print(1)"], "python -c"),
        (["python", "-m"], "python -m ?"),
    ],
)
def test_a_command_line_is_counted_as_its_kind(argv, expected):
    assert kind(argv) == expected
