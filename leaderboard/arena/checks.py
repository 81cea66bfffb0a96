"""A runner's check games: claim the oldest queued version, play its check game — the same game
``bot add`` plays, in the sandbox, under the arena's time limits — and store the outcome: the
version becomes active only when it passes; otherwise it is refused with the reason and its log.
Its owner is notified (:mod:`hegemon.leaderboard.notify`): one database write, sent elsewhere.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import trio

from hegemon.referee.bottext import no_paths

from ..notify.events import version_checked
from ..registry import RegistryError, materialise
from ..registry.check import check_command_async
from ..registry.sources import command_in
from ..seasons.retry import Retrying
from ..store import BotRow, Store, StoreError
from .idle import Idle

Say = Callable[[str], None]

STALE_AFTER = 600.0
"""A check claimed longer ago than this (seconds) belongs to a runner that stopped: retaken."""


async def check_next(
    store: Store, worker: str, say: Say | None = None, db: Retrying | None = None
) -> BotRow | None:
    """Check the oldest queued version, if any; returns it as stored after its check. Its claim
    and its outcome's write are retried through a database outage (``db``)."""
    say = say or (lambda line: None)
    db = db or Retrying(say)
    bot = await db(store.claim_check, worker, STALE_AFTER)
    if bot is None:
        return None
    assert bot.id is not None
    say(f"checking {bot.label}")
    log: str | None = None
    try:
        folder = await trio.to_thread.run_sync(materialise, store, bot)
        result = await check_command_async(command_in(bot.command, folder, bot.label))
        passed, log = result.ok, result.log
        reason = result.summary() if passed else result.reason
    except RegistryError as exc:  # its owner reads why: no path of this machine in it
        passed, reason = False, no_paths(str(exc))
    except BaseException:
        with trio.CancelScope(shield=True):  # interrupted: back in the queue for another
            await trio.to_thread.run_sync(store.release_checks, worker)
        raise
    stored = await db(store.finish_check, bot.id, worker, passed, reason, log)
    if stored is not None:  # its owner hears it: a notice, its deliveries queued (not sent here)
        try:
            await trio.to_thread.run_sync(version_checked, store, stored)
        except StoreError as exc:  # the check stands; only its notice is lost
            say(f"{bot.label}: no notice: {exc}")
    say(f"{bot.label}: {'active' if passed else 'refused'}: {reason}")
    return stored


async def check_loop(
    store: Store, worker: str, idle: Idle, say: Say | None = None, db: Retrying | None = None
) -> None:
    """Check queued versions as they come, forever (waiting on ``idle`` while none is). A
    database outage is waited out (``db``: by default retried for as long as it lasts) and an
    error the database answers is said, then the queue looked at again: neither ends the loop
    (a runner process that ended would leave its arena playing nothing)."""
    say = say or (lambda line: None)
    db = db or Retrying(say, reconnect_for=math.inf)
    while True:
        mark = idle.mark()
        try:
            checked = await check_next(store, worker, say, db)
        except StoreError as exc:
            say(f"checks: {exc}")
            await trio.sleep(idle.poll)
            continue
        if checked is None:
            await idle.wait(mark)
