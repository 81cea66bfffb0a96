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
* a ceiling for the whole bot (:mod:`.ceiling`): all its processes together bounded in memory
  (1 GiB), tasks and CPU time — by cgroups beneath the referee's own where the host lets it,
  else by a watcher — and frozen while it is not deciding;
* a seccomp filter (when the ``pyseccomp`` package is installed) refusing new namespaces,
  mounts, ptrace, bpf, keyrings, ``open_by_handle_at``, io_uring, System V shared memory,
  ``memfd_create`` and every socket family but unix;
* ``--die-with-parent``: when the referee dies, the sandbox dies with it.

Where bubblewrap is missing (or ``HEGEMON_SANDBOX=rlimits``), bots fall back to the same file
tree (a fresh root built from the same steps, in private mount, PID, network and IPC
namespaces), rlimits, seccomp filter, ceiling and death with the referee, under a pool uid when
the referee is root (:mod:`.fallback`; a bot no pool uid can read is refused, never run as
root) — and the referee says so loudly on stderr and writes ``"sandbox": "rlimits"`` into each
game record's header. Where those namespaces cannot be made either, no bot starts
(:func:`resolve_mode` refuses with one line).

One module per job: :mod:`.binds` (what the bot sees), :mod:`.tree` (the steps building it),
:mod:`.bubblewrap` and :mod:`.fallback` (the two launches), :mod:`.uids` (the uid pool),
:mod:`.seccomp`, :mod:`.limits`, :mod:`.cgroups` and :mod:`.ceiling` (the per-bot ceiling and
freezing), :mod:`.mode`, and :mod:`.doctor` (what protection this machine gives).
Remote bots (``host:port``) are not started by the referee and are not sandboxed.
"""

from __future__ import annotations

from .binds import BindPlan, bind_plan
from .bubblewrap import SOCKET_NAME, bubblewrap_launch
from .ceiling import CPU, MEMORY, PROCESSES, Ceiling
from .fallback import check_runnable, rlimits_launch
from .launch import Launch, bot_env
from .limits import SandboxLimits
from .mode import (
    BUBBLEWRAP,
    MODES,
    RLIMITS,
    SANDBOX_ENV,
    SandboxError,
    bwrap_path,
    fallback_problem,
    requested_mode,
    resolve_mode,
    warn,
)
from .seccomp import seccomp_program, seccomp_status
from .tree import INNER_SOCKET_DIR
from .uids import (
    UID_BASE,
    UID_COUNT,
    UidLease,
    is_root,
    kill_uid,
    lease_uid,
    processes_of,
    readable_by_others,
)

__all__ = [
    "BUBBLEWRAP",
    "CPU",
    "INNER_SOCKET_DIR",
    "MEMORY",
    "MODES",
    "PROCESSES",
    "RLIMITS",
    "SANDBOX_ENV",
    "SOCKET_NAME",
    "UID_BASE",
    "UID_COUNT",
    "BindPlan",
    "Ceiling",
    "Launch",
    "SandboxError",
    "SandboxLimits",
    "UidLease",
    "bind_plan",
    "bot_env",
    "bubblewrap_launch",
    "bwrap_path",
    "check_runnable",
    "fallback_problem",
    "is_root",
    "kill_uid",
    "lease_uid",
    "processes_of",
    "readable_by_others",
    "requested_mode",
    "resolve_mode",
    "rlimits_launch",
    "seccomp_program",
    "seccomp_status",
    "warn",
]
