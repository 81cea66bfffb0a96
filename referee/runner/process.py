"""Starting and stopping local bot processes, each with its own working directory and socket."""

from __future__ import annotations

import os
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import trio

ADDRESS_ENV = "HEGEMON_BOT_ADDRESS"


@dataclass(frozen=True)
class BotCommand:
    """How to start one bot: a command line, the folder it runs in, extra environment."""

    name: str
    argv: tuple[str, ...]
    cwd: str | None = None
    env: tuple[tuple[str, str], ...] = ()
    remote: str | None = None  # host:port of a bot the referee does not start

    def describe(self) -> str:
        return self.remote or shlex.join(self.argv)


@dataclass
class BotProcess:
    """A started bot: its process, its private folder, and the unix socket it must serve."""

    command: BotCommand
    workdir: Path
    socket_path: Path
    log_path: Path
    process: trio.Process | None = None
    _log: object | None = field(default=None, repr=False)

    @property
    def address(self) -> str:
        return f"unix:{self.socket_path}"

    @property
    def exited(self) -> bool:
        return self.process is None or self.process.poll() is not None

    @property
    def returncode(self) -> int | None:
        return None if self.process is None else self.process.returncode

    def log_tail(self, limit: int = 400) -> str:
        """The end of what the bot wrote to stdout/stderr (for fault messages)."""
        try:
            with open(self.log_path, "rb") as f:
                f.seek(0, os.SEEK_END)
                f.seek(max(0, f.tell() - limit))
                return f.read().decode("utf-8", "replace").strip()
        except OSError:
            return ""

    def kill(self) -> None:
        """Kill the bot and everything it started (its whole session), then clean up its files."""
        proc = self.process
        if proc is not None and proc.poll() is None:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        if self._log is not None:
            self._log.close()
            self._log = None

    async def stop(self) -> None:
        """Kill and reap the process, and remove its socket folder."""
        self.kill()
        if self.process is not None:
            with trio.move_on_after(5):
                await self.process.wait()
        shutil.rmtree(self.socket_path.parent, ignore_errors=True)


async def spawn(command: BotCommand, log_dir: Path | None = None) -> BotProcess:
    """Start ``command`` in a new session with a fresh socket folder; the bot is told its
    address by ``--address`` and by the ``HEGEMON_BOT_ADDRESS`` environment variable."""
    sock_dir = Path(tempfile.mkdtemp(prefix="hegemon-"))
    os.chmod(sock_dir, 0o711)
    socket_path = sock_dir / "bot.sock"
    log_path = (log_dir or sock_dir) / f"{command.name}-{sock_dir.name}.log"
    log = open(log_path, "ab")
    env = dict(os.environ)
    env.update(command.env)
    env[ADDRESS_ENV] = f"unix:{socket_path}"
    env.setdefault("PYTHONUNBUFFERED", "1")
    bot = BotProcess(command, Path(command.cwd or sock_dir), socket_path, log_path, _log=log)
    try:
        bot.process = await trio.lowlevel.open_process(
            [*command.argv, "--address", f"unix:{socket_path}"],
            cwd=command.cwd or str(sock_dir), env=env, stdin=subprocess.DEVNULL,
            stdout=log, stderr=log, start_new_session=True,
        )
    except OSError:
        log.close()
        shutil.rmtree(sock_dir, ignore_errors=True)
        raise
    return bot


def python_command(name: str, script: str | Path, *args: str) -> BotCommand:
    """A bot written in Python, run with this interpreter."""
    return BotCommand(name, (sys.executable, str(script), *args))
