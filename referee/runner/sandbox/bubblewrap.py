"""The bubblewrap launch: a bot in its own namespaces, seeing only its bind plan."""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
from collections.abc import Iterable, Sequence
from pathlib import Path

from .launch import Launch, bot_env, drop_privileges, prlimit
from .limits import SandboxLimits
from .mode import BUBBLEWRAP, SandboxError, bwrap_path
from .seccomp import data_fd, seccomp_program
from .tree import INNER_SOCKET_DIR, Step, bot_tree

SOCKET_NAME = "bot.sock"
_NAMESPACES = ["--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts"]


def _step_args(step: Step, fds: list[int]) -> list[str]:
    """bubblewrap's options for one step of the bot's tree (see :mod:`.tree`)."""
    if step.op in ("ro-bind", "bind"):
        return [f"--{step.op}", step.source, step.dest]
    if step.op == "symlink":
        return ["--symlink", step.source, step.dest]
    if step.op in ("proc", "dev"):
        return [f"--{step.op}", step.dest]
    perms = ["--perms", f"{step.perms:04o}"]
    if step.op == "dir":
        return [*perms, "--dir", step.dest]
    if step.op == "tmpfs":
        return [*perms, "--size", str(step.size), "--tmpfs", step.dest]
    assert step.op == "file", step
    fd = data_fd(step.data.encode())
    fds.append(fd)
    return [*perms, "--ro-bind-data", str(fd), step.dest]


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
    steps, plan = bot_tree(argv, cwd, share, limits, uid if uid is not None else os.getuid())
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
    for step in steps:
        args += _step_args(step, fds)
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
