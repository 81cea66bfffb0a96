"""The SDK's forward model for search bots (:mod:`hegemon.sdk.forward`): what a sample costs,
and what a clone plus a random playout to the end of the turn costs.

    python benchmarks/forward_model.py [--preset classic] [--players 4] [--runs 5]

A game between planner bots is played first; at each attack decision of seat 0 the seat's
view is kept (the positions a search bot samples from). Then, per kept view:

- sample: ``sample_game(view, rng)`` (a whole Game with the hidden cards, deck, missions and
  capitals drawn);
- clone + playout: ``game.clone()`` of one sample, then uniformly random legal answers
  (:func:`hegemon.referee.policies.random_action`) until the turn passes on.

Figures are medians over the runs of the CPU time per operation (a shared machine: CPU time,
not the wall clock), with the engine the sources select (compiled or pure Python: printed).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hegemon.referee import native
from hegemon.referee.decisions import Kind
from hegemon.referee.policies import random_action
from hegemon.sample_bots.planner import PlannerBot
from hegemon.sdk import play_local
from hegemon.sdk.forward import sample_game


class Recorder(PlannerBot):
    """Planner, keeping the view of each of its attack decisions."""

    def __init__(self) -> None:
        self.views: list = []

    def attack(self, view, decision):
        if view.round >= 1:
            self.views.append(view)
        return super().attack(view, decision)


def views_of(preset: str, players: int, seed: int) -> list:
    recorder = Recorder()
    bots = [recorder, *(PlannerBot() for _ in range(players - 1))]
    play_local(bots, preset, seed=seed, options={"turn_limit": 30})
    return recorder.views


def per_op(views: list, op, repeats: int) -> float:
    """CPU microseconds per call of ``op(view, rng)``, over ``repeats`` calls per view."""
    rng = random.Random(1)
    start = time.process_time()
    for view in views:
        for _ in range(repeats):
            op(view, rng)
    return (time.process_time() - start) / (len(views) * repeats) * 1e6


def playout(game, rng) -> int:
    """Random legal answers until the turn passes on; the number of actions."""
    seat, n = game.current, 0
    while game.pending is not None and game.current == seat:
        game.apply(random_action(game, rng))
        n += 1
    return n


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--preset", default="classic")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--repeats", type=int, default=20)
    args = parser.parse_args(argv)
    views = views_of(args.preset, args.players, seed=7)
    print(
        f"hegemon forward model: {args.players}-player '{args.preset}', {len(views)} attack "
        f"positions of seat 0, Python {sys.version.split()[0]}, {native.status()}"
    )
    samples = {id(v): sample_game(v, random.Random(0)) for v in views}
    lengths = [playout(samples[id(v)].clone(), random.Random(2)) for v in views]
    assert all(v.pending.kind is Kind.ATTACK for v in views)

    def clone_and_playout(view, rng) -> None:
        playout(samples[id(view)].clone(), rng)

    def clone_only(view, rng) -> None:
        samples[id(view)].clone()

    rows = [
        ("sample", sample_game),
        ("clone", clone_only),
        ("clone + random playout to the turn's end", clone_and_playout),
    ]
    for label, op in rows:
        figure = statistics.median(per_op(views, op, args.repeats) for _ in range(args.runs))
        print(f"{label:42} {figure:9.1f} µs CPU")
    print(f"(a playout to the turn's end: {statistics.mean(lengths):.1f} actions on average)")


if __name__ == "__main__":
    main()
