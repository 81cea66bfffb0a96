"""A bot that computes for about 70 % of each decision's allowance (in CPU time) before it
answers as the SDK's default bot would. Used by benchmarks/clock.py."""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from hegemon.sdk import Bot, run

SHARE = 0.7


class Busy(Bot):
    name = "busy"

    def decide(self, view, decision):
        end = time.process_time() + SHARE * view.deadline_ms / 1000
        while time.process_time() < end:
            pass
        return super().decide(view, decision)


if __name__ == "__main__":
    run(Busy())
