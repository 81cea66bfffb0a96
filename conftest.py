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

import os
from pathlib import Path

# Password hashing at argon2id's least parameters for this run and every process it starts
# (docs/security.md: refused outside a test run): a hash at the real ones costs ~0.2 CPU-s, and
# the suite signs up and in hundreds of times. tests/web/test_password_cost.py checks both ways.
os.environ["HEGEMON_TESTING"] = "1"
os.environ["HEGEMON_PASSWORD_COST"] = "test"

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
