"""Text a bot controls (its Hello name, its error messages, its log) made inert before a person
sees it: no terminal escapes, NUL, newlines or bidirectional overrides, and, where it is printed
through rich, no markup.

A bot's name or fault text is cleaned where it arrives (:func:`printable`, :func:`bot_name`)
and again where a terminal shows it (:func:`terminal_text`), since a record or a log may come
from anywhere. What a member reads of a fault, a check or an upload names no path of the
server (:func:`no_paths`).
"""

from __future__ import annotations

import os
import re

NAME_LENGTH = 64
"""The longest seat label a bot's Hello name gives."""


def printable(text: str) -> str:
    """``text`` (often the bot's own words: its log, its error) with every control or
    formatting character — terminal escapes, NUL, bidi overrides, newlines — made a space."""
    return "".join(ch if ch.isprintable() else " " for ch in text)


def bot_name(text: object) -> str:
    """A bot's Hello name as a seat label: printable, runs of spaces made one, at most
    :data:`NAME_LENGTH` characters ("" when nothing is left)."""
    return " ".join(printable(str(text or "")).split())[:NAME_LENGTH]


def terminal_text(text: object) -> str:
    """``text`` safe to give rich's console with markup on: printable, with ``[`` escaped so
    no bot string can style (or hide) what is printed around it."""
    from rich.markup import escape

    return escape(printable(str(text)))


# A path of two or more parts, not inside a word or an address ("http://host/x" and the
# bot's own socket "unix:/tmp/x.sock", a path inside its sandbox, are left alone).
_PATH = re.compile(r"(?<![\w:/.~-])(?:/[^\s'\"()<>:,;\[\]{}|/]+){2,}/?")


def no_paths(text: str, folder: str | os.PathLike[str] | None = None) -> str:
    """``text`` with no absolute path of the machine it ran on: a path inside ``folder`` (the
    bot's own folder) becomes relative to it (the folder itself "the bot's folder"), any
    other path its last part alone. What a member reads of their bot's faults, checks and
    uploads never tells them where the arena keeps its files."""
    roots: list[str] = []
    if folder is not None:
        given = os.fspath(folder).rstrip("/")
        roots = sorted({given, os.path.realpath(given)}, key=len, reverse=True)

    def short(match: re.Match[str]) -> str:
        path = match.group(0).rstrip("/")
        for root in roots:
            if path == root:
                return "the bot's folder"
            if path.startswith(root + "/"):
                return path[len(root) + 1 :]
        return os.path.basename(path)

    return _PATH.sub(short, text)
