"""The sandbox every local bot runs in: bubblewrap, an unprivileged uid, rlimits, seccomp.

A bot is other people's code. Under **bubblewrap** (``bwrap``, the Debian package
``bubblewrap``) each bot gets:

* its own network namespace (``--unshare-net``): no TCP/UDP to the host or anywhere else, no
  reach to the host's abstract unix sockets; the referee reaches the bot's gRPC server through
  the unix socket the bot creates inside its own private ``/tmp`` (the referee opens that socket
  file through ``/proc/<pid>/root`` without following links, so the bot cannot point it at
  another socket of the host);
* its own PID, IPC and UTS namespaces: it sees and signals only its own processes;
* a read-only view of just what it needs — system folders (``/usr``, a few files of ``/etc``),
  its own folder (the command's working directory and the files named on its command line),
  the interpreter (for a Python bot: the interpreter's prefix, the virtualenv, and the SDK's
  ``sdk``/``referee``/``sample_bots`` packages) and the protocol's ``protos/`` folder — and
  nothing of the database, the records, other bots, the referee's files or anyone's home;
* a private, size-limited ``/tmp`` and ``/dev/shm`` (tmpfs), a read-only root elsewhere;
* an unprivileged uid of its own when the referee runs as root (a pool from 61000, one uid per
  concurrently running bot, leased with a lock file so several referee processes on one
  machine never share one), no capabilities, ``no_new_privs``;
* limits set inside the sandbox with ``prlimit`` (util-linux): address space, processes
  (threads count), open files, file size, CPU seconds, no core files — see
  :class:`SandboxLimits`;
* a seccomp filter (when the ``pyseccomp`` package is installed) refusing new namespaces,
  mounts, ptrace, bpf, keyrings, ``open_by_handle_at``, io_uring, System V shared memory,
  ``memfd_create`` and every socket family but unix;
* ``--die-with-parent``: when the referee dies, the sandbox dies with it.

Where bubblewrap is missing (or ``HEGEMON_SANDBOX=rlimits``), bots fall back to the same rlimits
in a process session of their own, under a pool uid when the referee is root — and the referee
says so loudly on stderr and writes ``"sandbox": "rlimits"`` into each game record's header.
Remote bots (``host:port``) are not started by the referee and are not sandboxed.
"""

from __future__ import annotations

import errno
import fcntl
import importlib.util
import os
import pwd
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

SANDBOX_ENV = "HEGEMON_SANDBOX"
"""``auto`` (default: bubblewrap where it works, else rlimits with a warning), ``bubblewrap``
(refuse to start bots without it) or ``rlimits`` (no bubblewrap even where it exists)."""

BUBBLEWRAP = "bubblewrap"
RLIMITS = "rlimits"
MODES = ("auto", BUBBLEWRAP, RLIMITS)

UID_BASE = 61000
UID_COUNT = 184  # 61000–61183: below systemd's DynamicUser range (61184–65519)

INNER_SOCKET_DIR = "/tmp/hegemon-bot"  # inside the sandbox
SOCKET_NAME = "bot.sock"

SYSTEM_TOP = ("usr", "bin", "sbin", "lib", "lib32", "lib64", "libx32")
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
ENV_KEEP = ("TZ",)


class SandboxError(OSError):
    """A bot that cannot be started in the sandbox asked for (e.g. bubblewrap is required but
    missing)."""


@dataclass(frozen=True)
class SandboxLimits:
    """Limits for every local bot process (set inside the sandbox, per process).

    ``memory_bytes`` is the address space (RLIMIT_AS) of each process: with
    ``malloc_arenas`` capped (``MALLOC_ARENA_MAX``) a gRPC server fits easily in 1 GiB.
    ``processes`` counts processes *and threads* of the bot's uid (RLIMIT_NPROC).
    ``cpu_seconds`` is CPU time per bot process (SIGXCPU, then SIGKILL 5 s later); a process
    the pool reuses across games is restarted before a game once it has used half of it.
    ``tmp_bytes`` is the size of the private ``/tmp`` (and, separately, ``/dev/shm``).
    Season settings may pass their own (``TimeControl(sandbox=SandboxLimits(...))``).
    """

    memory_bytes: int = 1 << 30
    processes: int = 64
    open_files: int = 256
    file_bytes: int = 16 << 20
    cpu_seconds: int = 600
    tmp_bytes: int = 64 << 20
    malloc_arenas: int = 2

    def __post_init__(self) -> None:
        for name in (
            "memory_bytes",
            "processes",
            "open_files",
            "file_bytes",
            "cpu_seconds",
            "tmp_bytes",
            "malloc_arenas",
        ):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
                raise ValueError(f"SandboxLimits.{name} must be a positive integer, not {value!r}")

    def prlimit_args(self) -> list[str]:
        cpu = self.cpu_seconds
        return [
            f"--as={self.memory_bytes}",
            f"--nproc={self.processes}",
            f"--nofile={self.open_files}",
            f"--fsize={self.file_bytes}",
            f"--cpu={cpu}:{cpu + 5}",
            "--core=0",
        ]


# ---------------------------------------------------------------------------------- mode
_lock = threading.Lock()
_bwrap_checked: dict[str, str | None] = {}
_warned: set[str] = set()


def requested_mode(mode: str | None = None) -> str:
    value = (mode or os.environ.get(SANDBOX_ENV, "") or "auto").strip().lower()
    if value not in MODES:
        raise SandboxError(f"{SANDBOX_ENV}={value!r}: expected one of {', '.join(MODES)}")
    return value


def bwrap_path() -> str | None:
    """A bubblewrap that works on this machine (checked once per process), or None."""
    with _lock:
        if "path" in _bwrap_checked:
            return _bwrap_checked["path"]
    found = shutil.which("bwrap")
    reason = ""
    if found is not None:
        try:
            probe = subprocess.run(
                [
                    found,
                    "--unshare-pid",
                    "--unshare-net",
                    "--die-with-parent",
                    "--ro-bind",
                    "/",
                    "/",
                    "--proc",
                    "/proc",
                    "--",
                    "/bin/true",
                ],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
                timeout=20,
            )
            if probe.returncode != 0:
                reason = probe.stderr.decode("utf-8", "replace").strip()[:200]
                found = None
        except (OSError, subprocess.SubprocessError) as exc:
            reason, found = str(exc), None
    with _lock:
        _bwrap_checked["path"] = found
        _bwrap_checked["reason"] = reason
    return found


def resolve_mode(mode: str | None = None) -> str:
    """``bubblewrap`` or ``rlimits`` for the next bot (see :data:`SANDBOX_ENV`)."""
    wanted = requested_mode(mode)
    if wanted == RLIMITS:
        return RLIMITS
    if bwrap_path() is not None:
        return BUBBLEWRAP
    why = _bwrap_checked.get("reason") or "bwrap is not installed"
    if wanted == BUBBLEWRAP:
        raise SandboxError(f"{SANDBOX_ENV}=bubblewrap but bubblewrap does not work here: {why}")
    warn(
        f"bubblewrap unavailable ({why}): bots run with rlimits only, WITHOUT network or "
        "file-system isolation. Install it: apt-get install bubblewrap"
    )
    return RLIMITS


def warn(message: str) -> None:
    """A loud line on stderr, once per message per process."""
    with _lock:
        if message in _warned:
            return
        _warned.add(message)
    try:
        sys.stderr.write(f"WARNING: hegemon sandbox: {message}\n")
        sys.stderr.flush()
    except (OSError, ValueError):
        pass


# ---------------------------------------------------------------------------------- uids
def is_root() -> bool:
    return os.geteuid() == 0


def _lock_dir() -> Path:
    base = Path("/run") if os.access("/run", os.W_OK) else Path(tempfile.gettempdir())
    path = base / "hegemon-sandbox-uids"
    try:
        path.mkdir(mode=0o700)
    except FileExistsError:
        pass
    info = os.lstat(path)
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.geteuid():
        raise SandboxError(f"{path}: not a folder of this user; remove it")
    return path


def processes_of(uids: Iterable[int]) -> list[tuple[int, int]]:
    """(pid, uid) of every process whose real, effective or saved uid is in ``uids``."""
    wanted = set(uids)
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/status", "rb") as f:
                for line in f:
                    if line.startswith(b"Uid:"):
                        ids = {int(x) for x in line.split()[1:4]}
                        hit = ids & wanted
                        if hit:
                            found.append((int(entry), min(hit)))
                        break
        except (OSError, ValueError):
            continue
    return found


def kill_uid(uid: int) -> int:
    """SIGKILL every process running as ``uid`` (a pool uid: only sandboxed bots use it)."""
    killed = 0
    for pid, _ in processes_of([uid]):
        try:
            os.kill(pid, signal.SIGKILL)
            killed += 1
        except (ProcessLookupError, PermissionError):
            pass
    return killed


@dataclass
class UidLease:
    """One pool uid held (by an flock on its lock file) until :meth:`release`."""

    uid: int
    fd: int | None

    def release(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None


def lease_uid(base: int = UID_BASE, count: int = UID_COUNT) -> UidLease:
    """A pool uid no other bot (of this or another referee process) holds and no process runs
    as. Only root can switch uids; the caller checks :func:`is_root` first."""
    folder = _lock_dir()
    busy = {uid for _, uid in processes_of(range(base, base + count))}
    for uid in range(base, base + count):
        if uid in busy:
            continue
        try:
            pwd.getpwuid(uid)
            continue  # a real account: not ours to use
        except KeyError:
            pass
        fd = os.open(
            folder / str(uid), os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600
        )
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            continue
        return UidLease(uid, fd)
    raise SandboxError(f"all {count} sandbox uids ({base}–{base + count - 1}) are in use")


# ---------------------------------------------------------------------------------- seccomp
_SECCOMP_DENY = (
    "ptrace",
    "process_vm_readv",
    "process_vm_writev",
    "mount",
    "umount2",
    "pivot_root",
    "chroot",
    "unshare",
    "setns",
    "bpf",
    "perf_event_open",
    "kexec_load",
    "kexec_file_load",
    "init_module",
    "finit_module",
    "delete_module",
    "keyctl",
    "add_key",
    "request_key",
    "userfaultfd",
    "swapon",
    "swapoff",
    "reboot",
    "syslog",
    "acct",
    "quotactl",
    "open_by_handle_at",
    "name_to_handle_at",
    "iopl",
    "ioperm",
    "fanotify_init",
    "shmget",
    "memfd_create",
    "memfd_secret",
    "move_mount",
    "open_tree",
    "fsopen",
    "fsmount",
    "fsconfig",
    "fspick",
    "mount_setattr",
    "lookup_dcookie",
    "vhangup",
)
_SECCOMP_ENOSYS = ("clone3", "io_uring_setup", "io_uring_enter", "io_uring_register")
_CLONE_NAMESPACES = (
    0x10000000,
    0x00020000,
    0x20000000,
    0x40000000,
    0x04000000,
    0x08000000,
    0x02000000,
    0x00000080,
)  # user, mount, pid, net, uts, ipc, cgroup, time
_SOCKET_FAMILIES_REFUSED = (2, 10, 16, 17, 4, 5, 9, 3, 15, 38, 40)
# AF_INET, AF_INET6, AF_NETLINK, AF_PACKET, AF_IPX, AF_APPLETALK, AF_X25, AF_AX25, AF_KEY,
# AF_ALG, AF_VSOCK
_seccomp_program: bytes | None = None
_seccomp_error = ""


def seccomp_program() -> bytes | None:
    """The compiled filter (classic BPF), or None when ``pyseccomp``/libseccomp is missing."""
    global _seccomp_program, _seccomp_error
    with _lock:
        if _seccomp_program is not None or _seccomp_error:
            return _seccomp_program
    try:
        import pyseccomp as sc

        flt = sc.SyscallFilter(sc.ALLOW)
        for name in _SECCOMP_DENY:
            _add_rule(sc, flt, sc.ERRNO(errno.EPERM), name)
        for name in _SECCOMP_ENOSYS:
            _add_rule(sc, flt, sc.ERRNO(errno.ENOSYS), name)
        for flag in _CLONE_NAMESPACES:
            flt.add_rule(sc.ERRNO(errno.EPERM), "clone", sc.Arg(0, sc.MASKED_EQ, flag, flag))
        for family in _SOCKET_FAMILIES_REFUSED:
            flt.add_rule(sc.ERRNO(errno.EAFNOSUPPORT), "socket", sc.Arg(0, sc.EQ, family))
            flt.add_rule(sc.ERRNO(errno.EAFNOSUPPORT), "socketpair", sc.Arg(0, sc.EQ, family))
        read, write = os.pipe()
        try:
            with os.fdopen(write, "wb") as out:
                flt.export_bpf(out)
            chunks = []
            while True:
                chunk = os.read(read, 65536)
                if not chunk:
                    break
                chunks.append(chunk)
        finally:
            os.close(read)
        program = b"".join(chunks)
        if not program:
            raise OSError("libseccomp exported an empty filter")
    except Exception as exc:  # ImportError, OSError from ctypes/libseccomp, …
        with _lock:
            _seccomp_error = f"{type(exc).__name__}: {exc}"
        return None
    with _lock:
        _seccomp_program = program
    return program


def _add_rule(sc, flt, action, name: str) -> None:
    try:
        flt.add_rule(action, name)
    except (ValueError, OSError, RuntimeError):
        pass  # a syscall this kernel/libseccomp does not know


def seccomp_status() -> str:
    return "on" if seccomp_program() is not None else f"off ({_seccomp_error})"


def _data_fd(data: bytes) -> int:
    """A fresh fd (non-inheritable until passed with ``pass_fds``) that reads ``data``."""
    fd = os.memfd_create("hegemon-sandbox", os.MFD_CLOEXEC)
    try:
        os.write(fd, data)
        os.lseek(fd, 0, os.SEEK_SET)
    except OSError:
        os.close(fd)
        raise
    return fd


# ---------------------------------------------------------------------------------- what to bind
def _protected_paths() -> list[Path]:
    """Folders and files no bot may see; a folder that contains one is never bound whole."""
    found = [Path("/"), Path.home()]
    home = os.environ.get("HEGEMON_HOME", "").strip()
    found.append(Path(home or "~/.hegemon").expanduser())
    db = os.environ.get("HEGEMON_DB", "").strip()
    if db and "://" not in db:
        found.append(Path(db).expanduser())
    elif db.startswith("sqlite:///"):
        found.append(Path(db[len("sqlite:///") :]).expanduser())
    return [_real(p) for p in found]


def _real(path: Path | str) -> Path:
    return Path(os.path.realpath(os.path.abspath(os.fspath(path))))


def _is_within(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


def _safe_folder(folder: Path, protected: Sequence[Path]) -> bool:
    """May ``folder`` be bound whole? Not if it is, or contains, a protected path."""
    return not any(_is_within(p, folder) for p in protected)


def _is_system(path: Path) -> bool:
    parts = path.parts
    return len(parts) > 1 and parts[1] in SYSTEM_TOP


def _package_dirs(names: Iterable[str]) -> list[Path]:
    dirs = []
    for name in names:
        try:
            spec = importlib.util.find_spec(name)
        except (ImportError, ValueError):
            spec = None
        if spec is not None and spec.submodule_search_locations:
            dirs.extend(_real(p) for p in spec.submodule_search_locations)
    return dirs


def _project_root() -> Path:
    return _real(Path(__file__)).parents[2]


def _is_python(program: Path) -> bool:
    name = program.name
    return name.startswith("python") or _real(program) == _real(sys.executable)


@dataclass
class BindPlan:
    """Host paths bound into a bot's sandbox (same path inside), and where it starts."""

    read_only: list[Path] = field(default_factory=list)
    writable: list[Path] = field(default_factory=list)
    chdir: str = "/tmp"
    notes: list[str] = field(default_factory=list)

    def add(self, path: Path, writable: bool = False) -> None:
        path = _real(path)
        target = self.writable if writable else self.read_only
        if path not in target and not _is_system(path):
            target.append(path)


def bind_plan(argv: Sequence[str], cwd: str | None, share: Sequence[str] = ()) -> BindPlan:
    """What a bot started as ``argv`` in ``cwd`` needs to see (see the module docstring)."""
    plan = BindPlan()
    protected = _protected_paths()
    program = Path(argv[0]) if argv else Path("/nonexistent")
    if _is_python(program):
        # the interpreter's prefix (pyenv: under root's 0700 home), the virtualenv, the SDK
        plan.add(Path(sys.base_prefix))
        if sys.prefix != sys.base_prefix:
            plan.add(Path(sys.prefix))
        for folder in _package_dirs(
            ("hegemon", "hegemon.sdk", "hegemon.referee", "hegemon.sample_bots", "grpc", "google")
        ):
            if not any(_is_within(folder, p) for p in plan.read_only):
                plan.add(folder)
    elif program.is_absolute() and program.exists():
        real = _real(program)
        if not _is_system(real):
            folder = real.parent
            plan.add(folder if _safe_folder(folder, protected) else real)
    protos = _project_root() / "protos"
    if protos.is_dir():
        plan.add(protos)
    for arg in argv[1:]:
        path = Path(arg)
        if not path.is_absolute() or not path.exists():
            continue
        real = _real(path)
        if _is_system(real) or any(_is_within(real, p) for p in plan.read_only):
            continue
        if real.is_dir():
            if _safe_folder(real, protected):
                plan.add(real)
            continue
        folder = real.parent
        if _safe_folder(folder, protected):
            plan.add(folder)
        else:
            plan.add(real)
            plan.notes.append(f"{folder} holds private data: only {real.name} is visible")
    if cwd:
        folder = _real(cwd)
        if _safe_folder(folder, protected):
            plan.add(folder)
        else:
            plan.notes.append(f"{folder} holds private data: the bot does not see it")
        plan.chdir = str(folder)
    for path in share:
        plan.add(Path(path), writable=True)
    # a folder inside another bound one is already visible
    plan.read_only = [
        p for p in plan.read_only if not any(q != p and _is_within(p, q) for q in plan.read_only)
    ]
    return plan


# ---------------------------------------------------------------------------------- the launch
@dataclass
class Launch:
    """Everything needed to start one bot: argv (bwrap or prlimit first), env, fds to pass."""

    kind: str
    argv: list[str]
    env: dict[str, str]
    cwd: str
    pass_fds: tuple[int, ...]
    inner_address: str  # what the bot is told to listen on
    socket_parts: tuple[str, ...]  # the socket's path below the sandbox root (bubblewrap)
    uid: int | None
    info_fd: int | None = None  # bubblewrap writes the sandbox's pid-1 here (read end)
    seccomp: bool = False
    notes: list[str] = field(default_factory=list)

    def close_parent_fds(self) -> None:
        for fd in self.pass_fds:
            try:
                os.close(fd)
            except OSError:
                pass
        self.pass_fds = ()


def bot_env(
    extra: Iterable[tuple[str, str]], address: str, limits: SandboxLimits
) -> dict[str, str]:
    """A clean environment: the referee's own (database URLs, tokens, …) never reaches a bot."""
    env = {
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "HOME": "/tmp",
        "TMPDIR": "/tmp",
        "LANG": "C.UTF-8",
        "PYTHONUNBUFFERED": "1",
        "PYTHONDONTWRITEBYTECODE": "1",
        "MALLOC_ARENA_MAX": str(limits.malloc_arenas),
    }
    for key in ENV_KEEP:
        if key in os.environ:
            env[key] = os.environ[key]
    env.update(dict(extra))
    env["HEGEMON_BOT_ADDRESS"] = address
    return env


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


def _drop_privileges(uid: int) -> list[str]:
    setpriv = shutil.which("setpriv") or "/usr/bin/setpriv"
    return [
        setpriv,
        f"--reuid={uid}",
        f"--regid={uid}",
        "--clear-groups",
        "--inh-caps=-all",
        "--bounding-set=-all",
        "--no-new-privs",
        "--",
    ]


def _prlimit(limits: SandboxLimits) -> list[str]:
    prlimit = shutil.which("prlimit")
    if prlimit is None:
        raise SandboxError("prlimit (util-linux) is not installed: cannot limit bots")
    return [prlimit, *limits.prlimit_args(), "--"]


def bubblewrap_launch(
    argv: Sequence[str],
    cwd: str | None,
    env_extra: Iterable[tuple[str, str]],
    limits: SandboxLimits,
    uid: int | None,
    share: Sequence[str] = (),
) -> Launch:
    """The bwrap command line for one bot (see the module docstring)."""
    bwrap = bwrap_path()
    if bwrap is None:
        raise SandboxError("bubblewrap is not available")
    plan = bind_plan(argv, cwd, share)
    inner_socket = f"{INNER_SOCKET_DIR}/{SOCKET_NAME}"
    address = f"unix:{inner_socket}"
    fds: list[int] = []
    args = [
        bwrap,
        "--unshare-pid",
        "--unshare-net",
        "--unshare-ipc",
        "--unshare-uts",
        "--unshare-cgroup-try",
        "--hostname",
        "hegemon-bot",
        "--die-with-parent",
    ]
    if uid is None:
        # an unprivileged referee: bwrap makes a user namespace and forbids nested ones
        args += ["--unshare-user", "--disable-userns"]
    read, write = os.pipe()
    os.set_inheritable(write, False)
    fds.append(write)
    args += ["--info-fd", str(write)]
    made: set[str] = set()
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
    passwd, group = _passwd_files(uid if uid is not None else os.getuid())
    for data, dest in ((passwd, "/etc/passwd"), (group, "/etc/group")):
        fd = _data_fd(data)
        fds.append(fd)
        args += ["--perms", "0644", "--ro-bind-data", str(fd), dest]
    args += [
        "--proc",
        "/proc",
        "--dev",
        "/dev",
        "--perms",
        "1777",
        "--size",
        str(limits.tmp_bytes),
        "--tmpfs",
        "/dev/shm",
        "--perms",
        "1777",
        "--size",
        str(limits.tmp_bytes),
        "--tmpfs",
        "/tmp",
        "--perms",
        "0777",
        "--dir",
        INNER_SOCKET_DIR,
    ]
    made.update({"/proc", "/dev", "/tmp", INNER_SOCKET_DIR})
    for path in plan.read_only:
        _dirs_for(path, made, args)
        args += ["--ro-bind", str(path), str(path)]
        made.add(str(path))
    for path in plan.writable:
        _dirs_for(path, made, args)
        args += ["--bind", str(path), str(path)]
        made.add(str(path))
    if plan.chdir not in made:
        _dirs_for(Path(plan.chdir) / "x", made, args)
    args += ["--remount-ro", "/", "--chdir", plan.chdir, "--clearenv"]
    env = bot_env(env_extra, address, limits)
    for key, value in env.items():
        args += ["--setenv", key, value]
    program = seccomp_program()
    if program is not None:
        fd = _data_fd(program)
        fds.append(fd)
        args += ["--seccomp", str(fd)]
    args.append("--")
    if uid is not None:
        args += _drop_privileges(uid)
    args += _prlimit(limits)
    args += [*argv, "--address", address]
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


def readable_by_others(path: Path | str) -> bool:
    """Can a uid that is neither owner nor group of anything here run/read ``path``?"""
    real = _real(path)
    try:
        for folder in [*reversed(real.parents)]:
            if not os.stat(folder).st_mode & stat.S_IXOTH:
                return False
        return bool(os.stat(real).st_mode & stat.S_IROTH)
    except OSError:
        return False


def rlimits_launch(
    argv: Sequence[str],
    cwd: str | None,
    env_extra: Iterable[tuple[str, str]],
    limits: SandboxLimits,
    uid: int | None,
    socket_path: Path,
) -> Launch:
    """The fallback: the same limits (and a pool uid under root), no namespaces."""
    address = f"unix:{socket_path}"
    args: list[str] = []
    if uid is not None:
        args += _drop_privileges(uid)
    args += _prlimit(limits)
    args += [*argv, "--address", address]
    env = bot_env(env_extra, address, limits)
    return Launch(RLIMITS, args, env, cwd or str(socket_path.parent), (), address, (), uid)
