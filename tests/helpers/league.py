"""Shared fixtures and helpers of the league tests: a throwaway ``$HEGEMON_HOME``, the
``hegemon`` command run as a real subprocess, registered sample bots, seasons, and a real
PostgreSQL server.

Import what a test module needs: ``from league_fixtures import home, pg_server, ...``.

PostgreSQL: ``HEGEMON_TEST_PG_URL`` names a server to use (each test gets its own database on it
when the role may create databases, else shares that one — tests use their own season names).
Otherwise :func:`pg_server` starts a private cluster from Debian's ``postgresql`` package
(``initdb``/``pg_ctl``, run as the ``postgres`` user when we are root) in a temporary folder, on
a free port, and removes it afterwards. Without either, PostgreSQL tests FAIL with a message
saying what to install: they are part of the suite, not optional.
"""

from __future__ import annotations

import contextlib
import glob
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

import pytest

from hegemon.leaderboard.store import (
    FINISHED,
    Store,
)
from hegemon.referee.record import replay
from hegemon.sample_bots.names import TOUR as SAMPLE_BOTS
from tests.helpers.cli import in_process, run_in_process

if TYPE_CHECKING:
    from hegemon.leaderboard.store import BotRow, SeasonRow

ROOT = Path(__file__).resolve().parent.parent.parent
PG_ENV = "HEGEMON_TEST_PG_URL"

# The hegemon app, as the console script runs it: the tests run what a user runs.
CLI = """
import sys
from hegemon.leaderboard.cli import main
sys.argv[0] = "hegemon"
main()
"""


# ---------------------------------------------------------------------------------- homes
@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh ``$HEGEMON_HOME`` (and no ``$HEGEMON_DB``) for this test and its subprocesses."""
    folder = tmp_path / "home"
    folder.mkdir()
    monkeypatch.setenv("HEGEMON_HOME", str(folder))
    monkeypatch.delenv("HEGEMON_DB", raising=False)
    return folder


@contextlib.contextmanager
def using_home(home: Path) -> Iterator[Path]:
    """``$HEGEMON_HOME`` set to ``home`` (and no ``$HEGEMON_DB``) inside the block: the
    :func:`home` fixture's set-up for a fixture wider than one test."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("HEGEMON_HOME", str(home))
        mp.delenv("HEGEMON_DB", raising=False)
        yield home


@pytest.fixture
def store(home: Path) -> Iterator[Store]:
    """The arena's store in the test's ``home``: a fresh SQLite database."""
    opened = Store()
    yield opened
    opened.close()


def env_for(home: Path | None = None, **extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("HEGEMON_DB", None)
    if home is not None:
        env["HEGEMON_HOME"] = str(home)
    env["COLUMNS"] = "200"  # rich wraps at 80 columns when not on a terminal
    env["PYTHONUNBUFFERED"] = "1"
    env.update(extra)
    return env


def hegemon_argv(*args: str) -> list[str]:
    return [sys.executable, "-c", CLI, *args]


def hegemon(
    *args: str,
    home: Path | None = None,
    timeout: float = 300,
    env: dict[str, str] | None = None,
    stdin: str | None = None,
) -> subprocess.CompletedProcess[str]:
    """Run ``hegemon ARGS`` in a subprocess (``stdin``: its input) and wait for it; a command
    that only reads or writes the database and prints runs in this process instead, with the
    same environment and result (:mod:`tests.helpers.cli`)."""
    env = env or env_for(home)
    if in_process(args, env):
        return run_in_process(args, env, ROOT, stdin)
    return subprocess.run(
        hegemon_argv(*args),
        cwd=ROOT,
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def start_hegemon(
    *args: str, home: Path | None = None, env: dict[str, str] | None = None, log: Path | None = None
) -> subprocess.Popen:
    """Start ``hegemon ARGS`` in the background (output to ``log``, else discarded)."""
    # the child keeps its own copy of the log's descriptor: ours is closed at once
    with open(log, "w") if log is not None else contextlib.nullcontext(subprocess.DEVNULL) as out:
        return subprocess.Popen(
            hegemon_argv(*args),
            cwd=ROOT,
            env=env or env_for(home),
            stdout=out,
            stderr=subprocess.STDOUT,
        )


def one_line_error(result: subprocess.CompletedProcess[str]) -> str:
    """The error a failed command printed; asserts it failed with exactly one line."""
    assert result.returncode != 0, result.stdout + result.stderr
    lines = [ln for ln in result.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1, f"expected one error line, got: {result.stderr!r}"
    assert "Traceback" not in result.stderr + result.stdout
    return lines[0]


# ---------------------------------------------------------------------------------- processes
def descendants(pid: int) -> list[int]:
    """Every live process below ``pid`` (children, their children, …)."""
    children: dict[int, list[int]] = {}
    for stat in glob.glob("/proc/[0-9]*/stat"):
        try:
            with open(stat, encoding="utf-8", errors="replace") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            child, parent = int(stat.split("/")[2]), int(fields[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(parent, []).append(child)
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8", errors="replace") as f:
            state = f.read().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


def kill_all(pids: Sequence[int]) -> None:
    """SIGKILL these processes (left behind by a runner that was itself killed)."""
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def wait_for(
    what: str, condition: Callable[[], object], timeout: float = 180, every: float = 0.2
) -> None:
    """Poll ``condition`` until it holds; a test that waits longer than ``timeout`` fails as
    hung (a guard against hanging, not a measure of speed)."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"timed out after {timeout:g} s waiting for {what}")
        time.sleep(every)


def wait_gone(pids: Sequence[int], timeout: float = 10) -> list[int]:
    """The pids still alive after waiting up to ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    left = list(pids)
    while left and time.monotonic() < deadline:
        left = [p for p in left if alive(p)]
        if left:
            time.sleep(0.1)
    return left


# ---------------------------------------------------------------------------------- league data
class Saved(Protocol):
    """A stored row: its ``id`` is None until the database gives it one."""

    id: int | None


def saved_id(row: Saved | None) -> int:
    """The database id of a stored row; fails the test if there is no row (a lookup found
    nothing) or it has no id (it was never saved)."""
    assert row is not None, "no such row"
    assert row.id is not None, f"{row!r} has no id: not saved"
    return row.id


def register_samples(store, names: Sequence[str] = SAMPLE_BOTS) -> list[BotRow]:
    """Register the sample bots (without the check game: they are ours) in the current home."""
    from hegemon.leaderboard.registry import add_bot

    return [add_bot(store, name, name, check=False).bot for name in names]


@dataclass(frozen=True)
class SeasonSpec:
    name: str
    games: int
    players: int = 4
    seed: int = 1
    turn_limit: int = 10
    preset: str = "classic"
    # Generous: the planner sample bot stops widening its search after a quarter of the
    # decision's deadline, so on an overloaded machine a short deadline would make its play
    # (and the season's results) depend on timing.
    decision_time: float = 30.0
    time_bank: float = 600.0
    startup_time: float = 20.0
    keep_memory: bool = True


def create_season(store, spec: SeasonSpec, bots: Sequence[BotRow]) -> SeasonRow:
    """Create ``spec`` (rules with its turn limit, the schedule of ``bots``) in ``store``."""
    from hegemon.leaderboard.seasons.schedule import make_schedule
    from hegemon.leaderboard.store import SeasonRow
    from hegemon.referee.rules import make_rules

    rules = make_rules(spec.preset, {"turn_limit": spec.turn_limit})
    ids = [saved_id(b) for b in bots]
    schedule = make_schedule(ids, spec.players, spec.games, spec.seed, teams=rules.teams == "on")
    season = SeasonRow(
        name=spec.name,
        preset=rules.preset,
        options=rules.options(),
        players=spec.players,
        games=len(schedule),
        startup_time=spec.startup_time,
        decision_time=spec.decision_time,
        time_bank=spec.time_bank,
        max_strikes=5,
        seed=spec.seed,
        keep_memory=spec.keep_memory,
    )
    return store.create_season(season, ids, schedule)


def games_per_match(store, season_id: int) -> dict[int, int]:
    """Match number → stored game rows (every scheduled match listed, 0 if none)."""
    from sqlmodel import col, func, select

    from hegemon.leaderboard.store import GameRow, MatchRow

    with store.session() as s:
        numbers = s.exec(select(MatchRow.number).where(MatchRow.season_id == season_id)).all()
        rows = s.exec(
            select(MatchRow.number, func.count(col(GameRow.id)))
            .join(GameRow, col(GameRow.match_id) == col(MatchRow.id))
            .where(MatchRow.season_id == season_id)
            .group_by(col(MatchRow.number))
        ).all()
    counts = {int(n): 0 for n in numbers}
    counts.update({int(n): int(c) for n, c in rows})
    return counts


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


# ---------------------------------------------------------------------------------- PostgreSQL
def _pg_bindir() -> Path | None:
    for pattern in ("/usr/lib/postgresql/*/bin",):
        found = sorted(
            glob.glob(pattern),
            key=lambda p: int(p.split("/")[-2]) if p.split("/")[-2].isdigit() else 0,
        )
        for folder in reversed(found):
            if os.access(os.path.join(folder, "initdb"), os.X_OK):
                return Path(folder)
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


def _as_postgres(argv: list[str]) -> list[str]:
    """initdb and postgres refuse to run as root: run them as the ``postgres`` user."""
    if os.geteuid() != 0:
        return argv
    runuser = shutil.which("runuser")
    if runuser is None:
        raise RuntimeError("running as root without runuser: cannot start PostgreSQL as postgres")
    return [runuser, "-u", "postgres", "--", *argv]


@dataclass
class PgServer:
    """A PostgreSQL server to test against: ``url(database)`` makes a connection URL."""

    base_url: str  # postgresql://USER@HOST:PORT/DB
    own_cluster: bool

    def url(self, database: str) -> str:
        head, _, _ = self.base_url.rpartition("/")
        return f"{head}/{database}"

    def create_database(self) -> str:
        """A fresh database's URL (or the given one, if this role may not create databases)."""
        import psycopg

        name = f"hegemon_test_{secrets.token_hex(4)}"
        try:
            with psycopg.connect(
                _psycopg(self.base_url), autocommit=True, connect_timeout=10
            ) as conn:
                conn.execute(f'CREATE DATABASE "{name}"')
        except psycopg.errors.InsufficientPrivilege:
            return self.base_url
        return self.url(name)

    def drop_database(self, url: str) -> None:
        import psycopg

        if url == self.base_url:
            return
        name = url.rpartition("/")[2]
        with psycopg.connect(_psycopg(self.base_url), autocommit=True, connect_timeout=10) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _psycopg(url: str) -> str:
    return url.replace("postgresql+psycopg://", "postgresql://", 1)


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    """A PostgreSQL server for the whole session (see the module docstring)."""
    given = os.environ.get(PG_ENV, "").strip()
    if given:
        yield PgServer(given, own_cluster=False)
        return
    with private_cluster() as server:
        yield server


@pytest.fixture
def own_pg_server(pg_server: PgServer) -> Iterator[PgServer]:
    """A server this test may stop and start: the session's when the tests started it, else
    (``HEGEMON_TEST_PG_URL`` names someone else's) a private cluster of its own."""
    if pg_server.own_cluster:
        yield pg_server
        return
    with private_cluster() as server:
        yield server


@contextlib.contextmanager
def private_cluster(max_connections: int = 100) -> Iterator[PgServer]:
    """A private PostgreSQL cluster from Debian's ``postgresql`` package, removed afterwards
    (``max_connections``: the server's limit, PostgreSQL's default unless a benchmark asks)."""
    bindir = _pg_bindir()
    if bindir is None:
        pytest.fail(
            f"PostgreSQL tests need a server: install Debian's 'postgresql' package "
            f"(initdb, pg_ctl) or set {PG_ENV}=postgresql://USER@HOST:PORT/DB",
            pytrace=False,
        )
    if os.geteuid() == 0:
        import pwd

        try:
            pw = pwd.getpwnam("postgres")
        except KeyError:
            pytest.fail(
                "running as root, PostgreSQL needs the 'postgres' user (installed with "
                f"the postgresql package) or set {PG_ENV}",
                pytrace=False,
            )
        uid, gid = pw.pw_uid, pw.pw_gid
    else:
        uid, gid = os.getuid(), os.getgid()
    folder = Path(tempfile.mkdtemp(prefix="hegemon-pg-"))
    os.chown(folder, uid, gid)
    os.chmod(folder, 0o700)
    data = folder / "data"
    port = free_port()
    log = folder / "server.log"
    started = False
    try:
        init = subprocess.run(
            _as_postgres(
                [
                    str(bindir / "initdb"),
                    "-D",
                    str(data),
                    "-A",
                    "trust",
                    "-U",
                    "postgres",
                    "-E",
                    "UTF8",
                    "--no-sync",
                ]
            ),
            capture_output=True,
            text=True,
            timeout=120,
        )
        if init.returncode != 0:
            pytest.fail(
                f"initdb failed: {init.stderr.strip() or init.stdout.strip()}", pytrace=False
            )
        options = (
            f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off "
            "-c synchronous_commit=off -c full_page_writes=off "
            f"-c max_connections={max_connections}"
        )
        start = subprocess.run(
            _as_postgres(
                [
                    str(bindir / "pg_ctl"),
                    "-D",
                    str(data),
                    "-o",
                    options,
                    "-l",
                    str(log),
                    "-w",
                    "-t",
                    "60",
                    "start",
                ]
            ),
            capture_output=True,
            text=True,
            timeout=120,
        )
        if start.returncode != 0:
            tail = log.read_text(errors="replace")[-500:] if log.exists() else ""
            pytest.fail(f"pg_ctl start failed: {start.stderr.strip()} {tail}", pytrace=False)
        started = True
        import psycopg

        with psycopg.connect(
            f"postgresql://postgres@127.0.0.1:{port}/postgres", autocommit=True, connect_timeout=10
        ) as conn:
            conn.execute("CREATE DATABASE hegemon")
        yield PgServer(f"postgresql://postgres@127.0.0.1:{port}/hegemon", own_cluster=True)
    finally:
        if started:
            subprocess.run(
                _as_postgres(
                    [str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop"]
                ),
                capture_output=True,
                timeout=60,
            )
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def pg_url(pg_server: PgServer) -> Iterator[str]:
    """A fresh PostgreSQL database for one test."""
    url = pg_server.create_database()
    try:
        yield url
    finally:
        pg_server.drop_database(url)


def prepare(home_dir: Path, spec: SeasonSpec, monkeypatch: pytest.MonkeyPatch):
    """Register the sample bots and create ``spec`` in ``home_dir``; returns the season."""
    monkeypatch.setenv("HEGEMON_HOME", str(home_dir))
    monkeypatch.delenv("HEGEMON_DB", raising=False)
    home_dir.mkdir(parents=True, exist_ok=True)
    with Store() as store:
        bots = register_samples(store)
        return create_season(store, spec, bots)


def board_csv(home_dir: Path, season: str) -> str:
    out = hegemon("leaderboard", season, "--csv", home=home_dir)
    assert out.returncode == 0, out.stderr
    return out.stdout


def check_played_once(home_dir: Path, spec: SeasonSpec) -> None:
    with Store(home_dir / "arena.db") as store:
        season = store.season_by_name(spec.name)
        assert season is not None and season.status == FINISHED
        counts = games_per_match(store, saved_id(season))
        progress = store.progress(saved_id(season))
    assert len(counts) == spec.games
    assert set(counts.values()) == {1}, {n: c for n, c in counts.items() if c != 1}
    assert progress.done == spec.games and progress.claimed == 0 and progress.pending == 0
    records = sorted((home_dir / "records" / spec.name).glob("*.jsonl"))
    assert len(records) == spec.games


def run_and_replay(home_dir: Path, spec: SeasonSpec, monkeypatch: pytest.MonkeyPatch):
    """Create ``spec`` in ``home_dir``, run it at concurrency 2, check every game was played
    once, and replay each record through the engine: (record name, text, verdict) of each,
    every verdict asserted ok."""
    prepare(home_dir, spec, monkeypatch)
    out = hegemon("season", "run", spec.name, "--concurrency", "2", "--quiet", home=home_dir)
    assert out.returncode == 0, out.stdout + out.stderr
    check_played_once(home_dir, spec)
    replays = []
    for path in sorted((home_dir / "records" / spec.name).glob("*.jsonl")):
        text = path.read_text()
        verdict = replay(text)
        assert verdict.ok, f"{path.name}: {verdict.message}"
        replays.append((path.name, text, verdict))
    return replays


def season_of_preset(preset: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A short season of ``preset`` between the sample bots as real processes: every game
    played once, none forfeited, every record replays to the same game."""
    spec = SeasonSpec(name=preset, games=4, players=4, turn_limit=15, seed=11, preset=preset)
    for name, text, verdict in run_and_replay(tmp_path, spec, monkeypatch):
        assert verdict.game is not None
        assert verdict.game.rules.preset == preset
        assert '"forfeit"' not in text, f"{name}: a bot was forfeited"
