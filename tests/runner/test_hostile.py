"""Hostile bots (tests/hostile_bots/hostile.py), each a real sandboxed process in a real game with
two sample bots: whatever the bot tries, the attempt fails or is contained, the bot gets a
named fault (or none, where the attempt simply failed), the other seats finish unaffected, the
database, the records and the other bots' files are intact, no listener of the host hears from
it, and nothing of it is left running afterwards.

Every address used is on this machine: listeners the test opens on 127.0.0.1 (TCP, UDP, and the
PostgreSQL port when it is free), an abstract unix socket and a unix socket file.
"""

from __future__ import annotations

import ast
import hashlib
import os
import re
import shutil
import socket
import sqlite3
import sys
import tempfile
import threading
import time
from functools import partial
from pathlib import Path

import pytest
import trio

from hegemon.leaderboard.botspec import resolve
from hegemon.referee.record import replay
from hegemon.referee.rules import make_rules
from hegemon.referee.runner import link as link_module
from hegemon.referee.runner import process as process_module
from hegemon.referee.runner import sandbox
from hegemon.referee.runner.link import BotLimits
from hegemon.referee.runner.process import BotCommand
from hegemon.referee.runner.sandbox import SandboxLimits
from hegemon.referee.runner.sandbox.tree import INNER_SOCKET_DIR
from hegemon.referee.runner.session import play_one
from hegemon.referee.timecontrol import TimeControl
from tests.helpers.processes import boot_ticks, left_running

pytestmark = pytest.mark.slow


@pytest.fixture(autouse=True)
def bubblewrap_installed():
    """Part of the suite, not optional: without bubblewrap these tests fail and say why."""
    if sandbox.bwrap_path() is None:
        pytest.fail(
            "bubblewrap is not installed (or does not work here): apt-get install bubblewrap"
        )


HOSTILE = Path(__file__).resolve().parent.parent / "hostile_bots" / "hostile.py"
CHECKOUT = Path(__file__).resolve().parent.parent.parent
REFEREE_SOURCE = CHECKOUT / "leaderboard" / "store" / "__init__.py"  # the league's, not bound in
# .git/config in a clone; .git itself is a file in a git worktree
GIT_FILE = CHECKOUT / ".git" / "config" if (CHECKOUT / ".git").is_dir() else CHECKOUT / ".git"
RULES = make_rules("classic", {"turn_limit": 8})
TC = TimeControl(startup=15, decision=1.0, bank=20.0, max_strikes=3)
SANDBOX = SandboxLimits()  # what every bot gets unless a test gives its own
SECRET = "the-arena-secret-7f3a"


def digest(path: Path) -> str:
    h = hashlib.sha256()
    for p in sorted(path.rglob("*")) if path.is_dir() else [path]:
        if p.is_file():
            h.update(str(p.relative_to(path) if path.is_dir() else p).encode())
            h.update(p.read_bytes())
    return h.hexdigest()


def kib_field(path: str, key: str) -> int:
    """A ``key: N kB`` line of a /proc file, in bytes."""
    with open(path) as f:
        for line in f:
            if line.startswith(key):
                return int(line.split()[1]) * 1024
    return 0


def vm_rss() -> int:
    return kib_field("/proc/self/status", "VmRSS:")


class Arena:
    """A HEGEMON_HOME with a database holding a secret, records, another bot's files; host
    listeners; and every bot process the runner starts."""

    def __init__(self, root: Path, monkeypatch: pytest.MonkeyPatch):
        self.root = root
        self.home = root / "home"
        self.db = self.home / "arena.db"
        self.records = self.home / "records"
        self.other = self.home / "bots" / "0123abcd" / "secret_strategy.py"
        self.logs = root / "logs"
        self.records.mkdir(parents=True)
        self.other.parent.mkdir(parents=True)
        self.other.write_text(f"SECRET = {SECRET!r}\n")
        (self.records / "old-game.jsonl").write_text('{"type": "header", "seed": 42}\n')
        with sqlite3.connect(self.db) as con:
            con.execute("create table secret (value text)")
            con.execute("insert into secret values (?)", (SECRET,))
        con.close()
        self.digests = self._digests()
        self.tmp_mark = (
            f"hegemon-hostile-{os.getpid()}-{time.monotonic_ns()}"  # in the host's /tmp?
        )
        monkeypatch.setenv("HEGEMON_HOME", str(self.home))
        monkeypatch.setenv("HEGEMON_DB", f"sqlite:///{self.db}")
        monkeypatch.setenv("REFEREE_SECRET", SECRET)
        monkeypatch.setenv("HEGEMON_BOT_LOGS", str(self.logs))
        # the listeners a bot must never reach
        self.tcp = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.tcp.bind(("127.0.0.1", 0))
        self.tcp.listen(16)
        self.udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.udp.bind(("127.0.0.1", 0))
        self.pg: socket.socket | None = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        try:
            self.pg.bind(("127.0.0.1", 5432))
            self.pg.listen(16)
        except OSError:  # a PostgreSQL server is there: the bot reports what it got
            self.pg.close()
            self.pg = None
        self.abstract_name = f"hegemon-hostile-{os.getpid()}-{time.monotonic_ns()}"
        self.abstract = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.abstract.bind("\0" + self.abstract_name)
        self.abstract.listen(16)
        self.unix_path = root / "host.sock"
        self.unix = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.unix.bind(str(self.unix_path))
        self.unix.listen(16)
        for s in self.listeners():
            s.setblocking(False)
        self.bots: list = []
        original = process_module.spawn  # link imported it: link's name for it is patched

        async def spawn(command, *args, **kwargs):
            bot = await original(command, *args, **kwargs)
            self.bots.append(bot)
            return bot

        monkeypatch.setattr(link_module, "spawn", spawn)
        self.killed: dict[int, int] = {}  # id of a bot → when it was first killed
        kill = process_module.BotProcess.kill

        def marked_kill(bot: process_module.BotProcess) -> None:
            self.killed.setdefault(id(bot), boot_ticks())
            kill(bot)

        monkeypatch.setattr(process_module.BotProcess, "kill", marked_kill)

    def listeners(self) -> list[socket.socket]:
        return [s for s in (self.tcp, self.udp, self.pg, self.abstract, self.unix) if s is not None]

    def close(self) -> None:
        for s in self.listeners():
            s.close()

    def _digests(self) -> dict[str, str]:
        return {
            "db": digest(self.db),
            "records": digest(self.records),
            "other bot": digest(self.other.parent),
        }

    # -------------------------------------------------------------- playing
    def command(self, mode: str) -> BotCommand:
        """The hostile bot stored like a registered one: its own folder under bots/."""
        folder = self.home / "bots" / f"hostile-{mode}"
        folder.mkdir(parents=True, exist_ok=True)
        shutil.copy(HOSTILE, folder / "bot.py")
        env = {
            "HOSTILE_TCP_PORT": str(self.tcp.getsockname()[1]),
            "HOSTILE_UDP_PORT": str(self.udp.getsockname()[1]),
            "HOSTILE_PG_PORT": "5432",
            "HOSTILE_ABSTRACT": self.abstract_name,
            "HOSTILE_UNIX_PATH": str(self.unix_path),
            "HOSTILE_DB": str(self.db),
            "HOSTILE_HOME": str(self.home),
            "HOSTILE_OTHER_BOT": str(self.other),
            "HOSTILE_RECORDS": str(self.records),
            "HOSTILE_REFEREE_PID": str(os.getpid()),
            "HOSTILE_REFEREE_SOURCE": str(REFEREE_SOURCE),
            "HOSTILE_GIT": str(GIT_FILE),
            "HOSTILE_USER_HOME": str(Path.home()),
            "HOSTILE_BESIDE_CHECKOUT": str(CHECKOUT.parent),
            "HOSTILE_TMP_MARK": self.tmp_mark,
        }
        return BotCommand(
            f"hostile-{mode}",
            (sys.executable, str(folder / "bot.py"), mode),
            cwd=str(folder),
            env=tuple(env.items()),
        )

    def play(
        self,
        mode: str,
        time_control: TimeControl = TC,
        rules=RULES,
        seed: int = 5,
        opponents: tuple[str, str] = ("random", "aggressive"),
        sandbox: SandboxLimits = SANDBOX,
    ):
        commands = [self.command(mode), *(resolve(o) for o in opponents)]
        play = partial(play_one, limits=BotLimits(sandbox=sandbox))
        result = trio.run(play, commands, rules, seed, time_control)
        self.result = result
        return result

    def log(self, mode: str) -> str:
        logs = sorted(self.logs.glob(f"hostile-{mode}-*.log"))
        assert logs, f"no log of hostile-{mode} in {self.logs}"
        return "\n".join(p.read_text("utf-8", "replace") for p in logs)

    def reports(self, mode: str) -> dict[str, str]:
        found = {}
        for line in self.log(mode).splitlines():
            match = re.match(r"HOSTILE (.+?): (.*)$", line)
            if match:
                found[match.group(1)] = match.group(2)
        return found

    # -------------------------------------------------------------- checks
    def assert_others_unaffected(self) -> None:
        result = self.result
        for seat in result.seats[1:]:
            assert seat.faults == [], seat.faults
            assert seat.decisions > 0 and not seat.out
        assert result.places is not None and sorted(result.places)[0] == 1
        assert replay(result.record).ok

    def assert_intact(self) -> None:
        assert self._digests() == self.digests, "the database, records or a bot's files changed"
        for s in self.listeners():
            if s.type == socket.SOCK_DGRAM:
                with pytest.raises(BlockingIOError):
                    data = s.recv(65536)
                    pytest.fail(f"the UDP listener received {data!r}")
            else:
                with pytest.raises(BlockingIOError):
                    conn, _ = s.accept()
                    conn.close()
                    pytest.fail(f"a listener was reached: {s}")

    def assert_nothing_left(self) -> None:
        """No process of any of the bots' sandboxes (by process group, PID namespace and
        pool uid) is running."""
        assert self.bots, "the test started no bot"
        deadline = time.monotonic() + 10
        while True:
            left = self._left()
            if not left or time.monotonic() > deadline:
                break
            time.sleep(0.1)
        assert not left, f"still running: {left}"

    def _left(self) -> list[str]:
        left = []
        for bot in self.bots:
            try:
                os.killpg(bot.process.pid, 0)
                left.append(f"process group {bot.process.pid} of {bot.command.name}")
            except ProcessLookupError:
                pass
        now = boot_ticks()
        killed = [(b, self.killed.get(id(b), now)) for b in self.bots]
        namespaces = {b.pid_namespace: mark for b, mark in killed if b.pid_namespace}
        uids = {b.uid: mark for b, mark in killed if b.uid is not None}
        return left + left_running(namespaces, uids)

    def hostile_bot(self, mode: str):
        """The process of the hostile bot of the last game."""
        return next(b for b in reversed(self.bots) if b.command.name == f"hostile-{mode}")

    def fault_kinds(self) -> list[str]:
        return [f.kind for f in self.result.seats[0].faults]


@pytest.fixture
def arena(tmp_path, monkeypatch):
    a = Arena(tmp_path, monkeypatch)
    yield a
    a.close()


def check_contained(arena: Arena, mode: str) -> dict[str, str]:
    arena.assert_others_unaffected()
    arena.assert_intact()
    arena.assert_nothing_left()
    return arena.reports(mode)


def refused(result: str) -> bool:
    return not result.startswith("ok")


# ------------------------------------------------------------------------------ the attacks
def bound_below(folder: Path, home: Path) -> set[str]:
    """The entries of ``folder`` that lead to what the sandbox binds in for a Python bot (the
    interpreter, the virtual environment, the checkout, the bot's own folder under ``home``)."""
    bound = {Path(sys.prefix), Path(sys.base_prefix), CHECKOUT, home}
    return {
        p.resolve().relative_to(folder.resolve()).parts[0]
        for p in bound
        if p.resolve().is_relative_to(folder.resolve()) and p.resolve() != folder.resolve()
    }


def bots_own(name: str, rundir: Path | None) -> bool:
    """Whether a name in the temporary directory is the bot's own: its run folder (the
    fallback binds it at its real path) or bubblewrap's socket folder — seen when the checkout
    itself lies in the temporary directory. Another bot's run folder is not."""
    return (rundir is not None and name == rundir.name) or name == Path(INNER_SOCKET_DIR).name


def test_network_out_of_the_sandbox_is_refused(arena):
    arena.play("network")
    reports = check_contained(arena, "network")
    assert arena.fault_kinds() == []
    for what in (
        "tcp 127.0.0.1 listener",
        "tcp 127.0.0.1 postgres",
        "tcp ::1 listener",
        "udp 127.0.0.1 listener",
        "abstract unix listener",
        "path unix listener",
        "postgres unix socket",
        "docker socket",
        "netlink socket",
    ):
        assert refused(reports[what]), (what, reports[what])
    assert arena.result.seats[0].decisions > 0  # it then played on


def test_the_network_namespace_alone_refuses_it_too(arena, monkeypatch):
    """Without the seccomp layer (which refuses inet sockets outright) the empty network
    namespace still lets nothing out: only the sandbox's own loopback, with nobody on it."""
    monkeypatch.setattr(sandbox.bubblewrap, "seccomp_program", lambda: None)
    arena.play("network")
    reports = check_contained(arena, "network")
    assert arena.fault_kinds() == []
    assert "refused" in reports["tcp 127.0.0.1 listener"].lower()
    assert "refused" in reports["abstract unix listener"].lower()
    for what in (
        "tcp 127.0.0.1 postgres",
        "udp 127.0.0.1 listener",
        "path unix listener",
        "docker socket",
    ):
        assert refused(reports[what]) or what.startswith("udp"), (what, reports[what])
    assert "lo" in reports["interfaces"] and "eth" not in reports["interfaces"]


@pytest.mark.parametrize("mechanism", ["bubblewrap", "rlimits"])
def test_the_database_records_other_bots_and_the_referee_are_invisible(
    arena, monkeypatch, mechanism
):
    """Under either mechanism (the rlimits fallback builds the tree bubblewrap shows in a
    mount namespace of its own): the database, the records, another bot's folder and the
    referee's home are not there to read, and nothing it writes reaches the host."""
    assert REFEREE_SOURCE.is_file() and GIT_FILE.exists()  # there to be read, on the host
    monkeypatch.setenv("HEGEMON_SANDBOX", mechanism)
    host_tmp = Path(tempfile.gettempdir()) / arena.tmp_mark
    try:
        arena.play("files")
    finally:
        written = host_tmp.exists()
        host_tmp.unlink(missing_ok=True)
    reports = check_contained(arena, "files")
    assert arena.fault_kinds() == []
    assert arena.hostile_bot("files").sandbox == mechanism
    assert reports["write /tmp"].startswith("ok") and not written  # its /tmp, not the host's
    assert not (arena.home / "pwned.txt").exists()
    # of HEGEMON_HOME it sees only the folders leading to its own (bwrap makes them empty)
    assert reports["list hegemon home"] in ("ok ['bots']", "ok []"), reports["list hegemon home"]
    for what in (
        "read database",
        "write database",
        "read other bot",
        "list records",
        "read referee source",
        "read .git",
        "read /etc/shadow",
        "referee environ",
        "referee cmdline",
        "parent environ",
        "write own folder",
        "write root",
        "write hegemon home",
    ):
        assert refused(reports[what]), (what, reports[what])
    # of the referee's home and the checkout's folder, a bot sees at most the path down to what
    # the sandbox binds in (the interpreter, the virtual environment, the checkout's SDK)
    for what, folder in (
        ("list referee home", Path.home()),
        ("list beside checkout", CHECKOUT.parent),
    ):
        report = reports[what]
        if not refused(report):
            listed = ast.literal_eval(report.removeprefix("ok "))
            seen = {n for n in listed if not bots_own(n, arena.hostile_bot("files").rundir)}
            assert seen <= bound_below(folder, arena.home), report
    # its own PID namespace: itself and bwrap's init, or itself alone (the fallback's pid 1)
    assert reports["processes seen"] == ("ok [1, 2]" if mechanism == "bubblewrap" else "ok [1]")
    assert SECRET not in arena.log("files")
    for name in ("REFEREE_SECRET", "HEGEMON_DB", "HEGEMON_HOME"):
        assert name not in reports["environment"]
    found = re.search(r"\((\d+),", reports["uid"])
    assert found is not None, reports["uid"]
    uid = int(found.group(1))
    if os.geteuid() == 0:
        assert sandbox.UID_BASE <= uid < sandbox.UID_BASE + sandbox.UID_COUNT


def test_writing_10_gb_stops_at_the_limits(arena):
    arena.play("disk")
    reports = check_contained(arena, "disk")
    assert arena.fault_kinds() == [], arena.result.seats[0].faults
    limits = SANDBOX
    assert "File too large" in reports["10 GB file in /tmp"]
    assert "read-only" in reports["10 GB file in its folder"].lower()
    for where in ("many files in /tmp", "many files in /dev/shm"):
        total = int(reports[where].split()[0])
        assert total <= limits.tmp_bytes >> 20, reports[where]
        assert "No space left" in reports[where]
    log_size = sum(p.stat().st_size for p in arena.logs.glob("hostile-disk-*.log"))
    assert log_size <= limits.file_bytes + (1 << 20)
    assert arena.result.seats[0].decisions > 0


def test_a_fork_bomb_stops_at_the_process_limit(arena):
    """Refused at the limit, and the bot is out with a ``processes`` fault where the pids
    cgroup enforces the limit (under RLIMIT_NPROC alone the refusal is all there is)."""
    arena.play("fork_bomb")
    reports = check_contained(arena, "fork_bomb")
    if sandbox.cgroups.places().get("pids"):
        assert arena.fault_kinds() == ["processes"], arena.result.seats[0].faults
        assert arena.result.seats[0].out == "processes"
    else:
        assert arena.fault_kinds() == []
    report = reports.get("fork bomb")  # the bot may be stopped before it says so
    if report is not None:
        assert int(report.split()[0]) < SANDBOX.processes, report
        assert "Resource temporarily unavailable" in report


def test_a_fork_bomb_left_running_is_contained_and_cleaned_up(arena):
    arena.play("fork_bomb_left")
    arena.assert_others_unaffected()
    arena.assert_intact()
    arena.assert_nothing_left()
    assert set(arena.fault_kinds()) <= {"startup", "crash", "timeout", "protocol", "processes"}


def test_allocating_20_gb_fails_inside_the_bot(arena):
    arena.play("memory")
    reports = check_contained(arena, "memory")
    assert arena.fault_kinds() == []
    assert reports["allocate 20 GB at once"].startswith("MemoryError")
    found = re.search(r"(\d+) MiB", reports["allocate 20 GB by 100 MB"])
    assert found is not None, reports["allocate 20 GB by 100 MB"]
    grown = int(found.group(1))
    assert grown < SANDBOX.memory_bytes >> 20
    assert refused(reports["mmap 20 GB"])


def test_killing_its_parent_and_everyone_hurts_nobody(arena):
    arena.play("kill")
    reports = check_contained(arena, "kill")
    assert arena.fault_kinds() == []
    assert reports["still alive"].startswith("ok")
    assert "ProcessLookupError" in reports["kill referee pid"]
    assert arena.result.seats[0].decisions > 0  # the referee and its bot played on


def test_escaping_the_sandbox_is_refused(arena):
    arena.play("escape")
    reports = check_contained(arena, "escape")
    assert arena.fault_kinds() == []
    for what in (
        "unshare user namespace",
        "unshare network",
        "mount tmpfs",
        "ptrace pid 1",
        "chroot",
        "setuid 0",
        "memfd",
        "io_uring",
        "bpf",
        "open_by_handle_at",
        "packet socket",
    ):
        assert refused(reports[what]), (what, reports[what])
    assert "refused" in reports["shmget"]
    caps = reports["capabilities"]
    assert "CapEff:\\t0000000000000000" in caps and "NoNewPrivs:\\t1" in caps
    assert "Seccomp:\\t2" in caps


def test_spinning_in_a_decision_is_a_timeout(arena):
    arena.play("spin_decide")
    check_contained(arena, "spin_decide")
    assert arena.result.seats[0].out == "timeout"
    assert arena.fault_kinds()[-1] == "timeout"


def test_spinning_in_the_background_meets_the_cpu_limit(arena):
    time_control = TimeControl(startup=15, decision=1.0, bank=60.0, max_strikes=3)
    arena.play(
        "spin_background",
        time_control,
        make_rules("classic", {"turn_limit": 100}),
        opponents=("random", "random"),
        sandbox=SandboxLimits(cpu_seconds=3),
    )
    check_contained(arena, "spin_background")
    seat = arena.result.seats[0]
    hostile = arena.hostile_bot("spin_background")
    if hostile.limit_fault() is not None:  # the bot's ceiling struck before its process limit
        assert hostile.limit_fault()[0] == "cpu"
        assert seat.out in ("cpu", "crash"), seat.faults  # the per-process limit may strike first
    else:
        assert seat.out == "crash", seat.faults
        assert "signal 24" in seat.faults[-1].detail, seat.faults  # SIGXCPU


def test_a_100_mb_answer_is_refused_cheaply(arena):
    before = vm_rss()
    # building 100 MB takes a while on a busy machine: no timeout strike in between
    arena.play("answer_100mb", TimeControl(startup=15, decision=5.0, bank=60.0, max_strikes=3))
    check_contained(arena, "answer_100mb")
    assert arena.result.seats[0].out == "protocol"
    assert all(k == "protocol" for k in arena.fault_kinds())
    assert "RESOURCE_EXHAUSTED" in arena.result.seats[0].faults[0].detail
    assert vm_rss() - before < 200 << 20


def test_malformed_answers_are_protocol_or_illegal_faults(arena):
    arena.play("malformed")
    check_contained(arena, "malformed")
    seat = arena.result.seats[0]
    assert seat.out in ("protocol", "illegal")
    assert set(arena.fault_kinds()) <= {"protocol", "illegal"}
    details = " ".join(f.detail for f in seat.faults)
    assert "someone-else" in details or "placements" in details or "three card" in details


def test_answers_after_the_deadline_are_timeouts(arena):
    arena.play("late")
    check_contained(arena, "late")
    assert arena.result.seats[0].out == "timeout"
    assert set(arena.fault_kinds()) == {"timeout"}


def test_a_flood_of_connections_and_unasked_messages_is_contained(arena):
    before = vm_rss()
    arena.play("flood", rules=make_rules("classic", {"turn_limit": 20}))
    reports = check_contained(arena, "flood")
    assert arena.fault_kinds() == []
    held = int(reports["connections to its own socket"].split(",")[0])
    assert held < SANDBOX.open_files
    assert vm_rss() - before < 200 << 20  # the referee did not buffer the unasked stream
    assert arena.result.seats[0].decisions > 0


def test_a_socket_swapped_for_a_link_at_start_is_never_followed(arena):
    arena.play("socket_swap_start", TimeControl(startup=4, decision=1.0, bank=20.0, max_strikes=3))
    check_contained(arena, "socket_swap_start")
    assert arena.fault_kinds() == ["startup"]
    assert "link" in arena.result.seats[0].faults[0].detail


def test_a_socket_swapped_for_a_link_mid_game_is_never_followed(arena):
    arena.play("socket_swap_later", rules=make_rules("classic", {"turn_limit": 20}))
    reports = check_contained(arena, "socket_swap_later")
    assert reports["socket swapped for a link"].startswith("ok")
    assert arena.result.seats[0].out in ("crash", "protocol", "timeout")


def test_children_left_behind_do_not_outlive_the_game(arena):
    arena.play("leave_children")
    reports = check_contained(arena, "leave_children")
    assert reports["daemon"] == "left behind"
    assert arena.fault_kinds() == []


# ------------------------------------------------------------------------------ the ceiling
def mem_available() -> int:
    return kib_field("/proc/meminfo", "MemAvailable:")


class MemorySampler:
    """The lowest MemAvailable of the machine seen while it runs (sampled in a thread)."""

    def __init__(self) -> None:
        self.before = mem_available()
        self.lowest = self.before
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.wait(0.005):
            self.lowest = min(self.lowest, mem_available())

    def __enter__(self) -> MemorySampler:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()


@pytest.mark.parametrize("cgroups", ["auto", "off"], ids=["cgroups", "watcher"])
def test_twenty_children_of_900_mb_meet_the_bots_memory_ceiling(arena, monkeypatch, cgroups):
    """All processes of a bot together stay below its ceiling (1 GiB): 20 children touching
    900 MB each end with a ``memory`` fault, and the machine's available memory never drops
    by more than the ceiling plus a margin (for the other programs of this machine)."""
    monkeypatch.setenv("HEGEMON_CGROUPS", cgroups)
    # per process: room for 900 MB each; tasks enough that the memory ceiling, not the process
    # limit, is what stops the children (gRPC's fork handlers give each child threads of its own)
    limits = SandboxLimits(memory_bytes=2 << 30, processes=1024)
    time_control = TimeControl(startup=15, decision=5.0, bank=60.0)
    with MemorySampler() as memory:
        arena.play("memory_fork", time_control, sandbox=limits)
    check_contained(arena, "memory_fork")
    hostile = arena.hostile_bot("memory_fork")
    fault = hostile.limit_fault()
    assert fault is not None and fault[0] == "memory", fault
    seat = arena.result.seats[0]
    assert seat.out == "memory", seat.faults
    assert "memory" in seat.faults[-1].kind + seat.faults[-1].detail, seat.faults
    dropped = memory.before - memory.lowest
    assert dropped < limits.total_memory_bytes + (1 << 30), f"{dropped >> 20} MiB"


def test_ten_background_spinners_take_nothing_from_the_opponents(arena, monkeypatch):
    """A bot whose ten children spin while it is not deciding: frozen between its decisions,
    they get no CPU time then; the opponents' decisions cost the CPU time they cost against a
    quiet bot that plays the same moves, and they get no strike."""
    paused = []
    original_pause = process_module.BotProcess.pause

    def counting(self, soon=False):
        paused.append(self.command.name)
        original_pause(self, soon)

    monkeypatch.setattr(process_module.BotProcess, "pause", counting)
    rules = make_rules("classic", {"turn_limit": 100})
    opponents = ("random", "random")
    quiet = [decision_cpu(arena, monkeypatch, "quiet", rules, opponents)]
    assert paused, "the runner froze no bot between its decisions"
    spinning = decision_cpu(arena, monkeypatch, "spinners", rules, opponents)
    check_contained(arena, "spinners")
    started = re.match(r"(\d+) started", arena.reports("spinners")["spinners"])
    assert started is not None and int(started.group(1)) >= 5, arena.reports("spinners")
    hostile = arena.hostile_bot("spinners")
    assert hostile.ceiling.cpu_while_paused < 0.1, hostile.ceiling.cpu_while_paused
    for seat in arena.result.seats[1:]:
        assert seat.faults == [] and seat.strikes == 0, seat
    # CPU time of the same work still drifts with a shared machine's load: the spinners' game
    # is compared with quiet games played before and after it
    quiet.append(decision_cpu(arena, monkeypatch, "quiet", rules, opponents))
    # (measured here: within 0-15% of the quiet games, about the spread of quiet games among
    # themselves on a shared machine; cache effects of the thawed spinners remain, stolen CPU
    # time does not, as cpu_while_paused shows; the bound leaves room for that noise). Theft
    # would make the opponents' decisions dearer: only that side is bounded tightly. Cheaper
    # is no harm (the count includes the bots' idle wake-ups, fewer in a game that ran
    # quicker: a CI run saw 23% cheaper); the floor only shows the measurement is real.
    # Dearer by up to 29% was measured at load 4-6 on this code and on 889e58c's alike, and
    # 26% in a loaded run: the bound is 1.5 (a few tenths of a millisecond a decision).
    assert 0.5 * min(quiet) < spinning < 1.5 * max(quiet), (quiet, spinning)


def decision_cpu(arena, monkeypatch, mode, rules, opponents) -> float:
    """The opponents' CPU time per decision they answered, from their start on, in one game."""
    started: dict[int, float] = {}
    spent: dict[int, float] = {}
    original_stop = process_module.BotProcess.stop

    async def measuring_stop(self):
        key = id(self)
        if key in started:
            spent[key] = self.total_cpu_seconds() - started[key]
        await original_stop(self)

    original_wait = process_module.BotProcess.wait_for_socket

    async def measuring_wait(self, *args, **kwargs):
        address = await original_wait(self, *args, **kwargs)
        started[id(self)] = self.total_cpu_seconds()
        return address

    monkeypatch.setattr(process_module.BotProcess, "stop", measuring_stop)
    monkeypatch.setattr(process_module.BotProcess, "wait_for_socket", measuring_wait)
    first = len(arena.bots)
    arena.play(mode, rules=rules, opponents=opponents)
    bots = [b for b in arena.bots[first:] if not b.command.name.startswith("hostile-")]
    monkeypatch.setattr(process_module.BotProcess, "stop", original_stop)
    monkeypatch.setattr(process_module.BotProcess, "wait_for_socket", original_wait)
    assert len(bots) == 2
    # per decision answered: a game whose course differs (a strike, another die) asks more or
    # fewer decisions, which is not CPU taken from anybody
    answered = sum(seat.decisions for seat in arena.result.seats[1:])
    assert answered > 0
    return sum(spent[id(b)] for b in bots) / answered
