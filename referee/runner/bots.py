"""Turning a ``--bot`` argument into a :class:`BotCommand`.

Accepted forms: a sample bot's name (``random``, ``planner``, …, ``node``), a file (``bot.py``
runs with this Python, ``bot.js`` with node, an executable file directly), a folder holding one
of ``bot.py``, ``main.py``, ``bot.js``, ``index.js``, a whole command line
(``"node path/bot.js"``), or ``host:port`` of a remote bot that is already serving.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shlex
import shutil
import sys
from pathlib import Path

from hegemon.sample_bots.names import NAMES as SAMPLE_BOTS

from .process import BotCommand

NODE_SAMPLE = Path(__file__).resolve().parents[2] / "sample_bots" / "node" / "bot.js"
FOLDER_ENTRY_POINTS = ("bot.py", "main.py", "bot.js", "index.js")
REMOTE = re.compile(r"^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:]+\]):\d{1,5}$")


class BotSpecError(ValueError):
    """A ``--bot`` argument that names no runnable bot."""


def command_for_file(path: Path, name: str) -> BotCommand:
    path = path.resolve()
    if path.suffix == ".py":
        return BotCommand(name, (sys.executable, str(path)), cwd=str(path.parent))
    if path.suffix in (".js", ".mjs"):
        node = shutil.which("node")
        if node is None:
            raise BotSpecError(f"{path}: a JavaScript bot needs node, which is not installed")
        return BotCommand(name, (node, str(path)), cwd=str(path.parent))
    if os.access(path, os.X_OK):
        return BotCommand(name, (str(path),), cwd=str(path.parent))
    raise BotSpecError(
        f"{path}: not a .py or .js file and not executable; give the command "
        'to run it, e.g. --bot "ruby bot.rb"'
    )


def resolve(spec: str, name: str | None = None) -> BotCommand:
    """The command for one ``--bot`` argument; raises :class:`BotSpecError` with a clear reason."""
    spec = spec.strip()
    if not spec:
        raise BotSpecError("an empty --bot")
    if spec in SAMPLE_BOTS:
        module = f"hegemon.sample_bots.{spec}"
        if importlib.util.find_spec(module) is None:
            raise BotSpecError(f"sample bot '{spec}' is not installed")
        return BotCommand(name or spec, (sys.executable, "-m", module))
    if spec == "node":
        return command_for_file(NODE_SAMPLE, name or "node")
    path = Path(spec).expanduser()
    if path.is_dir():
        for entry in FOLDER_ENTRY_POINTS:
            if (path / entry).is_file():
                return command_for_file(path / entry, name or path.resolve().name)
        raise BotSpecError(f"{spec}: a bot folder needs one of {', '.join(FOLDER_ENTRY_POINTS)}")
    if path.is_file():
        return command_for_file(path, name or path.stem)
    if REMOTE.match(spec):
        return BotCommand(name or spec, (), remote=spec)
    if " " in spec:
        argv = shlex.split(spec)
        program = shutil.which(argv[0])
        if program is None:
            raise BotSpecError(f"{spec}: cannot find the program '{argv[0]}'")
        label = name or Path(argv[-1]).stem
        return BotCommand(label, (program, *argv[1:]))
    known = ", ".join((*SAMPLE_BOTS, "node"))
    raise BotSpecError(
        f"{spec}: no such file or folder, and not a sample bot ({known}) or host:port"
    )
