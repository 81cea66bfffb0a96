"""A bot that breaks its memory ceiling in a child: when a game starts it forks three children
that each touch 600 MiB (together past the bot's 1 GiB ceiling, so the kernel stops one or
more of them) and waits until each has touched its memory or died, then plays on as if nothing
happened. The runner must give it a ``memory`` fault, every time (tests/test_breach.py).
"""

from __future__ import annotations

import os
import time

from hegemon.sdk import Bot, run

CHILDREN = 3
SIZE = 600 << 20


def touch_and_hold(done: int) -> None:
    block = bytearray(SIZE)
    for at in range(0, SIZE, 4096):
        block[at] = 1  # every page resident, not just reserved
    os.write(done, b"x")
    time.sleep(3600)


class MemoryChildren(Bot):
    name = "memory-children"

    def on_start(self, game) -> None:
        pipes = []
        for _ in range(CHILDREN):
            read, write = os.pipe()
            if os.fork() == 0:
                os.close(read)
                try:
                    touch_and_hold(write)
                finally:
                    os._exit(0)
            os.close(write)
            pipes.append(read)
        for read in pipes:  # a byte once touched, or end of file when the child was killed
            os.read(read, 1)
            os.close(read)


if __name__ == "__main__":
    run(MemoryChildren())
