"""A private PgBouncer in transaction mode in front of a test PostgreSQL server (Debian's
``pgbouncer`` package; run as the ``postgres`` user when we are root, as PostgreSQL is), on a
free port, stopped and removed afterwards. The tests and ``benchmarks/runner_scale.py`` use it.

Its configuration is the one ``docs/arena.md`` ("Many machines") recommends, with ``trust``
authentication (the test server's own)."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from .league import _as_postgres, free_port

CONFIG = """\
[databases]
* = host={host} port={port}

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = {listen}
unix_socket_dir =
auth_type = trust
auth_file = {folder}/users.txt
pool_mode = transaction
max_client_conn = 1000
default_pool_size = {server_pool}
max_db_connections = {server_pool}
ignore_startup_parameters = extra_float_digits
logfile = {folder}/pgbouncer.log
pidfile = {folder}/pgbouncer.pid
"""


class BouncerMissing(RuntimeError):
    """PgBouncer is not installed (or cannot start): the message says what to do."""


def pgbouncer_binary() -> str:
    found = shutil.which("pgbouncer") or (
        "/usr/sbin/pgbouncer" if os.access("/usr/sbin/pgbouncer", os.X_OK) else None
    )
    if found is None:
        raise BouncerMissing(
            "PgBouncer tests need Debian's 'pgbouncer' package (scripts/system-packages "
            "installs it)"
        )
    return found


def through(url: str, port: int) -> str:
    """``url`` (a PostgreSQL URL) with its host and port replaced by the bouncer's."""
    scheme, _, rest = url.partition("://")
    user, _, tail = rest.rpartition("@")
    _, _, database = tail.partition("/")
    return f"{scheme}://{user + '@' if user else ''}127.0.0.1:{port}/{database}"


@contextlib.contextmanager
def pgbouncer(server_url: str, server_pool: int = 20) -> Iterator[int]:
    """Run PgBouncer in transaction mode in front of the server of ``server_url`` (its
    ``postgres`` user, trusted), keeping at most ``server_pool`` server connections per
    database; yields its port (see :func:`through`)."""
    binary = pgbouncer_binary()
    rest = server_url.partition("://")[2]
    user = rest.rpartition("@")[0].split(":")[0] or "postgres"
    hostport = rest.rpartition("@")[2].split("/")[0]
    host, _, port = hostport.partition(":")
    folder = Path(tempfile.mkdtemp(prefix="hegemon-pgbouncer-"))
    listen = free_port()
    (folder / "users.txt").write_text(f'"{user}" ""\n')
    (folder / "pgbouncer.ini").write_text(
        CONFIG.format(
            host=host, port=port or 5432, listen=listen, folder=folder, server_pool=server_pool
        )
    )
    if os.geteuid() == 0:
        import pwd

        pw = pwd.getpwnam("postgres")
        for path in (folder, *folder.iterdir()):
            os.chown(path, pw.pw_uid, pw.pw_gid)
    with open(folder / "stderr.txt", "wb") as said:  # the child keeps its own copy
        proc = subprocess.Popen(
            _as_postgres([binary, str(folder / "pgbouncer.ini")]),
            stdout=subprocess.DEVNULL,
            stderr=said,
        )
    try:
        _wait_listening(listen, proc, folder)
        yield listen
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)  # PgBouncer's immediate shutdown
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        shutil.rmtree(folder, ignore_errors=True)


def _wait_listening(port: int, proc: subprocess.Popen[bytes], folder: Path) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            said = [
                (folder / name).read_text(errors="replace")[-500:].strip()
                for name in ("stderr.txt", "pgbouncer.log")
                if (folder / name).exists()
            ]
            raise BouncerMissing(f"pgbouncer exited: {' '.join(said)}")
        with socket.socket() as sock:
            if sock.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    raise BouncerMissing("pgbouncer did not listen within 30 s")
