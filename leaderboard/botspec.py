"""The one resolver of bot arguments: what ``--bot``, ``hegemon bot check`` and
``hegemon bot add`` accept, and how each form runs. It belongs to the command line and the
league, not to the match runner, which takes the resolved :class:`BotCommand` only.

Accepted forms (:func:`resolve_spec`):

* a sample bot's name (``random``, ``planner``, …) and ``node`` (the JavaScript sample);
* a file: ``bot.py`` (this Python), ``bot.js`` (node), an executable file;
* a folder holding one of ``bot.py``, ``main.py``, ``bot.js``, ``index.js``, or an executable
  ``bot`` (a compiled bot, or a script with a ``#!`` line);
* a whole command line in quotes (``"node sample_bots/node/bot.js"``): its relative paths are
  taken from the current directory, and it runs in the folder of its first file argument;
* ``host:port`` of a remote bot that is already serving.

A local bot always runs with **its own folder as its working directory** (visible read-only in
its sandbox). A Python file runs through the runner's :mod:`~hegemon.referee.runner.pyboot`,
which puts the bot's folder *last* on ``sys.path``: a bot's own ``random.py`` never hides the
standard library or the SDK.

The resolved :class:`BotSpec` keeps the command in its portable form (``("python", "bot.py")``
relative to the folder), which is what a registered bot stores; :func:`runnable_argv` turns it
into the command this machine runs.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from hegemon.referee.runner import pyboot
from hegemon.referee.runner.process import BotCommand
from hegemon.referee.runner.sandbox.binds import shebang
from hegemon.sample_bots import names as sample_bots
from hegemon.sample_bots.names import NAMES as SAMPLE_BOTS

NODE_SAMPLE = Path(sample_bots.__file__).resolve().parent / "node"
FOLDER_ENTRY_POINTS = ("bot.py", "main.py", "bot.js", "index.js", "bot")
REMOTE = re.compile(r"^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:]+\]):\d{1,5}$")
PYTHON_NAMES = ("python", "python3")
PYBOOT = Path(pyboot.__file__).resolve()
"""The runner's launcher of Python bot files (run by path: it needs no package)."""
SAMPLE_FORMS = (*SAMPLE_BOTS, "node")


class BotSpecError(ValueError):
    """A bot argument that names no runnable bot; ``str(exc)`` is one line for the user."""


@dataclass(frozen=True)
class BotSpec:
    """A resolved bot argument.

    ``argv`` is portable: a bare program name (``python``, ``node``) or ``./x`` inside
    ``folder``, and paths relative to ``folder``. ``entry`` is the bot's main file (for a file
    or folder form), ``folder`` its working directory (``None`` for sample and remote bots)."""

    given: str
    kind: str  # "sample", "file", "folder", "command" or "remote"
    name: str  # the default seat label (the bot's Hello name replaces it in a game)
    argv: tuple[str, ...] = ()
    folder: Path | None = None
    entry: Path | None = None
    language: str = "executable"
    remote: str | None = None
    sample: str | None = None

    def command(self, name: str | None = None) -> BotCommand:
        """The :class:`BotCommand` that runs this bot here."""
        label = name or self.name
        if self.remote is not None:
            return BotCommand(label, (), remote=self.remote)
        return BotCommand(
            label,
            runnable_argv(self.argv, self.folder),
            cwd=None if self.folder is None else str(self.folder),
        )


# ---------------------------------------------------------------------------------- running
def runnable_argv(argv: Sequence[str], folder: Path | None) -> tuple[str, ...]:
    """``argv`` (portable form) as this machine runs it from ``folder``: ``python``/``python3``
    mean this interpreter (which has the SDK and gRPC) and a ``.py`` file runs through
    :mod:`~hegemon.referee.runner.pyboot`; ``./x`` is the folder's ``x``; other bare names are
    looked up on ``PATH``."""
    if not argv:
        raise BotSpecError("the bot has no command")
    program, rest = argv[0], tuple(argv[1:])
    if program in PYTHON_NAMES:
        if rest and rest[0].endswith(".py"):
            script = Path(rest[0]) if folder is None else folder / rest[0]
            return (sys.executable, "-P", str(PYBOOT), str(script.resolve()), *rest[1:])
        return (sys.executable, *rest)
    if program.startswith(("./", "../")):
        base = folder or Path.cwd()
        return (str((base / program).resolve()), *rest)
    if os.path.isabs(program):
        return (program, *rest)
    found = shutil.which(program)
    if found is None:
        raise BotSpecError(
            f"cannot find the program '{program}' on PATH"
            + (" (a JavaScript bot needs node)" if program in ("node", "nodejs") else "")
        )
    return (found, *rest)


SUFFIX_LANGUAGES = {
    ".py": "python",
    ".js": "javascript",
    ".mjs": "javascript",
    ".cjs": "javascript",
    ".rb": "ruby",
    ".pl": "perl",
    ".sh": "shell",
    ".lua": "lua",
    ".php": "php",
    ".jar": "java",
}
"""The language a bot file's suffix names (``bot list``'s language column)."""

SHEBANG_NAMES = {"python3": "python", "node": "javascript", "bash": "shell", "sh": "shell"}


def language_of(argv: Sequence[str], folder: Path | None = None) -> str:
    """The bot's language for people (``bot list``): ``python``, ``javascript``, ``ruby``, …,
    ``compiled`` for a native executable; from the program, its script's suffix, or (for
    ``./x`` in ``folder``) the file itself: its ``#!`` line or its machine code."""
    program = Path(argv[0]).name if argv else ""
    if program.startswith("python"):
        return "python"
    if program in ("node", "nodejs", "deno", "bun"):
        return "javascript"
    for arg in argv[1:2]:
        if Path(arg).suffix in SUFFIX_LANGUAGES:
            return SUFFIX_LANGUAGES[Path(arg).suffix]
    if argv and argv[0].startswith(("./", "../", "/")):
        return _file_language((folder or Path.cwd()) / argv[0])
    return program[:32] or "executable"


def _file_language(path: Path) -> str:
    """An executable file's language: by suffix, ``#!`` line or ELF header."""
    if path.suffix in SUFFIX_LANGUAGES:
        return SUFFIX_LANGUAGES[path.suffix]
    words = shebang(path)
    if words:
        name = Path(words[1] if Path(words[0]).name == "env" and len(words) > 1 else words[0]).name
        return SHEBANG_NAMES.get(name, name.rstrip("0123456789.")) or "executable"
    try:
        with open(path, "rb") as f:
            return "compiled" if f.read(4) == b"\x7fELF" else "executable"
    except OSError:
        return "executable"


def file_argv(rel: str, path: Path) -> tuple[str, ...]:
    """The portable command of a bot file ``rel`` (``path`` on disk)."""
    if path.suffix == ".py":
        return ("python", rel)
    if path.suffix in (".js", ".mjs", ".cjs"):
        return ("node", rel)
    if os.access(path, os.X_OK):
        return (f"./{rel}",)
    raise BotSpecError(
        f"{path}: not a .py or .js file and not executable; give the command "
        'that runs it in quotes, e.g. "ruby bot.rb"'
    )


# ---------------------------------------------------------------------------------- resolving
def resolve_spec(spec: str, cwd: Path | None = None) -> BotSpec:
    """What a bot argument names (see the module docstring); raises :class:`BotSpecError`
    with a reason in one line. Relative paths are taken from ``cwd`` (default: the current
    directory)."""
    given = spec
    spec = spec.strip()
    base = cwd or Path.cwd()
    if not spec:
        raise BotSpecError("no bot given: name a file, a folder, a sample bot or a command")
    if spec in SAMPLE_BOTS:
        return BotSpec(
            given,
            "sample",
            spec,
            ("python", "-m", f"hegemon.sample_bots.{spec}"),
            language="python",
            sample=spec,
        )
    if spec == "node":
        if not (NODE_SAMPLE / "node_modules").is_dir():
            # an installed hegemon ships the sample without its packages
            raise BotSpecError(
                f"node: the node sample's packages are missing: run `npm ci` in {NODE_SAMPLE}"
            )
        return _folder_spec(given, NODE_SAMPLE, "node")
    path = base / Path(spec).expanduser()
    if path.is_dir():
        return _folder_spec(given, path)
    if path.is_file():
        found = path.resolve()
        argv = file_argv(found.name, found)
        language = language_of(argv, found.parent)
        return BotSpec(given, "file", found.stem, argv, found.parent, found, language)
    if REMOTE.match(spec):
        return BotSpec(given, "remote", spec, remote=spec)
    if any(ch.isspace() for ch in spec):
        return _command_spec(given, spec, base)
    raise BotSpecError(
        f"{spec}: no such file or folder, and not a sample bot ({', '.join(SAMPLE_FORMS)}), "
        "a command in quotes or host:port"
    )


def _folder_spec(given: str, path: Path, name: str | None = None) -> BotSpec:
    folder = path.resolve()
    for entry in FOLDER_ENTRY_POINTS:
        path = folder / entry
        if path.is_file() and (path.suffix or os.access(path, os.X_OK)):
            argv = file_argv(entry, path)
            label, language = name or folder.name, language_of(argv, folder)
            return BotSpec(given, "folder", label, argv, folder, path, language)
    raise BotSpecError(
        f"{given.strip()}: a bot folder needs one of {', '.join(FOLDER_ENTRY_POINTS[:-1])} "
        "or an executable 'bot' (or give the command that runs it in quotes, e.g. "
        '"ruby bot.rb")'
    )


def _command_spec(given: str, spec: str, base: Path) -> BotSpec:
    """A command line: it runs in the folder of its first file argument (else of its first
    folder argument, else the current directory); its paths are rewritten for that folder."""
    try:
        words = shlex.split(spec)
    except ValueError as exc:
        raise BotSpecError(f"{spec}: {exc}") from None
    program, args = words[0], words[1:]
    paths = [(base / a).resolve() if _is_path(base, a) else None for a in args]
    files = [p for p in paths if p is not None and p.is_file()]
    dirs = [p for p in paths if p is not None and p.is_dir()]
    folder = files[0].parent if files else dirs[0] if dirs else base.resolve()
    portable = []
    for arg, found in zip(args, paths, strict=True):
        if found is None:
            portable.append(arg)
        elif found == folder or folder in found.parents:
            portable.append(found.relative_to(folder).as_posix() or ".")
        else:
            portable.append(str(found))
    if "/" in program:
        found_program = (base / program).resolve()
        if not found_program.is_file():
            raise BotSpecError(f"{spec}: cannot find the program '{program}'")
        program = (
            f"./{found_program.relative_to(folder).as_posix()}"
            if folder in found_program.parents
            else str(found_program)
        )
    elif program not in PYTHON_NAMES and shutil.which(program) is None:
        raise BotSpecError(f"{spec}: cannot find the program '{program}' on PATH")
    argv = (program, *portable)
    entry = files[0] if files else None
    name = entry.stem if entry is not None else Path(program).name
    if entry is not None and entry.stem in ("bot", "main", "index"):
        name = folder.name
    return BotSpec(given, "command", name, argv, folder, entry, language_of(argv, folder))


def _is_path(base: Path, arg: str) -> bool:
    if arg.startswith("-"):
        return False
    try:
        return (base / arg).exists()
    except OSError:
        return False


def resolve(spec: str, name: str | None = None) -> BotCommand:
    """The command for one bot argument; raises :class:`BotSpecError` with a clear reason."""
    return resolve_spec(spec).command(name)
