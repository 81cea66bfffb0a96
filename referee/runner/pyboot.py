"""Run a Python bot file as ``__main__`` with its folder *last* on ``sys.path``.

``python bot.py`` puts the bot's folder first on the import path, so a bot's own ``random.py``
(or ``grpc.py``, ``hegemon.py``…) would hide the standard library or the SDK. The referee runs
``python -P pyboot.py BOT.py ARGS…`` instead (``-P``: nothing is put first): the standard
library and the installed packages win, and the bot's own modules still import.

Run by path inside the sandbox: it imports nothing of hegemon.
"""

import os
import runpy
import sys


def main() -> None:
    if len(sys.argv) < 2:
        sys.exit("usage: python -P pyboot.py BOT.py [ARGS...]")
    script = os.path.abspath(sys.argv[1])
    sys.argv = [script, *sys.argv[2:]]
    sys.path.append(os.path.dirname(script))
    runpy.run_path(script, run_name="__main__")


if __name__ == "__main__":
    main()
