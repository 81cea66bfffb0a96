"""Rules-engine throughput: complete 4-player ``classic`` games played in-process.

    python benchmarks/engine.py [--runs 5] [--games 20] [--no-events]

Two policies, both choosing from ``hegemon.referee.legal``:

- random: uniform over the legal kinds of answer (e.g. attack or stop), then uniform over the
  options of that kind. Random play rarely conquers the world, so these games end at a turn
  limit of 200 rounds.
- attack-happy: claim and reinforce at random, attack whenever the source has more armies than
  the target with the most dice, never fortify, occupy with the most, defend with the most.
  These games nearly always end by conquest (a 500-round limit stops the rare stalemate).

Each run plays the same seeded games; the figures are the medians over the runs. A decision is
one ``Game.apply`` call; the time includes choosing the action (the policy), and the engine's own
share is printed separately, on the wall clock and per second of this process's CPU time (a
shared machine: compare runs by the CPU figures). The last line is ``engine: N decisions/s`` for
attack-happy play. ``--no-events`` plays ``Game(..., events=False)``, as a simulation that reads
no events does (the learning environment).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hegemon.referee import Game, make_rules, native
from hegemon.referee.policies import attack_happy_action, random_action

PLAYERS = 4
RANDOM_ROUNDS = 200
HAPPY_ROUNDS = 500


def play_games(policy, rounds: int, games: int, first_seed: int, events: bool = True):
    """Play ``games`` seeded games; return (decisions, wall seconds, engine seconds, conquests,
    CPU seconds)."""
    rules = make_rules("classic", {"turn_limit": rounds})
    clock = time.perf_counter
    decisions = 0
    engine = 0.0
    conquests = 0
    cpu = time.process_time()
    start = clock()
    for seed in range(first_seed, first_seed + games):
        game = Game(rules, PLAYERS, seed, events=events)
        rng = random.Random(seed)
        apply = game.apply
        while game.places is None:
            action = policy(game, rng)
            t = clock()
            apply(action)
            engine += clock() - t
            decisions += 1
        conquests += game.finish_reason == "conquest"
    return decisions, clock() - start, engine, conquests, time.process_time() - cpu


def bench(name: str, policy, rounds: int, runs: int, games: int, events: bool) -> int:
    rates, engine_rates, game_rates, cpu_rates, cpu_engine_rates = [], [], [], [], []
    for _ in range(runs):
        decisions, wall, engine, conquests, cpu = play_games(policy, rounds, games, 1, events)
        rates.append(decisions / wall)
        engine_rates.append(decisions / engine)
        game_rates.append(games / wall)
        cpu_rates.append(decisions / cpu)
        cpu_engine_rates.append(decisions / (cpu * engine / wall))
    per_game = decisions / games
    print(
        f"{name}: {games} games x {runs} runs, turn limit {rounds} rounds, "
        f"{conquests}/{games} ended by conquest, {per_game:.0f} decisions a game"
    )
    print(
        f"  {statistics.median(rates):,.0f} decisions/s, "
        f"{statistics.median(game_rates):.2f} games/s (median; policy included)"
    )
    print(f"  {statistics.median(engine_rates):,.0f} decisions/s in Game.apply alone")
    print(
        f"  per CPU second: {statistics.median(cpu_rates):,.0f} decisions, "
        f"{statistics.median(cpu_engine_rates):,.0f} in Game.apply alone (its share of the wall "
        "time applied to the CPU time)"
    )
    return round(statistics.median(rates))


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--no-events", action="store_true", help="Game(..., events=False)")
    args = parser.parse_args(argv)
    events = not args.no_events
    print(
        f"hegemon rules engine: {PLAYERS}-player 'classic' games, Python {sys.version.split()[0]}, "
        f"{native.status()}" + ("" if events else ", no events")
    )
    bench("random", random_action, RANDOM_ROUNDS, args.runs, args.games, events)
    happy = bench("attack-happy", attack_happy_action, HAPPY_ROUNDS, args.runs, args.games, events)
    print(f"engine: {happy} decisions/s")


if __name__ == "__main__":
    main()
