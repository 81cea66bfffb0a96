"""What both launches share: the command line to start, and the bot's clean environment."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterable
from dataclasses import dataclass, field

from .limits import SandboxLimits
from .mode import SandboxError

ENV_KEEP = ("TZ",)


@dataclass
class Launch:
    """Everything needed to start one bot: argv (bwrap or the fallback's wrapper first), env,
    fds to pass."""

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
        """Close the referee's copies of the fds passed to the child."""
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


def drop_privileges(uid: int) -> list[str]:
    """``setpriv`` switching to ``uid`` with no groups, no capabilities, ``no_new_privs``."""
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


def prlimit(limits: SandboxLimits) -> list[str]:
    """``prlimit`` setting the per-process limits, then running the rest of the line."""
    found = shutil.which("prlimit")
    if found is None:
        raise SandboxError("prlimit (util-linux) is not installed: cannot limit bots")
    return [found, *limits.prlimit_args(), "--"]
