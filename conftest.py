"""Collection rules for the whole checkout (the tests' shared helpers are in tests/helpers/).

pytest runs with ``--doctest-modules`` over ``tests/`` and ``hegemon/`` (pyproject.toml), which
imports every module it walks. Some must not be imported by a test run: the migration
environment (it runs migrations at import, inside alembic only), the bots that tests start as
separate processes (a hostile bot does harm at import). The product folders at the top level
(``referee/``, ``sdk/``, ...) are the same files as ``hegemon/*``: collected there only, under
their installed names.
"""

collect_ignore = [
    "referee",
    "sdk",
    "leaderboard",
    "sample_bots",
    "benchmarks",
    "hegemon/leaderboard/migrations",
    "tests/bots",
    "tests/hostile_bots",
]
