"""``hegemon --help`` stays fast: building the command line loads neither the database nor the
match runner; each command imports what it needs when it runs."""

from __future__ import annotations

import json
import subprocess
import sys


def loaded_by_the_cli() -> set[str]:
    code = (
        "import sys, json; from hegemon.leaderboard.cli import app; "
        "from typer.main import get_command; get_command(app); "
        "print(json.dumps(sorted(sys.modules)))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return set(json.loads(out.stdout))


def heavy(modules: set[str], names: tuple[str, ...]) -> set[str]:
    return {m for m in modules if m.split(".")[0] in names or m.startswith(names)}


def test_the_cli_loads_no_database():
    modules = loaded_by_the_cli()
    assert not heavy(
        modules,
        (
            "sqlmodel",
            "sqlalchemy",
            "alembic",
            "hegemon.leaderboard.store",
            "hegemon.leaderboard.season_runner",
            "hegemon.leaderboard.registry",
        ),
    )


def test_the_cli_loads_no_match_runner():
    assert not heavy(loaded_by_the_cli(), ("trio", "grpc", "hegemon.referee.runner"))
