"""The seccomp filter every bot runs under: no new namespaces, mounts, ptrace, bpf, keyrings,
``open_by_handle_at``, io_uring, System V shared memory, ``memfd_create``, and no socket family
but unix. Built with ``pyseccomp`` (ctypes over libseccomp) and exported as classic BPF."""

from __future__ import annotations

import errno
import os
import threading
from typing import Any

_DENY = (
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
_ENOSYS = ("clone3", "io_uring_setup", "io_uring_enter", "io_uring_register")
# user, mount, pid, net, uts, ipc, cgroup, time
_CLONE_NAMESPACES = (
    0x10000000,
    0x00020000,
    0x20000000,
    0x40000000,
    0x04000000,
    0x08000000,
    0x02000000,
    0x00000080,
)
# AF_INET, AF_INET6, AF_NETLINK, AF_PACKET, AF_IPX, AF_APPLETALK, AF_X25, AF_AX25, AF_KEY,
# AF_ALG, AF_VSOCK
_SOCKET_FAMILIES_REFUSED = (2, 10, 16, 17, 4, 5, 9, 3, 15, 38, 40)

_lock = threading.Lock()
_built: dict[str, bytes | str] = {}  # "program" or "error", once


def seccomp_program() -> bytes | None:
    """The compiled filter (classic BPF), or None when ``pyseccomp``/libseccomp is missing."""
    with _lock:
        if _built:
            found = _built.get("program")
            return found if isinstance(found, bytes) else None
    try:
        program = _build()
    except Exception as exc:  # ImportError, OSError from ctypes/libseccomp, …
        with _lock:
            _built["error"] = f"{type(exc).__name__}: {exc}"
        return None
    with _lock:
        _built["program"] = program
    return program


def _build() -> bytes:
    import pyseccomp as sc

    flt = sc.SyscallFilter(sc.ALLOW)
    for name in _DENY:
        _add_rule(flt, sc.ERRNO(errno.EPERM), name)
    for name in _ENOSYS:
        _add_rule(flt, sc.ERRNO(errno.ENOSYS), name)
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
        while chunk := os.read(read, 65536):
            chunks.append(chunk)
    finally:
        os.close(read)
    program = b"".join(chunks)
    if not program:
        raise OSError("libseccomp exported an empty filter")
    return program


def _add_rule(flt: Any, action: Any, name: str) -> None:
    try:
        flt.add_rule(action, name)
    except (ValueError, OSError, RuntimeError):
        pass  # a syscall this kernel/libseccomp does not know


def seccomp_status() -> str:
    """``on``, or ``off (why)``."""
    return "on" if seccomp_program() is not None else f"off ({_built.get('error', '')!s})"


def data_fd(data: bytes) -> int:
    """A fresh fd (non-inheritable until passed with ``pass_fds``) that reads ``data``."""
    fd = os.memfd_create("hegemon-sandbox", os.MFD_CLOEXEC)
    try:
        os.write(fd, data)
        os.lseek(fd, 0, os.SEEK_SET)
    except OSError:
        os.close(fd)
        raise
    return fd
