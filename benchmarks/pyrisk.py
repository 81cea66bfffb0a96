"""The engine against the smallest Python peer: pyrisk's StupidAI policy played on hegemon's
engine, in complete 4-player ``classic`` games per CPU-second.

    python benchmarks/pyrisk.py [--games 40] [--runs 3] [--pyrisk PATH] [--no-events]

StupidAI (chronitis/pyrisk, ``ai/stupid.py``) claims and places at random, reinforces one army
at a time on random border territories, attacks whenever a source has more armies than the
neighbour it borders and fights each battle to the end (most dice), moves every army but one
into a conquered territory, and never makes its free move. Here it answers hegemon's decisions
the same way: it defends with the most dice (pyrisk's defender always does) and trades cards
only when forced (pyrisk has no cards). A game ends by conquest or at a 1,000-round limit.
The cards make a hegemon game the longer fight: over seeds 1-30 the sets traded bring 485
armies a game against 277 from territories and continents, and a game rolls 2,180 dice against
pyrisk's 910, so a game per second here is more than twice pyrisk's work.

``--pyrisk PATH`` (a checkout of chronitis/pyrisk) also plays pyrisk's own game with four
StupidAIs, without its display, in the same run; its figure is printed next to hegemon's.
The figures are medians over the runs, in games per second of this process's CPU time (the
machine may be shared: the CPU clock leaves out waiting for a core). ``--no-events`` plays
hegemon's games with ``Game(..., events=False)`` (no events built or returned).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hegemon.referee import Game, legal, make_rules, native
from hegemon.referee.actions import Attack, Claim, Defend, Occupy, Pass, Place, PlayerAction, Trade
from hegemon.referee.decisions import Kind, Phase

PLAYERS = 4
ROUNDS = 1000


class StupidAI:
    """pyrisk's StupidAI for one game's every seat (it keeps each seat's battle in progress)."""

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.battle: dict[int, tuple[int, int]] = {}

    def action(self, game: Game) -> PlayerAction:
        """The answer to ``game``'s pending decision."""
        d = game.pending
        assert d is not None
        kind, rng, seat = d.kind, self.rng, d.player
        if kind is Kind.CLAIM:
            return Claim(rng.choice(d.territories))
        if kind is Kind.PLACE:
            if game.phase is Phase.SETUP_PLACE:
                return Place(((rng.choice(legal.own_territories(game, seat)), d.armies),))
            border = legal.border_territories(game, seat)
            split: dict[int, int] = {}
            for _ in range(d.armies):
                t = rng.choice(border)
                split[t] = split.get(t, 0) + 1
            return Place(tuple(split.items()))
        if kind is Kind.TRADE:
            if not d.forced:
                return Pass()
            return Trade(legal.trades(game.players[seat].cards, game.board)[0])
        if kind is Kind.ATTACK:
            return self.attack(game, seat)
        if kind is Kind.DEFEND:
            return Defend(d.maximum)
        if kind is Kind.OCCUPY:
            return Occupy(d.maximum)
        return Pass()  # no free move

    def attack(self, game: Game, seat: int) -> PlayerAction:
        """Fight the battle in progress to its end, else start one where the source is
        stronger than its target."""
        owner, armies = game.owner, game.armies
        source, target = self.battle.get(seat, (-1, -1))
        if source >= 0 and owner[source] == seat and armies[source] > 1 and owner[target] != seat:
            return Attack(source, target, min(3, armies[source] - 1))
        for source, target, most in legal.iter_attacks(game, seat):
            if armies[source] > armies[target]:
                self.battle[seat] = (source, target)
                return Attack(source, target, most)
        return Pass()


def hegemon_games(games: int, events: bool = True) -> tuple[float, int]:
    """(CPU seconds, games ended by conquest) for ``games`` seeded games on hegemon."""
    rules = make_rules("classic", {"turn_limit": ROUNDS})
    conquests = 0
    start = time.process_time()
    for seed in range(1, games + 1):
        game = Game(rules, PLAYERS, seed, events=events)
        ai = StupidAI(random.Random(seed))
        while game.places is None:
            game.apply(ai.action(game))
        conquests += game.finish_reason == "conquest"
    return time.process_time() - start, conquests


def pyrisk_games(path: Path) -> Callable[[int], tuple[float, int]]:
    """A player of ``games`` pyrisk games with four StupidAIs (every one ends by conquest)."""
    sys.path.insert(0, str(path))
    from ai.stupid import StupidAI as PyriskStupidAI  # type: ignore[import-not-found]
    from game import Game as PyriskGame  # type: ignore[import-not-found]

    def play(games: int) -> tuple[float, int]:
        start = time.process_time()
        for seed in range(1, games + 1):
            random.seed(seed)  # pyrisk draws from the module's generator
            game = PyriskGame(curses=False, delay=0)
            for name in ("ALPHA", "BRAVO", "CHARLIE", "DELTA"):
                game.add_player(name, PyriskStupidAI)
            game.play()
        return time.process_time() - start, games

    return play


def measure(name: str, play: Callable[[int], tuple[float, int]], games: int, runs: int) -> float:
    rates = []
    for _ in range(runs):
        seconds, conquests = play(games)
        rates.append(games / seconds)
    rate = statistics.median(rates)
    print(f"{name}: {rate:.1f} games per CPU-second ({conquests}/{games} ended by conquest)")
    return rate


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--pyrisk", type=Path, help="a checkout of chronitis/pyrisk")
    parser.add_argument("--no-events", action="store_true", help="Game(..., events=False)")
    args = parser.parse_args(argv)
    events = not args.no_events
    print(f"StupidAI, {PLAYERS}-player games, Python {sys.version.split()[0]}, {native.status()}")
    ours = measure("hegemon", lambda n: hegemon_games(n, events), args.games, args.runs)
    if args.pyrisk:
        theirs = measure("pyrisk", pyrisk_games(args.pyrisk), args.games, args.runs)
        print(f"hegemon / pyrisk: {ours / theirs:.2f}")


if __name__ == "__main__":
    main()
