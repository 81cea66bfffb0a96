"""Where a command's CPU goes: runs it, samples the CPU time of every process it starts (from
``/proc``, five times a second), and prints the seconds by kind of process — test workers,
``hegemon`` command starts, bots, web servers, Chromium, PostgreSQL, ...

    python -m tests.helpers.census --out census.txt -- .venv/bin/python -m pytest -n 2 tests/web

A process belongs to the run if it descends from the command or carries the run's mark in its
environment (``HEGEMON_CENSUS``; a bot in a sandbox is started by a process of the run, so it
descends). A process's last sample is its CPU: what it spends in its last fifth of a second is
missed, which for short processes the count of starts shows. Linux only; a measuring tool, not a
test.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import time
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

TICKS = os.sysconf("SC_CLK_TCK")
MARK = "HEGEMON_CENSUS"
SERVERS = {"arena", "web", "runner", "season", "ladder", "event", "bench", "demo", "play"}


@dataclass
class Seen:
    """One process of the run: its command line and the most CPU seen."""

    argv: list[str]
    cpu: float = 0.0


@dataclass
class Census:
    """The processes seen so far, by pid and start time (a pid is reused)."""

    root: int
    mark: str
    seen: dict[tuple[int, int], Seen] = field(default_factory=dict)
    others: set[tuple[int, int]] = field(default_factory=set)

    def sample(self) -> None:
        """Reads every process once; keeps those of the run."""
        parents: dict[int, int] = {}
        rows = list(_processes())
        for pid, ppid, _start, _cpu in rows:
            parents[pid] = ppid
        for pid, _ppid, start, cpu in rows:
            key = (pid, start)
            if key in self.others:
                continue
            if key not in self.seen:
                if not (_descends(pid, self.root, parents) or self._marked(pid)):
                    self.others.add(key)
                    continue
                argv = _argv(pid)
                if argv is None:
                    continue
                self.seen[key] = Seen(argv)
            self.seen[key].cpu = max(self.seen[key].cpu, cpu)

    def _marked(self, pid: int) -> bool:
        try:
            env = Path(f"/proc/{pid}/environ").read_bytes()
        except OSError:
            return False
        return f"{MARK}={self.mark}".encode() in env.split(b"\0")


def _processes() -> Iterator[tuple[int, int, int, float]]:
    """(pid, parent pid, start tick, CPU seconds) of every process."""
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            stat = Path(entry.path, "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        ppid, start = int(fields[1]), int(fields[19])
        yield int(entry.name), ppid, start, (int(fields[11]) + int(fields[12])) / TICKS


def _descends(pid: int, root: int, parents: dict[int, int]) -> bool:
    for _ in range(64):
        if pid == root:
            return True
        pid = parents.get(pid, 0)
        if pid <= 1:
            return False
    return False


def _argv(pid: int) -> list[str] | None:
    try:
        raw = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return None
    return [a.decode(errors="replace") for a in raw.split(b"\0") if a]


def kind(argv: list[str]) -> str:
    """The kind of a process, from its command line."""
    line = " ".join(argv)
    name = Path(argv[0]).name if argv else "?"
    if "chrom" in name or "chrome" in line.split(" ", 1)[0]:
        return "chromium"
    if name.startswith("postgres") or "/postgres" in line.split(" ", 1)[0]:
        return "postgres"
    if name in {"node", "nodejs"}:
        return "node bot"
    if name == "bwrap":
        return "bwrap sandbox"
    if "exec(eval(sys.stdin.readline()))" in line:
        return "pytest worker"
    if name in {"pytest", "py.test"} or _module(argv) == "pytest":
        return "pytest main"  # not any line naming pytest: a test's files are in pytest-of-USER
    cli = "leaderboard.cli import main" in line  # the tests' way: python -c CLI ARGS
    if cli or name == "hegemon" or (len(argv) > 1 and Path(argv[1]).name == "hegemon"):
        start = 3 if cli else 1 if name == "hegemon" else 2
        sub = next((a for a in argv[start:] if not a.startswith("-")), "?")
        return f"hegemon {sub}" if sub in SERVERS else "hegemon CLI (other commands)"
    if "-m" in argv:
        return f"python -m {_module(argv)}"
    if name.startswith("python") and len(argv) > 1:
        script = argv[1]
        if script == "-c":
            return "spinner" if "while True: pass" in line else "python -c"
        parts = Path(script).parts
        for folder in ("sample_bots", "tests", "benchmarks", "scripts"):
            if folder in parts:
                return f"python {folder}/{Path(script).name}"
        return f"python {Path(script).name}"
    return name


def _module(argv: list[str]) -> str | None:
    """The module a ``python -m MODULE`` command line runs ("?" if none follows), or None."""
    if "-m" not in argv:
        return None
    at = argv.index("-m") + 1
    return argv[at] if at < len(argv) else "?"


def table(census: Census) -> str:
    """CPU seconds and process count by kind, most first."""
    cpu: dict[str, float] = defaultdict(float)
    count: dict[str, int] = defaultdict(int)
    for seen in census.seen.values():
        k = kind(seen.argv)
        cpu[k] += seen.cpu
        count[k] += 1
    total = sum(cpu.values())
    rows = [f"{'CPU s':>9} {'share':>6} {'starts':>7}  kind"]
    for k in sorted(cpu, key=lambda k: -cpu[k]):
        rows.append(f"{cpu[k]:9.1f} {cpu[k] / total:6.1%} {count[k]:7d}  {k}")
    rows.append(f"{total:9.1f} {1:6.0%} {sum(count.values()):7d}  all")
    return "\n".join(rows) + "\n"


def _line(argv: list[str]) -> str:
    """A command line on one line (a ``python -c`` program has several), cut at 300 characters."""
    return " ".join(argv).replace("\n", "; ")[:300]


def write(census: Census, out: Path, raw: Path | None, footer: str) -> str:
    """Writes the table (and with ``raw`` every process's CPU and command line); returns it."""
    text = table(census) + footer
    out.write_text(text, encoding="utf-8")
    if raw is not None:
        lines = (f"{s.cpu:.2f} {_line(s.argv)}\n" for s in census.seen.values())
        raw.write_text("".join(lines), encoding="utf-8")
    return text


def main() -> int:
    """Runs the command (or follows a running one, ``--attach PID``), samples, and writes the
    table every minute and at the end."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--raw", type=Path)
    parser.add_argument("--every", type=float, default=0.2)
    parser.add_argument("--attach", type=int, help="follow this running process instead")
    parser.add_argument("command", nargs="*")
    args = parser.parse_args()
    mark = f"{os.getpid()}-{time.time_ns()}"
    started = time.monotonic()
    child = None
    if args.attach is None:
        child = subprocess.Popen(args.command, env={**os.environ, MARK: mark})
    census = Census(args.attach or child.pid, mark)  # type: ignore[union-attr]
    written = started
    while child.poll() is None if child else os.path.exists(f"/proc/{args.attach}"):
        census.sample()
        time.sleep(args.every)
        if time.monotonic() - written > 60:
            write(census, args.out, args.raw, f"(so far: {time.monotonic() - started:.0f} s)\n")
            written = time.monotonic()
    reaped = resource.getrusage(resource.RUSAGE_CHILDREN)
    footer = (
        f"wall {time.monotonic() - started:.0f} s; CPU of the processes reaped (getrusage): "
        f"{reaped.ru_utime + reaped.ru_stime:.0f} s; exit {child and child.returncode}; "
        f"load at the end {os.getloadavg()[0]:.2f}\n"
    )
    sys.stdout.write(write(census, args.out, args.raw, footer))
    return child.returncode if child else 0


if __name__ == "__main__":
    sys.exit(main())
