"""The sandbox every local bot runs in (referee/runner/sandbox/): what it binds, what a
process inside sees and may do, the uid pool, the loud rlimits fallback, the record header,
and that the sandbox dies with the referee."""

from __future__ import annotations

import functools
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

import pytest
import trio

from hegemon.leaderboard.botspec import resolve
from hegemon.referee.record import parse
from hegemon.referee.rules import make_rules
from hegemon.referee.runner import process as process_module
from hegemon.referee.runner import rundirs, sandbox
from hegemon.referee.runner.match import printable
from hegemon.referee.runner.process import BotCommand, BotProcess, spawn
from hegemon.referee.runner.sandbox import SandboxError, SandboxLimits
from hegemon.referee.runner.sandbox.ceiling import NPROC_SLACK
from hegemon.referee.runner.session import link_pool, play_game, play_one
from hegemon.referee.timecontrol import TimeControl
from tests.helpers.processes import boot_ticks, left_running

ROOT = Path(__file__).resolve().parent.parent.parent
NODE_BOT = ROOT / "sample_bots" / "node"
SHORT = make_rules("classic", {"turn_limit": 6})
FAST = TimeControl(startup=15, decision=1.0, bank=20.0, max_strikes=3)


def _require_bwrap(test):
    """Part of the suite, not optional: without bubblewrap such a test fails and says why."""

    @functools.wraps(test)
    def checked(*args, **kwargs):
        if sandbox.bwrap_path() is None:
            pytest.fail(
                "bubblewrap is not installed (or does not work here): apt-get install bubblewrap"
            )
        return test(*args, **kwargs)

    return checked


needs_bwrap = _require_bwrap
needs_root = pytest.mark.skipif(os.geteuid() != 0, reason="the uid pool needs root")


@pytest.fixture(scope="module")
def open_node_bot():
    """The Node.js sample bot copied (with its packages and the protocol) into a folder every
    uid may read: the fallback runs bots as pool uids, and the checkout itself may lie in a
    folder other users cannot enter. Yields the path of its ``bot.js``."""
    if not shutil.which("node") or not (NODE_BOT / "node_modules").is_dir():
        pytest.fail("node or the Node.js bot's packages are missing: run ./scripts/test")
    top = Path(tempfile.mkdtemp(prefix="hegemon-open-node-"))
    try:
        top.chmod(0o755)
        shutil.copytree(ROOT / "protos", top / "protos")
        shutil.copytree(NODE_BOT, top / "sample_bots" / "node", symlinks=True)
        for path in [top, *top.rglob("*")]:
            path.chmod(0o755 if path.is_dir() else 0o644)
        yield top / "sample_bots" / "node" / "bot.js"
    finally:
        shutil.rmtree(top, ignore_errors=True)


PROBE = textwrap.dedent("""
    import json, os, resource, socket, sys
    out = {}
    def attempt(name, f):
        try:
            out[name] = ["ok", repr(f())[:3000]]
        except BaseException as exc:
            out[name] = ["error", f"{type(exc).__name__}: {exc}"]
    attempt("ids", lambda: (os.getuid(), os.geteuid(), os.getgid(), os.getgroups()))
    attempt("pids", lambda: sorted(int(p) for p in os.listdir("/proc") if p.isdigit()))
    attempt("limits", lambda: [resource.getrlimit(getattr(resource, "RLIMIT_" + r))
                               for r in ("AS", "NPROC", "NOFILE", "FSIZE", "CPU", "CORE")])
    attempt("status", lambda: [l for l in open("/proc/self/status").read().splitlines()
                               if l.startswith(("CapEff", "CapBnd", "NoNewPrivs", "Seccomp:"))])
    attempt("env", lambda: dict(os.environ))
    attempt("cwd", lambda: os.getcwd())
    attempt("root", lambda: sorted(os.listdir("/")))
    attempt("project", lambda: sorted(os.listdir(%(project)r)))
    attempt("write /", lambda: open("/x", "w"))
    attempt("write /tmp", lambda: open("/tmp/x", "w").write("x"))
    attempt("hostname", lambda: socket.gethostname())
    attempt("tcp", lambda: socket.create_connection(("127.0.0.1", 9), timeout=1))
    attempt("import sdk", lambda: __import__("hegemon.sdk").__name__)
    attempt("import leaderboard", lambda: __import__("hegemon.leaderboard").__name__)
    print("PROBE " + json.dumps(out), flush=True)
""") % {"project": str(ROOT)}


def probe(
    tmp_path: Path, limits: SandboxLimits | None = None, mode: str | None = None, env: tuple = ()
) -> tuple[dict, BotProcess]:
    """Run PROBE as a sandboxed bot (from its own folder) and return what it saw."""
    folder = tmp_path / "probe-bot"
    folder.mkdir(exist_ok=True)
    (folder / "bot.py").write_text(PROBE)
    command = BotCommand(
        "probe", (sys.executable, str(folder / "bot.py")), cwd=str(folder), env=env
    )

    async def run() -> tuple[dict, BotProcess]:
        bot = await spawn(command, limits=limits, mode=mode)
        try:
            assert bot.process is not None, "a spawned bot has a process"
            with trio.fail_after(30):
                await bot.process.wait()
            text = await trio.Path(bot.log_path).read_text()
        finally:
            await bot.stop()
        line = next((ln for ln in text.splitlines() if ln.startswith("PROBE ")), None)
        assert line is not None, text
        return json.loads(line[len("PROBE ") :]), bot

    return trio.run(run)


# ------------------------------------------------------------------------------ the plan
def test_private_folders_are_never_bound_whole(tmp_path, monkeypatch):
    home = tmp_path / "home"
    bot = home / "bots" / "abc" / "bot.py"
    bot.parent.mkdir(parents=True)
    bot.write_text("pass\n")
    monkeypatch.setenv("HEGEMON_HOME", str(home))
    plan = sandbox.bind_plan((sys.executable, str(bot)), str(bot.parent))
    assert bot.parent.resolve() in plan.read_only
    assert not any(p == home.resolve() or p in home.resolve().parents for p in plan.read_only)
    # a bot file lying right in a folder that holds the data: only the file is visible
    loose = tmp_path / "bot.py"
    loose.write_text("pass\n")
    plan = sandbox.bind_plan((sys.executable, str(loose)), None)
    assert loose.resolve() in plan.read_only and tmp_path.resolve() not in plan.read_only
    assert plan.notes
    plan = sandbox.bind_plan((sys.executable, str(loose)), str(tmp_path))
    assert tmp_path.resolve() not in plan.read_only


def test_a_python_bot_sees_the_interpreter_and_the_sdk_but_not_the_referee():
    plan = sandbox.bind_plan((sys.executable, "-m", "hegemon.sample_bots.random"), None)
    shown = {str(p) for p in plan.read_only}
    assert str(Path(sys.base_prefix).resolve()) in shown
    for package in ("sdk", "referee", "sample_bots"):
        assert (
            str((ROOT / package).resolve()) in shown
            or Path(sys.prefix).resolve().as_posix() in shown
        )
    assert str((ROOT / "leaderboard").resolve()) not in shown
    assert str(ROOT.resolve()) not in shown and str(Path.home().resolve()) not in shown


def test_a_bot_environment_holds_nothing_of_the_referees(monkeypatch):
    monkeypatch.setenv("HEGEMON_DB", "postgresql://arena:s3cret@localhost/arena")
    env = sandbox.bot_env((("MY_SETTING", "1"),), "unix:/tmp/x.sock", SandboxLimits())
    assert "HEGEMON_DB" not in env and "s3cret" not in json.dumps(env)
    assert env["MY_SETTING"] == "1" and env["HEGEMON_BOT_ADDRESS"] == "unix:/tmp/x.sock"
    assert env["MALLOC_ARENA_MAX"] == "2"


def test_limits_are_validated():
    with pytest.raises(ValueError):
        SandboxLimits(processes=0)
    with pytest.raises(ValueError):
        SandboxLimits(memory_bytes=-1)
    assert "--nproc=64" in SandboxLimits().prlimit_args()


def test_fault_details_are_made_printable():
    assert printable("a\x1b[2Jb\nc\u202ed[/bold]") == "a [2Jb c d[/bold]"


# ------------------------------------------------------------------------------ inside
@needs_bwrap
def test_inside_the_sandbox(tmp_path, monkeypatch):
    monkeypatch.setenv("REFEREE_SECRET", "do-not-leak")
    limits = SandboxLimits(
        memory_bytes=900 << 20, processes=50, open_files=200, file_bytes=8 << 20, cpu_seconds=30
    )
    seen, bot = probe(tmp_path, limits, env=(("GIVEN", "yes"),))
    assert bot.sandbox == "bubblewrap"
    uid, euid, gid, groups = eval(seen["ids"][1])
    if os.geteuid() == 0:
        assert uid == euid == gid == bot.uid and uid >= sandbox.UID_BASE and groups == []
    assert eval(seen["pids"][1]) == [1, 2]  # its own PID namespace
    # where the pids cgroup counts the bot's tasks, RLIMIT_NPROC (per uid, kernel-wide) is a
    # backstop above it, so the cgroup's limit is the one a fork meets and the ceiling sees
    nproc = 2 * 50 + NPROC_SLACK if sandbox.cgroups.places().get("pids") else 50
    assert eval(seen["limits"][1]) == [
        (900 << 20, 900 << 20),
        (nproc, nproc),
        (200, 200),
        (8 << 20, 8 << 20),
        (30, 35),
        (0, 0),
    ]
    status = seen["status"][1]
    assert "CapEff:\\t0000000000000000" in status and "NoNewPrivs:\\t1" in status
    assert "Seccomp:\\t2" in status, "seccomp is off: install pyseccomp"
    env = eval(seen["env"][1])
    assert "REFEREE_SECRET" not in env and env["GIVEN"] == "yes"
    assert env["HEGEMON_BOT_ADDRESS"].startswith("unix:/tmp/")
    assert seen["cwd"][1] == repr(str((tmp_path / "probe-bot").resolve()))
    assert "home" not in seen["root"][1]
    assert set(eval(seen["project"][1])) <= {
        ".venv",
        "env",  # the learning environment's encoder, which a PolicyBot plays through
        "hegemon",
        "protos",
        "referee",
        "sample_bots",
        "sdk",
    }
    assert seen["write /"][0] == "error" and "Read-only" in seen["write /"][1]
    assert seen["write /tmp"][0] == "ok"
    assert seen["hostname"][1] == "'hegemon-bot'"
    assert seen["tcp"][0] == "error"
    assert seen["import sdk"][0] == "ok" and seen["import leaderboard"][0] == "error"


def test_seccomp_filter_is_available():
    """pyseccomp (and libseccomp) must be installed: the filter is part of the sandbox."""
    assert sandbox.seccomp_program(), f"seccomp unavailable: {sandbox.seccomp_status()}"


@needs_root
def test_each_running_bot_gets_its_own_uid():
    leases = [sandbox.lease_uid() for _ in range(4)]
    try:
        uids = [lease.uid for lease in leases]
        assert len(set(uids)) == 4
        assert all(sandbox.UID_BASE <= u < sandbox.UID_BASE + sandbox.UID_COUNT for u in uids)
    finally:
        for lease in leases:
            lease.release()
    again = sandbox.lease_uid()
    again.release()
    assert again.uid in uids or again.uid < min(uids)


@needs_root
def test_a_uid_in_use_by_a_process_is_skipped():
    lease = sandbox.lease_uid()
    uid = lease.uid
    lease.release()
    stray = subprocess.Popen(["sleep", "30"], user=uid, group=uid, extra_groups=[])
    try:
        other = sandbox.lease_uid()
        other.release()
        assert other.uid != uid
    finally:
        stray.kill()
        stray.wait()


@needs_bwrap
def test_the_record_header_names_the_sandbox_and_bots_get_distinct_uids(monkeypatch):
    started = []
    original = process_module.spawn

    async def spying(command, *args, **kwargs):
        bot = await original(command, *args, **kwargs)
        started.append(bot)
        return bot

    monkeypatch.setattr("hegemon.referee.runner.link.spawn", spying)
    result = trio.run(
        play_one, [resolve("random"), resolve("aggressive"), resolve("random")], SHORT, 3, FAST
    )
    header = parse(result.record)[0]
    assert header["sandbox"] == "bubblewrap"
    assert result.faults == []
    if os.geteuid() == 0:
        assert len({b.uid for b in started}) == 3


def uids_of(pids) -> set[int]:
    """The real, effective and saved uids of the processes ``pids`` (those still running)."""
    found: set[int] = set()
    for pid in pids:
        try:
            with open(f"/proc/{pid}/status") as f:
                line = next(line for line in f if line.startswith("Uid:"))
            found.update(int(x) for x in line.split()[1:4])
        except (OSError, StopIteration):
            continue
    return found


def test_the_rlimits_fallback_says_so_in_the_record_and_never_runs_as_root(
    monkeypatch, open_node_bot
):
    """The fallback runs the Node.js bot (its files are open to every uid) as pool uids, with
    seccomp, and says ``rlimits`` in the record; no bot process has uid 0."""
    monkeypatch.setenv("HEGEMON_SANDBOX", "rlimits")
    seen: list[tuple[int | None, set[int], list[str]]] = []
    original = process_module.BotProcess.wait_for_socket

    async def spying(self, *args, **kwargs):
        address = await original(self, *args, **kwargs)
        pids = self.ceiling.pids()
        status = [await trio.Path(f"/proc/{pid}/status").read_text() for pid in pids]
        seen.append((self.uid, uids_of(pids), status))
        return address

    monkeypatch.setattr(process_module.BotProcess, "wait_for_socket", spying)
    node = [resolve(str(open_node_bot)) for _ in range(3)]
    result = trio.run(play_one, node, SHORT, 3, FAST)
    assert parse(result.record)[0]["sandbox"] == "rlimits"
    assert result.faults == []
    assert len(seen) == 3
    for uid, uids, statuses in seen:
        for status in statuses:
            assert "Seccomp:\t2" in status and "NoNewPrivs:\t1" in status
        if os.geteuid() == 0:
            assert uid is not None and uids == {uid} and uid >= sandbox.UID_BASE, (uid, uids)


@needs_root
def test_the_fallback_refuses_a_bot_no_pool_uid_can_read(tmp_path, monkeypatch):
    """Never as root: a bot whose files are closed to other users is refused with one line
    saying how to fix it (before: it ran as root with a warning)."""
    monkeypatch.setenv("HEGEMON_SANDBOX", "rlimits")
    private = tmp_path / "private"
    private.mkdir(mode=0o700)
    (private / "bot.js").write_text("process.exit(0)\n")
    node = subprocess.run(["which", "node"], capture_output=True, text=True).stdout.strip()

    async def start() -> None:
        await spawn(BotCommand("x", (node, str(private / "bot.js")), cwd=str(private)))

    with pytest.raises(SandboxError) as refused:
        trio.run(start)
    message = str(refused.value)
    assert "\n" not in message and "bubblewrap" in message and "chmod o+rx" in message
    closed = Path(message.rsplit("chmod o+rx ", 1)[1].rstrip(")"))
    assert closed in (private, *private.parents), message


def test_without_bubblewrap_the_fallback_is_announced_on_the_cli(tmp_path, open_node_bot):
    """``hegemon play`` on a machine without bwrap: a WARNING line, the game still plays, and
    the record says ``rlimits``."""
    fake_path = Path(tempfile.mkdtemp(prefix="hegemon-nobwrap-"))  # open to the pool uids
    fake_path.chmod(0o755)
    for tool in ("prlimit", "setpriv", "node"):
        found = subprocess.run(["which", tool], capture_output=True, text=True).stdout.strip()
        if found:
            (fake_path / tool).symlink_to(found)
    record = tmp_path / "game.jsonl"
    env = {k: v for k, v in os.environ.items() if k != "HEGEMON_SANDBOX"}
    env["PATH"] = str(fake_path)  # no bwrap on it
    out = subprocess.run(
        [
            sys.executable,
            "-c",
            "from hegemon.leaderboard.cli import main; main()",
            "play",
            "--bot",
            str(open_node_bot),
            "--bot",
            str(open_node_bot),
            "--bot",
            str(open_node_bot),
            "--seed",
            "3",
            "--set",
            "turn_limit=5",
            "--record",
            str(record),
            "--quiet",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )
    shutil.rmtree(fake_path, ignore_errors=True)
    assert out.returncode == 0, out.stderr
    assert "WARNING" in out.stderr and "bubblewrap" in out.stderr
    assert json.loads(record.read_text().splitlines()[0])["sandbox"] == "rlimits"


def test_bubblewrap_required_but_missing_refuses_to_start(monkeypatch):
    monkeypatch.setattr(sandbox.mode, "bwrap_path", lambda: None)
    monkeypatch.setenv("HEGEMON_SANDBOX", "bubblewrap")

    async def start() -> None:
        await spawn(BotCommand("x", (sys.executable, "-c", "pass")))

    with pytest.raises(SandboxError, match="bubblewrap"):
        trio.run(start)


def test_an_unknown_sandbox_mode_is_refused(monkeypatch):
    monkeypatch.setenv("HEGEMON_SANDBOX", "chroot")
    with pytest.raises(SandboxError, match="HEGEMON_SANDBOX"):
        sandbox.resolve_mode()


def test_a_process_that_used_half_its_cpu_is_not_reused(monkeypatch):
    spawned = []
    original = process_module.spawn

    async def counting(command, *args, **kwargs):
        bot = await original(command, *args, **kwargs)
        spawned.append(bot)
        return bot

    monkeypatch.setattr("hegemon.referee.runner.link.spawn", counting)
    monkeypatch.setattr(process_module.BotProcess, "worn_out", property(lambda self: True))
    commands = [resolve("random"), resolve("random"), resolve("random")]

    async def two_games() -> None:
        async with link_pool(FAST) as pool:
            for n in range(2):
                await play_game(pool, commands, SHORT, seed=n, game_id=f"g{n}")

    trio.run(two_games)
    assert len(spawned) == 6


def test_cpu_seconds_are_measured():
    async def run() -> float:
        bot = await spawn(
            BotCommand(
                "burn",
                (
                    sys.executable,
                    "-c",
                    "import time\nt=time.process_time()\n"
                    "while time.process_time()-t < 1.5: pass\n"
                    "time.sleep(30)",
                ),
            )
        )
        try:
            with trio.fail_after(20):
                while bot.cpu_seconds() < 1.2:  # noqa: ASYNC110 - the bot's CPU, not ours
                    await trio.sleep(0.1)
            return bot.cpu_seconds()
        finally:
            await bot.stop()

    assert trio.run(run) >= 1.2


# ------------------------------------------------------------------------------ dying together
REFEREE = textwrap.dedent("""
    import json, os, sys, trio
    from hegemon.referee.rules import make_rules
    from hegemon.referee.runner import process
    from hegemon.leaderboard.botspec import resolve
    from hegemon.referee.timecontrol import TimeControl
    from hegemon.referee.runner.session import play_one

    original = process.BotProcess.wait_for_socket

    async def announce(self, *args, **kwargs):
        address = await original(self, *args, **kwargs)
        host = os.stat("/proc/self/ns/pid").st_ino
        ns = {os.stat(f"/proc/{pid}/ns/pid").st_ino for pid in self.ceiling.pids()} - {host}
        print(json.dumps({"pid": self.process.pid, "uid": self.uid, "ns": sorted(ns)}),
              flush=True)
        if sys.argv[2] == "frozen":
            self.pause()  # as between its decisions
        return address

    process.BotProcess.wait_for_socket = announce
    commands = [resolve(sys.argv[1]), resolve(sys.argv[1]), resolve(sys.argv[1])]
    trio.run(play_one, commands, make_rules("classic"), 1,
             TimeControl(startup=20, decision=5, bank=600))
""")


@needs_bwrap
@pytest.mark.parametrize(
    "mode,state", [("bubblewrap", "running"), ("rlimits", "running"), ("bubblewrap", "frozen")]
)
def test_the_sandboxes_die_with_the_referee(tmp_path, mode, state, open_node_bot):
    """SIGKILL the referee mid-game: --die-with-parent and the PID namespace take every bot
    down with it (nothing of them is left running) — under the fallback too, where the bot's
    wrapper dies with the referee and the bot's PID namespace with the wrapper (the pool uids
    are not checked: once free, another referee of this machine may use them). The fallback
    runs the Node.js bot (a pool uid can read its files; never root). Frozen bots (as between
    their decisions) die too: a cgroup v1 freezer holds back even SIGKILL, so a guard thaws
    them when the referee dies."""
    referee = subprocess.Popen(
        [
            sys.executable,
            "-c",
            REFEREE,
            "random" if mode == "bubblewrap" else str(open_node_bot),
            state,
        ],
        env={**os.environ, "HEGEMON_SANDBOX": mode},
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        cwd=ROOT,
    )
    assert referee.stdout is not None  # piped
    bots = []
    try:
        for _ in range(3):
            line = referee.stdout.readline()
            assert line, "the referee ended before its bots started"
            bots.append(json.loads(line))
        time.sleep(0.5)
        assert referee.poll() is None
        killed = boot_ticks()  # namespaces reused after this (by another worker) are not its
        os.kill(referee.pid, signal.SIGKILL)
        referee.wait(10)
    finally:
        if referee.poll() is None:
            referee.kill()
            referee.wait()
        referee.stdout.close()
    namespaces = {ns for b in bots for ns in b["ns"]}
    assert len(namespaces) == 3, bots  # each bot in a PID namespace of its own
    deadline = time.monotonic() + 10
    while True:
        left: list[object] = [*left_running(dict.fromkeys(namespaces, killed), {})]
        for bot in bots:
            try:
                os.kill(bot["pid"], 0)
                left.append(bot["pid"])
            except ProcessLookupError:
                pass
        if not left or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    assert not left, f"bot processes outlived the referee: {left}"


# A referee that starts one bot (as its runner does: sandbox, cgroups, ceiling) and dies the
# instant the start returns, while bwrap is still setting the sandbox up
DIES_AT_ONCE = textwrap.dedent("""
    import os, sys, trio
    from hegemon.referee.runner.process import BotCommand, spawn

    async def main():
        argv = (sys.executable, "-c", "import time; time.sleep(120)", sys.argv[1])
        bot = await spawn(BotCommand("sleeper", argv))
        print(bot.rundir, flush=True)
        os._exit(0)

    trio.run(main)
""")


@needs_bwrap
def test_a_referee_dead_while_its_bot_starts_leaves_nothing_behind():
    """The referee may die between forking a bot and bwrap arming --die-with-parent, in its
    first process or in the sandbox's PID 1 (a runner killed as a game starts): nothing of the
    bot may live on. (The chaos test caught such bots alive after their runner's SIGKILL.)
    setpriv arms the signal before bwrap runs, and where the referee has cgroups its guard
    kills whatever is in its bots' cgroups once it is dead."""
    token = f"hegemon-orphan-test-{os.getpid()}-{time.monotonic_ns()}"  # on every command line
    survivors: list[int] = []
    for _ in range(5):  # the race is won or lost each time; every round must leave nothing
        referee = subprocess.run(
            [sys.executable, "-c", DIES_AT_ONCE, token], capture_output=True, text=True, cwd=ROOT
        )
        assert referee.returncode == 0, referee.stderr
        deadline = time.monotonic() + 10
        while (left := _carrying(token)) and time.monotonic() < deadline:
            time.sleep(0.05)
        shutil.rmtree(referee.stdout.strip(), ignore_errors=True)
        survivors += left
        for pid in left:
            os.kill(pid, signal.SIGKILL)
    assert not survivors, f"bots outlived a referee that died as they started: {survivors}"


def test_run_folders_a_killed_referee_left_are_swept_by_the_next(tmp_path, monkeypatch):
    """A referee killed mid-game cannot remove its bots' run folders (log, socket): the next
    referee to start a bot removes those of referees no longer running, and only those (not a
    live referee's, not a file, not what a link points to)."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    monkeypatch.setattr(rundirs, "_swept", set())
    gone = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        capture_output=True,
        text=True,
        check=True,
    )
    dead = int(gone.stdout)  # a pid that has just ended (reused so soon, it is only kept)
    stale = tmp_path / f"{rundirs.PREFIX}{dead}-abc"
    (stale / "sock").mkdir(parents=True)
    (stale / "bot-1.log").write_text("the killed referee's bot\n")
    live = tmp_path / f"{rundirs.PREFIX}{os.getpid()}-def"
    live.mkdir()
    kept_file = tmp_path / f"{rundirs.PREFIX}{dead}-file"
    kept_file.write_text("not a run folder")
    target = tmp_path / "elsewhere"
    target.mkdir()
    (target / "precious").write_text("x")
    (tmp_path / f"{rundirs.PREFIX}{dead}-link").symlink_to(target)
    fresh = rundirs.make()
    assert fresh.parent == tmp_path and fresh.name.startswith(f"{rundirs.PREFIX}{os.getpid()}-")
    assert not stale.exists() or Path(f"/proc/{dead}").exists()
    assert live.is_dir() and kept_file.is_file() and (target / "precious").is_file()
    assert oct(fresh.stat().st_mode & 0o777) == "0o700"
    again = tmp_path / f"{rundirs.PREFIX}{dead}-ghi"
    again.mkdir()
    rundirs.make()  # one sweep per process and temporary directory: start-up cost only once
    assert again.is_dir()


def _carrying(token: str) -> list[int]:
    """The live processes (not zombies nobody reaps) with ``token`` on their command line:
    bwrap (which forks away from the process the referee started) and the bot itself."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                if token.encode() not in f.read():
                    continue
            with open(f"/proc/{entry}/stat", encoding="utf-8", errors="replace") as f:
                if f.read().rsplit(")", 1)[1].split()[0] != "Z":
                    found.append(int(entry))
        except (OSError, IndexError):
            continue
    return found


LISTENER = textwrap.dedent("""
    import os, socket, sys
    path = sys.argv[sys.argv.index("--address") + 1][len("unix:"):]
    s = socket.socket(socket.AF_UNIX)
    s.bind(path)
    os.chmod(path, 0o777)
    s.listen(1)
    print("listening", flush=True)
    conn, _ = s.accept()
    conn.recv(100)
    conn.sendall(b"x")
    conn.recv(100)
""")

CLIENT = textwrap.dedent("""
    import os, socket, stat, sys
    base = os.open(f"/proc/{sys.argv[1]}/root", os.O_PATH | os.O_DIRECTORY)
    for part in ("tmp", "hegemon-bot"):
        base = os.open(part, os.O_PATH | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=base)
    fd = os.open("bot.sock", os.O_PATH | os.O_NOFOLLOW, dir_fd=base)
    assert stat.S_ISSOCK(os.fstat(fd).st_mode)
    s = socket.socket(socket.AF_UNIX)
    s.connect(f"/proc/self/fd/{fd}")
    s.sendall(b"PRI * HTTP/2.0\\r\\n\\r\\nSM\\r\\n\\r\\n")
    print("connected", len(s.recv(100)) > 0)
""")


@needs_bwrap
@needs_root
def test_an_unprivileged_referee_gets_a_user_namespace_sandbox(tmp_path, monkeypatch):
    """A referee that is not root cannot switch uids: bwrap then makes a user namespace (and
    forbids nested ones). Checked with a bot of the system Python's standard library in a
    folder open to every uid (the checkout itself may lie in a folder other users cannot
    enter), run as an ordinary uid, and that uid reaching the bot's socket the referee's way
    (through /proc/<pid>/root, no links followed)."""
    folder = Path(tempfile.mkdtemp(prefix="hegemon-userns-"))
    folder.chmod(0o755)
    (folder / "bot.py").write_text(LISTENER)
    (folder / "bot.py").chmod(0o644)
    # the unprivileged referee's own checkout is one it can read: here, the open folder
    monkeypatch.setattr(sandbox.binds, "project_root", lambda: folder)
    user = sandbox.UID_BASE + sandbox.UID_COUNT - 1
    launch = sandbox.bubblewrap_launch(
        ("/usr/bin/python3", str(folder / "bot.py")), str(folder), (), SandboxLimits(), None
    )
    assert "--unshare-user" in launch.argv and "--disable-userns" in launch.argv
    info_fd = launch.info_fd
    assert info_fd is not None, "bubblewrap reports the sandbox's pid on a pipe"
    log = tmp_path / "node.log"
    with open(log, "wb") as out:
        bwrap = subprocess.Popen(
            launch.argv,
            env=launch.env,
            cwd="/",
            stdout=out,
            stderr=out,
            pass_fds=launch.pass_fds,
            user=user,
            group=user,
            extra_groups=[],
            start_new_session=True,
        )
    launch.close_parent_fds()
    try:
        data = b""
        while chunk := os.read(info_fd, 4096):
            data += chunk
        pid = json.loads(data)["child-pid"]
        deadline = time.monotonic() + 20
        while "listening" not in log.read_text() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert "listening" in log.read_text(), log.read_text()
        client = subprocess.run(
            ["/usr/bin/python3", "-c", CLIENT, str(pid)],
            user=user,
            group=user,
            extra_groups=[],
            capture_output=True,
            text=True,
            timeout=30,
        )
        assert client.stdout.strip() == "connected True", client.stderr
    finally:
        os.close(info_fd)
        os.killpg(bwrap.pid, signal.SIGKILL)
        bwrap.wait()
        shutil.rmtree(folder, ignore_errors=True)
