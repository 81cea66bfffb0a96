"""Collection rules for the whole checkout, and its order: the long tests first (the tests'
shared helpers are in tests/helpers/).

pytest runs with ``--doctest-modules`` over ``tests/`` and ``hegemon/`` (pyproject.toml), which
imports every module it walks. Some must not be imported by a test run: the migration
environment (it runs migrations at import, inside alembic only), the bots that tests start as
separate processes (a hostile bot does harm at import). The product folders at the top level
(``referee/``, ``sdk/``, ...) are the same files as ``hegemon/*``: collected there only, under
their installed names.
"""

from __future__ import annotations

from pathlib import Path

# The package folders are collected once, under their installed names (through the hegemon/
# links); read from the links, so that a new package cannot be collected twice.
PACKAGE_FOLDERS = sorted(
    p.name for p in (Path(__file__).parent / "hegemon").iterdir() if p.is_symlink()
)

collect_ignore = [
    *PACKAGE_FOLDERS,
    "benchmarks",
    "hegemon/leaderboard/migrations",
    "tests/bots",
    "tests/hostile_bots",
]


# the run's order and its shares among pytest-xdist's workers; a line of progress as tests finish
pytest_plugins = ["tests.helpers.order", "tests.helpers.progress"]
