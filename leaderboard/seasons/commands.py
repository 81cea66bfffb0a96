"""A season's bots on this machine: their files fetched from the database's archives, and the
command that starts each (failures as :class:`~.state.RunnerError`, one line for the user)."""

from __future__ import annotations

from pathlib import Path

from hegemon.referee.runner.process import BotCommand

from ..store import BotRow, Store
from .state import RunnerError


def materialise(store: Store, bot: BotRow) -> Path:
    """The bot's files on this machine, fetched from the database's archive on first use
    (:func:`hegemon.leaderboard.registry.materialise`); raises :class:`RunnerError` if they
    cannot be had."""
    from ..registry import RegistryError
    from ..registry import materialise as fetch

    try:
        return fetch(store, bot)
    except RegistryError as exc:
        raise RunnerError(str(exc)) from None


def bot_command(bot: BotRow) -> BotCommand:
    """How to start a registered bot version (:func:`hegemon.leaderboard.registry.bot_command`);
    raises :class:`RunnerError` if it cannot run here."""
    from ..registry import RegistryError
    from ..registry import bot_command as registered_command

    try:
        command = registered_command(bot)
    except RegistryError as exc:
        raise RunnerError(str(exc)) from None
    assert isinstance(command, BotCommand)
    return command
