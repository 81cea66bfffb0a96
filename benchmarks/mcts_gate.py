"""How often, and how rightly, the `mcts` sample bot's gate overrules planner, at several gates.

    python benchmarks/mcts_gate.py [--games 1] [--seed 0] [--truth 60] [--rounds 100]

Classic 4-player games, two `mcts` seats against two `planner` seats, 100 rounds at most. At
every search whose screen's best differs from planner's answer, the bot records the screen's
mean paired difference (best − planner's answer, armies), the confirmation's (its ``confirm``
samples through the enemies' turns) mean and standard error, and a fresh confirmation of
``--truth`` samples: the "truth" by the same rollout, which tells whether overruling there was
right. The game is played with 3.0's gate (one army at 1.5 standard errors). The table then
says, for each gate (screen margin, confirm margin, z), how many of these searches it would
have overruled, how many of those the truth favours (and significantly: by 2 of its standard
errors, either way), and the truth's mean gain of an overrule. A won or lost game counts
±1000 in a rollout's score, so a mean can be large.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hegemon.sample_bots.mcts import MctsBot
from hegemon.sample_bots.planner import PlannerBot
from hegemon.sdk import play_local

GATES = [  # (screen margin, confirm margin, z): 3.0's first, 4.0's second
    (1.0, 1.0, 1.5),
    (0.5, 0.5, 1.0),
    (1.0, 0.5, 1.0),
    (0.0, 0.5, 1.0),
    (0.0, 0.0, 2.0),
    (0.5, 0.5, 1.5),
]


def mean_se(xs: list[float]) -> tuple[float, float]:
    """The mean of ``xs`` and its standard error."""
    n = len(xs)
    m = sum(xs) / n
    var = sum((x - m) ** 2 for x in xs) / (n - 1) if n > 1 else 0.0
    return m, math.sqrt(var / n)


class Recorder(MctsBot):
    """mcts that confirms every search whose screen's best differs from planner's answer,
    records it, and plays what 3.0's gate would have."""

    margin = z = -1e9  # the search itself confirms every candidate; the gate is applied below
    truth = 60

    def __init__(self, records: list[dict]) -> None:
        super().__init__()
        self.records = records
        self.calls: list[tuple] = []

    def _rollouts(self, view, moves, judge, rollout, samples, stop, enemies):
        scores = super()._rollouts(view, moves, judge, rollout, samples, stop, enemies)
        self.calls.append((moves, judge, rollout, scores))
        return scores

    def search(self, view, moves):
        self.calls = []
        answer = super().search(view, moves)
        if len(self.calls) < 2 or self.calls[1][3] is None:
            return moves[0]  # no confirmation: planner's answer, as the bot would
        (_, _, _, screen), ([planned, best], judge, rollout, confirm) = self.calls[:2]
        far = time.process_time() + 1e9
        truth = self._rollouts(view, [planned, best], judge, rollout, self.truth, far, True)
        assert truth is not None and answer == best

        def diffs(scores):
            return [b - p for b, p in zip(scores[best], scores[planned], strict=True)]

        self.records.append(
            {
                "screen": mean_se(diffs(screen)),
                "confirm": mean_se(diffs(confirm)),
                "truth": mean_se(diffs(truth)),
            }
        )
        keep = MctsBot.clearly_better
        old = keep(self, screen[best], screen[planned], 0.0, 1.0) and keep(
            self, confirm[best], confirm[planned], 1.5, 1.0
        )
        return best if old else planned


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--truth", type=int, default=60)
    parser.add_argument("--rounds", type=int, default=100)
    args = parser.parse_args()
    Recorder.truth = args.truth
    records: list[dict] = []
    cpu = time.process_time()
    for game, seed in enumerate(range(args.seed, args.seed + args.games), 1):
        bots = [Recorder(records), PlannerBot(), Recorder(records), PlannerBot()]
        play_local(bots, "classic", seed=seed, options={"turn_limit": args.rounds})
        print(f"{game} game(s), {time.process_time() - cpu:.0f} CPU-s")
        table(records)


def table(records: list[dict]) -> None:
    """Print what each gate of GATES would have overruled among ``records``."""
    print(f"{len(records)} searches whose screen's best differs from planner's answer")
    print("screen  confirm  z    overrules  right  significantly right/wrong  mean truth gain")
    for screen_margin, margin, z in GATES:
        chosen = [
            r
            for r in records
            if r["screen"][0] > screen_margin
            and r["confirm"][0] > margin
            and r["confirm"][0] > z * r["confirm"][1]
        ]
        truth = [r["truth"] for r in chosen]
        right = sum(m > 0 for m, _ in truth)
        sure = sum(m > 2 * se for m, se in truth)
        wrong = sum(m < -2 * se for m, se in truth)
        gain = sum(m for m, _ in truth) / len(truth) if truth else 0.0
        print(
            f"{screen_margin:6.1f}  {margin:7.1f}  {z:3.1f}  {len(chosen):9d}  {right:5d}"
            f"  {sure:14d} / {wrong:<10d}  {gain:15.1f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
