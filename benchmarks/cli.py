"""How fast the command line answers: ``hegemon --help`` and every subcommand's ``--help``.

    python benchmarks/cli.py [--runs 7] [--hegemon PATH]

Each help is a fresh ``hegemon`` process (the installed console script, as a user runs it);
the figures are the median and the slowest wall time of ``--runs`` runs, in seconds (the target
is 0.3 s for every one), and the median CPU time (user + system) of the process, which a busy
machine inflates far less than the wall time. ``--hegemon PATH`` measures another install's
console script (e.g. another checkout's ``.venv/bin/hegemon``, for a before/after). The
commands are found by walking this checkout's app, so a new command is measured without editing
this script. The last line is ``cli: slowest median N s, cpu N s``.
"""

from __future__ import annotations

import argparse
import resource
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


def hegemon(given: str | None) -> list[str]:
    found = given or shutil.which("hegemon") or str(Path(sys.executable).parent / "hegemon")
    return [found]


def cpu_of_children() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--hegemon", help="the console script to measure")
    args = parser.parse_args()
    exe = hegemon(args.hegemon)
    slowest = slowest_cpu = 0.0
    print(f"{'command':<32} {'median':>7} {'max':>7} {'cpu':>7}")
    for path in commands():
        times, cpus = [], []
        for _ in range(args.runs):
            start, cpu = time.perf_counter(), cpu_of_children()
            done = subprocess.run([*exe, *path, "--help"], capture_output=True, check=False)
            times.append(time.perf_counter() - start)
            cpus.append(cpu_of_children() - cpu)
            if done.returncode != 0:
                break  # a command this install does not have
        if done.returncode != 0:
            continue
        median = statistics.median(times)
        slowest = max(slowest, median)
        slowest_cpu = max(slowest_cpu, statistics.median(cpus))
        flag = "" if median < TARGET else "  (over)"
        label = " ".join(["hegemon", *path, "--help"])
        print(f"{label:<32} {median:7.3f} {max(times):7.3f} {statistics.median(cpus):7.3f}{flag}")
    print(f"cli: slowest median {slowest:.3f} s, cpu {slowest_cpu:.3f} s (target {TARGET} s)")


if __name__ == "__main__":
    main()
