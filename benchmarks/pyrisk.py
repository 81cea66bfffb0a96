"""The engine against the smallest Python peer, like for like: pyrisk's StupidAI policy played
on hegemon's engine and pyrisk's own game with four StupidAIs, in games and in battles (dice
rolls) per CPU second, in alternating runs of one process.

    python benchmarks/pyrisk.py --pyrisk PATH [--games 40] [--runs 5] [--no-events]

StupidAI (chronitis/pyrisk, ``ai/stupid.py``) claims and places at random, reinforces one army
at a time on random border territories, attacks whenever a source has more armies than the
neighbour it borders and fights each battle to the end (most dice), moves every army but one
into a conquered territory, and never makes its free move. Here it answers hegemon's decisions
the same way: it defends with the most dice (pyrisk's defender always does) and trades cards
only when forced (pyrisk has no cards). A game ends by conquest or at a 1,000-round limit.
The cards make a hegemon game the longer fight (twice pyrisk's rolls of the dice a game), so
games per second alone understate hegemon: the battle figure is the like-for-like one.

pyrisk at its best: its ``pyrisk`` loggers are switched off (an earlier comparison left them
formatting every event to stderr, 38% of its CPU) and it has no display (``curses=False,
delay=0``: ``Display.update`` does nothing). It still builds each event's strings for its
``LOG.info`` call, as its own code does whatever the level (5% of its time under cProfile).

A battle is one roll of the dice, attacker's against defender's: a ``Battle`` event in hegemon,
one pass of the loop in pyrisk's ``Game.combat``. hegemon's are counted in an untimed pass of
the same seeded games (its games are the same for a seed; counting inside the timed ones would
cost them time). pyrisk's games are not the same from one process to the next for a seed (a
territory's neighbours are a set of objects, in memory order), so its rolls are counted in the
timed games themselves: StupidAI's attacks carry a go-on test that counts and says yes, where
StupidAI gives none and ``combat`` puts an always-yes ``lambda`` in its place, one Python call
a roll either way.

A run plays ``--games`` games on each engine, the order alternating run by run; the figures
are per second of this process's CPU time (the machine may be shared: the CPU clock leaves out
waiting for a core), each engine's median over the runs, and the median of the runs' own
ratios (each ratio from two neighbouring measurements). ``--no-events`` plays hegemon's games
with ``Game(..., events=False)`` (no events built or returned).
"""

from __future__ import annotations

import argparse
import logging
import os
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hegemon.referee import Game, legal, make_rules, native
from hegemon.referee.actions import Attack, Claim, Defend, Occupy, Pass, Place, PlayerAction, Trade
from hegemon.referee.decisions import Kind, Phase
from hegemon.referee.events import Battle

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


def hegemon_battles(games: int) -> int:
    """The rolls of the dice in the same seeded games as :func:`hegemon_games` (untimed)."""
    rules = make_rules("classic", {"turn_limit": ROUNDS})
    rolls = 0
    for seed in range(1, games + 1):
        game = Game(rules, PLAYERS, seed)
        ai = StupidAI(random.Random(seed))
        while game.places is None:
            rolls += sum(type(e) is Battle for e in game.apply(ai.action(game)))
    return rolls


class Pyrisk:
    """pyrisk's own game with four StupidAIs, from a checkout at ``path``, its logging off."""

    def __init__(self, path: Path):
        sys.path.insert(0, str(path))
        from ai.stupid import StupidAI as PyriskStupidAI  # type: ignore[import-not-found]
        from game import Game as PyriskGame  # type: ignore[import-not-found]

        logging.getLogger("pyrisk").setLevel(logging.CRITICAL + 1)  # its children inherit it
        self.game = PyriskGame

        def go_on(attackers: int, defenders: int) -> bool:
            self.rolls += 1
            return True

        class Counted(PyriskStupidAI):  # type: ignore[misc]
            def attack(self) -> Iterator[tuple[object, object, object, object]]:
                for source, target, _, move in super().attack():
                    yield source, target, go_on, move

        self.ai, self.rolls = Counted, 0

    def play(self, games: int) -> tuple[float, int, int]:
        """(CPU seconds, games ended by conquest: all of pyrisk's, rolls of the dice) for
        ``games`` seeded games."""
        self.rolls = 0
        start = time.process_time()
        for seed in range(1, games + 1):
            random.seed(seed)  # pyrisk draws from the module's generator
            game = self.game(curses=False, delay=0)
            for name in ("ALPHA", "BRAVO", "CHARLIE", "DELTA"):
                game.add_player(name, self.ai)
            game.play()
        return time.process_time() - start, games, self.rolls


@dataclass
class Engine:
    """One engine's timed player (CPU seconds, conquests, rolls) and its runs' figures."""

    name: str
    play: Callable[[int], tuple[float, int, int]]
    games: list[float] = field(default_factory=list)  # per CPU second, a run each
    battles: list[float] = field(default_factory=list)
    per_game: list[float] = field(default_factory=list)
    conquests: int = 0

    def run(self, games: int) -> None:
        """Play ``games`` games once and keep their rates."""
        seconds, self.conquests, rolls = self.play(games)
        self.games.append(games / seconds)
        self.battles.append(rolls / seconds)
        self.per_game.append(rolls / games)

    def report(self, games: int) -> str:
        """A line: median games and battles per CPU second (the runs' range), a game's rolls."""
        return (
            f"{self.name}: {statistics.median(self.games):,.1f} games/CPU-s"
            f" (runs {spread(self.games, 1)}), {statistics.median(self.battles):,.0f}"
            f" battles/CPU-s (runs {spread(self.battles, 0)}); a game"
            f" {statistics.median(self.per_game):,.0f} battles;"
            f" {self.conquests}/{games} by conquest"
        )


def spread(values: list[float], digits: int) -> str:
    """``low-high`` of ``values``, to ``digits`` decimals."""
    return f"{min(values):,.{digits}f}-{max(values):,.{digits}f}"


def ratios(ours: list[float], theirs: list[float]) -> str:
    """The median of the runs' own ratios ``ours / theirs``, and their range."""
    each = [a / b for a, b in zip(ours, theirs, strict=True)]
    return f"{statistics.median(each):.2f} (runs {spread(each, 2)})"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--pyrisk", type=Path, help="a checkout of chronitis/pyrisk")
    parser.add_argument("--no-events", action="store_true", help="Game(..., events=False)")
    args = parser.parse_args(argv)
    events, games = not args.no_events, args.games
    print(f"StupidAI, {PLAYERS}-player games, Python {sys.version.split()[0]}, {native.status()}")
    print(f"{games} games a run, {args.runs} runs, CPU clock, load {os.getloadavg()[0]:.1f}")
    rolls = hegemon_battles(games)
    ours = Engine("hegemon", lambda n: (*hegemon_games(n, events), rolls))  # n is games
    engines = [ours]
    if args.pyrisk:
        engines.append(Engine("pyrisk", Pyrisk(args.pyrisk).play))
    for run in range(args.runs):
        for engine in engines if run % 2 == 0 else engines[::-1]:
            engine.run(games)
    for engine in engines:
        print(engine.report(games))
    if args.pyrisk:
        theirs = engines[1]
        print(
            f"hegemon / pyrisk: games {ratios(ours.games, theirs.games)},"
            f" battles {ratios(ours.battles, theirs.battles)}"
        )
    print(f"load after {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
