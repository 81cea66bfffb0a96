"""How fast the command line answers: ``hegemon --help`` and every subcommand's ``--help``.

    python benchmarks/cli.py [--runs 7]

Each help is a fresh ``hegemon`` process (the installed console script, as a user runs it);
the figures are the median and the slowest of ``--runs`` runs, in seconds, and the target is
0.3 s for every one. The commands are found by walking the app, so a new command is measured
without editing this script. The last line is ``cli: slowest median N s``.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

TARGET = 0.3


def commands() -> list[list[str]]:
    """Every command path of the app: ``[]`` (the root), ``["bot"]``, ``["bot", "add"]``, …"""
    from typer.main import get_command

    from hegemon.leaderboard.cli import app

    paths: list[list[str]] = []

    def walk(command: Any, path: list[str]) -> None:
        paths.append(path)
        if hasattr(command, "list_commands"):  # a group (typer vendors its own click)
            context = command.make_context(command.name, [], resilient_parsing=True)
            for name in sorted(command.list_commands(context)):
                walk(command.get_command(context, name), [*path, name])

    walk(get_command(app), [])
    return paths


def hegemon() -> list[str]:
    found = shutil.which("hegemon") or str(Path(sys.executable).parent / "hegemon")
    return [found]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    exe = hegemon()
    slowest = 0.0
    print(f"{'command':<28} {'median':>8} {'max':>8}")
    for path in commands():
        times = []
        for _ in range(args.runs):
            start = time.perf_counter()
            subprocess.run([*exe, *path, "--help"], capture_output=True, check=True)
            times.append(time.perf_counter() - start)
        median = statistics.median(times)
        slowest = max(slowest, median)
        flag = "" if median < TARGET else "  (over target)"
        label = "hegemon " + " ".join(path) + " --help"
        print(f"{label:<28} {median:8.3f} {max(times):8.3f}{flag}")
    print(f"cli: slowest median {slowest:.3f} s (target {TARGET} s)")


if __name__ == "__main__":
    main()
