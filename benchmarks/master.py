"""Risiko! Master: how fast worlds compose and how fast the three presets play, next to classic.

    python benchmarks/master.py [--games 20]

Composition: every 6-tile layout drawn from 200 seeds (``draw_layout``, which tries layouts
until one matches) and composed uncached. Play: complete 4-player games with the engine's
attack-happy policy (``hegemon.referee.policies``), a 200-round limit; a decision is one
``Game.apply`` call. The last line is ``master: N decisions/s`` for risiko-master-master.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hegemon.referee import Game, make_rules
from hegemon.referee.compose import compose, draw_layout
from hegemon.referee.policies import attack_happy_action

PRESETS = ("classic", "risiko-master-base", "risiko-master-expert", "risiko-master-master")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=20)
    args = parser.parse_args()
    start = time.perf_counter()
    for seed in range(200):
        compose(draw_layout(seed, 3 + seed % 4))
    print(f"compose: {(time.perf_counter() - start) / 200 * 1000:.2f} ms per drawn world")
    rate = 0.0
    for preset in PRESETS:
        rules = make_rules(preset, {"turn_limit": 200})
        decisions, start = 0, time.perf_counter()
        for seed in range(args.games):
            game = Game(rules, 4, seed)
            rng = random.Random(seed)
            while not game.over:
                game.apply(attack_happy_action(game, rng))
                decisions += 1
        rate = decisions / (time.perf_counter() - start)
        print(f"{preset}: {rate:,.0f} decisions/s ({decisions / args.games:.0f} a game)")
    print(f"master: {rate:,.0f} decisions/s")


if __name__ == "__main__":
    main()
