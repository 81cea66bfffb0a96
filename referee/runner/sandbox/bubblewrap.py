"""The bubblewrap launch: a bot in its own namespaces, seeing only its bind plan."""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
from collections.abc import Iterable, Sequence
from pathlib import Path

from .binds import SYSTEM_TOP, bind_plan
from .launch import Launch, bot_env, drop_privileges, prlimit
from .limits import SandboxLimits
from .mode import BUBBLEWRAP, SandboxError, bwrap_path
from .seccomp import data_fd, seccomp_program

INNER_SOCKET_DIR = "/tmp/hegemon-bot"  # inside the sandbox
SOCKET_NAME = "bot.sock"

ETC_FILES = (
    "ld.so.cache",
    "ld.so.conf",
    "ld.so.conf.d",
    "localtime",
    "timezone",
    "nsswitch.conf",
    "hosts",
    "host.conf",
    "gai.conf",
    "protocols",
    "services",
    "mime.types",
    "ssl",
    "ca-certificates",
    "alternatives",
    "os-release",
    "debian_version",
    "locale.alias",
    "java-17-openjdk",
    "java-21-openjdk",
)
_NAMESPACES = ["--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts"]


def _passwd_files(uid: int) -> tuple[bytes, bytes]:
    passwd = (
        f"root:x:0:0:root:/root:/usr/sbin/nologin\n"
        f"bot:x:{uid}:{uid}:hegemon bot:/tmp:/usr/sbin/nologin\n"
        f"nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n"
    )
    group = f"root:x:0:\nbot:x:{uid}:\nnogroup:x:65534:\n"
    return passwd.encode(), group.encode()


def _dirs_for(path: Path, made: set[str], args: list[str]) -> None:
    """``--dir`` for each missing ancestor of ``path`` with mode 0755 (bwrap would make them
    0700, which an unprivileged bot cannot enter)."""
    for parent in reversed(path.parents):
        text = str(parent)
        if text == "/" or text in made:
            continue
        made.add(text)
        args += ["--perms", "0755", "--dir", text]


def _system_args(made: set[str]) -> list[str]:
    args: list[str] = []
    for top in SYSTEM_TOP:
        host = Path("/") / top
        if host.is_symlink():
            args += ["--symlink", os.readlink(host), str(host)]
        elif host.is_dir():
            args += ["--ro-bind", str(host), str(host)]
        made.add(str(host))
    args += ["--perms", "0755", "--dir", "/etc"]
    made.add("/etc")
    for name in ETC_FILES:
        path = Path("/etc") / name
        if path.exists():
            args += ["--ro-bind", str(path), str(path)]
    return args


def _scratch_args(limits: SandboxLimits, made: set[str]) -> list[str]:
    """/proc, /dev and the private, size-limited /tmp and /dev/shm."""
    size = str(limits.tmp_bytes)
    made.update({"/proc", "/dev", "/tmp", INNER_SOCKET_DIR})
    return [
        *("--proc", "/proc", "--dev", "/dev"),
        *("--perms", "1777", "--size", size, "--tmpfs", "/dev/shm"),
        *("--perms", "1777", "--size", size, "--tmpfs", "/tmp"),
        *("--perms", "0777", "--dir", INNER_SOCKET_DIR),
    ]


# The referee may die after it forked a bot's first process but before bwrap set its own
# parent-death signal: bwrap would then start a bot that nothing ever stops. setpriv sets the
# signal first; the shell it execs checks that the referee is still its parent (if not, the
# death came first and the signal will never fire) and only then execs the rest.
_STILL_OURS = '[ "$PPID" = "$1" ] || exit 125; shift; exec "$@"'


@functools.cache
def _setpriv() -> str | None:
    """util-linux's setpriv, if it knows ``--pdeathsig`` (2.33 and later)."""
    found = shutil.which("setpriv")
    if found is None:
        return None
    try:
        usage = subprocess.run(
            [found, "--help"], check=False, capture_output=True, text=True, timeout=10
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return found if "--pdeathsig" in usage.stdout else None


def die_with_referee() -> list[str]:
    """A command-line prefix that kills what follows when this process (its forking thread)
    dies, from the first instant on; empty without a setpriv that can (bwrap's own
    --die-with-parent then acts a moment later)."""
    setpriv = _setpriv()
    if setpriv is None:
        return []
    check = ["/bin/sh", "-c", _STILL_OURS, "hegemon-parent", str(os.getpid())]
    return [setpriv, "--pdeathsig", "KILL", "--", *check]


def bubblewrap_launch(
    argv: Sequence[str],
    cwd: str | None,
    env_extra: Iterable[tuple[str, str]],
    limits: SandboxLimits,
    uid: int | None,
    share: Sequence[str] = (),
    prefix: Sequence[str] = (),
) -> Launch:
    """The bwrap command line for one bot (see :mod:`hegemon.referee.runner.sandbox`);
    ``prefix`` runs first, as the referee (it joins the bot's cgroups, then execs bwrap)."""
    bwrap = bwrap_path()
    if bwrap is None:
        raise SandboxError("bubblewrap is not available")
    plan = bind_plan(argv, cwd, share)
    inner_socket = f"{INNER_SOCKET_DIR}/{SOCKET_NAME}"
    address = f"unix:{inner_socket}"
    fds: list[int] = []
    args = [*die_with_referee(), *prefix, bwrap, *_NAMESPACES]
    args += ["--unshare-cgroup-try", "--hostname", "hegemon-bot"]
    args.append("--die-with-parent")
    if uid is None:
        # an unprivileged referee: bwrap makes a user namespace and forbids nested ones
        args += ["--unshare-user", "--disable-userns"]
    read, write = os.pipe()
    os.set_inheritable(write, False)
    fds.append(write)
    args += ["--info-fd", str(write)]
    made: set[str] = set()
    args += _system_args(made)
    passwd, group = _passwd_files(uid if uid is not None else os.getuid())
    for data, dest in ((passwd, "/etc/passwd"), (group, "/etc/group")):
        fd = data_fd(data)
        fds.append(fd)
        args += ["--perms", "0644", "--ro-bind-data", str(fd), dest]
    args += _scratch_args(limits, made)
    for paths, how in ((plan.read_only, "--ro-bind"), (plan.writable, "--bind")):
        for path in paths:
            _dirs_for(path, made, args)
            args += [how, str(path), str(path)]
            made.add(str(path))
    if plan.chdir not in made:
        _dirs_for(Path(plan.chdir) / "x", made, args)
    args += ["--remount-ro", "/", "--chdir", plan.chdir, "--clearenv"]
    for key, value in bot_env(env_extra, address, limits).items():
        args += ["--setenv", key, value]
    program = seccomp_program()
    if program is not None:
        fd = data_fd(program)
        fds.append(fd)
        args += ["--seccomp", str(fd)]
    args.append("--")
    if uid is not None:
        args += drop_privileges(uid)
    args += [*prlimit(limits), *argv, "--address", address]
    for fd in fds:
        os.set_inheritable(fd, False)  # pass_fds makes them inheritable in the child only
    return Launch(
        BUBBLEWRAP,
        args,
        {"PATH": os.environ.get("PATH", "/usr/bin:/bin")},
        "/",
        tuple(fds),
        address,
        tuple(Path(inner_socket).parts[1:]),
        uid,
        info_fd=read,
        seccomp=program is not None,
        notes=plan.notes,
    )
