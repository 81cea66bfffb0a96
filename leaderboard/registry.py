"""Registering bots: copy their files by content hash, check they play, and run them later.

A bot is given as a file (``bot.py``, ``bot.js``, an executable), a folder (holding one of
``bot.py``, ``main.py``, ``bot.js``, ``index.js``, or any files plus ``--command``), or a sample
bot's name (``random``, ``aggressive``, ``continental``, ``planner``).

* **Files.** The bot's files are copied into ``$HEGEMON_HOME/bots/<content hash>/``, which is
  the bot's working folder whenever it plays, so editing the original later changes nothing
  registered. ``__pycache__`` and ``.git`` folders and ``*.pyc`` files are left out; everything
  else (``node_modules`` included) is kept. A sample bot is stored as its module (and the
  sample modules it imports) under ``sample_bots/`` in that folder and run with
  ``python -m sample_bots.NAME`` from there; ``hegemon.sdk`` and ``hegemon.referee`` come from
  the installed hegemon, like the interpreter.
* **Content hash** (:func:`content_hash`): sha256 over the files in sorted order of their
  relative paths (``/``-separated), each as ``path NUL mode NUL size NUL bytes`` where mode is
  ``x`` for an executable file and ``-`` otherwise.
* **Versions.** The first registration of a name is v1; new content under the same name is the
  next version; the same content again is refused as "already registered as NAME vN".
* **Command** (``Bot.command``, an argv run in the stored folder): inferred from the file type
  (``python bot.py``, ``node bot.js``, ``./bot``) or given with ``--command``. At run time
  ``python``/``python3`` mean hegemon's own interpreter (which has the SDK and gRPC), ``node``
  and other bare names are looked up on ``PATH``, and ``./x`` is the stored folder's ``x``.
* **Check** (:func:`check_command`): a short game against two sample ``random`` bots
  (``classic``, ``turn_limit`` 10, seed 1) with real processes. Any fault of the bot —
  start-up failure, crash, timeout, illegal action, protocol error — refuses it, with the
  reason in one line.
"""

from __future__ import annotations

import ast
import hashlib
import importlib.util
import os
import re
import shlex
import shutil
import stat
import sys
import tempfile
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from hegemon.referee.runner.bots import FOLDER_ENTRY_POINTS
from hegemon.sample_bots.names import NAMES as SAMPLE_BOTS

from . import paths
from .store import Bot, Store, StoreError

__all__ = [
    "CHECK_OPPONENTS",
    "SAMPLE_BOTS",
    "AddResult",
    "BotSource",
    "CheckResult",
    "RegistryError",
    "add_bot",
    "bot_command",
    "bot_files",
    "check_command",
    "check_source",
    "content_hash",
    "find_source",
    "lookup_bot",
    "parse_bot_ref",
    "remove_bots",
    "validate_name",
]

SKIPPED_DIRS = frozenset({"__pycache__", ".git"})
PYTHON_NAMES = ("python", "python3")
NAME_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
CHECK_OPPONENTS = ("random", "random")
CHECK_SEED = 1
CHECK_TURN_LIMIT = 10


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
    :class:`RegistryError` if the stored files are missing (another machine? copy
    ``$HEGEMON_HOME/bots`` or register the bot there too) or the program is not installed."""
    folder = paths.bot_dir(bot.content_hash)
    if not folder.is_dir():
        raise RegistryError(
            f"{bot.label}: its files are missing ({folder}); register it again "
            "on this machine or share $HEGEMON_HOME/bots"
        )
    return command_in(bot.command, folder, name or bot.label)


# ---------------------------------------------------------------------------------- checking
@dataclass
class CheckResult:
    """The check game's outcome for the checked bot (seat 0)."""

    ok: bool
    reason: str  # why it failed, one line ("" if ok)
    place: int | None = None
    places: tuple[int, ...] = ()
    finish_reason: str = ""
    decisions: int = 0  # decisions the checked bot answered
    duration: float = 0.0
    faults: list[dict[str, Any]] = field(default_factory=list)  # the checked bot's faults
    record: str = ""  # the game record (JSON lines)

    def summary(self) -> str:
        if not self.ok:
            return f"refused: {self.reason}"
        return (
            f"passed: place {self.place} of {len(self.places)}, {self.decisions} decisions "
            f"answered, {self.finish_reason}, {self.duration:.1f} s"
        )


FAULT_NAMES = {
    "startup": "start-up failure",
    "crash": "crash",
    "timeout": "timeout",
    "illegal": "illegal action",
    "protocol": "protocol error",
}


def check_time_control() -> Any:
    """Deadlines of the check game: generous for start-up, short for answers, no strikes."""
    from hegemon.referee.runner.link import TimeControl

    return replace(TimeControl(), startup=20.0, decision=3.0, max_strikes=0)


async def check_command_async(
    command: Any,
    *,
    seed: int = CHECK_SEED,
    turn_limit: int = CHECK_TURN_LIMIT,
    time_control: Any = None,
) -> CheckResult:
    """Play the check game (trio): ``command`` in seat 0 against :data:`CHECK_OPPONENTS`."""
    from hegemon.referee.rules import make_rules
    from hegemon.referee.runner.bots import BotSpecError, resolve
    from hegemon.referee.runner.session import play_one

    try:
        opponents = [resolve(spec, f"{spec}#{i + 1}") for i, spec in enumerate(CHECK_OPPONENTS)]
    except BotSpecError as exc:
        raise RegistryError(f"cannot run the check game: {exc}") from None
    rules = make_rules("classic", {"turn_limit": turn_limit})
    names = [command.name, *(c.name for c in opponents)]
    result = await play_one(
        [command, *opponents],
        rules,
        seed,
        time_control or check_time_control(),
        None,
        "check",
        None,
        names,
    )
    own = [f for f in result.faults if f.seat == 0]
    others = [f for f in result.faults if f.seat != 0]
    faults = [
        {"seat": f.seat, "bot": f.bot, "kind": f.kind, "detail": f.detail, "decision": f.decision}
        for f in own
    ]
    answered = result.seats[0].decisions
    common: dict[str, Any] = {
        "places": tuple(result.places),
        "finish_reason": result.reason,
        "decisions": answered,
        "duration": result.duration,
        "faults": faults,
        "record": result.record,
    }
    if own:
        first = own[0]
        detail = " ".join(first.detail.split())
        reason = f"{FAULT_NAMES.get(first.kind, first.kind)}: {detail}"
        return CheckResult(False, reason, result.places[0], **common)
    if others:
        first = others[0]
        raise RegistryError(
            f"the check game itself failed (sample bot {first.bot}: {first.kind}: "
            f"{' '.join(first.detail.split())})"
        )
    return CheckResult(True, "", result.places[0], **common)


def check_command(command: Any, **kwargs: Any) -> CheckResult:
    """:func:`check_command_async` from synchronous code."""
    import trio

    return trio.run(lambda: check_command_async(command, **kwargs))


def check_source(source: BotSource, name: str = "candidate", **kwargs: Any) -> CheckResult:
    """Check a bot as it would run once registered: from a fresh copy of its files."""
    with tempfile.TemporaryDirectory(prefix="hegemon-check-") as tmp:
        folder = Path(tmp) / "bot"
        folder.mkdir()
        source.copy_to(folder)
        return check_command(command_in(source.command, folder, name), **kwargs)


# ---------------------------------------------------------------------------------- registering
@dataclass
class AddResult:
    bot: Bot
    new: bool  # False: this content was already registered under this name
    check: CheckResult | None = None


def validate_name(name: str) -> str:
    name = name.strip()
    if not NAME_PATTERN.match(name):
        raise RegistryError(
            f"bad bot name {name!r}: use letters, digits, '_', '-', '.' "
            "(up to 64, starting with a letter or digit)"
        )
    return name


def _stage(source: BotSource) -> tuple[Path, str]:
    """Copy the files into a staging folder next to the stored bots; returns it and its hash."""
    root = paths.bots_dir()
    root.mkdir(parents=True, exist_ok=True)
    staging = root / f".staging-{uuid.uuid4().hex}"
    staging.mkdir()
    try:
        source.copy_to(staging)
        return staging, content_hash(staging)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


def add_bot(
    store: Store, name: str, spec: str, command: str | None = None, check: bool = True
) -> AddResult:
    """Register ``spec`` (file, folder or sample bot name) as the next version of ``name``.

    Refuses (:class:`RegistryError`) a bot whose check game shows a fault. Registering content
    already stored under ``name`` changes nothing and returns ``new=False``.
    """
    name = validate_name(name)
    source = find_source(spec, command)
    staging, digest = _stage(source)
    try:
        existing = store.find_bot_by_hash(name, digest)
        if existing is not None:
            return AddResult(existing, new=False)
        folder = paths.bot_dir(digest)
        result = None
        if check:
            result = check_source(source, name)
            if not result.ok:
                raise RegistryError(f"{name} is refused: {result.reason}")
        if not folder.is_dir():
            try:
                staging.rename(folder)
            except OSError:
                if not folder.is_dir():  # not a concurrent registration of the same files
                    raise
        try:
            bot = store.add_bot(name, source.command, digest, source.language, source.origin)
        except StoreError:
            if not store.hash_in_use(digest):
                shutil.rmtree(folder, ignore_errors=True)
            raise
        return AddResult(bot, new=True, check=result)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


_REF = re.compile(r"^(?P<name>[^@]+)(?:@v?(?P<version>\d+))?$")


def parse_bot_ref(ref: str) -> tuple[str, int | None]:
    """``name``, ``name@vN`` or ``name@N`` → (name, version or None for the latest)."""
    match = _REF.match(ref.strip())
    if not match:
        raise RegistryError(f"bad bot reference {ref!r}: use NAME or NAME@vN")
    version = match.group("version")
    return match.group("name").strip(), int(version) if version else None


def lookup_bot(store: Store, ref: str) -> Bot:
    """The registered bot ``ref`` names (latest version unless ``@vN``)."""
    name, version = parse_bot_ref(ref)
    bot = store.find_bot(name, version)
    if bot is not None:
        return bot
    if version is not None and store.find_bot(name) is not None:
        versions = ", ".join(f"v{b.version}" for b in store.bots(name))
        raise RegistryError(f"bot {name} has no version {version} (registered: {versions})")
    known = sorted({b.name for b in store.bots()})
    listed = ", ".join(known) if known else "none; add one with: hegemon bot add NAME PATH"
    raise RegistryError(f"unknown bot '{name}' (registered: {listed})")


def remove_bots(store: Store, name: str, version: int | None = None) -> list[Bot]:
    """Remove one version (or every version) of ``name``. Refuses, removing nothing, if any of
    them plays in a season. Stored files no other version uses are deleted."""
    targets = (
        store.bots(name)
        if version is None
        else [b for b in store.bots(name) if b.version == version]
    )
    if not targets:
        if version is not None and store.bots(name):
            raise RegistryError(f"bot {name} has no version {version}")
        raise RegistryError(f"unknown bot '{name}'")
    for bot in targets:
        used = store.seasons_using_bot(bot.id)  # type: ignore[arg-type]
        if used:
            raise RegistryError(
                f"{bot.label} plays in season {', '.join(s.name for s in used)}; "
                "bots with seasons cannot be removed"
            )
    removed = []
    for bot in targets:
        try:
            removed.append(store.remove_bot(bot.id))  # type: ignore[arg-type]
        except StoreError as exc:
            raise RegistryError(str(exc)) from None
        if not store.hash_in_use(bot.content_hash):
            shutil.rmtree(paths.bot_dir(bot.content_hash), ignore_errors=True)
    return removed
