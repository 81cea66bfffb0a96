"""The referee's Decide request as bytes, assembled from pieces: what :func:`.codec.view_to_proto`
builds field by field, serialised, byte for byte, at a fraction of the cost.

Setting a protobuf message's fields one by one from Python costs a call per field (a view's
seats alone are some forty), while protobuf reads and writes whole messages in C. So the request
is written here as the concatenation of its fields in field-number order — exactly how protobuf
serialises a message — each piece made by protobuf in one call or taken from a cache:

- the game id, per game; each seat's public facts (``SeatInfo``), per distinct value (they
  change only when that seat's territories, armies or cards do); each pending decision, per
  distinct value;
- the view's board (owner and armies, packed) and its other fields, one message each;
- the events, already written once for every seat (:func:`.codec.event_to_field`, the
  transport's ``encode_event``);
- the scalars (error, strikes, clock, delta), one message.

``tests/engine/test_wire_digests.py`` holds the bytes of every preset's requests to those main's
code wrote. Pure functions and a cache, no I/O."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from operator import attrgetter
from typing import cast

from hegemon.referee.decisions import Decision, Kind
from hegemon.referee.view import SeatInfo, View

from . import bot_pb2 as pb

__all__ = [
    "KIND_TO_PB",
    "WRITER",
    "DecideEncoder",
    "decision_to_proto",
    "event_field",
    "number_field",
]

# field tags (field number << 3 | 2: length-delimited)
_VIEW = b"\x12"  # DecideRequest.view = 2
_DECISION = b"\x1a"  # DecideRequest.decision = 3
_EVENT = b"\x22"  # DecideRequest.events = 4
_SEAT = b"\x32"  # View.seats = 6
_LEGAL = b"\xaa\x06"  # DecideRequest.legal = 101
_NUMBER = b"\xb0\x06"  # DecideRequest.number = 102 (a varint)

_SEAT_FIELDS = (
    "seat",
    "territories",
    "armies",
    "cards",
    "eliminated",
    "forfeited",
    "neutral",
    "team",
    "ally_of",
    "capital",
    "shown_missions",
)
"""The fields of ``SeatInfo``, named alike in the engine's :class:`SeatInfo` and the message."""
_seat_facts = attrgetter(*_SEAT_FIELDS)

CACHED = 512
"""The most seats' facts or decisions a cache holds before it is emptied: a game makes new
values as armies move, and a referee holds one writer per bot it talks to (at 512, a few
hundred kilobytes a link at most; the values that repeat are the recent ones)."""


def _changed(
    owner: Sequence[int], armies: Sequence[int], known: tuple[Sequence[int], Sequence[int]]
) -> list[int]:
    """The territories whose owner or armies differ from ``known``'s."""
    old_owner, old_armies = known
    return [t for t in range(len(owner)) if owner[t] != old_owner[t] or armies[t] != old_armies[t]]


def _varint(n: int) -> bytes:
    """``n`` (not negative) as a protobuf varint."""
    out = bytearray()
    while n > 0x7F:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def _field(tag: bytes, body: bytes) -> bytes:
    """A length-delimited field: its tag, its length, ``body``."""
    size = len(body)
    return tag + (bytes((size,)) if size < 0x80 else _varint(size)) + body


def event_field(message: pb.Event) -> bytes:
    """An event message as the ``DecideRequest.events`` field that carries it."""
    return _field(_EVENT, message.SerializeToString())


KIND_TO_PB: dict[Kind, pb.DecisionKind] = {
    kind: cast(pb.DecisionKind, pb.DecisionKind.Value(f"DECISION_KIND_{kind.name}"))
    for kind in Kind
}
"""Each kind of decision's number in the protocol."""


def decision_to_proto(decision: Decision) -> pb.Decision:
    """A pending decision as its message (``DecideRequest.decision``)."""
    d = decision
    return pb.Decision(
        kind=KIND_TO_PB[d.kind],
        player=d.player,
        armies=d.armies,
        minimum=d.minimum,
        maximum=d.maximum,
        source=d.source,
        target=d.target,
        attack_dice=d.attack_dice,
        forced=d.forced,
        territories=d.territories,
        seats=d.seats,
    )


def number_field(number: int) -> bytes:
    """``DecideRequest.number``: appended last to a request's bytes (its highest field)."""
    return _NUMBER + _varint(number) if number else b""


class DecideEncoder:
    """Writes Decide requests; one per link, its caches shared by the link's games."""

    def __init__(self) -> None:
        self._games: dict[str, bytes] = {}
        self._seats: dict[tuple[object, ...], bytes] = {}
        self._decisions: dict[Decision, bytes] = {}

    def encode(
        self,
        view: View,
        events: Iterable[bytes],
        error: str,
        strikes: int,
        bank_ms: int,
        *,
        game_id: str,
        deadline_ms: int,
        known: tuple[Sequence[int], Sequence[int]] | None = None,
        legal: pb.LegalAnswers | None = None,
    ) -> bytes:
        """The bytes of ``codec.view_to_proto(view, ...)`` with ``events`` (each an
        :func:`.codec.event_to_field`) and ``legal`` (set when given), serialised."""
        game = self._games.get(game_id)
        if game is None:
            if len(self._games) >= CACHED:
                self._games.clear()
            game = self._games[game_id] = pb.DecideRequest(game_id=game_id).SerializeToString()
        pending = view.pending
        tail = pb.DecideRequest(
            error=error,
            strikes=strikes,
            time_bank_ms=bank_ms,
            deadline_ms=deadline_ms,
            delta=known is not None,
        ).SerializeToString()
        return b"".join(
            (
                game,
                _field(_VIEW, self.view(view, known)),
                b"" if pending is None else self.decision(pending),
                *events,
                tail,
                b"" if legal is None else _field(_LEGAL, legal.SerializeToString()),
            )
        )

    def view(self, view: View, known: tuple[Sequence[int], Sequence[int]] | None) -> bytes:
        """The bytes of the request's ``View`` (a delta when ``known`` is given)."""
        owner, armies = view.owner, view.armies
        changed: list[int] | None = None
        if known is not None:
            changed = _changed(owner, armies, known)
            owner = tuple(owner[t] for t in changed)
            armies = tuple(armies[t] for t in changed)
        board = pb.View(
            seat=view.seat, round=view.round, current=view.current, owner=owner, armies=armies
        ).SerializeToString()
        rest = pb.View(
            hand=view.hand,
            trade_count=view.trade_count,
            next_trade_value=view.next_trade_value,
            missions=view.missions,
            capital=view.capital,
            centres=view.centres,
            stacks=[pb.Stack(territory=t, seat=s, armies=n) for t, s, n in view.stacks],
            changed=changed,
        ).SerializeToString()
        return b"".join((board, *map(self.seat, view.seats), rest))

    def seat(self, s: SeatInfo) -> bytes:
        """One ``View.seats`` field."""
        key = _seat_facts(s)
        found = self._seats.get(key)
        if found is None:
            if len(self._seats) >= CACHED:
                self._seats.clear()
            message = pb.SeatInfo(**dict(zip(_SEAT_FIELDS, key, strict=True)))
            found = self._seats[key] = _field(_SEAT, message.SerializeToString())
        return found

    def decision(self, decision: Decision) -> bytes:
        """The ``DecideRequest.decision`` field."""
        found = self._decisions.get(decision)
        if found is None:
            if len(self._decisions) >= CACHED:
                self._decisions.clear()
            body = decision_to_proto(decision).SerializeToString()
            found = self._decisions[decision] = _field(_DECISION, body)
        return found


WRITER = DecideEncoder()
"""The writer of :func:`.codec.view_to_proto` (the SDK's local games, the tests)."""
