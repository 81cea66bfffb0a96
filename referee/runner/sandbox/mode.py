"""Which sandbox the next bot gets (bubblewrap or the rlimits fallback), and loud warnings."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import threading

SANDBOX_ENV = "HEGEMON_SANDBOX"
"""``auto`` (default: bubblewrap where it works, else rlimits with a warning), ``bubblewrap``
(refuse to start bots without it) or ``rlimits`` (no bubblewrap even where it exists)."""

BUBBLEWRAP = "bubblewrap"
RLIMITS = "rlimits"
MODES = ("auto", BUBBLEWRAP, RLIMITS)

_lock = threading.Lock()
_bwrap_checked: dict[str, str | None] = {}  # also the fallback's probe
_warned: set[str] = set()


class SandboxError(OSError):
    """A bot that cannot be started in the sandbox asked for (e.g. bubblewrap is required but
    missing, or no unprivileged uid can run it)."""


def requested_mode(mode: str | None = None) -> str:
    """The mode asked for by ``mode`` or :data:`SANDBOX_ENV` (checked, lower case)."""
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
        probe = [found, "--unshare-pid", "--unshare-net", "--die-with-parent"]
        probe += ["--ro-bind", "/", "/", "--proc", "/proc", "--", "/bin/true"]
        try:
            done = subprocess.run(
                probe,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
                timeout=20,
                check=False,
            )
            if done.returncode != 0:
                reason = done.stderr.decode("utf-8", "replace").strip()[:200]
                found = None
        except (OSError, subprocess.SubprocessError) as exc:
            reason, found = str(exc), None
    with _lock:
        _bwrap_checked["path"] = found
        _bwrap_checked["reason"] = reason
    return found


def bwrap_problem() -> str:
    """Why :func:`bwrap_path` found no working bubblewrap (empty when it did)."""
    if bwrap_path() is not None:
        return ""
    return _bwrap_checked.get("reason") or "bwrap is not installed"


NAMESPACES = """\
# mount, PID, network and IPC namespaces; a user namespace too unless root
user = os.geteuid() != 0
me, group = os.getuid(), os.getgid()  # (inside a user namespace not mapped yet: nobody)
if libc.unshare(0x68020000 | (0x10000000 if user else 0)) != 0:
    fail("no private mount and PID namespace here: " + os.strerror(ctypes.get_errno()))
if user:  # mapping only its own uid
    for name, text in (("setgroups", "deny"), ("uid_map", f"{me} {me} 1"),
                       ("gid_map", f"{group} {group} 1")):
        with open("/proc/self/" + name, "w") as f:
            f.write(text)
"""
"""The fallback's namespaces (Python run by its wrapper, and by :func:`fallback_problem`)."""

_PROBE = f"""\
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
def fail(what):
    sys.exit(what)
{NAMESPACES}
child = os.fork()
if child == 0:  # pid 1 there: its own /proc, mounted in a mount namespace of its own
    if libc.mount(None, b"/", None, 16384 | (1 << 18), None) != 0 or libc.mount(
        b"proc", b"/proc", b"proc", 14, None
    ) != 0:
        os.write(2, ("mount: " + os.strerror(ctypes.get_errno())).encode())
        os._exit(1)
    os._exit(0)
sys.exit(os.waitpid(child, 0)[1] and 1)
"""


def fallback_problem() -> str:
    """Why the rlimits fallback cannot hide the arena's files from a bot here (empty when it
    can): it needs mount, PID, network and IPC namespaces (and a user namespace when the
    referee is not root). Checked once per process."""
    with _lock:
        if "fallback" in _bwrap_checked:
            return _bwrap_checked["fallback"] or ""
    try:
        done = subprocess.run(
            [sys.executable, "-I", "-S", "-c", _PROBE], capture_output=True, timeout=20, check=False
        )
        problem = "" if done.returncode == 0 else done.stderr.decode("utf-8", "replace")
        problem = problem.strip()[:200] or ("failed" if done.returncode else "")
    except (OSError, subprocess.SubprocessError) as exc:
        problem = str(exc)
    if problem:
        who = "root" if os.geteuid() == 0 else "an unprivileged referee (user namespaces)"
        problem = f"no private mount namespace for {who} ({problem})"
    with _lock:
        _bwrap_checked["fallback"] = problem
    return problem


def _refuse_without_isolation(why: str) -> None:
    problem = fallback_problem()
    if problem:
        raise SandboxError(
            f"bots cannot be isolated here: {why} and the rlimits fallback has {problem}; "
            "install bubblewrap (apt-get install bubblewrap) or allow user namespaces"
        )


def resolve_mode(mode: str | None = None) -> str:
    """``bubblewrap`` or ``rlimits`` for the next bot (see :data:`SANDBOX_ENV`); raises
    :class:`SandboxError` (one line) where neither can hide the arena from a bot."""
    wanted = requested_mode(mode)
    if wanted == RLIMITS:
        _refuse_without_isolation(f"{SANDBOX_ENV}=rlimits")
        return RLIMITS
    if bwrap_path() is not None:
        return BUBBLEWRAP
    why = bwrap_problem()
    if wanted == BUBBLEWRAP:
        raise SandboxError(f"{SANDBOX_ENV}=bubblewrap but bubblewrap does not work here: {why}")
    _refuse_without_isolation(f"bubblewrap is unavailable ({why})")
    warn(
        f"bubblewrap unavailable ({why}): bots run in the rlimits fallback (a private mount "
        "namespace and seccomp instead). Install it: apt-get install bubblewrap"
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
