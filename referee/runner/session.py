"""Running whole games: open the bots, play, close — and nothing is ever left running.

:func:`play_one` is what ``hegemon play`` uses. :class:`LinkPool` keeps bot processes between
games (the default for seasons) or restarts them per game.
"""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import trio

from ..game import Game
from ..limits import DEFAULT_DECISION_LIMIT, bounded
from ..rules import RuleSet
from ..timecontrol import TimeControl
from .botlog import logs_dir, write_seat_logs
from .labels import seat_labels
from .link import DEFAULT_LIMITS, BotLimits, BotLink
from .match import GameResult, Referee
from .process import BotCommand


def new_game_id() -> str:
    """A fresh game id, ``game-`` and 16 random hex digits: it tells nothing about the seed."""
    return f"game-{secrets.token_hex(8)}"


class LinkPool:
    """Bot connections by seat name, reused across games unless ``restart_per_game``."""

    def __init__(
        self,
        time_control: TimeControl,
        restart_per_game: bool = False,
        limits: BotLimits = DEFAULT_LIMITS,
    ):
        self.time = time_control
        self.limits = limits
        self.restart = restart_per_game
        self._idle: dict[BotCommand, list[BotLink]] = {}
        self._all: list[BotLink] = []

    async def acquire(self, command: BotCommand) -> BotLink:
        idle = self._idle.get(command, [])
        while idle:
            link = idle.pop()
            if link.reusable and not self.restart:
                return link
            await self._close(link)
        link = BotLink(command, self.time, self.limits)
        self._all.append(link)
        await link.open()
        return link

    async def release(self, link: BotLink) -> None:
        if link.reusable and not self.restart:
            self._idle.setdefault(link.command, []).append(link)
        else:
            await self._close(link)

    async def _close(self, link: BotLink) -> None:
        if link in self._all:
            self._all.remove(link)
        await link.close()

    async def aclose(self) -> None:
        with trio.CancelScope(shield=True):
            links, self._all, self._idle = self._all, [], {}
            await _each(links, BotLink.close)


@asynccontextmanager
async def link_pool(
    time_control: TimeControl, restart_per_game: bool = False, limits: BotLimits = DEFAULT_LIMITS
) -> AsyncIterator[LinkPool]:
    pool = LinkPool(time_control, restart_per_game, limits)
    try:
        yield pool
    finally:
        await pool.aclose()


async def play_game(
    pool: LinkPool,
    commands: list[BotCommand],
    rules: RuleSet,
    seed: int,
    game_id: str,
    on_progress: Callable[[Referee], Any] | None = None,
    seat_names: list[str] | None = None,
) -> GameResult:
    """Play one game with bots from ``pool`` (started concurrently) and give them back. Every
    game ends (:mod:`hegemon.referee.limits`): rules without a round limit get the default
    one, and any game stops at the default decision limit."""
    game = Game(bounded(rules), len(commands), seed, decision_limit=DEFAULT_DECISION_LIMIT)
    async with seated(pool, commands) as ready:
        names = seat_names or seat_labels(ready)
        # a bot's log spans its games (pooled processes): this game's part starts here, or at
        # its very start (its start-up output included) for a bot in its first game
        marks = [link.process.log_size() if link.process and link.games else 0 for link in ready]
        referee = Referee(game, ready, game_id, pool.time, names, on_progress)
        result = await referee.play()
        result.logs = [
            link.process.log_since(mark) if link.process else None
            for link, mark in zip(ready, marks, strict=True)
        ]
        return result


@asynccontextmanager
async def seated(pool: LinkPool, commands: Sequence[BotCommand]) -> AsyncIterator[list[BotLink]]:
    """A link from ``pool`` for each of ``commands`` (started concurrently), in seat order;
    each given back to the pool afterwards, however the block ends."""
    links: list[BotLink | None] = [None] * len(commands)

    async def get(i: int) -> None:
        links[i] = await pool.acquire(commands[i])

    try:
        async with trio.open_nursery() as nursery:
            for i in range(len(commands)):
                nursery.start_soon(get, i)
        yield [link for link in links if link is not None]  # every acquire returned
    finally:
        with trio.CancelScope(shield=True):
            await _each([link for link in links if link is not None], pool.release)


async def _each(links: list[BotLink], job: Callable[[BotLink], Awaitable[Any]]) -> None:
    """``job(link)`` for every link at once: stopping a bot waits for its process to exit, and
    a game's bots need not wait for each other."""
    async with trio.open_nursery() as nursery:
        for link in links:
            nursery.start_soon(job, link)


async def play_one(
    commands: list[BotCommand],
    rules: RuleSet,
    seed: int,
    time_control: TimeControl,
    record_path: Path | None = None,
    game_id: str | None = None,
    on_progress: Callable[[Referee], Any] | None = None,
    seat_names: list[str] | None = None,
    log_dir: Path | None = None,
    limits: BotLimits = DEFAULT_LIMITS,
) -> GameResult:
    """Start the bots, play one game, write its record and each seat's log (into ``log_dir``,
    by default ``<record>.logs/`` beside the record), stop the bots. Seats are labelled by
    ``seat_names``, else by each bot's Hello name; ``limits`` bound each bot process."""
    async with link_pool(time_control, restart_per_game=True, limits=limits) as pool:
        result = await play_game(
            pool, commands, rules, seed, game_id or new_game_id(), on_progress, seat_names
        )
    if record_path is not None:
        record = trio.Path(record_path)
        await record.parent.mkdir(parents=True, exist_ok=True)
        await record.write_text(result.record, encoding="utf-8")
    folder = log_dir or (logs_dir(record_path) if record_path is not None else None)
    if folder is not None:
        await trio.to_thread.run_sync(write_seat_logs, folder, result.logs)
    return result
