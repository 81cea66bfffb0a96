"""Evaluation while training: the policy against a fixed opponent, scored as ``hegemon bench``
scores a match, and the CSV file of every evaluation.

The policy plays its likeliest action (as the trained sample bot does) in pairs of games on
one deal with the seats swapped, the policy taking every other seat. A game scores, over every
(policy seat, opponent seat) couple, 1 when the policy's seat finished ahead, ½ when level;
the score is the mean over the games. Every evaluation of a run plays the same deals, so two
evaluations differ by the policy alone, not by the luck of the deals.
"""

from __future__ import annotations

import csv
import time
from collections.abc import Sequence
from dataclasses import astuple, dataclass, fields
from pathlib import Path

import numpy as np

from hegemon.referee.limits import bounded
from hegemon.referee.rules import RuleSet
from hegemon.sdk import PolicyBot, play_local
from hegemon.sdk.network import Network

__all__ = ["COLUMNS", "Evaluation", "append_row", "pair_score", "read_rows"]

_DEALS = 1_000_003  # the evaluation deals' seeds: apart from every training game's


class Greedy(PolicyBot):
    """The policy's likeliest action at every step."""

    name = "policy"
    sample = False


@dataclass(frozen=True)
class Evaluation:
    """One evaluation: when it was made and how the policy scored."""

    update: int
    games: int  # training games played before it
    steps: int  # training steps (labelled or played) before it
    cpu_minutes: float
    opponent: str
    played: int  # evaluation games
    score: float  # 0 to 1, as hegemon bench scores
    best: float  # the best score so far, this one included


COLUMNS = tuple(f.name for f in fields(Evaluation))
"""The CSV file's header."""


def pair_score(
    network: Network,
    opponent: type,
    rules: RuleSet,
    players: int,
    seed: int,
    deal: int,
    max_decisions: int,
) -> tuple[float, float]:
    """The policy's mean score over the two games of deal ``deal`` against ``opponent`` (a bot
    class), the seats swapped between them; and the CPU seconds they took."""
    cpu = time.process_time()
    game_seed = int(np.random.default_rng([seed, _DEALS, deal]).integers(2**63))
    total = 0.0
    for leg in (0, 1):
        mine = [(seat + leg) % 2 == 0 for seat in range(players)]
        bots = [Greedy(network) if m else opponent() for m in mine]
        result = play_local(bots, bounded(rules), game_seed, decision_limit=max_decisions)
        places = result.places
        couples = [
            1.0 if places[a] < places[b] else 0.5 if places[a] == places[b] else 0.0
            for a in range(players)
            if mine[a]
            for b in range(players)
            if not mine[b]
        ]
        total += sum(couples) / len(couples)
    return total / 2, time.process_time() - cpu


def append_row(path: Path, evaluation: Evaluation) -> None:
    """Add ``evaluation`` to the CSV file at ``path`` (its header first, if it is new)."""
    new = not path.exists()
    with path.open("a", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        if new:
            writer.writerow(COLUMNS)
        writer.writerow(_formatted(astuple(evaluation)))


def _formatted(values: Sequence[object]) -> list[str]:
    return [f"{v:.4f}" if isinstance(v, float) else str(v) for v in values]


def read_rows(path: Path) -> list[Evaluation]:
    """The evaluations of a run's CSV file, in order (none if there is no file)."""
    if not path.exists():
        return []
    with path.open(newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    return [
        Evaluation(
            int(r["update"]),
            int(r["games"]),
            int(r["steps"]),
            float(r["cpu_minutes"]),
            r["opponent"],
            int(r["played"]),
            float(r["score"]),
            float(r["best"]),
        )
        for r in rows
    ]
