"""A bot that answers too late (for tests/runner/test_bot_errors.py): it computes for a whole CPU
second per decision (the referee times bots by their CPU time: sleeping would not be late)."""

import time

from hegemon.sdk import Bot, run


class Slow(Bot):
    name = "slow"

    def decide(self, view, decision):
        end = time.process_time() + 1.0
        while time.process_time() < end:
            pass
        return super().decide(view, decision)


if __name__ == "__main__":
    run(Slow())
