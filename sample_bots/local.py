"""A Python bot for in-process play, by a sample bot's name or a bot's file."""

from __future__ import annotations

import importlib

from hegemon.sdk.bot import Bot
from hegemon.sdk.loading import bot_class, file_bot_class

from .names import NAMES


def python_bot(spec: str) -> type[Bot] | None:
    """The class making fresh bot objects for a Python bot (a sample bot's name, a ``.py`` file
    or a folder with ``bot.py``/``main.py``), or None when ``spec`` is not one: such a bot is
    then played as a process."""
    if spec in NAMES:
        return bot_class(importlib.import_module(f"hegemon.sample_bots.{spec}"))
    return file_bot_class(spec)
