"""The rlimits fallback isolates a bot's files too, or nothing starts: an unprivileged referee's
bot (same uid as the referee) sees only its tree, ``hegemon doctor`` names the mechanism in
force, and where no namespace can be made ``play`` and ``season run`` refuse with one line.

"No namespace can be made" is a real such place: an unprivileged uid in a user namespace that
forbids nested ones (bubblewrap's ``--disable-userns``), the whole file system visible."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hegemon.leaderboard.cli import app as APP
from hegemon.leaderboard.registry import add_bot
from hegemon.leaderboard.store import Store
from hegemon.referee.runner import sandbox
from hegemon.referee.runner.sandbox import SandboxLimits

CLI = [sys.executable, "-c", "from hegemon.leaderboard.cli import main; main()"]
NOBODY = sandbox.UID_BASE + sandbox.UID_COUNT - 1  # an uid no account and no bot uses now


def without_namespaces(argv: list[str]) -> list[str]:
    """``argv`` run as an unprivileged uid that can make no namespace of any kind."""
    bwrap = sandbox.bwrap_path()
    if bwrap is None:
        pytest.fail(
            "bubblewrap is not installed (or does not work here): apt-get install bubblewrap"
        )
    ids = ["--uid", str(NOBODY), "--gid", str(NOBODY)]
    return [bwrap, "--unshare-user", "--disable-userns", *ids, "--dev-bind", "/", "/", *argv]


def cli(*args: str, mode: str = "auto", isolated: bool = True):
    argv = [*CLI, *args]
    return subprocess.run(
        argv if isolated else without_namespaces(["--", *argv]),
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "HEGEMON_SANDBOX": mode, "COLUMNS": "200"},
    )


def one_line_error(done: subprocess.CompletedProcess) -> str:
    lines = [ln for ln in done.stderr.splitlines() if ln.strip()]
    assert done.returncode == 2, done.stdout + done.stderr
    assert len(lines) == 1 and lines[0].startswith("error: "), done.stderr
    return lines[0]


# ------------------------------------------------------------------------------ hegemon doctor
@pytest.mark.parametrize(
    "mode, isolated, protection",
    [
        ("bubblewrap", True, "bots get bubblewrap isolation"),
        ("auto", True, "bots get bubblewrap isolation"),
        ("rlimits", True, "bots get the rlimits fallback's isolation (a fresh root"),
        ("rlimits", False, "bots get NONE: no bubblewrap and no private mount namespace"),
        ("auto", False, "bots get NONE: no bubblewrap and no private mount namespace"),
    ],
    ids=["bubblewrap", "auto", "rlimits", "rlimits-no-namespaces", "auto-no-namespaces"],
)
def test_the_doctor_names_the_mechanism_in_force(mode, isolated, protection):
    """Before, it said "bots get bubblewrap isolation" under HEGEMON_SANDBOX=rlimits too."""
    done = cli("doctor", mode=mode, isolated=isolated)
    last = done.stdout.splitlines()[-1]
    assert last.startswith(f"protection: {protection}"), done.stdout + done.stderr
    if not isolated:
        assert "seasons refuse to start" in last
        assert done.returncode == 1  # a failed check


# ------------------------------------------------------------------------------ refusals
def test_without_any_isolation_play_refuses_with_one_line():
    done = cli("play", "--bot", "random", "--bot", "random", "--bot", "random", isolated=False)
    line = one_line_error(done)
    assert "bots cannot be isolated here" in line and "install bubblewrap" in line, line
    assert "Traceback" not in done.stderr


def test_without_any_isolation_a_season_does_not_start(tmp_path, monkeypatch):
    monkeypatch.setenv("HEGEMON_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("HEGEMON_DB", raising=False)
    with Store() as store:
        for name in ("a", "b", "c"):
            add_bot(store, name, "random", check=False)
    args = ["season", "create", "s", "--bots", "a,b,c", "--players", "3", "--games", "3"]
    created = CliRunner().invoke(APP, args)
    assert created.exit_code == 0, created.output
    line = one_line_error(cli("season", "run", "s", mode="rlimits", isolated=False))
    assert "HEGEMON_SANDBOX=rlimits" in line and "no private mount namespace" in line, line
    with Store() as store:
        season = store.season_by_name("s")
        assert season is not None and season.id is not None
        progress = store.progress(season.id)
        assert progress.done == 0 and progress.total == 3, progress  # nothing was played


# ------------------------------------------------------------------------------ unprivileged
def as_nobody(launch: sandbox.Launch) -> dict:
    """How to start ``launch`` as an unprivileged referee would: as :data:`NOBODY`."""
    ids = {"user": NOBODY, "group": NOBODY, "extra_groups": []}
    return {**ids, "pass_fds": launch.pass_fds, "timeout": 60, "check": False}


PEEK = textwrap.dedent("""
    import json, os
    out = {}
    def attempt(name, f):
        try:
            out[name] = "ok " + repr(f())[:200]
        except BaseException as exc:
            out[name] = f"{type(exc).__name__}: {exc}"
    secret = os.environ["PEEK_SECRET"]
    attempt("read the referee's database", lambda: open(secret).read())
    attempt("list the referee's folder", lambda: os.listdir(os.path.dirname(secret)))
    attempt("write /tmp", lambda: open("/tmp/" + os.environ["PEEK_MARK"], "w").write("x"))
    attempt("write its folder", lambda: open("pwned.txt", "w").write("x"))
    attempt("write a mount in its folder", lambda: open("mounted/pwned.txt", "w").write("x"))
    attempt("uid", os.getuid)
    print("PEEK " + json.dumps(out), flush=True)
""")


def test_an_unprivileged_referees_bot_sees_only_its_tree(tmp_path, monkeypatch):
    """A referee that is not root has no pool uid to give its bot: the bot runs as the
    referee's own uid, so only the fallback's fresh root (in a user namespace) keeps the
    referee's files from it. Run the way the runner starts it, as an ordinary uid, with a bot
    of the system Python's standard library in a folder open to every uid."""
    top = Path(tempfile.mkdtemp(prefix="hegemon-unprivileged-"))
    top.chmod(0o755)
    folder, arena, run = top / "bot", top / "arena", top / "run"
    folder.mkdir(mode=0o755)
    (folder / "bot.py").write_text(PEEK)
    (folder / "bot.py").chmod(0o644)
    secret = arena / "arena.db"
    for path in (arena, run, run / "sock", run / "root"):
        path.mkdir(mode=0o700)
        os.chown(path, NOBODY, NOBODY)
    secret.write_text("the season's secret seed")
    os.chown(secret, NOBODY, NOBODY)
    secret.chmod(0o600)  # the referee's own: a bot of the same uid could read it on the host
    mark = f"hegemon-unprivileged-{os.getpid()}-{time.monotonic_ns()}"
    # a writable file system mounted inside the bot's folder: the folder's read-only bind
    # must cover it too (a read-only remount is of one mount only, not of those below it)
    mounted = folder / "mounted"
    mounted.mkdir(mode=0o755)
    subprocess.run(["mount", "-t", "tmpfs", "-o", "mode=1777", "tmpfs", str(mounted)], check=True)
    # the unprivileged referee's own checkout is one it can read: here, the open folder
    monkeypatch.setattr(sandbox.binds, "project_root", lambda: top)
    launch = sandbox.rlimits_launch(
        ("/usr/bin/python3", str(folder / "bot.py")),
        str(folder),
        (("PEEK_SECRET", str(secret)), ("PEEK_MARK", mark)),
        SandboxLimits(),
        None,
        run / "sock" / "bot.sock",
        run / "root",
    )
    # the wrapper needs only the standard library: run it with a Python that uid can run
    argv = ["/usr/bin/python3", *launch.argv[1:]]
    log = tmp_path / "bot.log"
    try:
        with open(log, "wb") as out:
            done = subprocess.run(
                argv, env=launch.env, cwd=launch.cwd, stdout=out, stderr=out, **as_nobody(launch)
            )
        launch.close_parent_fds()
        text = log.read_text()
        assert done.returncode == 0, text
        line = next((ln for ln in text.splitlines() if ln.startswith("PEEK ")), None)
        assert line is not None, text
        seen = json.loads(line[len("PEEK ") :])
        assert seen["uid"] == f"ok {NOBODY}", seen  # the referee's own uid
        assert seen["read the referee's database"].startswith("FileNotFoundError"), seen
        assert seen["list the referee's folder"].startswith("FileNotFoundError"), seen
        assert seen["write its folder"].startswith("OSError"), seen  # read-only
        assert seen["write a mount in its folder"].startswith("OSError"), seen  # that too
        assert not (mounted / "pwned.txt").exists()
        assert seen["write /tmp"].startswith("ok"), seen  # its own /tmp ...
        assert not (Path(tempfile.gettempdir()) / mark).exists()  # ... not the host's
    finally:
        subprocess.run(["umount", str(mounted)], check=False)
        (Path(tempfile.gettempdir()) / mark).unlink(missing_ok=True)
        shutil.rmtree(top, ignore_errors=True)
