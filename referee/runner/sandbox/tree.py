"""The file tree a bot sees, as one list of steps both launches build: bubblewrap turns them
into its options, the fallback's wrapper into mounts of its own (a fresh root in a private
mount namespace). So a bot sees the same tree under either mechanism."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from .binds import SYSTEM_TOP, BindPlan, bind_plan, is_system, is_within, real
from .limits import SandboxLimits

INNER_SOCKET_DIR = "/tmp/hegemon-bot"  # inside the sandbox (bubblewrap's socket folder)

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


@dataclass(frozen=True)
class Step:
    """One step of building the tree, at ``dest`` (the same path inside as outside):

    ``ro-bind``/``bind`` ``source`` (read-only or writable), ``symlink`` to ``source``,
    ``dir`` and ``file`` (holding ``data``) with ``perms``, ``tmpfs`` of ``size`` bytes,
    ``proc`` and ``dev`` (the bot's own /proc and a minimal /dev)."""

    op: str
    dest: str
    source: str = ""
    perms: int = 0o755
    size: int = 0
    data: str = ""

    def as_json(self) -> dict[str, object]:
        """The step for the fallback's wrapper (which reads it as JSON)."""
        return asdict(self)


def passwd_files(uid: int) -> tuple[str, str]:
    """/etc/passwd and /etc/group of the sandbox: root, the bot, nobody."""
    passwd = (
        f"root:x:0:0:root:/root:/usr/sbin/nologin\n"
        f"bot:x:{uid}:{uid}:hegemon bot:/tmp:/usr/sbin/nologin\n"
        f"nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n"
    )
    group = f"root:x:0:\nbot:x:{uid}:\nnogroup:x:65534:\n"
    return passwd, group


def _dirs_for(path: Path, made: set[str]) -> list[Step]:
    """A 0755 ``dir`` for each missing ancestor of ``path`` (bwrap would make them 0700,
    which an unprivileged bot cannot enter)."""
    steps = []
    for parent in reversed(path.parents):
        text = str(parent)
        if text == "/" or text in made:
            continue
        made.add(text)
        steps.append(Step("dir", text))
    return steps


def _system(made: set[str]) -> list[Step]:
    steps = []
    for top in SYSTEM_TOP:
        host = Path("/") / top
        if host.is_symlink():
            steps.append(Step("symlink", str(host), os.readlink(host)))
        elif host.is_dir():
            steps.append(Step("ro-bind", str(host), str(host)))
        made.add(str(host))
    steps.append(Step("dir", "/etc"))
    made.add("/etc")
    for name in ETC_FILES:
        path = Path("/etc") / name
        if path.exists():
            steps.append(Step("ro-bind", str(path), str(path)))
    return steps


def _scratch(limits: SandboxLimits, made: set[str]) -> list[Step]:
    """/proc, /dev and the private, size-limited /tmp and /dev/shm."""
    made.update({"/proc", "/dev", "/tmp", INNER_SOCKET_DIR})
    return [
        Step("proc", "/proc"),
        Step("dev", "/dev"),
        Step("tmpfs", "/dev/shm", perms=0o1777, size=limits.tmp_bytes),
        Step("tmpfs", "/tmp", perms=0o1777, size=limits.tmp_bytes),
        Step("dir", INNER_SOCKET_DIR, perms=0o777),
    ]


def bot_tree(
    argv: Sequence[str], cwd: str | None, share: Sequence[str], limits: SandboxLimits, uid: int
) -> tuple[list[Step], BindPlan]:
    """The steps building what a bot started as ``argv`` in ``cwd`` sees (running as ``uid``):
    system folders, a few files of /etc, its passwd, /proc, /dev, a private /tmp, and its
    :func:`~.binds.bind_plan`; and that plan (where it starts, notes). The root itself is
    made read-only after these steps."""
    plan = bind_plan(argv, cwd, share)
    made: set[str] = set()
    steps = _system(made)
    passwd, group = passwd_files(uid)
    steps += [
        Step("file", "/etc/passwd", perms=0o644, data=passwd),
        Step("file", "/etc/group", perms=0o644, data=group),
    ]
    steps += _scratch(limits, made)
    for paths, how in ((plan.read_only, "ro-bind"), (plan.writable, "bind")):
        for path in paths:
            steps += _dirs_for(path, made)
            steps.append(Step(how, str(path), str(path)))
            made.add(str(path))
    if plan.chdir not in made:
        steps += _dirs_for(Path(plan.chdir) / "x", made)
    steps += _program_link(argv, plan, made)
    return steps, plan


def _program_link(argv: Sequence[str], plan: BindPlan, made: set[str]) -> list[Step]:
    """The program named by a link outside what is bound (``~/bin/node`` to ``/usr/bin/node``):
    the link itself, so the command runs as written (its target is what the plan binds)."""
    program = Path(argv[0]) if argv else None
    if program is None or not program.is_absolute() or not program.is_symlink():
        return []
    folder = real(program.parent)
    if is_system(folder) or any(is_within(folder, p) for p in plan.read_only + plan.writable):
        return []
    return [*_dirs_for(program, made), Step("symlink", str(program), str(real(program)))]
