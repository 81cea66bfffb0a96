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

import pytest

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


def _length(item: pytest.Item) -> int:
    """0: given more than the default time limit; 1: marked ``slow``; 2: the rest."""
    limit = item.get_closest_marker("timeout")
    if limit is not None and limit.args and float(limit.args[0]) > 600:
        return 0
    return 1 if item.get_closest_marker("slow") is not None else 2


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The files with the longest tests first, each group in its usual order: spread over
    workers (``-n``), a minutes-long test started last would finish last on one worker while
    the others idle; started first, the short ones fill in around it. Whole files move, so a
    file's shared fixtures are still made once."""
    files: dict[object, int] = {}
    for item in items:
        files[item.path] = min(files.get(item.path, 2), _length(item))
    items.sort(key=lambda item: files[item.path])
