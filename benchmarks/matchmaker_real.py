"""How fast does a real ladder of the sample bots settle a new version? The matchmaker against
a fixed balanced schedule, with outcomes from real games instead of the simulation's model.

    nice -n 19 python benchmarks/matchmaker_real.py [--players 4] [--rules R] [--games 48]
                        [--turn-limit 60] [--runs 10] [--horizon 80] [--every 1] [--history 24]
                        [--seed 0] [--jobs 1]

The bots: every sample bot that plays in this process (random, aggressive, continental, planner
and the guide's minimal bot); the node sample runs only as a process and is left out. The
*bank*: for every table of ``--players`` bots (5 tables of 4, 10 of 3 or of 2), ``--games``
real games (:func:`hegemon.sdk.play_local`, ``--rules``: classic, or ``two-player-classic`` at
2 seats, the same edition's two-player rules with neutral territories; a turn limit of
``--turn-limit`` rounds), the seating going through every order of the table in turn (24, 6 or
2 orders: ``--games`` a multiple of them keeps the seats even), each game's seed and id fixed by
its table and number. The bank is kept as JSON in the system's temporary folder, named by the
bots, ``--games``, the turn limit, the seats and the rules, so a rerun only replays the ladders.
The *true ranks* are the real fit (:func:`hegemon.leaderboard.ratings.rate`, the point fit) of
the whole bank.

Each bot in turn is the new version. The other four have a history (the first bank games of
each of their own tables, about ``--history`` games each), then the ladder plays ``--horizon``
games whose tables each policy chooses exactly as the simulation's
(:func:`benchmarks.settling.settle`: ``balanced``, ``new-first``, ``matchmaker``, and
``rounds``, :func:`benchmarks.settling.rounds_schedule`); a table's result is a random game of
the bank with the same bots (in whichever seats: the bank's seatings are balanced).
``balanced`` is a season's schedule of the whole horizon, even in games and seats over the
horizon but not within it (at 2 seats a bot may wait 26 ladder games between two of its games);
``rounds`` is the same made round by round, even at the end of every round of 5 tables (10 at
2 seats): the fairer baseline early on, where a new version settles. Settled and the figures as
in ``benchmarks/settling.py``, then the matchmaker's gain over each baseline with its
bootstrap standard error (the runs resampled within each new version and policy), and the last
line: ``matchmaker: settled in X% fewer ladder games than balanced in a real ladder of the
sample bots (N seats)``. ``--seed`` shifts every run's seed (an independent repeat on the same
bank); ``--jobs`` plays the bank's tables and replays the ladders in that many processes.

Measured (2026-12-02, load 5–15 on 2 cores, under ``nice``; the banks: 10 × 120 games at 3 seats
in 657 s and 10 × 120 at 2 seats in 305 s, built at once, 5 × 48 at 4 seats in 387 s; a set of 30
runs replays in 8–15 min). Ladder games until settled, balanced → matchmaker, over three
independent sets of ``--runs 30`` (``--seed`` 0, 100000, 200000: 450 runs a policy):

* **3 seats** (true ratings planner 1667, aggressive 1528, continental 1514, random 1417, minimal
  1374): 9.8 → 5.7, **42 % fewer** (the sets: 44, 40, 42; a set's bootstrap standard error 8–11
  points); against ``rounds`` 9.4 → 5.7, 40 % (41, 37, 41); new-first 5.7; the longest wait 10 → 2.
* **2 seats** (two-player-classic; planner 1994, aggressive 1738, minimal 1644, continental 1626,
  random 498): 12.2 → 6.2, **49 % fewer** (48, 48, 51; standard error 9–11); against ``rounds``
  11.8 → 6.2, 48 % (58, 40, 45); new-first 6.8; 10 and 4 of 450 runs never settled in 80 games
  (most with continental new, 18 Elo below minimal); the longest wait 26 (``rounds`` 12) → 4.
* **4 seats** (planner 1680, continental 1551, aggressive 1458, random 1430, minimal 1381; the
  ``--seed`` 0 and 100000 sets): 7.9 → 7.5, 6 % (7, 5; standard error 20); against ``rounds``
  6.8 → 7.5, −10 % (−3, −18); new-first 6.2. Aggressive new, 28 Elo above random, carries the
  figure: 22.1 → 26.7 ladder games, 10 of its 60 matchmaker runs unsettled.

The gain is seating: the matchmaker seats the new version at nearly every table, a balanced
schedule of five bots at 3 tables in 5 (2 in 5 at 2 seats, 4 in 5 at 4, where it has little to
gain). The new version's own games until settled are not fewer (3 seats 5.9 → 5.5, 2 seats 4.7
→ 5.2, 4 seats 6.2 → 6.7), and with a close neighbour more: continental new at 3 seats needs 10.5
games of its own against 7.3 with balanced or new-first's random opponents, as "within one place"
is decided against the bots two places away, not the nearest in rating the matchmaker seats.
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
from multiprocessing import Pool
from pathlib import Path
from typing import TypedDict

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.settling import (
    HEADER,
    PLAYERS,
    Order,
    Outcome,
    Table,
    fewer,
    row,
    settle,
    spread_of_fewer,
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

POLICIES = ("balanced", "rounds", "new-first", "matchmaker")
"""The simulation's policies and the balanced schedule made round by round
(:func:`benchmarks.settling.rounds_schedule`), the fairer baseline at small tables."""


class Game(TypedDict):
    """A bank game as the cache keeps it."""

    seats: list[str]  # the bot in each seat
    places: list[int]  # each seat's place, 1 = winner


Bank = dict[tuple[str, ...], list[Game]]
"""Each table's games: the table is its bots' names, sorted."""


def game_seed(table: Sequence[str], number: int) -> int:
    """The fixed seed of game ``number`` of ``table``."""
    label = f"settle:{','.join(table)}:{number}".encode()
    return int.from_bytes(hashlib.sha256(label).digest()[:8], "big")


def play_bank_table(
    table: Sequence[str], games: int, turn_limit: int, rules: str = "classic"
) -> list[Game]:
    """``games`` real games of ``table``'s bots, the seating through every order in turn."""
    seatings = list(itertools.permutations(table))
    played: list[Game] = []
    for number in range(games):
        seats = list(seatings[number % len(seatings)])
        result = play_local(
            [BOTS[name]() for name in seats],
            rules,
            game_seed(table, number),
            options={"turn_limit": turn_limit},
            game_id=f"settle-{game_seed(table, number):016x}",
            max_decisions=MAX_DECISIONS,
        )
        played.append({"seats": seats, "places": list(result.places)})
    return played


def default_rules(players: int) -> str:
    """The rules of a ``players``-seat bank: classic, or its two-player edition (002's
    ``two-player-classic``: neutral territories that only defend)."""
    return "two-player-classic" if players == 2 else "classic"


def bank(
    games: int, turn_limit: int, players: int = PLAYERS, rules: str = "classic", jobs: int = 1
) -> Bank:
    """Every ``players``-bot table's games, from the cache in the temporary folder if it holds
    them (built by ``jobs`` processes, each playing whole tables)."""
    names = sorted(BOTS)
    label = f"{names}:{games}:{turn_limit}" + ("" if players == PLAYERS else f":{players}")
    label += "" if rules == "classic" else f":{rules}"
    key = hashlib.sha256(label.encode()).hexdigest()[:16]
    cache = Path(tempfile.gettempdir()) / f"hegemon-settle-bank-{key}.json"
    if cache.exists():
        stored = json.loads(cache.read_text())
        return {tuple(t.split(",")): g for t, g in stored.items()}
    started = time.perf_counter()
    combos = list(itertools.combinations(names, players))
    work = [(t, games, turn_limit, rules) for t in combos]
    if jobs > 1:
        with Pool(jobs) as pool:
            played = pool.starmap(play_bank_table, work)
    else:
        played = [play_bank_table(*w) for w in work]
    tables: Bank = dict(zip(combos, played, strict=True))
    print(f"bank: {games * len(tables)} games ({rules}, {players} seats) in "
          f"{time.perf_counter() - started:.0f} s", flush=True)  # fmt: skip
    cache.write_text(json.dumps({",".join(t): g for t, g in tables.items()}))
    return tables


def finishing_order(game: Game, ids: dict[str, int]) -> Order:
    """``game``'s place groups (ties together) as bot ids, the winner's first."""
    by_place: dict[int, list[int]] = {}
    for name, place in zip(game["seats"], game["places"], strict=True):
        by_place.setdefault(place, []).append(ids[name])
    return [by_place[place] for place in sorted(by_place)]


def true_ranking(tables: Bank) -> dict[str, float]:
    """The bots' ratings, best first, by the point fit of the whole bank."""
    ids = {name: i for i, name in enumerate(BOTS)}
    orders = [finishing_order(g, ids) for games in tables.values() for g in games]
    fitted = rate([[[str(b) for b in group] for group in o] for o in orders], bootstrap_samples=0)
    names = list(BOTS)
    return {names[int(r.bot)]: r.rating for r in fitted}


def ladder_of(
    new: str, tables: Bank, rng: random.Random
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


def history_of(new: str, tables: Bank, per_bot: int, players: int) -> list[Game]:
    """The established bots' history: the first bank games of each table without ``new``,
    as many of each that every established bot played about ``per_bot`` games (at 4 seats the
    one table of the other four; at 3 or 2 seats each bot sits in 3 of their 4 or 6 tables)."""
    others = sorted(n for n in BOTS if n != new)
    own = list(itertools.combinations(others, players))
    each = max(1, round(per_bot * len(others) / (len(own) * players)))
    return [g for t in own for g in tables[t][:each]]


Run = tuple[str, str, int]
"""One ladder to replay: (new version, policy, run number)."""


_SHARED: dict[str, object] = {}
"""What the worker processes of :func:`replay` share: the bank, the ranking and the options."""


def replay(run: Run) -> Outcome:
    """Replay one ladder (see the module's docstring)."""
    new, policy, r = run
    tables: Bank = _SHARED["tables"]  # type: ignore[assignment]
    ranking: list[str] = _SHARED["ranking"]  # type: ignore[assignment]
    args: argparse.Namespace = _SHARED["args"]  # type: ignore[assignment]
    seed = 1000 * r + 17 + args.seed
    ids, play_table = ladder_of(new, tables, random.Random(seed * 7 + 1))
    history = [finishing_order(g, ids) for g in history_of(new, tables, args.history, args.players)]
    return settle(
        policy,
        len(BOTS) - 1,
        ranking.index(new),
        history,
        play_table,
        args.horizon,
        args.every,
        seed,
        players=args.players,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=48, help="bank games of each table")
    parser.add_argument("--turn-limit", type=int, default=60)
    parser.add_argument("--players", type=int, default=PLAYERS, help="seats at a table (2-4)")
    parser.add_argument("--rules", help="the bank's preset (classic; two-player-classic at 2)")
    parser.add_argument("--runs", type=int, default=10, help="ladders per new version")
    parser.add_argument("--horizon", type=int, default=80, help="ladder games per run")
    parser.add_argument("--every", type=int, default=1, help="games between two fits")
    parser.add_argument("--history", type=int, default=24, help="bank games each other played")
    parser.add_argument("--seed", type=int, default=0, help="shifts every run's seed")
    parser.add_argument("--jobs", type=int, default=1, help="processes (bank and ladders)")
    args = parser.parse_args()
    if not 2 <= args.players <= 4:
        parser.error("--players: 2, 3 or 4 (five bots)")
    rules = args.rules or default_rules(args.players)
    tables = bank(args.games, args.turn_limit, args.players, rules, args.jobs)
    true = true_ranking(tables)
    shown = ", ".join(f"{name} {rating:.0f}" for name, rating in true.items())
    print(f"{len(BOTS)} sample bots at {args.players}-seat tables ({rules}, bank of "
          f"{args.games} games per table), true ranks (fit of the bank): {shown}; "
          f"{args.runs} runs per new version (seed {args.seed}), {args.history} games of "
          f"history, horizon {args.horizon} ladder games")  # fmt: skip
    print(HEADER.format("new"))
    _SHARED.update(tables=tables, ranking=list(true), args=args)
    runs = [(new, policy, r) for new in BOTS for policy in POLICIES for r in range(args.runs)]
    if args.jobs > 1:
        with Pool(args.jobs) as pool:
            outcomes = pool.map(replay, runs, chunksize=max(1, args.runs // 2))
    else:
        outcomes = [replay(run) for run in runs]
    results: dict[str, dict[str, list[Outcome]]] = {
        new: {policy: [] for policy in POLICIES} for new in BOTS
    }
    for (new, policy, _), outcome in zip(runs, outcomes, strict=True):
        results[new][policy].append(outcome)
    for new in BOTS:
        for policy in POLICIES:
            print(row(new, policy, results[new][policy]))
    pooled = {policy: [o for new in BOTS for o in results[new][policy]] for policy in POLICIES}
    for policy in POLICIES:
        print(row("all", policy, pooled[policy]))
    for baseline in ("balanced", "rounds"):
        figure = fewer({"balanced": pooled[baseline], "matchmaker": pooled["matchmaker"]})
        print(f"vs {baseline}: {figure:.0f}% fewer (bootstrap standard error "
              f"{spread_of_fewer(results, baseline):.0f} points)")  # fmt: skip
    print(f"matchmaker: settled in {fewer(pooled):.0f}% fewer ladder games than balanced "
          f"in a real ladder of the sample bots ({args.players} seats)")  # fmt: skip


if __name__ == "__main__":
    main()
