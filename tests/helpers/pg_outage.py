"""A real PostgreSQL outage for tests: the test's own cluster stopped and started again."""

from __future__ import annotations

import shlex
import subprocess
from pathlib import Path

from tests.helpers.league import PgServer, _as_postgres, _pg_bindir


class Restartable:
    """Stops and starts the test's own PostgreSQL cluster, with the options it was started
    with (``postmaster.opts``): a real outage, every connection dropped."""

    def __init__(self, pg_server: PgServer):
        import psycopg

        assert pg_server.own_cluster, "the outage test stops the server: it needs its own"
        with psycopg.connect(pg_server.url("postgres"), autocommit=True) as conn:
            row = conn.execute("SHOW data_directory").fetchone()
        assert row is not None
        self.data = Path(row[0])
        bindir = _pg_bindir()
        assert bindir is not None
        self.pg_ctl = str(bindir / "pg_ctl")
        argv = shlex.split((self.data / "postmaster.opts").read_text())
        options = [a for i, a in enumerate(argv[1:], 1) if a != "-D" and argv[i - 1] != "-D"]
        self.options = shlex.join(options)

    def _ctl(self, *args: str) -> None:
        done = subprocess.run(
            _as_postgres([self.pg_ctl, "-D", str(self.data), *args]),
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr

    def stop(self) -> None:
        self._ctl("-m", "fast", "-w", "stop")

    def start(self) -> None:
        self._ctl("-o", self.options, "-l", str(self.data.parent / "server.log"), "-w", "start")
