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
_bwrap_checked: dict[str, str | None] = {}
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


def resolve_mode(mode: str | None = None) -> str:
    """``bubblewrap`` or ``rlimits`` for the next bot (see :data:`SANDBOX_ENV`)."""
    wanted = requested_mode(mode)
    if wanted == RLIMITS:
        return RLIMITS
    if bwrap_path() is not None:
        return BUBBLEWRAP
    why = bwrap_problem()
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
