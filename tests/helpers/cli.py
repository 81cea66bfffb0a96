"""The ``hegemon`` commands that only read or write the database and print, run inside the
test's own process.

A command's start costs ~0.6 CPU-s (most of it importing the store: sqlmodel, SQLAlchemy,
pydantic), and the suite ran hundreds of ``leaderboard``, ``season status``, ``games``,
``ladder create`` and ``user add`` commands only to read what they print or to set a home up.
Those run here through typer's ``CliRunner``, with the environment, working folder and input
the subprocess would have had, and give the same :class:`subprocess.CompletedProcess` (exit
status, stdout, stderr; an uncaught exception as the traceback the interpreter would print,
status 1). A command that starts processes, serves, plays, writes files or talks to an arena
still runs as a real process (:func:`tests.helpers.league.hegemon`), as does every test of the
process itself.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import traceback
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

IN_PROCESS: frozenset[tuple[str, ...]] = frozenset(
    {
        ("leaderboard",),
        ("rules",),
        ("verify",),
        ("games",),
        ("season", "create"),
        ("season", "status"),
        ("season", "list"),
        ("ladder", "create"),
        ("ladder", "status"),
        ("ladder", "list"),
        ("event", "show"),
        ("event", "list"),
        ("bot", "list"),
        ("user", "add"),
        ("user", "invite"),
        ("user", "list"),
        ("user", "disable"),
        ("user", "enable"),
        ("user", "token"),
        ("user", "tokens"),
        ("user", "revoke"),
        ("game", "void"),
        ("runner-token", "create"),
        ("runner-token", "list"),
        ("runner-token", "revoke"),
    }
)
"""Commands (by their first one or two words) that read or write the database or read a
record, and print: nothing they do depends on being a process of their own."""

AS_A_PROCESS = frozenset({"download", "--out", "-o", "--arena", "--mine"})
"""Words that make such a command write files (``games download``) or talk to an arena over
HTTP (``--arena``, ``games --mine``: its client's connections live as long as the process):
these run as a process. (``logs`` is left out altogether: signed in, ``logs N`` asks the arena
for a game N it does not find here.)"""

PROCESS_CHECKS = ("HEGEMON_PASSWORD_COST", "HEGEMON_TESTING")
"""Settings the console script checks before any command runs (``main``): a call that changes
them runs as a process, where that check is made."""


def in_process(args: Sequence[str], env: Mapping[str, str]) -> bool:
    """Whether ``hegemon ARGS`` with ``env`` may run in this process (see :data:`IN_PROCESS`)."""
    words = tuple(args)
    return (
        (words[:1] in IN_PROCESS or words[:2] in IN_PROCESS)
        and not AS_A_PROCESS & set(words)
        and all(env.get(name) == os.environ.get(name) for name in PROCESS_CHECKS)
    )


def run_in_process(
    args: Sequence[str], env: Mapping[str, str], cwd: Path, stdin: str | None = None
) -> subprocess.CompletedProcess[str]:
    """``hegemon ARGS`` run in this process as :func:`subprocess.run` would run it in a child
    with ``env`` and ``cwd``: its exit status, stdout and stderr."""
    from typer.testing import CliRunner

    from hegemon.leaderboard.cli import app

    # CliRunner sets these for the call and restores them after; None removes a variable
    changes: dict[str, str | None] = {k: v for k, v in env.items() if os.environ.get(k) != v}
    changes.update({k: None for k in os.environ if k not in env})
    with contextlib.chdir(cwd), consoles_sized_by(env):
        result = CliRunner().invoke(app, list(args), input=stdin, env=changes)
    stdout, stderr, code = result.stdout, result.stderr, result.exit_code
    error = result.exception
    if isinstance(error, SystemExit) and isinstance(error.code, str):
        # sys.exit("message"): the interpreter prints it to stderr (CliRunner, to stdout)
        stdout = stdout.removesuffix(f"{error.code}\n")
        stderr += f"{error.code}\n"
    elif error is not None and not isinstance(error, SystemExit):
        stderr += "".join(traceback.format_exception(error))
        code = 1
    return subprocess.CompletedProcess(["hegemon", *args], code, stdout, stderr)


def _size(env: Mapping[str, str], name: str) -> int | None:
    value = env.get(name)
    return int(value) if value is not None and value.isdigit() else None


@contextlib.contextmanager
def consoles_sized_by(env: Mapping[str, str]) -> Iterator[None]:
    """The commands' shared consoles sized for the call as a new process under ``env`` sizes
    them: rich fixes a console's width and height from ``COLUMNS`` and ``LINES`` when the console
    is made — here at the module's first import in this worker, under whatever a test had set
    then — and a real command makes them under its own environment (``env_for``: 200 columns)."""
    from hegemon.leaderboard.cli import common

    consoles = (common.console, common.errors)
    made = [(console._width, console._height) for console in consoles]
    try:
        for console in consoles:
            console._width, console._height = _size(env, "COLUMNS"), _size(env, "LINES")
        yield
    finally:
        for console, (width, height) in zip(consoles, made, strict=True):
            console._width, console._height = width, height
