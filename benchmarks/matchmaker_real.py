"""How fast does a real ladder of the sample bots settle a new version? The matchmaker against
a fixed balanced schedule, with outcomes from real games instead of the simulation's model.

    nice -n 19 python benchmarks/matchmaker_real.py [--games 48] [--turn-limit 60] [--runs 10]
                                                    [--horizon 80] [--every 1] [--history 24]

The bots: every sample bot that plays in this process (random, aggressive, continental, planner
and the guide's minimal bot); the node sample runs only as a process and is left out. The
*bank*: for every 4-bot table, ``--games`` real games (:func:`hegemon.sdk.play_local`, classic
with a turn limit of ``--turn-limit`` rounds), the seating going through every order of the
table in turn, each game's seed and id fixed by its table and number. The bank is kept as JSON
in the system's temporary folder, named by the bots, ``--games`` and the turn limit, so a rerun
only replays the ladders. The *true ranks* are the real fit
(:func:`hegemon.leaderboard.ratings.rate`, the point fit) of the whole bank.

Each bot in turn is the new version. The other four have a history (``--history`` bank games of
their own table), then the ladder plays ``--horizon`` games whose tables each policy chooses
exactly as the simulation's (:func:`benchmarks.matchmaker.settle`: ``balanced``, ``new-first``,
``matchmaker``); a table's result is a random game of the bank with the same bots (in whichever
seats: the bank's seatings are balanced). Settled, the figures and
the last line as in ``benchmarks/matchmaker.py``: ``matchmaker: settled in X% fewer ladder games
than balanced in a real ladder of the sample bots``.

Measured (2026-12-02, load 4–7 on 2 cores; the bank's 240 games took 385 s under ``nice``, the
ladders 3 min at 10 runs, 10 min at 30): true ratings planner 1680, continental 1551, aggressive
1458, random 1430, minimal 1381. With ``--runs 30``: ladder games until settled, balanced →
matchmaker, 7.7 → 7.2 over all new versions (**7 % fewer**; target 30: not met), 3 and 4 of 150
runs never settled in 80 games (all with aggressive new, 28 Elo above random: 21.0 → 23.8);
planner 1.5 → 1.5, random 1.7 → 1.6, continental 3.3 → 1.8, minimal 11.0 → 7.2; new-first 7.0.
The longest wait between two games of a bot 5 → 2. With ``--runs 10`` the same bank gave 25 %
fewer (10.4 → 7.7): the figure rests on a few slow runs of the one close pair. With five bots a
4-seat table leaves out one bot, so the balanced schedule already seats the new version in four
tables of five and the matchmaker has little to choose; the gain the simulation shows at ±300
needs more bots than the sample bots are.
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import random
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypedDict

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.matchmaker import (
    HEADER,
    PLAYERS,
    POLICIES,
    Order,
    Outcome,
    Table,
    fewer,
    row,
    settle,
)
from hegemon.leaderboard.bench import MAX_DECISIONS
from hegemon.leaderboard.ratings import rate
from hegemon.sample_bots.aggressive import AggressiveBot
from hegemon.sample_bots.continental import ContinentalBot
from hegemon.sample_bots.minimal import Minimal
from hegemon.sample_bots.planner import PlannerBot
from hegemon.sample_bots.random import RandomBot
from hegemon.sdk import Bot, play_local

BOTS: dict[str, Callable[[], Bot]] = {
    "random": RandomBot,
    "aggressive": AggressiveBot,
    "continental": ContinentalBot,
    "planner": PlannerBot,
    "minimal": Minimal,
}
"""The sample bots that play in this process, by name."""


class Game(TypedDict):
    """A bank game as the cache keeps it."""

    seats: list[str]  # the bot in each seat
    places: list[int]  # each seat's place, 1 = winner


def game_seed(table: Sequence[str], number: int) -> int:
    """The fixed seed of game ``number`` of ``table``."""
    label = f"settle:{','.join(table)}:{number}".encode()
    return int.from_bytes(hashlib.sha256(label).digest()[:8], "big")


def play_bank_table(table: Sequence[str], games: int, turn_limit: int) -> list[Game]:
    """``games`` real games of ``table``'s bots, the seating through every order in turn."""
    seatings = list(itertools.permutations(table))
    played: list[Game] = []
    for number in range(games):
        seats = list(seatings[number % len(seatings)])
        result = play_local(
            [BOTS[name]() for name in seats],
            "classic",
            game_seed(table, number),
            options={"turn_limit": turn_limit},
            game_id=f"settle-{game_seed(table, number):016x}",
            max_decisions=MAX_DECISIONS,
        )
        played.append({"seats": seats, "places": list(result.places)})
    return played


def bank(games: int, turn_limit: int) -> dict[tuple[str, ...], list[Game]]:
    """Every 4-bot table's games, from the cache in the temporary folder if it holds them."""
    names = sorted(BOTS)
    key = hashlib.sha256(f"{names}:{games}:{turn_limit}".encode()).hexdigest()[:16]
    cache = Path(tempfile.gettempdir()) / f"hegemon-settle-bank-{key}.json"
    if cache.exists():
        stored = json.loads(cache.read_text())
        return {tuple(t.split(",")): g for t, g in stored.items()}
    started = time.perf_counter()
    tables: dict[tuple[str, ...], list[Game]] = {
        t: play_bank_table(t, games, turn_limit) for t in itertools.combinations(names, PLAYERS)
    }
    print(f"bank: {games * len(tables)} games in {time.perf_counter() - started:.0f} s", flush=True)
    cache.write_text(json.dumps({",".join(t): g for t, g in tables.items()}))
    return tables


def finishing_order(game: Game, ids: dict[str, int]) -> Order:
    """``game``'s place groups (ties together) as bot ids, the winner's first."""
    by_place: dict[int, list[int]] = {}
    for name, place in zip(game["seats"], game["places"], strict=True):
        by_place.setdefault(place, []).append(ids[name])
    return [by_place[place] for place in sorted(by_place)]


def true_ranking(tables: dict[tuple[str, ...], list[Game]]) -> dict[str, float]:
    """The bots' ratings, best first, by the point fit of the whole bank."""
    ids = {name: i for i, name in enumerate(BOTS)}
    orders = [finishing_order(g, ids) for games in tables.values() for g in games]
    fitted = rate([[[str(b) for b in group] for group in o] for o in orders], bootstrap_samples=0)
    names = list(BOTS)
    return {names[int(r.bot)]: r.rating for r in fitted}


def ladder_of(
    new: str, tables: dict[tuple[str, ...], list[Game]], rng: random.Random
) -> tuple[dict[str, int], Callable[[Table], Order]]:
    """The ids of a ladder where ``new`` is the new version (the last id) and how it plays a
    table: a random bank game of those bots (in any seats: the bank's seatings go through every
    order alike, and a seating of its own would hold only ``--games`` / 24 games to draw from),
    its finishing order mapped from bot names to the ladder's ids."""
    names = [n for n in BOTS if n != new] + [new]
    ids = {name: i for i, name in enumerate(names)}

    def play_table(seats: Table) -> Order:
        return finishing_order(rng.choice(tables[tuple(sorted(names[b] for b in seats))]), ids)

    return ids, play_table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=48, help="bank games of each table")
    parser.add_argument("--turn-limit", type=int, default=60)
    parser.add_argument("--runs", type=int, default=10, help="ladders per new version")
    parser.add_argument("--horizon", type=int, default=80, help="ladder games per run")
    parser.add_argument("--every", type=int, default=1, help="games between two fits")
    parser.add_argument("--history", type=int, default=24, help="bank games the others played")
    args = parser.parse_args()
    tables = bank(args.games, args.turn_limit)
    true = true_ranking(tables)
    ranking = list(true)
    bots = len(BOTS) - 1
    shown = ", ".join(f"{name} {rating:.0f}" for name, rating in true.items())
    print(f"{len(BOTS)} sample bots, true ranks (fit of the bank): {shown}; "
          f"{args.runs} runs per new version, {args.history} games of history, "
          f"horizon {args.horizon} ladder games")  # fmt: skip
    print(HEADER.format("new"))
    results: dict[str, list[Outcome]] = {policy: [] for policy in POLICIES}
    for new in BOTS:
        for policy in POLICIES:
            outcomes = []
            for r in range(args.runs):
                seed = 1000 * r + 17
                ids, play_table = ladder_of(new, tables, random.Random(seed * 7 + 1))
                others = tuple(sorted(n for n in BOTS if n != new))
                history = [finishing_order(g, ids) for g in tables[others][: args.history]]
                outcomes.append(
                    settle(
                        policy,
                        bots,
                        ranking.index(new),
                        history,
                        play_table,
                        args.horizon,
                        args.every,
                        seed,
                    )
                )
            results[policy] += outcomes
            print(row(new, policy, outcomes), flush=True)
    for policy in POLICIES:
        print(row("all", policy, results[policy]))
    print(f"matchmaker: settled in {fewer(results):.0f}% fewer ladder games than balanced "
          f"in a real ladder of the sample bots")  # fmt: skip


if __name__ == "__main__":
    main()
