"""The command line answers at once and reads well: ``hegemon --help`` and every command's
``--help`` load neither the database nor the match runner (each command imports what it needs
when it runs; ``benchmarks/cli.py`` measures the time); the commands' short help agrees with
their docstrings; tables keep the names a user types whole at 80 columns; mistakes get a
"did you mean"."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

HEGEMON = str(Path(sys.executable).parent / "hegemon")

EVERY_HELP = """
import json, sys
from hegemon.leaderboard.cli import app
from typer.main import get_command

root = get_command(app)
paths = [[]]
for name in root.list_commands(None):
    paths.append([name])
    sub = root.get_command(None, name)
    if hasattr(sub, "list_commands"):
        paths += [[name, n] for n in sub.list_commands(None)]
for path in paths:
    try:
        app([*path, "--help"], standalone_mode=False)
    except SystemExit:
        pass
print(json.dumps({"paths": paths, "modules": sorted(sys.modules)}), file=sys.stderr)
"""


def run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [HEGEMON, *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, **(env or {})},
    )


def every_help() -> dict[str, list]:
    out = subprocess.run(
        [sys.executable, "-c", EVERY_HELP], capture_output=True, text=True, timeout=300
    )
    assert out.returncode == 0, out.stderr
    return json.loads(out.stderr.strip().splitlines()[-1])


def heavy(modules: list[str], names: tuple[str, ...]) -> set[str]:
    return {m for m in modules if m.split(".")[0] in names or m.startswith(names)}


def test_no_help_loads_the_database_or_the_match_runner():
    shown = every_help()
    assert ["play"] in shown["paths"] and ["season", "create"] in shown["paths"]
    assert ["bench"] in shown["paths"] and ["new"] in shown["paths"]
    assert not heavy(
        shown["modules"],
        (
            "trio",
            "grpc",
            "sqlmodel",
            "sqlalchemy",
            "alembic",
            "hegemon.referee.runner",
            "hegemon.leaderboard.store",
            "hegemon.leaderboard.seasons.runner",
            "hegemon.leaderboard.registry",
        ),
    )


def test_the_root_help_loads_no_command_module():
    code = (
        "import sys\nfrom hegemon.leaderboard.cli import app\n"
        "try:\n    app(['--help'])\nexcept SystemExit:\n    pass\n"
        "print(sorted(m for m in sys.modules if m.startswith('hegemon')), file=sys.stderr)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    loaded = out.stderr.strip().splitlines()[-1]
    assert "hegemon.leaderboard.cli.play" not in loaded and "hegemon.referee" not in loaded


def test_each_listed_short_help_begins_its_commands_own_help():
    from typer.main import get_command

    from hegemon.leaderboard.cli import app
    from hegemon.leaderboard.cli.app import COMMANDS

    root: Any = get_command(app)
    for name, _, short in COMMANDS:
        full = " ".join((root.get_command(None, name).help or "").split())
        assert full.startswith(short), (name, short, full)


def test_rule_option_names_are_whole_at_80_columns():
    from hegemon.referee.rules import OPTIONS, PRESETS

    shown = run("rules", "classic", env={"COLUMNS": "80"}).stdout
    assert max(len(line) for line in shown.splitlines()) <= 80
    for name in OPTIONS:
        assert re.search(rf"│ {re.escape(name)}\s", shown), name
    listed = run("rules", env={"COLUMNS": "80"}).stdout
    for preset in PRESETS:
        assert f"│ {preset} " in listed


def test_verify_says_when_a_file_is_not_a_record(tmp_path):
    (tmp_path / "notes.txt").write_text("hello\n")
    (tmp_path / "other.jsonl").write_text('{"a": 1}\n')
    for name in ("notes.txt", "other.jsonl"):
        out = run("verify", str(tmp_path / name))
        assert out.returncode == 2 and "not a hegemon game record" in out.stderr, out.stderr
        assert "DIFFERS" not in out.stderr


def test_mistakes_get_a_did_you_mean():
    assert "did you mean 'classic'" in run("rules", "clasic").stderr
    assert "did you mean 'fortify'" in run("rules", "classic", "--set", "fortfy=x").stderr
    assert "Did you mean 'play'" in run("plya").stderr
    assert "--rules" in run("play", "--rule", "classic").stderr
    assert "did you mean 'planner'" in run("bench", "planer", "random").stderr
