"""A record from outside checked before anything uses it: every line's shape and every field's
type, then the engine's own replay of it (:func:`hegemon.referee.record.replay`), so that the
commands that read one (``hegemon verify``, ``replay``, ``replay --html``, the web pages) see
only a well-formed record whose every event the engine reproduces.

A bad record gives one :class:`~hegemon.referee.record.RecordError` naming the first bad line
and field, e.g. ``line 1: "seats" must be a list of strings``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from .record import FORMAT, FORMAT_1, RecordError, Verdict, replay

MAX_LINE = 1_000_000
"""The longest record line read (characters); a real line is a few kilobytes."""

MAX_DEPTH = 12
"""The deepest nesting of lists and objects in a line; a real record nests 5 deep."""

MAX_INT = 2**256
"""The largest integer a record holds anywhere (its 128-bit seed is the largest)."""

_Check = Callable[[Any], bool]


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _ints(value: Any) -> bool:
    return isinstance(value, list) and all(_int(v) for v in value)


def _strings(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def _objects(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, dict) for v in value)


def _events(value: Any) -> bool:
    return _objects(value) and all(isinstance(e.get("event"), str) for e in value)


def _str(value: Any) -> bool:
    return isinstance(value, str)


def _bool(value: Any) -> bool:
    return isinstance(value, bool)


_FIELDS: dict[str, dict[str, tuple[_Check, str, bool]]] = {
    # line type: {field: (check, what it must be, required)}
    "header": {
        "format": (_str, "a string", True),
        "rules": (lambda v: isinstance(v, dict), "an object", True),
        "players": (_int, "an integer", True),
        "seed_hash": (_str, "a string", False),
        "seed_public": (_bool, "true or false", False),
        "decision_limit": (_int, "an integer", False),
        "seats": (_strings, "a list of strings", False),
        "game_id": (_str, "a string", False),
        "map": (_str, "a string", False),
    },
    "opening": {"events": (_events, 'a list of objects with an "event" name', True)},
    "action": {
        "n": (_int, "an integer", True),
        "player": (_int, "an integer", True),
        "action": (lambda v: isinstance(v, list), "a list", True),
        "events": (_events, 'a list of objects with an "event" name', True),
    },
    "fault": {
        "seat": (_int, "an integer", True),
        "fault": (_str, "a string", True),
        "detail": (_str, "a string", False),
        "n": (_int, "an integer", False),
    },
    "note": {  # a seat's notes on its decision: private to the seat, like a fault's detail
        "seat": (_int, "an integer", True),
        "n": (_int, "an integer", False),
        "text": (_str, "a string", False),
        "marks": (_objects, "a list of objects", False),
        "dropped": (_strings, "a list of strings", False),
    },
    "result": {
        "places": (_ints, "a list of integers", True),
        "reason": (lambda v: v is None or isinstance(v, str), "a string", False),
        "seed": (_int, "an integer", False),
    },
}


def _depth_and_size(value: Any, depth: int = 1) -> str:
    """Why ``value`` is too deep or holds too large a number ("" if neither)."""
    if depth > MAX_DEPTH:
        return f"nested deeper than {MAX_DEPTH} levels"
    if isinstance(value, dict):
        items: Any = value.values()
    elif isinstance(value, list):
        items = value
    else:
        return "a number too large" if _int(value) and abs(value) > MAX_INT else ""
    for item in items:
        why = _depth_and_size(item, depth + 1)
        if why:
            return why
    return ""


def _line(number: int, raw: str) -> dict[str, Any]:
    """One line, read and checked field by field."""
    if len(raw) > MAX_LINE:
        raise RecordError(f"line {number}: longer than {MAX_LINE} characters")
    try:
        line = json.loads(raw)
    except (ValueError, RecursionError) as exc:  # a huge number is a ValueError, not JSON's
        reason = exc.msg if isinstance(exc, json.JSONDecodeError) else "too deep or too large"
        raise RecordError(f"line {number}: not JSON ({reason})") from None
    if not isinstance(line, dict):
        raise RecordError(f"line {number}: not a record line (a JSON object)")
    why = _depth_and_size(line)
    if why:
        raise RecordError(f"line {number}: {why}")
    kind = line.get("type")
    if not isinstance(kind, str) or kind not in _FIELDS:
        known = ", ".join(_FIELDS)
        raise RecordError(f'line {number}: "type" must be one of {known}; got {str(kind)!r:.40}')
    for name, (check, what, required) in _FIELDS[kind].items():
        if name not in line:
            if required:
                raise RecordError(f'line {number}: the {kind} has no "{name}"')
            continue
        if not check(line[name]):
            raise RecordError(f'line {number}: "{name}" must be {what}')
    return line


def check_lines(text: str) -> list[dict[str, Any]]:
    """The record's lines, each checked for shape; raises :class:`RecordError` naming the
    first bad line and field."""
    lines = [_line(n, raw) for n, raw in enumerate(text.splitlines(), 1) if raw.strip()]
    if not lines or lines[0]["type"] != "header":
        raise RecordError("line 1: a record starts with its header")
    head = lines[0]
    if head["format"] not in (FORMAT, FORMAT_1):
        raise RecordError(f'line 1: "format" must be {FORMAT}; got {head["format"]!r:.40}')
    if head["format"] == FORMAT and not _str(head.get("seed_hash")):
        raise RecordError('line 1: the header has no "seed_hash"')
    seats = head.get("seats")
    if seats is not None and not 0 < len(seats) <= 64:
        raise RecordError('line 1: "seats" must name between 1 and 64 seats')
    return lines


def checked_replay(text: str) -> Verdict:
    """:func:`~hegemon.referee.record.replay` of a record from outside: a malformed record, or
    one the engine cannot even follow, is a failed verdict naming the first bad line."""
    try:
        lines = check_lines(text)
    except RecordError as exc:
        return Verdict(False, str(exc))
    try:
        verdict = replay(text)
    except (ValueError, TypeError, KeyError, IndexError, OverflowError, RecursionError) as exc:
        # the engine fed a value no real record holds (a territory past the board, …)
        return Verdict(False, f"a value the engine cannot use ({type(exc).__name__}: {exc})"[:300])
    seats = lines[0].get("seats")
    if verdict.ok and verdict.game is not None and seats is not None:
        game = verdict.game
        if not game.player_count <= len(seats) <= len(game.players):
            return Verdict(
                False, f'line 1: "seats" names {len(seats)} seats, the game has {game.player_count}'
            )
    return verdict


def checked_record(text: str) -> list[dict[str, Any]]:
    """A record from outside, checked (shape, fields, and the engine's replay of it); raises
    :class:`RecordError` with one line naming the first problem."""
    verdict = checked_replay(text)
    if not verdict.ok:
        raise RecordError(verdict.message)
    return check_lines(text)
