"""Bots' files on an HTTP runner's machine: fetched from the arena by content digest on first
use, checked against it, and kept in ``$HEGEMON_HOME/bots/<digest>`` (the cache every later
game of that version starts from, as a local runner's copy from the database)."""

from __future__ import annotations

from pathlib import Path

from hegemon.leaderboard import paths
from hegemon.leaderboard.registry import RegistryError
from hegemon.leaderboard.registry.archive import install_archive
from hegemon.leaderboard.seasons.state import RunnerError
from hegemon.leaderboard.store import BotRow

from .client import ArenaClient


def fetch_bot(client: ArenaClient, bot: BotRow) -> Path:
    """The bot's folder here: cached, or fetched now and verified against its digest (a
    mismatch is a :class:`RunnerError`, nothing kept)."""
    folder = paths.bot_dir(bot.content_hash)
    if folder.is_dir():  # verified when it was unpacked
        return folder
    data = client.get(f"/api/runner/archives/{bot.content_hash}")
    try:
        return install_archive(bot, data)
    except RegistryError as exc:
        raise RunnerError(str(exc)) from None
