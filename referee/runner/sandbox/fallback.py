"""The rlimits fallback (no bubblewrap): the same guarantees by other means — the tree a bot
sees under bubblewrap (:mod:`.tree`) as a fresh root in a private mount namespace, a pool uid
(never root), the per-process limits, seccomp, death with the referee and the bot's ceiling —
or no start at all.

A small wrapper, run with the referee's own interpreter before the bot, does in order: join the
bot's cgroups, die with the referee (``PR_SET_PDEATHSIG``), make mount, PID, network and IPC
namespaces (and a user namespace, mapping only its own uid, when the referee is not root) and
fork the bot into them — then, as the pool uid and under seccomp too, stays as its supervisor,
ending as the bot ends. The bot's side (pid 1 of that namespace: when it dies, the kernel kills
every process in it) builds the bot's tree on a tmpfs (read-only binds of system folders, the
bot's folder, the interpreter; its own /proc, a minimal /dev, a private /tmp), makes it the
root (``pivot_root``) and lets go of the host's, sets the rlimits, drops to the pool uid (no
groups, so no capabilities), dies with the supervisor (the parent-death signal set again after
the uid change, which clears it), sets ``no_new_privs``, loads the seccomp filter and execs the
bot. So the referee's death takes down every process of the bot, and the bot sees the files it
would see under bubblewrap and nothing else.
Where these namespaces cannot be made, the fallback refuses to run (:func:`.mode.fallback_problem`
says so before a season starts).
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path

from .binds import BindPlan, bind_plan, real
from .launch import Launch, bot_env
from .limits import SandboxLimits
from .mode import NAMESPACES, RLIMITS, SandboxError
from .seccomp import data_fd, seccomp_program
from .tree import bot_tree
from .uids import unreadable_by_others

WRAPPER = (
    """\
import ctypes, json, os, re, resource, signal, sys
spec, argv = json.loads(sys.argv[1]), sys.argv[2:]
def fail(what):
    sys.stderr.write("hegemon sandbox: " + what + "\\n"); sys.stderr.flush(); os._exit(126)
libc = ctypes.CDLL(None, use_errno=True)
for path in spec["cgroups"]:
    with open(path, "w") as f:
        f.write(str(os.getpid()))
if libc.prctl(1, 9, 0, 0, 0) != 0: fail("PR_SET_PDEATHSIG failed")
if os.getppid() != spec["parent"]: os._exit(1)
uid = spec["uid"]
"""
    + NAMESPACES
    + """\
def become(uid):
    for cap in range(64):  # an empty bounding set, as setpriv leaves it under bubblewrap
        libc.prctl(24, cap, 0, 0, 0)  # PR_CAPBSET_DROP (past the last capability: EINVAL)
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
def mount(source, dest, kind, flags, data=None):
    args = [x.encode() if isinstance(x, str) else x for x in (source, dest, kind, data)]
    if libc.mount(args[0], args[1], args[2], flags, args[3]) != 0:
        fail(f"cannot mount {dest}: {os.strerror(ctypes.get_errno())}")
def kept_flags(path):  # a read-only remount must keep the flags a user namespace locked
    have = os.statvfs(path).f_flag
    return (have & (2 | 4 | 8 | 1024 | 2048)) | (1 << 21 if have & 4096 else 0)
def bind(source, dest, read_only):
    if os.path.isdir(source):
        os.makedirs(dest, 0o755, exist_ok=True)
    else:
        os.makedirs(os.path.dirname(dest), 0o755, exist_ok=True)
        open(dest, "a").close()
    mount(source, dest, None, 4096 | 16384)  # MS_BIND | MS_REC
    if read_only:  # each mount below it too: a read-only remount is of one mount only
        for point in [dest, *submounts(dest)]:
            mount(None, point, None, 32 | 4096 | 1 | kept_flags(point))  # REMOUNT|BIND|RDONLY
def submounts(dest):
    inside, found = os.fsencode(dest.rstrip("/") + "/"), []
    with open("/proc/self/mountinfo", "rb") as f:
        for line in f:
            point = re.sub(rb"\\\\([0-7]{3})", lambda m: bytes([int(m[1], 8)]), line.split()[4])
            if point.startswith(inside):
                found.append(os.fsdecode(point))
    return found
def dev(dest):
    mount("tmpfs", dest, "tmpfs", 2, "mode=0755")
    for name in ("null", "zero", "full", "random", "urandom", "tty"):
        bind("/dev/" + name, f"{dest}/{name}", False)
    for name, target in (("fd", "/proc/self/fd"), ("stdin", "/proc/self/fd/0"),
                         ("stdout", "/proc/self/fd/1"), ("stderr", "/proc/self/fd/2")):
        os.symlink(target, f"{dest}/{name}")
def build(stage, steps, where):
    # the bot's tree (steps of .tree) on a tmpfs, made the root; the old root let go
    mount(None, "/", None, 16384 | (1 << 18))  # MS_REC | MS_PRIVATE: nothing leaks out
    mount("tmpfs", stage, "tmpfs", 2 | 4, "mode=0755")
    umask = os.umask(0)
    for step in steps:
        op, dest = step["op"], stage + step["dest"]
        if op in ("ro-bind", "bind"):
            bind(step["source"], dest, op == "ro-bind")
            continue
        os.makedirs(dest if op != "symlink" and op != "file" else os.path.dirname(dest),
                    0o755, exist_ok=True)
        if op == "symlink":
            os.symlink(step["source"], dest)
        elif op == "dir":
            os.chmod(dest, step["perms"])
        elif op == "file":
            with open(dest, "w") as f:
                f.write(step["data"])
            os.chmod(dest, step["perms"])
        elif op == "tmpfs":
            mount("tmpfs", dest, "tmpfs", 2 | 4, f"mode={step['perms']:o},size={step['size']}")
        elif op == "proc":
            mount("proc", dest, "proc", 2 | 4 | 8)
        elif op == "dev":
            dev(dest)
    os.chdir(stage)
    os.mkdir(".old")
    if libc.syscall(155 if os.uname().machine == "x86_64" else 41, b".", b".old") != 0:
        fail(f"pivot_root: {os.strerror(ctypes.get_errno())}")
    os.chdir("/")
    if libc.umount2(b"/.old", 2) != 0:  # MNT_DETACH
        fail(f"cannot let go of the host's root: {os.strerror(ctypes.get_errno())}")
    os.rmdir("/.old")
    mount(None, "/", None, 32 | 4096 | 1 | kept_flags("/"))
    os.umask(umask)
    os.chdir(where)
build(spec["stage"], spec["tree"], spec["chdir"])
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
)


def _needed_paths(argv: Sequence[str], plan: BindPlan) -> list[Path]:
    """What a uid must be able to read to run ``argv``: what is bound into its tree (the
    folders above are the tree's own, open to it) and the files named on its command line."""
    program = shutil.which(argv[0]) if argv else None
    paths = [Path(program)] if program else []
    paths += plan.read_only
    paths += [Path(a) for a in argv[1:] if Path(a).is_absolute() and Path(a).exists()]
    return paths


def check_runnable(argv: Sequence[str], cwd: str | None) -> None:
    """Refuse (one line, with the fix) a bot no unprivileged uid can run without bubblewrap."""
    for path in _needed_paths(argv, bind_plan(argv, cwd)):
        closed = unreadable_by_others(path, ancestors=False)
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
    stage: Path,
    cgroups: Sequence[str] = (),
    share: Sequence[str] = (),
) -> Launch:
    """The fallback's command line: the wrapper (see the module docstring), then the bot.
    The bot's tree (:mod:`.tree`, as under bubblewrap) is built on ``stage``, an empty folder;
    the socket's folder is shared (writable) with it. ``cgroups`` are the ``cgroup.procs``
    files the bot joins first. Raises :class:`SandboxError` where a guarantee cannot hold (no
    seccomp, a bot a pool uid cannot read)."""
    program = seccomp_program()
    if program is None:
        raise SandboxError(
            "the rlimits fallback needs seccomp: install pyseccomp and libseccomp2, "
            "or install bubblewrap (apt-get install bubblewrap)"
        )
    if uid is not None:
        check_runnable(argv, cwd)
    address = f"unix:{socket_path}"
    share = (*share, str(socket_path.parent))
    steps, plan = bot_tree(argv, cwd, share, limits, uid if uid is not None else os.getuid())
    fd = data_fd(program)
    spec = {
        "cgroups": list(cgroups),
        "rlimits": limits.rlimits(),
        "uid": uid,
        "parent": os.getpid(),
        "seccomp": fd,
        "stage": str(real(stage)),
        "tree": [step.as_json() for step in steps],
        "chdir": plan.chdir,
    }
    wrapper = [sys.executable, "-I", "-S", "-c", WRAPPER, json.dumps(spec)]
    args = [*wrapper, *argv, "--address", address]
    env = bot_env(env_extra, address, limits)
    return Launch(RLIMITS, args, env, "/", (fd,), address, (), uid, seccomp=True, notes=plan.notes)
