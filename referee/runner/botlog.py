"""A bot's own output: kept (capped) beside the game's record, and read for the one line that
says why it faulted.

Every local bot writes stdout and stderr to a log (see :mod:`.process`). After a game each
seat's part of it is saved as ``<record>.logs/seat-<N>.log`` (:func:`write_seat_logs`), at most
:data:`LOG_CAP` bytes (the start and the end, the middle cut). :func:`explain` finds the cause
of a fault in a log: for a Python exception its type, message and the bot's own ``file:line``
(a JavaScript error likewise), else the log's last line. Pure text functions, no trio.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from pathlib import Path

from ..bottext import printable

LOG_CAP = 256 * 1024
"""The most bytes of one seat's log kept per game."""
HEAD = 32 * 1024  # of a capped log, the first bytes kept; the rest of the cap is its end
SANDBOX_NOTE = "hegemon: "  # the referee's own lines in a bot's log start so
LOGS_SUFFIX = ".logs"
THIRD_PARTY = ("/node_modules/", "/site-packages/", "/dist-packages/")

_FRAME = re.compile(r'^\s*File "(?P<file>[^"]+)", line (?P<line>\d+)')
_JS_FRAME = re.compile(r"^\s+at (?:.*?\()?(?P<file>/[^():]+):(?P<line>\d+):\d+\)?\s*$")
_JS_HEAD = re.compile(r"^(?P<file>/[^:]+\.[cm]?js):(?P<line>\d+)\s*$")
_EXCEPTION = re.compile(r"^[A-Za-z_][\w.]*(?:Error|Exception|Exit|Interrupt|Warning|Fault)\b")


def cap(data: bytes, limit: int = LOG_CAP) -> bytes:
    """``data`` cut to at most about ``limit`` bytes: its start and its end, with a line saying
    how much was left out."""
    if len(data) <= limit:
        return data
    head, tail = data[: min(HEAD, limit // 4)], data[-(limit - min(HEAD, limit // 4)) :]
    cut = len(data) - len(head) - len(tail)
    return head + f"\n[... {cut} bytes of the log cut ...]\n".encode() + tail


def bot_lines(text: str) -> list[str]:
    """The log's lines without the referee's own notes and blank lines, every control
    character (a terminal escape of the bot's) made a space."""
    return [
        printable(line).rstrip()
        for line in text.splitlines()
        if line.strip() and not line.startswith(SANDBOX_NOTE)
    ]


def tail(text: str, lines: int = 10) -> list[str]:
    """The last ``lines`` lines the bot wrote."""
    return bot_lines(text)[-lines:]


def _where(file: str, line: str, folder: str | None) -> str:
    if folder:
        try:
            rel = os.path.relpath(file, folder)
            if not rel.startswith(".."):
                return f"{rel}:{line}"
        except ValueError:
            pass
    return f"{os.path.basename(file)}:{line}"


def _pick(frames: Sequence[tuple[str, str]], folder: str | None) -> tuple[str, str] | None:
    """The deepest frame in the bot's own files (its folder, not the packages it holds), else
    the deepest frame."""
    if folder:
        own = [
            f
            for f in frames
            if f[0].startswith(folder.rstrip("/") + "/")
            and not any(part in f[0] for part in THIRD_PARTY)
        ]
        if own:
            return own[-1]
    return frames[-1] if frames else None


def python_error(text: str, folder: str | None = None) -> str:
    """``Type: message (file:line)`` of the last Python traceback in ``text``; "" if none."""
    lines = text.splitlines()
    starts = [i for i, line in enumerate(lines) if line.startswith("Traceback (most recent")]
    if not starts:
        return ""
    frames: list[tuple[str, str]] = []
    error = ""
    for line in lines[starts[-1] + 1 :]:
        frame = _FRAME.match(line)
        if frame:
            frames.append((frame["file"], frame["line"]))
        elif not line.startswith((" ", "\t")) and _EXCEPTION.match(line):
            error = line.strip()
            break
    if not error:
        return ""
    where = _pick(frames, folder)
    return f"{error[:240]} ({_where(*where, folder)})" if where else error[:240]


def js_error(text: str, folder: str | None = None) -> str:
    """``Error: message (file:line)`` of the last uncaught JavaScript error in ``text``."""
    lines = text.splitlines()
    for i in range(len(lines) - 1, -1, -1):
        if _EXCEPTION.match(lines[i]) or lines[i].startswith(("Error:", "Error [")):
            frames = []
            for line in lines[max(0, i - 6) : i]:
                head = _JS_HEAD.match(line)
                if head:
                    frames.append((head["file"], head["line"]))
            for line in lines[i + 1 :]:
                frame = _JS_FRAME.match(line)
                if not frame:
                    break
                frames.append((frame["file"], frame["line"]))
            where = _pick(frames, folder)
            error = lines[i].strip()[:240]
            return f"{error} ({_where(*where, folder)})" if where else error
    return ""


def explain(text: str, folder: str | None = None) -> str:
    """The cause of a fault in one line, from the bot's log: its exception (type, message,
    the bot's own file:line), else its last line; "" for an empty log."""
    found = python_error(text, folder) or js_error(text, folder)
    if found:
        return found + _hint(text, found)
    lines = bot_lines(text)
    return " ".join(lines[-1].split())[:240] if lines else ""


def _hint(text: str, error: str) -> str:
    if error.startswith("PermissionError: [Errno 13]"):
        return (
            "; the bot runs as an unprivileged user: let others read its folder and files "
            "(chmod -R o+rX FOLDER)"
        )
    refused = ("Address family not supported", "Operation not permitted")
    if any(r in error for r in refused) and "socket" in text.lower():
        return (
            "; network sockets are refused in the sandbox: serve on the unix socket that "
            "--address (also $HEGEMON_BOT_ADDRESS) gives"
        )
    return ""


# ---------------------------------------------------------------------------------- files
def logs_dir(record: Path) -> Path:
    """Where the seats' logs of the game recorded at ``record`` are kept."""
    name = record.name[: -len(".jsonl")] if record.name.endswith(".jsonl") else record.name
    return record.with_name(name + LOGS_SUFFIX)


def seat_log(folder: Path, seat: int) -> Path:
    """One seat's log in a game's log folder."""
    return folder / f"seat-{seat}.log"


def write_seat_logs(folder: Path, logs: Sequence[bytes | None]) -> list[Path]:
    """Write each seat's log (``None``: a bot with no log, e.g. a remote one) into ``folder``;
    the paths written."""
    written = []
    folder.mkdir(parents=True, exist_ok=True)
    for seat, data in enumerate(logs):
        if data is None:
            continue
        path = seat_log(folder, seat)
        path.write_bytes(cap(data))
        written.append(path)
    return written
