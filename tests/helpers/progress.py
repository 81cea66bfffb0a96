"""A pytest plugin: the run's progress as a line of its own — tests finished of all, the share,
the time since the start and the failures so far — every few seconds as tests finish, and at
least once a minute while none does (a minutes-long test started first).

Pytest's own progress under ``-q`` is a percentage at the end of each full line of dots: with
the longest tests first on two workers, a newcomer saw 3 % after 25 minutes and could not tell
a slow suite from a stuck one. Shown in the process that reports (under pytest-xdist the
controller, never a worker) and only in the quiet and normal modes (``-v`` names every test with
its percentage already).
"""

from __future__ import annotations

import threading
import time

import pytest

EVERY = 10.0  # seconds between two lines while tests finish (the ini option progress_every)
QUIET_FOR = 60.0  # seconds without a line before one is written while none finishes


def line(done: int, total: int, failed: int, elapsed: float) -> str:
    """The progress line's text.

    >>> line(312, 2277, 0, 65.2)
    '312/2277 tests (13%) in 1:05'
    >>> line(2277, 2277, 2, 3725)
    '2277/2277 tests (100%) in 62:05, 2 failed'
    >>> line(0, 0, 0, 61)
    'collecting the tests in 1:01'
    """
    minutes, seconds = divmod(int(elapsed), 60)
    if not total:
        return f"collecting the tests in {minutes}:{seconds:02d}"
    said = f"{done}/{total} tests ({done * 100 // total}%) in {minutes}:{seconds:02d}"
    return f"{said}, {failed} failed" if failed else said


class Progress:
    """Writes the progress line through the terminal reporter; a thread writes it when no test
    has finished for ``QUIET_FOR`` seconds."""

    def __init__(self, reporter: pytest.TerminalReporter, every: float = EVERY) -> None:
        self.reporter = reporter
        self.every = every
        self.start = time.monotonic()
        self.last = self.start
        self.session: pytest.Session | None = None
        self.failed: set[str] = set()
        self.lock = threading.Lock()
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._tick, name="progress", daemon=True)

    def write(self) -> None:
        """A line of its own after the dots of the tests finished since the last."""
        with self.lock:
            total = self.session.testscollected if self.session is not None else 0
            done = self.reporter.reported_progress
            elapsed = time.monotonic() - self.start
            self.reporter.ensure_newline()
            text = line(done, total, len(self.failed), elapsed)
            self.reporter.write_line(f"  {text}", cyan=True, red=bool(self.failed))
            self.reporter.flush()
            self.last = time.monotonic()

    def _tick(self) -> None:
        while not self.stop.wait(QUIET_FOR / 6):
            if time.monotonic() - self.last >= QUIET_FOR:
                self.write()

    @pytest.hookimpl(trylast=True)  # after the reporter wrote the test's dot
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if report.failed:
            self.failed.add(report.nodeid)
        if time.monotonic() - self.last >= self.every:
            self.write()

    def pytest_sessionstart(self, session: pytest.Session) -> None:
        self.session = session
        self.thread.start()

    @pytest.hookimpl(tryfirst=True)
    def pytest_sessionfinish(self) -> None:
        self.stop.set()


@pytest.hookimpl(trylast=True)  # after the terminal reporter is registered
def pytest_configure(config: pytest.Config) -> None:
    """Registers the line in the reporting process of a quiet or normal run."""
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if reporter is None or hasattr(config, "workerinput") or config.get_verbosity() > 0:
        return
    every = float(config.getini("progress_every") or EVERY)
    config.pluginmanager.register(Progress(reporter, every), "hegemon-progress")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addini("progress_every", "seconds between two lines of progress", default=str(EVERY))
