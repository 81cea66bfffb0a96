"""A pytest plugin: the run's order — the longest test files first, each file's tests together
in their usual order.

``scripts/test`` gives each file to the next free pytest-xdist worker (``--dist loadfile``: a
file's shared fixtures are made once). A file of minutes started last would finish last, alone,
while the other workers idle; started first, the short files fill in around it. A file's length
is what ``tests/durations.txt`` says it took (seconds on a 2-core machine, written by
``scripts/test --durations-record``), else what its tests' marks say: a time limit above the
default, ``slow``, or a fraction of a second.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from pathlib import Path

import pytest

DURATIONS = Path("tests", "durations.txt")  # in the run's root folder
UNKNOWN = 0.2  # seconds: a test neither measured nor marked
SLOW = 20.0  # a test marked slow
LONG = 200.0  # a test allowed more than the default time limit


def file_of(nodeid: str) -> str:
    """The file part of a node id.

    >>> file_of("tests/web/test_web.py::test_home[anonymous]")
    'tests/web/test_web.py'
    """
    return nodeid.split("::", 1)[0]


def read_durations(path: Path) -> dict[str, float]:
    """``tests/durations.txt``: a line per file, its seconds then its path."""
    if not path.is_file():
        return {}
    lengths = {}
    for row in path.read_text(encoding="utf-8").splitlines():
        seconds, _, name = row.partition(" ")
        if name and not row.startswith("#"):
            lengths[name] = float(seconds)
    return lengths


def write_durations(seconds: Mapping[str, float], path: Path) -> None:
    """Writes each file's seconds, longest first."""
    rows = sorted(((round(t, 1), name) for name, t in seconds.items()), key=lambda r: (-r[0], r[1]))
    head = "# seconds per test file on 2 cores (scripts/test --durations-record), longest first\n"
    path.write_text(head + "".join(f"{t} {name}\n" for t, name in rows), encoding="utf-8")


def marked_length(item: pytest.Item) -> float:
    """The seconds a test not measured is expected to take, from its marks."""
    limit = item.get_closest_marker("timeout")
    if limit is not None and limit.args and float(limit.args[0]) > 600:
        return LONG
    return SLOW if item.get_closest_marker("slow") is not None else UNKNOWN


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The files longest first, each file's tests together in their usual order."""
    measured = read_durations(config.rootpath / DURATIONS)
    files: dict[str, list[pytest.Item]] = {}
    for item in items:
        files.setdefault(file_of(item.nodeid), []).append(item)

    def length(name: str) -> float:
        if name in measured:
            return measured[name]
        return sum(marked_length(item) for item in files[name])

    ordered = sorted(files, key=lambda name: -length(name))  # stable: ties keep their order
    items[:] = [item for name in ordered for item in files[name]]


class Recorder:
    """Adds up the setup, call and teardown of each file's tests; at the end, writes them over
    those files' former lengths (a run of some files keeps the others')."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.seconds: dict[str, float] = defaultdict(float)

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        self.seconds[file_of(report.nodeid)] += report.duration

    def pytest_sessionfinish(self) -> None:
        write_durations({**read_durations(self.path), **self.seconds}, self.path)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--durations-record",
        action="store_true",
        help="write each test file's seconds to tests/durations.txt, the order of later runs",
    )


def pytest_configure(config: pytest.Config) -> None:
    """Records the durations in the process that reports (not in a pytest-xdist worker)."""
    if config.getoption("durations_record") and not hasattr(config, "workerinput"):
        config.pluginmanager.register(Recorder(config.rootpath / DURATIONS), "hegemon-durations")
