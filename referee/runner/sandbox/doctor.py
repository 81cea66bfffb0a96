"""``hegemon doctor``: what protection this machine gives a bot (bubblewrap, the uid pool,
cgroups, seccomp, the fallback), checked for real, as a list of :class:`Check` and as text."""

from __future__ import annotations

import os
import shutil
import sys
from dataclasses import dataclass

from .cgroups import CONTROLLERS, places
from .fallback import check_runnable
from .mode import (
    BUBBLEWRAP,
    RLIMITS,
    SandboxError,
    bwrap_path,
    bwrap_problem,
    fallback_problem,
    requested_mode,
)
from .seccomp import seccomp_status
from .uids import UID_BASE, UID_COUNT, is_root, processes_of

_MEANING = {
    "memory": "memory ceiling per bot",
    "pids": "task ceiling per bot",
    "cpuacct": "CPU-time ceiling per bot",
    "freezer": "freezing a bot between its decisions",
}
_OTHERWISE = {
    "memory": "a watcher sums the bot's resident memory and stops it at the limit",
    "pids": "RLIMIT_NPROC of the bot's own uid",
    "cpuacct": "a watcher sums the bot's CPU time",
    "freezer": "SIGSTOP/SIGCONT to every process of the bot",
}


@dataclass(frozen=True)
class Check:
    """One finding: ``ok`` False is a protection this machine lacks (``fix`` says how)."""

    name: str
    ok: bool
    detail: str
    fix: str = ""


def report() -> list[Check]:
    """Every check, in the order :func:`render` prints them."""
    checks = [_bubblewrap(), _uids(), _seccomp(), *_cgroups(), _fallback()]
    try:
        mode = requested_mode()
        checks.append(Check("mode", True, f"HEGEMON_SANDBOX={mode}"))
    except SandboxError as exc:
        checks.append(Check("mode", False, str(exc), "unset HEGEMON_SANDBOX or fix its value"))
        return checks
    checks.append(_isolation(mode))
    return checks


def _isolation(mode: str) -> Check:
    """The mechanism that isolates a bot started now, as ``mode`` and this machine decide."""
    if mode != RLIMITS and bwrap_path() is not None:
        return Check("isolation", True, "bubblewrap isolation")
    if mode == BUBBLEWRAP:
        return Check(
            "isolation",
            False,
            "NONE: HEGEMON_SANDBOX=bubblewrap and bubblewrap is missing, seasons refuse to start",
            "apt-get install bubblewrap",
        )
    problem = fallback_problem()
    if problem:
        return Check(
            "isolation",
            False,
            f"NONE: no bubblewrap and {problem}, seasons refuse to start",
            "apt-get install bubblewrap, or allow user namespaces",
        )
    return Check(
        "isolation",
        True,
        "the rlimits fallback's isolation (a fresh root in private mount and network "
        "namespaces: the files bubblewrap shows)",
    )


def _bubblewrap() -> Check:
    found = bwrap_path()
    if found is not None:
        return Check(
            "bubblewrap",
            True,
            f"{found}: own network, PID, IPC namespaces, a read-only view of the bot's files",
        )
    return Check(
        "bubblewrap",
        False,
        f"missing ({bwrap_problem()}): bots get the rlimits fallback at best (see isolation)",
        "apt-get install bubblewrap",
    )


def _uids() -> Check:
    if not is_root():
        return Check(
            "uid pool",
            True,
            "the referee is not root: bots run as its user (in a user namespace under bwrap)",
        )
    busy = len(processes_of(range(UID_BASE, UID_BASE + UID_COUNT)))
    return Check(
        "uid pool",
        True,
        f"the referee is root: each bot runs as its own uid {UID_BASE}–"
        f"{UID_BASE + UID_COUNT - 1} ({busy} processes use them now), never as root",
    )


def _seccomp() -> Check:
    status = seccomp_status()
    return Check(
        "seccomp",
        status == "on",
        "no inet/netlink sockets, namespaces, mounts, ptrace, bpf" if status == "on" else status,
        "" if status == "on" else "pip install pyseccomp; apt-get install libseccomp2",
    )


def _cgroups() -> list[Check]:
    found = places()
    checks = []
    for controller in CONTROLLERS:
        place = found.get(controller)
        meaning = _MEANING[controller]
        if place is not None:
            detail = f"cgroup v{place.version} beneath {place.parent}"
            checks.append(Check(f"{meaning}", True, detail))
        else:
            checks.append(Check(f"{meaning}", True, f"no cgroup: {_OTHERWISE[controller]}"))
    return checks


def _fallback() -> Check:
    """Can the rlimits fallback run a Python bot here (as a pool uid when root)?"""
    if shutil.which("prlimit") is None or shutil.which("setpriv") is None:
        return Check("fallback", False, "prlimit or setpriv missing", "apt-get install util-linux")
    problem = fallback_problem()
    if problem:
        return Check(
            "fallback",
            bwrap_path() is not None,
            f"refuses to run: {problem}, so a bot would see the arena's files",
            "install bubblewrap, or allow user namespaces",
        )
    if is_root():
        try:
            check_runnable([sys.executable], os.getcwd())
        except SandboxError as exc:
            return Check("fallback", bwrap_path() is not None, f"Python bots refused: {exc}")
    return Check(
        "fallback",
        True,
        "a fresh root (the files bubblewrap shows), rlimits, seccomp, ceiling and death with "
        "the referee hold",
    )


def protection(checks: list[Check]) -> str:
    """One sentence: what a bot on this machine is held by."""
    by_name = {c.name: c for c in checks}
    found = by_name.get("isolation")
    isolation = "NO isolation (HEGEMON_SANDBOX is invalid)" if found is None else found.detail
    memory = by_name[_MEANING["memory"]].detail.split(" beneath")[0].split(":")[0]
    freezing = by_name[_MEANING["freezer"]].detail.split(" beneath")[0].split(":")[0]
    return (
        f"bots get {isolation}, seccomp {'on' if by_name['seccomp'].ok else 'OFF'}, "
        f"a memory ceiling by {'the watcher' if memory == 'no cgroup' else memory}, "
        f"freezing by {'signals' if freezing == 'no cgroup' else freezing}"
    )


def render(checks: list[Check] | None = None) -> str:
    """The report as text: one line per check, then what protection this machine gives."""
    checks = report() if checks is None else checks
    lines = []
    for check in checks:
        mark = "ok  " if check.ok else "FAIL"
        lines.append(f"{mark} {check.name}: {check.detail}")
        if check.fix:
            lines.append(f"     fix: {check.fix}")
    lines.append(f"protection: {protection(checks)}")
    return "\n".join(lines)
