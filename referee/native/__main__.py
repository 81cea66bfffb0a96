"""``python -m hegemon.referee.native build|status``: compile the rules engine of this checkout
(its wheel's build, kept in the environment), or say which engine this interpreter runs (and
why)."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from . import BUILD_DIR, matching_build, status


def main(argv: list[str] | None = None) -> int:
    """The command line; returns the exit code."""
    parser = argparse.ArgumentParser(
        prog="python -m hegemon.referee.native",
        description="The rules engine compiled with mypyc: build it, or show which one runs.",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    make = commands.add_parser("build", help=f"build the wheel, its engine into {BUILD_DIR}")
    make.add_argument("--log", type=Path, help="the build's output (default: build.log)")
    make.add_argument("--verbose", action="store_true", help="show the build's output")
    show = commands.add_parser("status", help="which engine runs here, and why")
    show.add_argument(
        "--check",
        action="store_true",
        help="exit 1 unless a build of exactly the current sources is there",
    )
    args = parser.parse_args(argv)
    if args.command == "build":
        from .build import NativeBuildError, build

        started = time.perf_counter()
        try:
            folder = build(quiet=not args.verbose, log=args.log)
        except NativeBuildError as exc:
            print(f"hegemon.referee.native: {exc}", file=sys.stderr)
            return 1
        took = time.perf_counter() - started
        print(f"compiled the rules engine with mypyc into {folder} in {took:.1f} s")
        return 0
    print(status())
    if args.check:
        return 0 if matching_build().usable else 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
