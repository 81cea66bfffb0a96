"""Where a bot comes from and how it runs: its files and their content hash, the source a
``hegemon bot add`` argument names, and the command that runs a stored bot."""

from __future__ import annotations

import ast
import hashlib
import importlib.util
import os
import shlex
import shutil
import stat
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from .. import paths
from ..store import BotRow
from .errors import RegistryError as RegistryError  # noqa: PLC0414  (re-exported)
from .limits import FileLimits

SKIPPED_DIRS = frozenset({"__pycache__", ".git"})
PYTHON_NAMES = ("python", "python3")


# ---------------------------------------------------------------------------------- files
CHUNK = 1 << 20
"""Bytes read at a time when hashing: a bot's largest file never sits in memory whole."""


def is_skipped(rel: str) -> bool:
    """Is ``rel`` (a posix path below a bot's folder) left out of the bot's files: inside a
    ``__pycache__`` or ``.git`` folder, or compiled Python (``*.pyc``)? What is left out is
    neither hashed nor packed, so it must never be unpacked either."""
    parts = PurePosixPath(rel).parts
    return rel.endswith(".pyc") or any(part in SKIPPED_DIRS for part in parts[:-1])


def bot_files(root: Path, limits: FileLimits | None = None) -> list[tuple[str, Path]]:
    """The files that make up the bot in ``root`` (a folder or one file): (relative posix path,
    real path), sorted by relative path. Skips ``__pycache__``/``.git`` folders, ``*.pyc``,
    symlinked folders and anything that is not a regular file (symlinked files count as their
    target's content). With ``limits``, stops walking (:class:`FileLimitError`) as soon as the
    folder holds more files than they allow."""
    if root.is_file():
        return [(root.name, root)]
    found: list[tuple[str, Path]] = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(
            d for d in dirs if d not in SKIPPED_DIRS and not os.path.islink(os.path.join(folder, d))
        )
        for name in files:
            full = Path(folder) / name
            if name.endswith(".pyc") or not full.is_file():
                continue
            found.append((full.relative_to(root).as_posix(), full))
            if limits is not None:
                limits.check_files(len(found), str(root))
    found.sort(key=lambda item: item[0])
    return found


def _executable(path: Path) -> bool:
    return bool(path.stat().st_mode & (stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH))


def content_hash(root: Path) -> str:
    """The sha256 (hex) of the bot's files in ``root``: per file in order, its relative path,
    whether it is executable, its size and its bytes (read a chunk at a time)."""
    digest = hashlib.sha256()
    for rel, full in bot_files(root):
        with open(full, "rb") as stream:
            size = os.fstat(stream.fileno()).st_size
            digest.update(rel.encode("utf-8") + b"\0")
            digest.update(b"x\0" if _executable(full) else b"-\0")
            digest.update(str(size).encode() + b"\0")
            read = 0
            while chunk := stream.read(CHUNK):
                read += len(chunk)
                digest.update(chunk)
        if read != size:
            raise RegistryError(f"{full}: the file changed while it was being read")
    return digest.hexdigest()


def bounded(files: dict[str, Path], what: str, limits: FileLimits | None = None) -> None:
    """Refuse (:class:`FileLimitError`) ``files`` over the arena's limits, judged by their sizes
    on disk before a byte of them is read (a sparse file counts at its full size)."""
    limits = limits or FileLimits.from_env()
    limits.check_files(len(files), what)
    limits.check(sum(path.stat().st_size for path in files.values()), len(files), what)


# ---------------------------------------------------------------------------------- sources
@dataclass(frozen=True)
class BotSource:
    """What to copy and how to run it: ``files`` (relative path → original file), the argv run
    in the stored folder, the language, and where it came from (for people)."""

    files: dict[str, Path]
    command: tuple[str, ...]
    language: str
    origin: str
    sample: str | None = None  # the sample bot's name, if it is one
    name: str = ""  # the name the bot form suggests (its file's or folder's), for labels

    def copy_to(self, target: Path) -> None:
        """Copy the files into the (new) folder ``target``; modes are normalised (0755/0644)."""
        for rel, original in sorted(self.files.items()):
            dest = target / rel
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(original, dest)
            os.chmod(dest, 0o755 if _executable(original) else 0o644)


def _sample_modules(name: str) -> dict[str, Path]:
    """The sample bot's module file and the sample modules it imports (transitively), each
    with its policy files (``NAME.npz``, ``NAME-*.npz``) if it has any."""
    package = importlib.util.find_spec("hegemon.sample_bots")
    if package is None or package.origin is None:
        raise RegistryError("the sample bots are not installed")
    base = Path(package.origin).parent
    files = {"sample_bots/__init__.py": base / "__init__.py"}
    todo = [name]
    while todo:
        module = todo.pop()
        path = base / f"{module}.py"
        if not path.is_file():
            raise RegistryError(f"sample bot '{name}' is not installed (no {path})")
        rel = f"sample_bots/{module}.py"
        if rel in files:
            continue
        files[rel] = path
        for data in sorted([*base.glob(f"{module}.npz"), *base.glob(f"{module}-*.npz")]):
            files[f"sample_bots/{data.name}"] = data  # a trained sample's policy files
        for node in ast.walk(ast.parse(path.read_bytes(), filename=str(path))):
            if isinstance(node, ast.ImportFrom):
                if (
                    node.module
                    and node.module.startswith("hegemon.sample_bots.")
                    and node.level == 0
                ):
                    todo.append(node.module.split(".")[2])
                elif node.level == 1:
                    if node.module:
                        todo.append(node.module.split(".")[0])
                    else:
                        todo.extend(a.name for a in node.names)
                elif node.module == "hegemon.sample_bots":
                    todo.extend(a.name for a in node.names if (base / f"{a.name}.py").is_file())
            elif isinstance(node, ast.Import):
                todo.extend(
                    a.name.split(".")[2]
                    for a in node.names
                    if a.name.startswith("hegemon.sample_bots.")
                )
    return files


def find_source(spec: str, command: str | None = None) -> BotSource:
    """What ``hegemon bot add NAME SPEC [--command ...]`` would store. ``spec`` takes every form
    ``hegemon play --bot`` takes, resolved the same way
    (:func:`hegemon.leaderboard.botspec.resolve_spec`); raises :class:`RegistryError` saying
    what is wrong. The files stored are the bot's folder (a folder, a command's folder, a
    ``.js`` file's folder with its ``package.json``), or a single file with the modules of its
    folder it imports (a ``.py`` file), or the sample bot's modules."""
    from hegemon.leaderboard.botspec import BotSpecError, resolve_spec

    spec = spec.strip()
    if not spec:
        raise RegistryError("no bot given: name a file, a folder, a sample bot or a command")
    if command is not None:
        return _with_command(spec, command)
    try:
        found = resolve_spec(spec)
    except BotSpecError as exc:
        raise RegistryError(str(exc)) from None
    if found.sample is not None:
        files = _sample_modules(found.sample)
        argv = ("python", "-m", f"sample_bots.{found.sample}")
        return BotSource(files, argv, "python", f"sample:{found.sample}", found.sample, found.name)
    if found.remote is not None:
        raise RegistryError(
            f"{spec}: a bot at host:port cannot be registered: the arena starts every bot it "
            "rates from its own copy; give its file, folder or command"
        )
    assert found.folder is not None
    entry = found.entry
    if found.kind == "file" and entry is not None and not _whole_folder(entry):
        files = {entry.name: entry, **_local_modules(entry)}
    else:
        files = dict(bot_files(found.folder, FileLimits.from_env()))
    bounded(files, spec)
    origin = str(entry if found.kind == "file" and entry is not None else found.folder)
    return BotSource(files, found.argv, found.language, origin, name=found.name)


def _whole_folder(entry: Path) -> bool:
    """Does a bot file need its whole folder? Every bot but a Python file does, as the quoted
    command form does: a JavaScript bot its ``package.json``, a Ruby or compiled bot the stubs
    and libraries beside it. A Python file takes just the modules of its folder it imports."""
    return entry.suffix != ".py"


def _local_modules(entry: Path) -> dict[str, Path]:
    """The modules and packages of ``entry``'s folder a Python file imports (transitively)."""
    folder = entry.parent
    files: dict[str, Path] = {}
    todo = [entry] if entry.suffix == ".py" else []
    seen: set[Path] = set()
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        try:
            tree = ast.parse(path.read_bytes(), filename=str(path))
        except (SyntaxError, ValueError, OSError):
            continue  # the check game will say what is wrong with it
        names: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names.update(a.name.split(".")[0] for a in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module.split(".")[0])
        for name in sorted(names):
            module, package = folder / f"{name}.py", folder / name
            if module.is_file():
                files[module.name] = module
                todo.append(module)
            elif (package / "__init__.py").is_file():
                for rel, full in bot_files(package):
                    files[f"{name}/{rel}"] = full
                    if full.suffix == ".py":
                        todo.append(full)
    return files


def _with_command(spec: str, command: str) -> BotSource:
    """A file or folder run by the command given with ``--command``."""
    from hegemon.leaderboard.botspec import language_of

    path = Path(spec).expanduser()
    if not path.exists():
        raise RegistryError(f"{spec}: no such file or folder")
    path = path.resolve()
    files = dict(bot_files(path, FileLimits.from_env()))
    if not files:
        raise RegistryError(f"{spec}: the folder holds no files")
    bounded(files, spec)
    try:
        argv = tuple(shlex.split(command))
    except ValueError as exc:
        raise RegistryError(f"--command {command!r}: {exc}") from None
    if not argv:
        raise RegistryError("--command is empty")
    folder = path if path.is_dir() else path.parent
    return BotSource(files, argv, language_of(argv, folder), str(path), name=path.stem)


# ---------------------------------------------------------------------------------- running
def resolve_argv(argv: Sequence[str], folder: Path) -> tuple[str, ...]:
    """The stored argv made runnable from ``folder``
    (:func:`hegemon.leaderboard.botspec.runnable_argv`)."""
    from hegemon.leaderboard.botspec import BotSpecError, runnable_argv

    try:
        return runnable_argv(argv, folder)
    except BotSpecError as exc:
        raise RegistryError(str(exc)) from None


def command_in(source_argv: Sequence[str], folder: Path, name: str) -> Any:
    """A runner ``BotCommand`` for ``source_argv`` run in ``folder``."""
    from hegemon.referee.runner.process import BotCommand

    return BotCommand(name, resolve_argv(source_argv, folder), cwd=str(folder))


def bot_command(bot: BotRow, name: str | None = None) -> Any:
    """The ``hegemon.referee.runner.process.BotCommand`` that runs a registered bot version from its
    stored folder (named ``name``, default ``bot.label`` i.e. ``NAME@vN``). Raises
    :class:`RegistryError` if the stored files are missing (call
    :func:`~hegemon.leaderboard.registry.materialise` first: it fetches them from the
    database) or the program is not installed."""
    folder = paths.bot_dir(bot.content_hash)
    if not folder.is_dir():
        raise RegistryError(
            f"{bot.label}: its files are missing ({folder}) and were not fetched from the database"
        )
    return command_in(bot.command, folder, name or bot.label)
