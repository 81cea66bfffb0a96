"""A bot that answers too late (for tests/test_bot_errors.py): SLOW_SECONDS per decision."""

import time

from hegemon.sdk import Bot, run


class Slow(Bot):
    name = "slow"

    def decide(self, view, decision):
        time.sleep(1.0)
        return super().decide(view, decision)


if __name__ == "__main__":
    run(Slow())
