"""A Python bot loaded into this process from its file: the class to make fresh bot objects
from, for play without gRPC (:func:`hegemon.sdk.play_local`, the learning environments, ``hegemon
bench``'s in-process games)."""

from __future__ import annotations

import hashlib
import importlib.util
import inspect
import sys
from pathlib import Path
from types import ModuleType

from .bot import Bot


def bot_class(module: ModuleType) -> type[Bot] | None:
    """The one :class:`hegemon.sdk.Bot` subclass defined in ``module`` (the last if several)."""
    found = [
        value
        for value in vars(module).values()
        if inspect.isclass(value)
        and issubclass(value, Bot)
        and value is not Bot
        and value.__module__ == module.__name__
    ]
    return found[-1] if found else None


def bot_file(spec: str) -> Path | None:
    """The Python file of the bot ``spec`` names (a ``.py`` file, or a folder holding
    ``bot.py`` or ``main.py``), or None when ``spec`` names no such file."""
    path = Path(spec).expanduser()
    if path.is_dir():
        path = next((path / n for n in ("bot.py", "main.py") if (path / n).is_file()), path)
    return path if path.suffix == ".py" and path.is_file() else None


def file_bot_class(spec: str) -> type[Bot] | None:
    """The bot class of the Python file ``spec`` names (see :func:`bot_file`), its module run
    with its own folder on the import path (for its helper modules, as when it runs as a
    process); None when ``spec`` is no such file or defines no bot."""
    path = bot_file(spec)
    if path is None:
        return None
    folder = str(path.resolve().parent)
    name = f"_hegemon_local_{hashlib.sha1(str(path.resolve()).encode()).hexdigest()[:12]}"
    loader = importlib.util.spec_from_file_location(name, path)
    if loader is None or loader.loader is None:
        return None
    module = importlib.util.module_from_spec(loader)
    sys.path.insert(0, folder)
    try:
        loader.loader.exec_module(module)
    finally:
        sys.path.remove(folder)
    return bot_class(module)
