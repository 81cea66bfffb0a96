"""One arena runner: check games of submitted versions beside the matches of any season or
ladder with games to play, in one process, sharing the database's queues with every other
runner (on this machine or others). Run it as ``python -m hegemon.leaderboard.arena.runner``
(``hegemon arena`` starts ``--workers`` of them; ``hegemon arena --no-web`` on another machine
adds more); it prints one line per event and stops on SIGTERM or Ctrl-C, giving back its claims.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import signal
import sys
from datetime import timedelta

import sqlalchemy as sa
import trio
from sqlmodel import col, select

from ..challenges.turns import Turns
from ..events.progress import advance_events
from ..seasons.child import die_with_parent
from ..seasons.limits import DEFAULT_STALE_AFTER
from ..seasons.liveness import default_worker_id
from ..seasons.retry import Retrying
from ..seasons.runner import run_season
from ..seasons.state import RunnerError
from ..store import CLAIMED, MatchRow, SeasonRow, Store, StoreError, utcnow
from ..store.claims import as_utc
from ..store.database import RUNNER_POOL
from .checks import Say, check_loop
from .idle import Idle
from .relay import Relayed
from .wakeup import Hearing, Listener

POLL = 1.0
"""Seconds between looks at an empty queue on SQLite (on PostgreSQL an idle runner waits for
the database's notification: :mod:`.wakeup`)."""

TURN_GAMES = 4
"""Games a runner plays of one season or ladder before it turns to the next with a match
waiting: a ladder's queue never empties, so without turns the first ladder would hold the
runner for ever (and each turn starts the bots afresh, so not one game a turn)."""


def waiting_seasons(store: Store, held: bool = False) -> list[SeasonRow]:
    """The seasons, ladders and challenges with a match waiting (``held``: or claimed, which
    may be a claim whose runner died and that a claim takes over once stale)."""
    return store.seasons_waiting(challenges=True, held=held)


def next_lapse(store: Store, lease: float) -> float | None:
    """Seconds until the earliest held claim's lease of ``lease`` seconds lapses (≤ 0: lapsed
    already; None: none held): one read, of the unfinished matches' index."""
    with store.session() as s:
        oldest = s.exec(
            select(sa.func.min(col(MatchRow.claimed_at))).where(col(MatchRow.status) == CLAIMED)
        ).first()
    if oldest is None:
        return None
    held = as_utc(oldest)
    assert held is not None
    return (held + timedelta(seconds=lease) - utcnow()).total_seconds()


def playable_season(
    store: Store, turns: Turns | None = None, lease: float = DEFAULT_STALE_AFTER
) -> SeasonRow | None:
    """The season, ladder or challenge with a match waiting that this runner serves next
    (:class:`~hegemon.leaderboard.challenges.turns.Turns`: competitions in turn, served
    longest ago first, a member's challenge between them without starving them) — or, when
    none waits, one holding a claim whose lease lapsed: its runner died (on another machine,
    whose claims nobody here can see to give back), and no write announces a lapse."""
    turns = turns or Turns()
    season = turns.next(waiting_seasons(store))
    if season is not None:
        return season
    lapsed = seasons_with_a_lapsed_claim(store, lease)
    if not lapsed:
        return None
    # only those: a season whose claims are all live would hold this runner until they end
    return turns.next([s for s in waiting_seasons(store, held=True) if s.id in lapsed])


def seasons_with_a_lapsed_claim(store: Store, lease: float) -> set[int]:
    """The seasons holding a claim older than ``lease`` seconds: one read, of the unfinished
    matches' index."""
    cutoff = utcnow() - timedelta(seconds=lease)
    with store.session() as s:
        rows = s.exec(
            select(col(MatchRow.season_id))
            .where(col(MatchRow.status) == CLAIMED, col(MatchRow.claimed_at) < cutoff)
            .distinct()
        ).all()
    return set(rows)


async def match_loop(
    store: Store, worker: str, idle: Idle, say: Say, db: Retrying | None = None
) -> None:
    """Play the seasons', ladders' and challenges' matches as they wait, forever, in turns of
    :data:`TURN_GAMES` games each (waiting on ``idle`` while none waits). A database outage is
    waited out (``db``: by default retried for as long as it lasts) and an error the database
    answers is said, then looked at again: neither ends the loop."""
    turns = Turns()
    db = db or Retrying(say, reconnect_for=math.inf)
    while True:
        mark = idle.mark()  # before the look: work announced during it ends the wait at once
        try:
            steps = await db(advance_events, store)
            season = await db(playable_season, store, turns)
        except StoreError as exc:
            say(f"matches: {exc}")
            await trio.sleep(idle.poll)
            continue
        for step in steps:  # a round is over
            say(
                f"{step.season.name}: "
                + ("ended" if step.standings is not None else f"round {step.round} made")
            )
        if season is None:
            await idle.wait(mark)
            continue
        try:
            state = await run_season(store, season, worker=worker, log=say, stop_after=TURN_GAMES)
        except (StoreError, RunnerError) as exc:  # its bots cannot run here, or the database
            say(f"{season.name}: {exc}")
            await trio.sleep(idle.poll)
            continue
        say(f"{season.name}: {state.done} games played")


async def run_runner(
    store: Store, worker: str | None = None, poll: float = POLL, wake_fd: int | None = None
) -> None:
    """Check games and matches, one of each at a time, until cancelled; idle, wait for the
    database's notification — heard on a listening connection of its own (PostgreSQL,
    :mod:`.wakeup`), or through the pipe ``wake_fd`` from the arena that started it, which
    listens once for all its runners (:mod:`.relay`) — or look again every ``poll`` seconds
    (SQLite)."""
    name = worker or default_worker_id()

    def say(line: str) -> None:
        print(f"runner {name}: {line}", flush=True)

    say("started")
    with (
        trio.open_signal_receiver(signal.SIGINT, signal.SIGTERM) as signals,
        contextlib.ExitStack() as stack,
    ):
        async with trio.open_nursery() as nursery:
            listener: Hearing | None
            if wake_fd is not None:
                relayed = Relayed(wake_fd)
                nursery.start_soon(relayed.run)
                listener = relayed
            else:
                listener = Listener.for_store(store, say)
                if listener is not None:
                    stack.enter_context(listener)
            idle = Idle(listener, poll)
            db = Retrying(say, reconnect_for=math.inf)  # one outage, told once
            nursery.start_soon(check_loop, store, name, idle, say, db)
            nursery.start_soon(match_loop, store, name, idle, say, db)
            async for _ in signals:  # stopped: games and checks in flight are given back
                say("stopping")
                nursery.cancel_scope.cancel()
                break


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="hegemon-arena-runner")
    parser.add_argument("--db", default=None, help="the arena's database (file or URL)")
    parser.add_argument("--worker", default=None, help="this runner's name in the database")
    parser.add_argument(
        "--parent", type=int, default=None, help="stop when this process (its starter) is gone"
    )
    parser.add_argument(
        "--wake-fd", type=int, default=None, help="a pipe its starter writes to when work appears"
    )
    args = parser.parse_args(argv)
    if args.parent is not None:  # given, not read: it may be gone before this line runs
        die_with_parent(args.parent)
    try:
        with Store(args.db, create=False, pool_size=RUNNER_POOL) as store:
            from hegemon.referee.runner import steady  # this entry point alone settles

            steady.settle()  # start-up is over: its objects out of the collector's sight
            trio.run(run_runner, store, args.worker, POLL, args.wake_fd)
    except StoreError as exc:
        print(f"hegemon arena runner: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
