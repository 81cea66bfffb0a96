"""The sample bots by name, and seatings of them for in-process games."""

from __future__ import annotations

from hegemon.sample_bots.aggressive import AggressiveBot
from hegemon.sample_bots.continental import ContinentalBot
from hegemon.sample_bots.planner import PlannerBot
from hegemon.sample_bots.random import RandomBot

BOTS = {
    "random": RandomBot,
    "aggressive": AggressiveBot,
    "continental": ContinentalBot,
    "planner": PlannerBot,
}


ORDER = ("random", "aggressive", "continental", "planner")


def line_up(names, rotation: int):
    names = list(names)
    names = names[rotation % len(names) :] + names[: rotation % len(names)]
    return names, [BOTS[n]() for n in names]
