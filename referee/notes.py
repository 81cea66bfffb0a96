"""A bot's notes and map marks on its decisions: bounded, made inert, checked, and kept as that
seat's private lines of the record.

A bot may attach to any answer (``DecideReply.notes``) a short text and marks on the map: a
territory highlighted, or an arrow from one territory to another, each with a short label and a
colour of :data:`PALETTE`. They are for the bot's author in the replay, never for the game:
no seat, bot or visitor other than the bot's owner (and the admins) ever sees them.

:func:`clean` turns what the bot sent (:class:`Jotting`) into the record's ``note`` line:
control characters made spaces, the text cut at :data:`NOTE_BYTES` a decision and at
:data:`GAME_BYTES` a game (the cut ends in :data:`CUT`), and each malformed mark dropped with a
one-line reason in ``dropped`` (never a fault: notes do not change the game). Pure: no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .bottext import printable

NOTE_BYTES = 1024
"""The most UTF-8 bytes of note text kept for one decision."""

GAME_BYTES = 64 * 1024
"""The most UTF-8 bytes of note text kept for one seat in one game."""

MARKS = 32
"""The most marks kept for one decision (the rest are dropped, with a reason)."""

LABEL_CHARS = 40
"""The longest label of a mark (characters; longer ones are cut)."""

PALETTE = ("red", "orange", "yellow", "green", "blue", "purple", "grey")
"""The colours a mark may take; an empty colour is :data:`DEFAULT_COLOUR`."""

DEFAULT_COLOUR = "yellow"

CUT = " …[cut]"
"""What ends a note cut at a limit."""


@dataclass(frozen=True)
class Mark:
    """A mark on the map as the bot sent it: ``territory`` highlighted, or an arrow from it to
    ``to`` (None: no arrow), with a ``label`` and a ``colour`` name."""

    territory: int
    to: int | None = None
    label: str = ""
    colour: str = ""


@dataclass(frozen=True)
class Jotting:
    """What a bot attached to one answer: a text and marks, not yet checked."""

    text: str = ""
    marks: tuple[Mark, ...] = ()

    @property
    def empty(self) -> bool:
        return not self.text and not self.marks


@dataclass
class Budget:
    """What is left of one seat's note text for the rest of its game (bytes)."""

    left: int = GAME_BYTES
    spent: bool = False  # a note was left out for the game's limit (and the record says so)


def _cut(text: str, limit: int) -> tuple[str, bool]:
    """``text`` within ``limit`` UTF-8 bytes (the marker included when cut), and whether cut."""
    raw = text.encode("utf-8")
    if len(raw) <= limit:
        return text, False
    room = limit - len(CUT.encode("utf-8"))
    if room <= 0:  # not even the marker fits
        return "", True
    return raw[:room].decode("utf-8", "ignore") + CUT, True


def _mark(mark: Mark, territories: int) -> tuple[dict[str, Any] | None, str]:
    """A mark as the record keeps it, or None and why it is dropped."""
    ids = [mark.territory] + ([] if mark.to is None else [mark.to])
    for t in ids:
        if not _territory(t, territories):  # an in-process bot may pass anything
            shown = printable(repr(t))[:20]
            return None, f"mark on territory {shown}: no such territory (0..{territories - 1})"
    given: tuple[object, object] = (mark.label, mark.colour)  # typed str: checked all the same
    if not all(isinstance(x, str) for x in given):
        return None, "mark label and colour must be text"
    colour = mark.colour or DEFAULT_COLOUR
    if colour not in PALETTE:
        shown = printable(colour)[:20]
        return None, f"mark colour {shown!r}: not one of {', '.join(PALETTE)}"
    kept: dict[str, Any] = {"t": mark.territory}
    if mark.to is not None:
        kept["to"] = mark.to
    label = " ".join(printable(mark.label).split())[:LABEL_CHARS]
    if label:
        kept["label"] = label
    kept["colour"] = colour
    return kept, ""


def clean(jotting: Jotting, territories: int, budget: Budget) -> dict[str, Any] | None:
    """The record's fields for what a bot attached to one answer (``text``, ``marks``,
    ``dropped``), or None when nothing is left to keep. ``budget`` is the seat's and is spent."""
    out: dict[str, Any] = {}
    # a text longer than the limit in characters is longer in bytes: the rest is never read
    text = printable(jotting.text[: NOTE_BYTES + 1]).strip()
    if text:
        text, _ = _cut(text, NOTE_BYTES)
        if len(text.encode("utf-8")) > budget.left:
            text, _ = _cut(text, budget.left)
            if not text and not budget.spent:  # said once, at the first note left out
                out["dropped"] = [f"note text over the game's limit of {GAME_BYTES} bytes"]
                budget.spent = True
        budget.left -= len(text.encode("utf-8"))
        if text:
            out["text"] = text
    marks, dropped = [], list(out.get("dropped", []))
    for i, mark in enumerate(jotting.marks):
        if i >= MARKS:
            dropped.append(f"marks after the first {MARKS} dropped (the limit of a decision)")
            break
        kept, why = _mark(mark, territories)
        if kept is None:
            dropped.append(why)
        else:
            marks.append(kept)
    if marks:
        out["marks"] = marks
    if dropped:
        out["dropped"] = dropped
    return out or None


def note_line(seat: int, decision: int, fields: dict[str, Any]) -> dict[str, Any]:
    """The record line of a seat's note on its decision ``decision`` (private to the seat)."""
    return {"type": "note", "seat": seat, "n": decision, **fields}


def _territory(value: Any, territories: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < territories


def read_line(line: dict[str, Any], territories: int) -> dict[str, Any]:
    """A record's ``note`` line as a reader shows it, checked again (a record may come from
    anywhere): ``text``, ``marks`` (only well-formed ones, label and colour inert) and
    ``dropped``, all printable and bounded as :func:`clean` leaves them."""
    text = line.get("text")
    marks: list[dict[str, Any]] = []
    for mark in line.get("marks") or []:
        if len(marks) >= MARKS:
            break
        if not isinstance(mark, dict) or not _territory(mark.get("t"), territories):
            continue
        to = mark.get("to")
        if to is not None and not _territory(to, territories):
            continue
        colour = mark.get("colour")
        label = mark.get("label")
        kept: dict[str, Any] = {"t": mark["t"]}
        if to is not None:
            kept["to"] = to
        if isinstance(label, str) and label:
            kept["label"] = " ".join(printable(label).split())[:LABEL_CHARS]
        kept["colour"] = colour if colour in PALETTE else DEFAULT_COLOUR
        marks.append(kept)
    dropped = [printable(str(d))[:200] for d in (line.get("dropped") or [])[: MARKS + 1]]
    return {
        "text": printable(text)[: NOTE_BYTES + len(CUT)] if isinstance(text, str) else "",
        "marks": marks,
        "dropped": dropped,
    }
