"""A bot that forks past its process limit: when a game starts it starts children (each an
idle ``sleep``) until the kernel refuses one, then plays on as if nothing happened. The runner
must give it a ``processes`` fault at once, every time (tests/runner/test_breach.py)."""

from __future__ import annotations

import subprocess

from hegemon.sdk import Bot, run

MOST = 1000  # far past any process limit the tests give


class ForkChildren(Bot):
    name = "fork-children"

    def on_start(self, game) -> None:
        self.children = []
        for _ in range(MOST):
            try:
                self.children.append(subprocess.Popen(["sleep", "3600"]))
            except OSError:  # refused at the limit: play on
                return


if __name__ == "__main__":
    run(ForkChildren())
