"""Text a bot controls (its Hello name, its error messages, its log) made inert before a person
sees it: no terminal escapes, NUL, newlines or bidirectional overrides, and, where it is printed
through rich, no markup.

A bot's name or fault text is cleaned where it arrives (:func:`printable`, :func:`bot_name`)
and again where a terminal shows it (:func:`terminal_text`), since a record or a log may come
from anywhere.
"""

from __future__ import annotations

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
