"""A bot that breaks its memory ceiling in its children: when a game starts it starts three
children that each touch 600 MiB (together past the bot's 1 GiB ceiling, so the kernel stops
one or more of them), and answers as soon as one has died (or all have touched their memory),
then plays on as if nothing happened: its answer comes right after the kill. The runner must
give it a ``memory`` fault, every time (tests/misc/test_breach.py). The children exec a fresh
interpreter: a gRPC server's process must not fork without exec (its fork handlers are skipped
while other threads use gRPC, and such a child may die at once: the breach would be luck).
"""

from __future__ import annotations

import os
import select
import subprocess
import sys

from hegemon.sdk import Bot, run

CHILDREN = 3
HOG = """
import sys, time
size = 600 << 20
block = bytearray(size)
for at in range(0, size, 4096):
    block[at] = 1  # every page resident, not just reserved
sys.stdout.write("x")
sys.stdout.flush()
time.sleep(3600)
"""


class MemoryChildren(Bot):
    name = "memory-children"

    def on_start(self, game) -> None:
        children = [
            subprocess.Popen([sys.executable, "-S", "-c", HOG], stdout=subprocess.PIPE)
            for _ in range(CHILDREN)
        ]
        waiting = {child.stdout.fileno() for child in children if child.stdout is not None}
        while waiting:  # a byte once touched; end of file when killed: then answer at once
            ready, _, _ = select.select(list(waiting), [], [])
            for fd in ready:
                if not os.read(fd, 1):
                    return
                waiting.discard(fd)


if __name__ == "__main__":
    run(MemoryChildren())
