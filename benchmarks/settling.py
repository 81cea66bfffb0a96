"""How fast does a ladder settle a new version? The matchmaker against a fixed balanced
schedule, in simulation.

    python benchmarks/settling.py [--runs 100] [--bots 10] [--horizon 80] [--every 4]
                                  [--history 48] [--spreads close,±300,wide]

Measured (issue 32, ``--runs 100 --spreads ±300``, the same worlds run with main's matchmaker
beside it): ladder games until the new version settled, balanced 38.5 ± 3.0 (21 of 100 runs never
settled in 80 games) → matchmaker 23.7 ± 2.7, 38 % ± 8 fewer (main's, which seated the new
version at every table: 22.8 ± 2.5, 41 % ± 8); the new version's own games until then 15.4
(main's 20.9); the longest wait between two games of an entrant 18 → 4. The other spreads
(``--spreads close,wide``, 100 runs): close 71.8 ± 1.6 → 62.3 ± 2.5 (13 % ± 4; 51 and 59 runs
unsettled), wide 16.5 ± 2.0 → 10.6 ± 1.7 (35 % ± 13). Before (2026-12-02, 10
runs, no errors): ±300 35.6 → 21.6 (39 %), close 76 → 67 (12 %), wide 20.4 → 18.8 (8 %).

Each run draws true Elo strengths for ``--bots`` established bots and a new version, evenly
at random within a spread (``close`` ±50, ``±300``, ``wide`` ±700), gives the established
bots a history (a balanced schedule, ``--history`` games each), then plays 4-player ladder games
with Plackett–Luce outcomes (Gumbel-max sampling of the finishing order) chosen by a policy:

* ``balanced``: the fixed balanced schedule of all bots, the new one included
  (:func:`~hegemon.leaderboard.seasons.schedule.make_schedule`, as a season plays);
* ``new-first``: the matchmaker's order of concerns with random opponents (a huge jitter);
* ``matchmaker``: :func:`~hegemon.leaderboard.ladder.policy.choose_table` as the ladder
  runs it (starvation guard, new versions first, widest interval, opponents near in rating,
  seats balanced).

The matchmaker sees its own running ratings and intervals (:mod:`hegemon.leaderboard.ladder.online`,
updated after every game from the history on), exactly what
:func:`~hegemon.leaderboard.ladder.fill_queue` gives it in a real ladder. Every ``--every``
games the games so far are rated by the boards' fit (:func:`hegemon.leaderboard.ratings.rate`,
the Plackett–Luce point fit), which decides whether the new version is settled: it is
*settled* from the first check after which its fitted rank stays within one place of its true
rank to the end of the horizon. Reported per spread and policy: the mean ladder games until
settled with its standard error and the new version's own games until then (runs not settled
within the horizon count as the horizon: see ``unsettled``), and the most ladder games any
entrant waited between two of its games (starvation). Then, per spread, the matchmaker's gain over
the balanced schedule with its bootstrap standard error (:func:`spread_of_fewer`: the runs
resampled), and the last line: ``matchmaker: settled in X% (± SE) fewer ladder games than
balanced at ±300`` (target: at least 30).
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from hegemon.leaderboard.ladder.online import Ratings
from hegemon.leaderboard.ladder.policy import Entrant, choose_table
from hegemon.leaderboard.ratings import rate
from hegemon.leaderboard.seasons.schedule import make_schedule

PLAYERS = 4
SPREADS = {"close": 50.0, "±300": 300.0, "wide": 700.0}
POLICIES = ("balanced", "new-first", "matchmaker")
LOG10 = math.log(10) / 400


@dataclass
class Outcome:
    ladder_games: int  # until settled (the horizon if never)
    new_games: int  # the new version's games until then
    settled: bool
    longest_wait: int  # most ladder games an entrant waited between two of its games


def play(strength: dict[int, float], seats: tuple[int, ...], rng: random.Random) -> list[int]:
    """A Plackett–Luce finishing order of ``seats`` (best first)."""
    keyed = {b: strength[b] * LOG10 - math.log(-math.log(rng.random())) for b in seats}
    return sorted(seats, key=lambda b: -keyed[b])


Table = tuple[int, ...]
Order = list[list[int]]
"""A finishing order: place groups of bot ids, the winner's first (a group of several is a tie)."""


def run(
    spread: float, policy: str, bots: int, horizon: int, every: int, seed: int, history_games: int
) -> Outcome:
    rng = random.Random(seed)  # the same world for every policy of a seed
    new = bots  # the new version's id; established bots are 0 .. bots - 1
    strength = {b: 1500 + rng.uniform(-spread, spread) for b in range(bots + 1)}
    true_rank = sorted(strength, key=lambda b: -strength[b]).index(new)
    history = [
        [[b] for b in play(strength, m.seats, rng)]
        for m in make_schedule(list(range(bots)), PLAYERS, history_games * bots // PLAYERS, seed)
    ]
    play_rng = random.Random(seed * 7 + 1)
    return settle(
        policy,
        bots,
        true_rank,
        history,
        lambda seats: [[b] for b in play(strength, seats, play_rng)],
        horizon,
        every,
        seed,
    )


def seats_places(order: Order) -> tuple[list[int], list[int]]:
    """A finishing order as seats (its bots, best first) and each seat's place."""
    seats = [b for group in order for b in group]
    places = [rank for rank, group in enumerate(order, 1) for _ in group]
    return seats, places


def rounds_schedule(entrants: int, players: int, games: int, seed: int) -> list[Table]:
    """A fixed balanced schedule made round by round: each round is a
    :func:`~hegemon.leaderboard.seasons.schedule.make_schedule` of its own, just long enough that
    every entrant plays ``players`` games in it (twice that with two players, whose schedules
    play each pairing in both colours), so the games stay even at the end of every round. A
    season's schedule of the whole horizon evens out the games only over the whole horizon:
    with 5 entrants at 3-seat tables one of them may sit at 2 of the first 10 tables, or 10."""
    per_round = entrants * (2 if players == 2 else 1)
    tables: list[Table] = []
    for r in range(-(-games // per_round)):
        made = make_schedule(list(range(entrants)), players, per_round, seed * 1009 + r)
        tables += [m.seats for m in made]
    return tables[:games]


def settle(
    policy: str,
    bots: int,
    true_rank: int,
    history: list[Order],
    play_table: Callable[[Table], Order],
    horizon: int,
    every: int,
    seed: int,
    players: int = PLAYERS,
) -> Outcome:
    """Play ``horizon`` ladder games of ``players`` seats with tables chosen by ``policy``,
    each one's finishing order from ``play_table(seats)``, after the established bots'
    ``history``; the new version is bot ``bots`` (true rank ``true_rank``, 0 = best).
    ``policy``: those of :data:`POLICIES`, or ``rounds`` (:func:`rounds_schedule`)."""
    new = bots
    history = list(history)
    games = {b: sum(any(b in group for group in o) for o in history) for b in range(bots + 1)}
    seat_count = {b: [0] * players for b in range(bots + 1)}
    last = dict.fromkeys(range(bots + 1), 0)
    if policy == "rounds":
        fixed = rounds_schedule(bots + 1, players, horizon, seed + 1)
    else:
        fixed = [m.seats for m in make_schedule(list(range(bots + 1)), players, horizon, seed + 1)]
    online = Ratings()  # the matchmaker's own, as fill_queue keeps them
    for o in history:
        online.add_game(0, *seats_places(o))
    checks: list[tuple[int, int, bool]] = []  # (ladder games, new version's games, within one)
    waits = dict.fromkeys(range(bots + 1), 0)
    longest = 0
    for number in range(1, horizon + 1):
        if policy in ("balanced", "rounds"):
            seats = fixed[number - 1]
        else:
            rating = online.elo(range(bots + 1))
            entrants = [
                Entrant(
                    b,
                    games[b],
                    last[b],
                    rating.get(b),
                    online.beliefs[b].width if b in rating else None,
                    tuple(seat_count[b]),
                )
                for b in range(bots + 1)
            ]
            jitter = 1e9 if policy == "new-first" else 60.0
            seats = choose_table(
                entrants, players, number, random.Random(seed + number), jitter=jitter
            )
        history.append(play_table(seats))
        online.add_game(number, *seats_places(history[-1]))
        for pos, b in enumerate(seats):
            games[b] += 1
            seat_count[b][pos] += 1
            last[b] = number
        for b, waited in waits.items():
            waits[b] = 0 if b in seats else waited + 1
        longest = max(longest, *waits.values())
        if number % every == 0 or number == horizon:
            fitted = rate([[[str(b) for b in g] for g in o] for o in history], bootstrap_samples=0)
            ranked = [int(r.bot) for r in fitted]
            within = new in ranked and abs(ranked.index(new) - true_rank) <= 1
            checks.append((number, games[new], within))
    settled_at = None
    for ladder_games, new_games, within in reversed(checks):
        if not within:
            break
        settled_at = (ladder_games, new_games)
    if settled_at is None:
        return Outcome(horizon, games[new], False, longest)
    return Outcome(settled_at[0], settled_at[1], True, longest)


HEADER = f"{{:11}} {'policy':11} {'ladder games':>14} {'its games':>9} {'unsettled':>9} " + (
    f"{'longest wait':>12}"
)
"""The table's header; ``.format(label)`` names its first column."""


def row(label: str, policy: str, outcomes: list[Outcome]) -> str:
    """One line of the table: the means of ``outcomes`` (see :data:`HEADER`)."""
    mean: Callable[[list[float]], float] = statistics.fmean
    games = [float(o.ladder_games) for o in outcomes]
    error = statistics.stdev(games) / math.sqrt(len(games)) if len(games) > 1 else math.nan
    return (
        f"{label:11} {policy:11} {mean(games):8.1f} ±{error:4.1f} "
        f"{mean([o.new_games for o in outcomes]):9.1f} "
        f"{sum(not o.settled for o in outcomes):9d} "
        f"{max(o.longest_wait for o in outcomes):12d}"
    )


def fewer(outcomes: dict[str, list[Outcome]]) -> float:
    """How many % fewer ladder games the matchmaker needed than the balanced schedule."""
    base = statistics.fmean(o.ladder_games for o in outcomes["balanced"])
    ours = statistics.fmean(o.ladder_games for o in outcomes["matchmaker"])
    return 100 * (1 - ours / base)


def spread_of_fewer(
    results: dict[str, dict[str, list[Outcome]]], baseline: str, samples: int = 2000
) -> float:
    """The bootstrap standard error of :func:`fewer` against
    ``baseline``: the runs resampled within each group (a spread, or a new version) and policy."""
    rng = random.Random(5)
    figures = []
    for _ in range(samples):
        drawn: dict[str, list[Outcome]] = {"balanced": [], "matchmaker": []}
        for by_policy in results.values():
            for ours, policy in (("balanced", baseline), ("matchmaker", "matchmaker")):
                outcomes = by_policy[policy]
                drawn[ours] += rng.choices(outcomes, k=len(outcomes))
        figures.append(fewer(drawn))
    return statistics.stdev(figures)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=100)
    parser.add_argument("--bots", type=int, default=10, help="established bots")
    parser.add_argument("--horizon", type=int, default=80, help="ladder games per run")
    parser.add_argument("--every", type=int, default=4, help="games between two fits")
    parser.add_argument(
        "--history", type=int, default=48, help="games each established bot played before"
    )
    parser.add_argument("--spreads", default=",".join(SPREADS), help="of: " + ", ".join(SPREADS))
    args = parser.parse_args()
    spreads = {name: SPREADS[name] for name in args.spreads.split(",")}
    results: dict[tuple[str, str], list[Outcome]] = {}
    print(f"{args.runs} runs, {args.bots} established bots ({args.history} games each) + 1 new "
          f"version, {PLAYERS} players, horizon {args.horizon} ladder games")  # fmt: skip
    print(HEADER.format("spread"))
    for name, spread in spreads.items():
        for policy in POLICIES:
            outcomes = [
                run(
                    spread, policy, args.bots, args.horizon, args.every, 1000 * r + 17, args.history
                )
                for r in range(args.runs)
            ]
            results[(name, policy)] = outcomes
            print(row(name, policy, outcomes), flush=True)
    for name in spreads:
        by_policy = {policy: results[(name, policy)] for policy in POLICIES}
        gain, error = fewer(by_policy), spread_of_fewer({name: by_policy}, "balanced")
        print(f"{name}: matchmaker {gain:.0f}% (± {error:.0f}) fewer ladder games than balanced")
    if "±300" in spreads:
        at_300 = {policy: results[("±300", policy)] for policy in POLICIES}
        gain, error = fewer(at_300), spread_of_fewer({"±300": at_300}, "balanced")
        print(
            f"matchmaker: settled in {gain:.0f}% (± {error:.0f}) fewer ladder games than "
            "balanced at ±300"
        )


if __name__ == "__main__":
    main()
