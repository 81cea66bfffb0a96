"""Starting and stopping local bot processes, each in its own sandbox with its own socket.

:func:`spawn` starts a bot under bubblewrap (see :mod:`hegemon.referee.runner.sandbox`), or
with the rlimits fallback where bubblewrap is missing. The process is started from the calling
(trio) thread, not a worker thread: ``--die-with-parent`` ties the sandbox to the thread that
started it, and trio's worker threads come and go.

Every bot has a ceiling (:class:`~hegemon.referee.runner.sandbox.Ceiling`): all its processes
together are bounded in memory, tasks and CPU time (breaking it is the fault ``memory`` or
``cpu``, see :meth:`BotProcess.limit_fault`), and the runner freezes the bot between its
decisions (:meth:`BotProcess.pause`, :meth:`BotProcess.resume`).
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import signal
import socket
import stat
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import trio

from . import botlog, rundirs, sandbox
from .sandbox import BUBBLEWRAP, RLIMITS, Ceiling, SandboxError, SandboxLimits, UidLease
from .sandbox.binds import is_within, project_root
from .sandbox.ceiling import cpu_of, tree

ADDRESS_ENV = "HEGEMON_BOT_ADDRESS"
PROTO_ENV = "HEGEMON_PROTO"
"""Every bot is told where the protocol's ``bot.proto`` is (bound read-only in its sandbox), so
a bot that loads it at run time (the JavaScript sample) finds it wherever its own files are."""
LOG_DIR_ENV = "HEGEMON_BOT_LOGS"
"""A folder to keep each bot's stdout/stderr log in (by default it goes with the bot's run
folder when the bot stops)."""
_CLOCK_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


@dataclass(frozen=True)
class BotCommand:
    """How to start one bot: a command line, the folder it runs in, extra environment.

    The bot sees only ``env`` (plus a few neutral variables), never the referee's environment.
    ``share`` names host folders the bot may *write* (bound into its sandbox, and made
    writable for its uid like /tmp): for tests and trusted tools only, never for a registered
    bot."""

    name: str
    argv: tuple[str, ...]
    cwd: str | None = None
    env: tuple[tuple[str, str], ...] = ()
    remote: str | None = None  # host:port of a bot the referee does not start
    share: tuple[str, ...] = ()

    def describe(self) -> str:
        return self.remote or shlex.join(self.argv)


class ChildProcess:
    """A started process with the small async face of :class:`trio.Process` the runner uses:
    ``pid``, ``poll()``, ``returncode`` and ``await wait()`` (through a pidfd).

    ``before_wait`` runs before each wait: a frozen bot never exits, so it thaws it."""

    def __init__(
        self, popen: subprocess.Popen[bytes], before_wait: Callable[[], None] | None = None
    ):
        self._popen = popen
        self._before_wait = before_wait
        self.pid = popen.pid
        self._lock = trio.Lock()
        try:
            self._pidfd: int | None = os.pidfd_open(popen.pid)
        except (AttributeError, OSError):  # pragma: no cover - old kernels
            self._pidfd = None

    def poll(self) -> int | None:
        return self._popen.poll()

    @property
    def returncode(self) -> int | None:
        return self._popen.returncode

    async def wait(self) -> int:
        if self._before_wait is not None:
            self._before_wait()
        async with self._lock:
            while self._popen.poll() is None:
                if self._pidfd is not None:
                    await trio.lowlevel.wait_readable(self._pidfd)
                else:  # pragma: no cover
                    await trio.sleep(0.05)
        code = self._popen.returncode
        assert code is not None
        return code

    def close(self) -> None:
        if self._pidfd is not None and self._popen.poll() is not None:
            trio.lowlevel.notify_closing(self._pidfd)
            os.close(self._pidfd)
            self._pidfd = None


@dataclass
class BotProcess:
    """A started bot: its sandbox, its private run folder, and the unix socket it must serve."""

    command: BotCommand
    workdir: Path
    socket_path: Path  # the socket as the bot names it (inside its sandbox)
    log_path: Path
    process: ChildProcess | None = None
    sandbox: str = BUBBLEWRAP  # "bubblewrap" or "rlimits"
    uid: int | None = None  # the pool uid the bot runs as (None: the referee's own uid)
    limits: SandboxLimits = field(default_factory=SandboxLimits)
    seccomp: bool = False
    rundir: Path | None = None
    socket_problem: str = ""
    _log: Any = field(default=None, repr=False)
    _lease: UidLease | None = field(default=None, repr=False)
    _socket_fd: int | None = field(default=None, repr=False)
    _dir_fd: int | None = field(default=None, repr=False)  # rlimits: the socket folder
    _info_fd: int | None = field(default=None, repr=False)  # bubblewrap: its info pipe
    _socket_parts: tuple[str, ...] = field(default=(), repr=False)
    _sandbox_pid: int | None = field(default=None, repr=False)
    _ceiling: Ceiling | None = field(default=None, repr=False)
    pid_namespace: int | None = None  # bubblewrap: the inode of the bot's own PID namespace
    _saved_log: bytes | None = field(default=None, repr=False)  # the log, once its run folder went

    @property
    def address(self) -> str:
        """Where the referee connects: the verified socket, by its open file descriptor."""
        if self._socket_fd is not None:
            return f"unix:/proc/self/fd/{self._socket_fd}"
        return f"unix:{self.socket_path}"

    @property
    def listened(self) -> bool:
        """Has the bot created its socket where it was told to listen?"""
        return self._socket_fd is not None

    @property
    def exited(self) -> bool:
        return self.process is None or self.process.poll() is not None

    @property
    def returncode(self) -> int | None:
        return None if self.process is None else self.process.returncode

    def log_tail(self, limit: int = 400) -> str:
        """The end of what the bot wrote to stdout/stderr (for fault messages)."""
        data = self.log_since(max(0, self.log_size() - limit), limit)
        return data.decode("utf-8", "replace").strip()

    def log_size(self) -> int:
        """Bytes the bot has written to its log so far (a mark for :meth:`log_since`)."""
        if self._saved_log is not None:
            return len(self._saved_log)
        try:
            return os.stat(self.log_path).st_size
        except OSError:
            return 0

    def log_since(self, mark: int = 0, limit: int = botlog.LOG_CAP) -> bytes:
        """What the bot wrote from ``mark`` on (its start and end when over ``limit``)."""
        if self._saved_log is not None:
            return botlog.cap(self._saved_log[mark:], limit)
        try:
            fd = os.open(self.log_path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
        except OSError:
            return b""
        with os.fdopen(fd, "rb") as f:
            size = os.fstat(f.fileno()).st_size
            if size - mark <= limit:
                f.seek(mark)
                return f.read(limit)
            head = min(botlog.HEAD, limit // 4)
            f.seek(mark)
            first = f.read(head)
            f.seek(max(mark + head, size - (limit - head)))
            rest = f.read()
        cut = size - mark - len(first) - len(rest)
        return first + f"\n[... {cut} bytes of the log cut ...]\n".encode() + rest

    def listeners(self) -> list[str]:
        """Where the bot listens, as seen in its own network namespace: unix socket paths and
        TCP ports (to tell a bot that listens on the wrong address)."""
        pid = self._sandbox_pid or (self.process.pid if self.process is not None else None)
        if pid is None or self.exited:
            return []
        found: list[str] = []
        try:
            with open(f"/proc/{pid}/net/unix") as f:
                for line in f.readlines()[1:]:
                    fields = line.split()
                    if len(fields) >= 8 and int(fields[3], 16) & 0x10000:  # __SO_ACCEPTCON
                        found.append(f"unix:{fields[7]}")
        except (OSError, ValueError):
            pass
        for table in ("tcp", "tcp6"):
            try:
                with open(f"/proc/{pid}/net/{table}") as f:
                    for line in f.readlines()[1:]:
                        fields = line.split()
                        if len(fields) > 3 and fields[3] == "0A":  # LISTEN
                            found.append(f"TCP port {int(fields[1].rsplit(':', 1)[1], 16)}")
            except (OSError, ValueError, IndexError):
                pass
        return found

    # -------------------------------------------------------------- the socket
    async def wait_for_socket(self, poll: float = 0.02) -> str:
        """Wait (forever: the caller bounds it) until the bot's socket exists, open it without
        following any link, check it is a socket of the bot's, and return its address."""
        while self._socket_fd is None:
            if self.exited:
                raise OSError("the bot process ended before it listened")
            if self.sandbox == BUBBLEWRAP and self._sandbox_pid is None:
                await self._read_info()
                continue
            try:
                self._socket_fd = self._open_socket()
            except FileNotFoundError:
                pass
            except OSError as exc:
                self.socket_problem = str(exc)
            if self._socket_fd is None:
                await trio.sleep(poll)
        while not self._listening():
            if self.exited:
                raise OSError("the bot process ended before it listened")
            await trio.sleep(poll / 4)
        return self.address

    def _listening(self) -> bool:
        """Does the bot accept connections yet? Its socket file exists from ``bind()`` on,
        before ``listen()``; a gRPC connection tried then waits out a reconnect backoff."""
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
            probe.setblocking(False)
            try:
                probe.connect(self.address[len("unix:") :])
            except (BlockingIOError, InterruptedError):
                return True  # a full backlog: listening all the same
            except OSError:
                return False
        return True

    async def _read_info(self) -> None:
        assert self._info_fd is not None
        stream = trio.lowlevel.FdStream(self._info_fd)
        self._info_fd = None
        data = b""
        async with stream:
            while len(data) < 65536:
                chunk = await stream.receive_some(4096)
                if not chunk:
                    break
                data += chunk
        try:
            info = json.loads(data)
            self._sandbox_pid = int(info["child-pid"])
            self.pid_namespace = int(info.get("pid-namespace") or 0) or None
        except (ValueError, KeyError, TypeError, AttributeError):
            raise OSError("bubblewrap did not start the sandbox") from None

    def _open_socket(self) -> int:
        if self.sandbox == BUBBLEWRAP:
            base = os.open(f"/proc/{self._sandbox_pid}/root", os.O_PATH | os.O_DIRECTORY)
            root = os.fstat(base)
            host = os.stat("/")
            if (root.st_dev, root.st_ino) == (host.st_dev, host.st_ino):
                os.close(base)
                raise FileNotFoundError("the sandbox is still being built")
            parts = self._socket_parts
        else:
            assert self._dir_fd is not None
            base = os.dup(self._dir_fd)
            parts = (self.socket_path.name,)
        try:
            for part in parts[:-1]:
                fd = os.open(part, os.O_PATH | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=base)
                os.close(base)
                base = fd
            fd = os.open(parts[-1], os.O_PATH | os.O_NOFOLLOW, dir_fd=base)
        finally:
            os.close(base)
        info = os.fstat(fd)
        if not stat.S_ISSOCK(info.st_mode) or (self.uid is not None and info.st_uid != self.uid):
            os.close(fd)
            what = "a link" if stat.S_ISLNK(info.st_mode) else "not a socket of the bot's"
            raise OSError(f"{self.socket_path} is {what}: refused")
        return fd

    # -------------------------------------------------------------- fairness
    def pause(self, soon: bool = False) -> bool:
        """Freeze every process of the bot while it is not deciding (cheap, synchronous;
        ``soon``: when another bot is resumed, or at :func:`~.sandbox.ceiling.freeze_deferred`,
        see :meth:`~.sandbox.Ceiling.pause`, which says whether that freeze is due).

        Call :meth:`resume` before sending the bot any request: a frozen gRPC server does not
        answer. Bot authors: pondering in the background is impossible, for everybody alike
        (see :mod:`hegemon.referee.runner.sandbox.ceiling`)."""
        if self._ceiling is not None and not self.exited:
            return self._ceiling.pause(soon)
        return False

    def resume(self) -> None:
        """Let every process of the bot run again (before its next request is sent)."""
        if self._ceiling is not None:
            self._ceiling.resume()

    @property
    def paused(self) -> bool:
        """Is the bot frozen now?"""
        return self._ceiling is not None and self._ceiling.paused

    def limit_fault(self) -> tuple[str, str] | None:
        """``(kind, detail)`` once the bot broke its ceiling and was stopped: ``memory`` (all
        its processes together passed ``total_memory_bytes``) or ``cpu`` (past
        ``cpu_seconds`` in all); None otherwise. A crash of such a bot is this fault."""
        return self._ceiling.fault() if self._ceiling is not None else None

    @property
    def ceiling(self) -> Ceiling | None:
        """The bot's ceiling (which mechanisms bound and freeze it)."""
        return self._ceiling

    # -------------------------------------------------------------- resources
    def _tree(self) -> list[int]:
        """Every process of the bot's sandbox (the started process and its descendants)."""
        if self.process is None or self.exited:
            return []
        return tree(self.process.pid)

    def total_cpu_seconds(self) -> float:
        """CPU time of all the bot's processes together (its ceiling counts this)."""
        if self._ceiling is not None:
            return self._ceiling.cpu_seconds()
        return cpu_of(self._tree())

    def cpu_since_resume(self) -> float:
        """CPU seconds all the bot's processes used since it was last resumed (until it was
        paused): a decision's time on the CPU clock (0 for a bot without a ceiling)."""
        return self._ceiling.cpu_since_resume() if self._ceiling is not None else 0.0

    def waits(self) -> dict[int, int]:
        """Nanoseconds each thread of the bot has waited for a CPU so far, by thread id
        (see :mod:`.sandbox.waits`; none for a bot without a ceiling)."""
        return self._ceiling.waits() if self._ceiling is not None else {}

    def cpu_seconds(self) -> float:
        """The most CPU time any one process of the bot has used (RLIMIT_CPU is per process)."""
        most = 0.0
        for pid in self._tree():
            try:
                with open(f"/proc/{pid}/stat", "rb") as f:
                    fields = f.read().rsplit(b")", 1)[1].split()
                most = max(most, (int(fields[11]) + int(fields[12])) / _CLOCK_TICKS)
            except (OSError, ValueError, IndexError):
                continue
        return most

    @property
    def worn_out(self) -> bool:
        """Has this bot used half its CPU allowance (restart it before another game)?"""
        return self.total_cpu_seconds() > self.limits.cpu_seconds / 2

    # -------------------------------------------------------------- stopping
    def kill(self) -> None:
        """Kill the bot and everything it started (its session, its sandbox, its uid)."""
        proc = self.process
        if self._ceiling is not None:
            self._ceiling.kill()  # frozen or stopped processes included
        if proc is not None and proc.poll() is None:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        if self.uid is not None and self._lease is not None:
            # only while we hold the uid: once given back it may be another bot's
            sandbox.kill_uid(self.uid)
        if self._log is not None:
            self._log.close()
            self._log = None

    async def stop(self) -> None:
        """Kill and reap the process, and remove its run folder; give back its uid."""
        self.kill()
        if self.process is not None:
            with trio.move_on_after(5):
                await self.process.wait()
            self.process.close()
        if self.uid is not None and self._lease is not None:
            for _ in range(50):
                if not sandbox.kill_uid(self.uid):
                    break
                await trio.sleep(0.02)
        if self._ceiling is not None:
            for _ in range(50):
                if self._ceiling.close():
                    break
                await trio.sleep(0.02)
        self._close_fds()
        # keep a log that goes with the run folder: the game's logs are saved after the game
        in_rundir = self.rundir is not None and is_within(self.log_path, self.rundir)
        if in_rundir and self._saved_log is None:
            self._saved_log = self.log_since(0)
        if self.rundir is not None:
            shutil.rmtree(self.rundir, ignore_errors=True)
        if self._lease is not None:
            self._lease.release()
            self._lease = None

    def _close_fds(self) -> None:
        for name in ("_socket_fd", "_dir_fd", "_info_fd"):
            fd = getattr(self, name)
            if fd is not None:
                try:
                    os.close(fd)
                except OSError:
                    pass
                setattr(self, name, None)


def _safe_name(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.@-]", "_", name)[:64] or "bot"


async def spawn(
    command: BotCommand,
    log_dir: Path | None = None,
    limits: SandboxLimits | None = None,
    mode: str | None = None,
) -> BotProcess:
    """Start ``command`` in its sandbox (bubblewrap, else rlimits — see
    :mod:`hegemon.referee.runner.sandbox`) in a new session; the bot is told its address by
    ``--address`` and by the ``HEGEMON_BOT_ADDRESS`` environment variable. Await
    :meth:`BotProcess.wait_for_socket` before connecting. Raises :class:`OSError` (a
    :class:`~referee.runner.sandbox.SandboxError` included) if the bot cannot be started."""
    limits = limits or SandboxLimits()
    kind = sandbox.resolve_mode(mode)
    proto = project_root() / "protos" / "hegemon" / "v1" / "bot.proto"
    if proto.is_file() and PROTO_ENV not in dict(command.env):
        command = replace(command, env=((PROTO_ENV, str(proto)), *command.env))
    if log_dir is None and os.environ.get(LOG_DIR_ENV, "").strip():
        log_dir = Path(os.environ[LOG_DIR_ENV].strip())
        log_dir.mkdir(parents=True, exist_ok=True)
    rundir = rundirs.make()
    lease = None
    log = None
    launch = None
    ceiling = None
    try:
        if sandbox.is_root():
            lease = sandbox.lease_uid()
        uid = lease.uid if lease is not None else None
        ceiling = sandbox.Ceiling(limits, uid)
        if uid is not None:
            for path in command.share:  # writable for a pool uid too (sticky, like /tmp)
                os.chmod(path, stat.S_IMODE(os.stat(path).st_mode) | 0o1777)
        log_path = (log_dir or rundir) / f"{_safe_name(command.name)}-{rundir.name}.log"
        # the bot writes to it until stop()
        log = await trio.to_thread.run_sync(lambda: open(log_path, "ab"))  # noqa: SIM115
        if kind == BUBBLEWRAP:
            launch = sandbox.bubblewrap_launch(
                command.argv,
                command.cwd,
                command.env,
                ceiling.launch_limits(),
                uid,
                command.share,
                ceiling.join_prefix(),
            )
            socket_path = Path(launch.inner_address[len("unix:") :])
            dir_fd = None
        else:
            sock_dir = rundir / "sock"
            sock_dir.mkdir(mode=0o700)
            if uid is not None:
                os.chown(sock_dir, uid, uid)
                os.chmod(rundir, 0o711)
            socket_path = sock_dir / "bot.sock"
            dir_fd = os.open(sock_dir, os.O_PATH | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
            stage = rundir / "root"  # the bot's fresh root is built on it
            stage.mkdir(mode=0o700)
            launch = sandbox.rlimits_launch(
                command.argv,
                command.cwd,
                command.env,
                ceiling.launch_limits(),
                uid,
                socket_path,
                stage,
                ceiling.join_files(),
                command.share,
            )
        note = (
            f"hegemon: {command.name} starts in sandbox {kind}"
            + (f" as uid {uid}" if uid is not None else "")
            + (", seccomp on" if launch.seccomp else "")
            + f", memory ceiling by {ceiling.memory_mechanism()}"
            + f", frozen by {ceiling.freezer_mechanism()}"
            + "".join(f"; {n}" for n in launch.notes)
            + "\n"
        )
        log.write(note.encode())
        log.flush()
        # Popen on this thread (see the module docstring), never with preexec_fn
        popen = subprocess.Popen(  # noqa: ASYNC220 - on this thread, for --die-with-parent
            launch.argv,
            cwd=launch.cwd,
            env=launch.env,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=log,
            start_new_session=True,
            pass_fds=launch.pass_fds,
        )
    except BaseException:
        if launch is not None:
            launch.close_parent_fds()
            if launch.info_fd is not None:
                os.close(launch.info_fd)
        if log is not None:
            log.close()
        if ceiling is not None:
            ceiling.close()
        if lease is not None:
            lease.release()
        shutil.rmtree(rundir, ignore_errors=True)
        raise
    launch.close_parent_fds()
    ceiling.attach(popen.pid, log_path)
    return BotProcess(
        command,
        Path(command.cwd or rundir),
        socket_path,
        log_path,
        ChildProcess(popen, ceiling.resume),
        kind,
        uid,
        limits,
        launch.seccomp,
        rundir,
        _log=log,
        _lease=lease,
        _dir_fd=dir_fd,
        _info_fd=launch.info_fd,
        _socket_parts=launch.socket_parts,
        _ceiling=ceiling,
    )


def python_command(name: str, script: str | Path, *args: str) -> BotCommand:
    """A bot written in Python, run with this interpreter."""
    return BotCommand(name, (sys.executable, str(script), *args))


__all__ = [
    "ADDRESS_ENV",
    "BUBBLEWRAP",
    "RLIMITS",
    "BotCommand",
    "BotProcess",
    "ChildProcess",
    "SandboxError",
    "SandboxLimits",
    "python_command",
    "spawn",
]
