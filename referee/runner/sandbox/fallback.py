"""The rlimits fallback (no bubblewrap): no namespaces, but the same guarantees otherwise —
a pool uid (never root), the per-process limits, seccomp, death with the referee and the
bot's ceiling — or no start at all.

A small wrapper, run with the referee's own interpreter before the bot, does in order: join the
bot's cgroups, die with the referee (``PR_SET_PDEATHSIG``), make a PID namespace and fork the
bot into it — then, as the pool uid and under seccomp too, stays as its supervisor, ending
as the bot ends. The
bot's side (pid 1 of that namespace: when it dies, the kernel kills every process in it)
sets the rlimits, drops to
the pool uid (no groups, so no capabilities), dies with the supervisor (the parent-death
signal set again after the uid change, which clears it), sets ``no_new_privs``, loads the
seccomp filter and execs the bot. So the referee's death takes down every process of the bot.
Where no PID namespace can be made, the fallback refuses to run.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path

from .binds import is_python, real
from .launch import Launch, bot_env
from .limits import SandboxLimits
from .mode import RLIMITS, SandboxError
from .seccomp import data_fd, seccomp_program
from .uids import unreadable_by_others

WRAPPER = """\
import ctypes, json, os, resource, signal, sys
spec, argv = json.loads(sys.argv[1]), sys.argv[2:]
def fail(what):
    sys.stderr.write("hegemon sandbox: " + what + "\\n"); sys.stderr.flush(); os._exit(126)
libc = ctypes.CDLL(None, use_errno=True)
for path in spec["cgroups"]:
    with open(path, "w") as f:
        f.write(str(os.getpid()))
if libc.prctl(1, 9, 0, 0, 0) != 0: fail("PR_SET_PDEATHSIG failed")
if os.getppid() != spec["parent"]: os._exit(1)
if libc.unshare(0x20000000) != 0 and libc.unshare(0x30000000) != 0:
    fail("no PID namespace here, so the bot could outlive the referee: install bubblewrap")
uid = spec["uid"]
def become(uid):
    os.setgroups([]); os.setresgid(uid, uid, uid); os.setresuid(uid, uid, uid)
    if os.getresuid() != (uid, uid, uid): fail("could not switch uid")
    if libc.prctl(1, 9, 0, 0, 0) != 0: fail("PR_SET_PDEATHSIG failed")
with os.fdopen(spec["seccomp"], "rb") as f:
    program = f.read()
class Prog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]
buf = ctypes.create_string_buffer(program, len(program))
prog = Prog(len(program) // 8, ctypes.addressof(buf))
def confine():
    if libc.prctl(38, 1, 0, 0, 0) != 0: fail("PR_SET_NO_NEW_PRIVS failed")
    if libc.prctl(22, 2, ctypes.byref(prog), 0, 0) != 0: fail("seccomp failed")
child = os.fork()
if child:
    if uid is not None:
        become(uid)
    confine()
    if os.getppid() != spec["parent"]: os.kill(child, 9); os._exit(1)
    while True:
        try:
            status = os.waitpid(child, 0)[1]
            break
        except InterruptedError:
            continue
    if os.WIFSIGNALED(status):
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        signal.signal(os.WTERMSIG(status), signal.SIG_DFL)
        os.kill(os.getpid(), os.WTERMSIG(status))
    os._exit(os.WEXITSTATUS(status) if os.WIFEXITED(status) else 1)
for name, soft, hard in spec["rlimits"]:
    resource.setrlimit(getattr(resource, "RLIMIT_" + name), (soft, hard))
if uid is not None:
    become(uid)
elif libc.prctl(1, 9, 0, 0, 0) != 0: fail("PR_SET_PDEATHSIG failed")
confine()
try:
    os.execvp(argv[0], argv)
except OSError as exc:
    fail(f"cannot run {argv[0]}: {exc}")
"""


def _needed_paths(argv: Sequence[str], cwd: str | None) -> list[Path]:
    """What a uid must be able to read to run ``argv`` in ``cwd``."""
    program = shutil.which(argv[0]) if argv else None
    paths = [Path(program)] if program else []
    if program and is_python(Path(program)):
        paths += [real(sys.base_prefix), real(sys.prefix), real(Path(__file__)).parents[3]]
    paths += [Path(a) for a in argv[1:] if Path(a).is_absolute() and Path(a).exists()]
    if cwd:
        paths.append(Path(cwd))
    return paths


def check_runnable(argv: Sequence[str], cwd: str | None) -> None:
    """Refuse (one line, with the fix) a bot no unprivileged uid can run without bubblewrap."""
    for path in _needed_paths(argv, cwd):
        closed = unreadable_by_others(path)
        if closed is not None:
            raise SandboxError(
                f"{argv[0]}: {closed} is closed to other users, so without bubblewrap no "
                f"unprivileged uid can run this bot (bots never run as root): install "
                f"bubblewrap (apt-get install bubblewrap) or open it (chmod o+rx {closed})"
            )


def rlimits_launch(
    argv: Sequence[str],
    cwd: str | None,
    env_extra: Iterable[tuple[str, str]],
    limits: SandboxLimits,
    uid: int | None,
    socket_path: Path,
    cgroups: Sequence[str] = (),
) -> Launch:
    """The fallback's command line: the wrapper (see the module docstring), then the bot.
    ``cgroups`` are the ``cgroup.procs`` files the bot joins first. Raises
    :class:`SandboxError` where a guarantee cannot hold (no seccomp, a bot a pool uid cannot
    read)."""
    program = seccomp_program()
    if program is None:
        raise SandboxError(
            "the rlimits fallback needs seccomp: install pyseccomp and libseccomp2, "
            "or install bubblewrap (apt-get install bubblewrap)"
        )
    if uid is not None:
        check_runnable(argv, cwd)
    address = f"unix:{socket_path}"
    fd = data_fd(program)
    spec = {
        "cgroups": list(cgroups),
        "rlimits": limits.rlimits(),
        "uid": uid,
        "parent": os.getpid(),
        "seccomp": fd,
    }
    wrapper = [sys.executable, "-I", "-S", "-c", WRAPPER, json.dumps(spec)]
    args = [*wrapper, *argv, "--address", address]
    env = bot_env(env_extra, address, limits)
    where = cwd or str(socket_path.parent)
    return Launch(RLIMITS, args, env, where, (fd,), address, (), uid, seccomp=True)
