"""A bot's notes on a decision (``DecideReply.notes``) to and from the protocol's messages.

Reading never fails: notes do not change the game, so whatever a bot sends is taken as it is
here and checked by :func:`hegemon.referee.notes.clean` (a bad mark is dropped there, with a
reason)."""

from __future__ import annotations

from hegemon.referee.notes import MARKS, Jotting, Mark

from . import bot_pb2 as pb

_READ = 4 * MARKS  # marks read from one reply: enough to say the rest were dropped


def notes_from_reply(reply: pb.DecideReply) -> Jotting | None:
    """What the bot attached to its answer, or None (no notes, or empty ones)."""
    if not reply.HasField("notes"):
        return None
    notes = reply.notes
    marks = tuple(
        Mark(m.territory, m.to if m.HasField("to") else None, m.label, m.colour)
        for m in notes.marks[:_READ]
    )
    jotting = Jotting(notes.text, marks)
    return None if jotting.empty else jotting


def notes_to_proto(jotting: Jotting) -> pb.Notes:
    """A :class:`~hegemon.referee.notes.Jotting` as the reply's ``notes`` field."""
    return pb.Notes(
        text=jotting.text,
        marks=[
            pb.Mark(territory=m.territory, to=m.to, label=m.label, colour=m.colour)
            for m in jotting.marks
        ],
    )
