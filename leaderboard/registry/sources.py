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
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hegemon.referee.runner.bots import FOLDER_ENTRY_POINTS
from hegemon.sample_bots.names import NAMES as SAMPLE_BOTS

from .. import paths
from ..store import Bot

SKIPPED_DIRS = frozenset({"__pycache__", ".git"})
PYTHON_NAMES = ("python", "python3")


class RegistryError(Exception):
    """A bot that cannot be registered, checked or run; ``str(exc)`` is one line for the user."""


# ---------------------------------------------------------------------------------- files
def bot_files(root: Path) -> list[tuple[str, Path]]:
    """The files that make up the bot in ``root`` (a folder or one file): (relative posix path,
    real path), sorted by relative path. Skips ``__pycache__``/``.git`` folders, ``*.pyc``,
    symlinked folders and anything that is not a regular file (symlinked files count as their
    target's content)."""
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
    found.sort(key=lambda item: item[0])
    return found


def _executable(path: Path) -> bool:
    return bool(path.stat().st_mode & (stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH))


def content_hash(root: Path) -> str:
    """The sha256 (hex) of the bot's files in ``root`` (see the module docstring)."""
    digest = hashlib.sha256()
    for rel, full in bot_files(root):
        data = full.read_bytes()
        digest.update(rel.encode("utf-8") + b"\0")
        digest.update(b"x\0" if _executable(full) else b"-\0")
        digest.update(str(len(data)).encode() + b"\0")
        digest.update(data)
    return digest.hexdigest()


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

    def copy_to(self, target: Path) -> None:
        """Copy the files into the (new) folder ``target``; modes are normalised (0755/0644)."""
        for rel, original in sorted(self.files.items()):
            dest = target / rel
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(original, dest)
            os.chmod(dest, 0o755 if _executable(original) else 0o644)


def _language_of(argv: Sequence[str]) -> str:
    program = Path(argv[0]).name if argv else ""
    if program in PYTHON_NAMES or program.startswith("python"):
        return "python"
    if program in ("node", "nodejs", "deno", "bun"):
        return "javascript"
    for arg in argv[1:2]:
        suffix = Path(arg).suffix
        if suffix == ".py":
            return "python"
        if suffix in (".js", ".mjs"):
            return "javascript"
    if program.startswith("./"):
        return "executable"
    return program[:32] or "executable"


def _file_command(rel: str, full: Path) -> tuple[tuple[str, ...], str]:
    if full.suffix == ".py":
        return ("python", rel), "python"
    if full.suffix in (".js", ".mjs"):
        return ("node", rel), "javascript"
    if _executable(full):
        return (f"./{rel}",), "executable"
    raise RegistryError(
        f"{full}: not a .py or .js file and not executable; give the command "
        'that runs it, e.g. --command "ruby bot.rb"'
    )


def _sample_modules(name: str) -> dict[str, Path]:
    """The sample bot's module file and the sample modules it imports (transitively)."""
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
    """What ``hegemon bot add NAME SPEC [--command ...]`` would store. ``spec`` is a sample bot's
    name, a file or a folder; raises :class:`RegistryError` saying what is wrong."""
    spec = spec.strip()
    if not spec:
        raise RegistryError("no bot given: name a file, a folder or a sample bot")
    if spec in SAMPLE_BOTS and command is None:
        files = _sample_modules(spec)
        return BotSource(
            files, ("python", "-m", f"sample_bots.{spec}"), "python", f"sample:{spec}", sample=spec
        )
    path = Path(spec).expanduser()
    if not path.exists():
        known = ", ".join(SAMPLE_BOTS)
        raise RegistryError(f"{spec}: no such file or folder, and not a sample bot ({known})")
    path = path.resolve()
    files = dict(bot_files(path))
    if not files:
        raise RegistryError(f"{spec}: the folder holds no files")
    if command is not None:
        try:
            argv = tuple(shlex.split(command))
        except ValueError as exc:
            raise RegistryError(f"--command {command!r}: {exc}") from None
        if not argv:
            raise RegistryError("--command is empty")
        return BotSource(files, argv, _language_of(argv), str(path))
    if path.is_file():
        argv, language = _file_command(path.name, path)
        return BotSource(files, argv, language, str(path))
    for entry in FOLDER_ENTRY_POINTS:
        if entry in files:
            argv, language = _file_command(entry, files[entry])
            return BotSource(files, argv, language, str(path))
    raise RegistryError(
        f"{spec}: a bot folder needs one of {', '.join(FOLDER_ENTRY_POINTS)}, "
        "or give the command that runs it with --command"
    )


# ---------------------------------------------------------------------------------- running
def resolve_argv(argv: Sequence[str], folder: Path) -> tuple[str, ...]:
    """The stored argv made runnable from ``folder`` (see the module docstring)."""
    if not argv:
        raise RegistryError("the bot has no command")
    program, rest = argv[0], tuple(argv[1:])
    if program in PYTHON_NAMES:
        return (sys.executable, *rest)
    if program.startswith(("./", "../")):
        return (str((folder / program).resolve()), *rest)
    if os.path.isabs(program):
        return (program, *rest)
    found = shutil.which(program)
    if found is None:
        raise RegistryError(
            f"cannot find the program '{program}' on PATH"
            + (" (a JavaScript bot needs node)" if program == "node" else "")
        )
    return (found, *rest)


def command_in(source_argv: Sequence[str], folder: Path, name: str) -> Any:
    """A runner ``BotCommand`` for ``source_argv`` run in ``folder``."""
    from hegemon.referee.runner.process import BotCommand

    return BotCommand(name, resolve_argv(source_argv, folder), cwd=str(folder))


def bot_command(bot: Bot, name: str | None = None) -> Any:
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
