"""Conversion between the rules engine's objects and the bot protocol's messages.

Pure functions, no I/O: the referee uses them to build requests and to read replies, the
Python SDK to read requests and build replies. Every function that reads a message a bot or a
referee sent (``*_from_proto``) validates its shape and raises :class:`ProtocolError` — never
anything else — when it is not one the engine can take. Whether the content is *legal* (your
territory? enough armies?) is for :meth:`hegemon.referee.game.Game.apply` to say, not for the codec.

Numbering is the engine's: territories, continents, cards and seats are indices; -1 is "none".

>>> from hegemon.referee import Claim
>>> msg = action_to_proto(Claim(5))
>>> msg.WhichOneof("kind"), action_from_proto(msg)
('claim', Claim(territory=5))
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from google.protobuf.message import DecodeError, Message

from hegemon.referee.actions import (
    Action,
    Attack,
    Bribe,
    BuildCentre,
    Capital,
    Claim,
    Defend,
    Forfeit,
    Fortify,
    FortifyAlly,
    Occupy,
    Pass,
    Place,
    PlaceNeutral,
    ReinforceAlly,
    Trade,
)
from hegemon.referee.board import INSIGNIA, WILD, Board, MapError, parse_map
from hegemon.referee.decisions import Decision
from hegemon.referee.editions.missions import deck_of
from hegemon.referee.events import EVENT_TYPES, Event, redact
from hegemon.referee.orders import Blitz, DefendPolicy, OccupyPolicy, OccupyShare, Policies
from hegemon.referee.rules import RulesError, RuleSet, make_rules
from hegemon.referee.view import SeatInfo, View

from . import bot_pb2 as pb
from .decide_bytes import KIND_TO_PB, WRITER, decision_to_proto, event_field

__all__ = [
    "PROTOCOL_VERSION",
    "ProtocolError",
    "action_from_proto",
    "action_to_proto",
    "answer_from_proto",
    "board_from_proto",
    "board_to_proto",
    "decide_reply",
    "decision_from_proto",
    "decision_to_proto",
    "end_game_request",
    "event_from_proto",
    "event_to_field",
    "event_to_proto",
    "hello_request",
    "mission_cards",
    "policies_from_proto",
    "policies_to_proto",
    "rules_from_proto",
    "rules_to_proto",
    "start_game_request",
    "view_from_proto",
    "view_to_proto",
]

#: The protocol version this code speaks (``hegemon.v1``; ``pb.PROTOCOL_VERSION_1``).
PROTOCOL_VERSION: int = pb.PROTOCOL_VERSION_1


class ProtocolError(ValueError):
    """A message that is not of a shape the engine can take (no action set, an action or event
    kind this engine does not know yet, three cards that are two, an unreadable map, ...).
    The message says what was wrong, for a bot author to read."""


# ------------------------------------------------------------------ small tables
_INSIGNIA_TO_PB = {
    "infantry": pb.INSIGNIA_INFANTRY,
    "cavalry": pb.INSIGNIA_CAVALRY,
    "artillery": pb.INSIGNIA_ARTILLERY,
    WILD: pb.INSIGNIA_WILD,
}
_INSIGNIA_FROM_PB = {v: k for k, v in _INSIGNIA_TO_PB.items()}
assert set(_INSIGNIA_TO_PB) == {*INSIGNIA, WILD}

_KIND_FROM_PB = {v: k for k, v in KIND_TO_PB.items()}

# Proto fields that hold (territory, armies) pairs.
_PLACEMENT_FIELDS = {"placements"}
# Proto fields that hold (source, target, armies) moves.
_MOVE_FIELDS = {"moves"}


def _fail(text: str) -> ProtocolError:
    return ProtocolError(text)


MAX_PLACEMENTS = 1024
"""More (territory, armies) pairs than any map has territories: refused before they are read."""


# ------------------------------------------------------------------ Hello / StartGame / EndGame
def hello_request(referee_version: str = "") -> pb.HelloRequest:
    """The referee's Hello."""
    return pb.HelloRequest(protocol_version=PROTOCOL_VERSION, referee_version=referee_version)


def rules_to_proto(rules: RuleSet) -> pb.RuleSet:
    """The rule set: its preset and every option's value as text."""
    return pb.RuleSet(preset=rules.preset, options={k: str(v) for k, v in rules.options().items()})


def rules_from_proto(msg: pb.RuleSet) -> RuleSet:
    """The engine's rule set for a RuleSet message (validated by
    :func:`hegemon.referee.make_rules`)."""
    try:
        return make_rules(msg.preset, dict(msg.options))
    except RulesError as exc:
        raise _fail(f"rule set: {exc}") from None
    except Exception as exc:  # a message of another type, ...
        raise _fail(f"rule set: not a hegemon.v1.RuleSet ({exc})") from None


def board_to_proto(board: Board) -> pb.Board:
    """The whole map: territories (with neighbours), continents and the card deck."""
    return pb.Board(
        name=board.name,
        territories=[
            pb.Territory(
                index=t.index,
                name=t.name,
                continent=t.continent,
                insignia=_INSIGNIA_TO_PB[t.insignia],
                value=t.value,
                neighbours=board.neighbours[t.index],
            )
            for t in board.territories
        ],
        continents=[
            pb.Continent(index=c.index, name=c.name, bonus=c.bonus, territories=c.territories)
            for c in board.continents
        ],
        cards=[
            pb.Card(
                id=k,
                territory=board.card_territory(k),
                insignia=_INSIGNIA_TO_PB[ins],
                extra_armies=board.extra_armies(k),
            )
            for k, ins in enumerate(board.card_insignia)
        ],
        wild_cards=board.wild_cards,
    )


def board_from_proto(msg: pb.Board) -> Board:
    """The engine's :class:`~hegemon.referee.board.Board` for a Board message, validated by
    :func:`hegemon.referee.board.parse_map` (every problem of the map in one
    :class:`ProtocolError`).

    Positions are authoritative: territory i is ``territories[i]`` (``index`` is not needed)."""
    try:
        names = [t.name for t in msg.territories]
        size = len(names)
        problems: list[str] = []
        territories: list[dict[str, object]] = []
        insignias: list[str] = []  # territories[i]["insignia"]
        seen: dict[str, int] = {}
        for i, t in enumerate(msg.territories):
            if t.name in seen:
                problems.append(
                    f"territory {i}: the name {t.name!r} is used twice "
                    f"(also territory {seen[t.name]})"
                )
            seen.setdefault(t.name, i)
            insignia = _INSIGNIA_FROM_PB.get(t.insignia)
            if insignia is None or insignia == WILD:
                problems.append(
                    f"territory {i} ({t.name!r}): insignia {t.insignia} is not "
                    "infantry, cavalry or artillery"
                )
                insignia = INSIGNIA[0]
            insignias.append(insignia)
            territories.append({"name": t.name, "insignia": insignia, "value": t.value})
        borders: set[tuple[int, int]] = set()
        for i, t in enumerate(msg.territories):
            for n in t.neighbours:
                if not 0 <= n < size:
                    problems.append(f"territory {i} ({t.name!r}): neighbour {n} is not a territory")
                elif n != i:
                    borders.add((min(i, n), max(i, n)))
                else:
                    problems.append(f"territory {i} ({t.name!r}) borders itself")
        continents = []
        for c, cont in enumerate(msg.continents):
            members = []
            for member in cont.territories:
                if not 0 <= member < size:
                    problems.append(f"continent {c} ({cont.name!r}): {member} is not a territory")
                    continue
                if msg.territories[member].continent != c:
                    problems.append(
                        f"territory {member} ({names[member]!r}) says continent "
                        f"{msg.territories[member].continent}, but continent {c} lists it"
                    )
                members.append(names[member])
            continents.append({"name": cont.name, "bonus": cont.bonus, "territories": members})
        own_deck = bool(msg.cards) and all(card.territory == -1 for card in msg.cards)
        cards: list[dict[str, object]] = []
        if own_deck:  # Risiko! Master's: no card shows a territory
            cards = [
                {"insignia": _INSIGNIA_FROM_PB.get(card.insignia), "extra": card.extra_armies}
                for card in msg.cards
            ]
        elif msg.cards:
            expected = size + msg.wild_cards
            if len(msg.cards) != expected:
                problems.append(
                    f"the deck has {len(msg.cards)} cards, expected {expected} "
                    f"({size} territories + {msg.wild_cards} wild)"
                )
            else:
                for k, card in enumerate(msg.cards):
                    want_t = k if k < size else -1
                    want_i = _INSIGNIA_TO_PB[insignias[k]] if k < size else pb.INSIGNIA_WILD
                    if card.territory != want_t or card.insignia != want_i:
                        problems.append(
                            f"card {k} shows territory {card.territory} "
                            f"({card.insignia}); expected {want_t} ({want_i})"
                        )
        if problems:
            raise _fail(
                f"map {msg.name!r}: "
                + "; ".join(problems[:10])
                + (f" (and {len(problems) - 10} more)" if len(problems) > 10 else "")
            )
        data = {
            "name": msg.name,
            "territories": territories,
            "continents": continents,
            "borders": [[names[a], names[b]] for a, b in sorted(borders)],
            "wild_cards": msg.wild_cards,
        } | ({"cards": cards} if own_deck else {})
        return parse_map(data, f"map {msg.name!r}")
    except ProtocolError:
        raise
    except MapError as exc:
        raise _fail(str(exc)) from None
    except Exception as exc:
        raise _fail(f"map: not a valid hegemon.v1.Board ({exc})") from None


def start_game_request(
    game_id: str,
    seat: int,
    seat_names: Sequence[str],
    rules: RuleSet,
    board: Board,
    decision_ms: int,
    time_bank_ms: int,
    missions: Iterable[pb.MissionCard] | None = None,
) -> pb.StartGameRequest:
    """The StartGame request for one seat: rule set, full map, seats and clock; the mission
    deck's public texts (default: the deck the rule set plays with, :func:`mission_cards`)."""
    return pb.StartGameRequest(
        game_id=game_id,
        seat=seat,
        seat_names=list(seat_names),
        rules=rules_to_proto(rules),
        board=board_to_proto(board),
        time_control=pb.TimeControl(decision_ms=decision_ms, time_bank_ms=time_bank_ms),
        missions=list(mission_cards(rules) if missions is None else missions),
        protocol_version=PROTOCOL_VERSION,
    )


def mission_cards(rules: RuleSet) -> list[pb.MissionCard]:
    """The public texts of the mission deck ``rules`` plays with (none without missions)."""
    deck = deck_of(rules.missions)
    if deck is None:
        return []
    return [pb.MissionCard(id=m.id, rank=m.rank, text=m.text) for m in deck.missions]


def end_game_request(game_id: str, places: Sequence[int] | None, reason: str) -> pb.EndGameRequest:
    """The EndGame request; ``places`` None (or empty) for an abandoned, void game."""
    return pb.EndGameRequest(game_id=game_id, places=list(places or ()), reason=reason)


# ------------------------------------------------------------------ orders
_DEFEND_TO_PB = {
    DefendPolicy.ASK: pb.DEFEND_POLICY_ASK,
    DefendPolicy.MOST: pb.DEFEND_POLICY_MOST,
}
_OCCUPY_TO_PB = {
    OccupyPolicy.ASK: pb.OCCUPY_POLICY_ASK,
    OccupyPolicy.MIN: pb.OCCUPY_POLICY_MIN,
    OccupyPolicy.ALL: pb.OCCUPY_POLICY_ALL,
    OccupyPolicy.KEEP: pb.OCCUPY_POLICY_KEEP,
}
_DEFEND_FROM_PB = {v: k for k, v in _DEFEND_TO_PB.items()}
_OCCUPY_FROM_PB = {v: k for k, v in _OCCUPY_TO_PB.items()}


def policies_to_proto(policies: Policies) -> pb.Policies:
    """A seat's standing orders as a message (StartGameReply.policies)."""
    return pb.Policies(
        defend=_DEFEND_TO_PB[policies.defend],
        occupy=_OCCUPY_TO_PB[policies.occupy],
        keep=policies.keep,
    )


def policies_from_proto(msg: pb.Policies) -> Policies:
    """The standing orders in a bot's StartGameReply; a policy this code does not know is a
    :class:`ProtocolError`."""
    try:
        defend = _DEFEND_FROM_PB.get(msg.defend)
        occupy = _OCCUPY_FROM_PB.get(msg.occupy)
        if defend is None or occupy is None:
            raise _fail(f"policies: unknown policy (defend {msg.defend}, occupy {msg.occupy})")
        return Policies(defend, occupy, max(1, msg.keep))
    except ProtocolError:
        raise
    except Exception as exc:
        raise _fail(f"policies: not a valid hegemon.v1.Policies ({exc})") from None


# ------------------------------------------------------------------ decisions
def decision_from_proto(msg: pb.Decision) -> Decision:
    """The engine's Decision."""
    try:
        kind = _KIND_FROM_PB.get(msg.kind)
        if kind is None:
            raise _fail(f"decision: kind {msg.kind} is not a decision this engine knows")
        return Decision(
            kind=kind,
            player=msg.player,
            armies=msg.armies,
            minimum=msg.minimum,
            maximum=msg.maximum,
            source=msg.source,
            target=msg.target,
            attack_dice=msg.attack_dice,
            forced=msg.forced,
            territories=tuple(msg.territories),
            seats=tuple(msg.seats),
        )
    except ProtocolError:
        raise
    except Exception as exc:
        raise _fail(f"decision: not a valid hegemon.v1.Decision ({exc})") from None


# ------------------------------------------------------------------ events
def event_to_proto(event: Event) -> pb.Event:
    """One engine event as it is (no redaction: see :func:`view_to_proto`)."""
    tag = type(event).tag
    if EVENT_TYPES.get(tag) is not type(event):
        raise _fail(f"event: {type(event).__name__} is not an engine event")
    msg = pb.Event()
    sub = getattr(msg, tag)
    sub.SetInParent()
    names: tuple[str, ...] = type(event).__slots__
    for name in names:
        value = getattr(event, name)
        if name in _PLACEMENT_FIELDS:
            getattr(sub, name).extend(pb.Placement(territory=t, armies=n) for t, n in value)
        elif name in _MOVE_FIELDS:
            getattr(sub, name).extend(pb.Move(source=a, target=b, armies=n) for a, b, n in value)
        elif isinstance(value, tuple):
            getattr(sub, name).extend(value)
        else:
            setattr(sub, name, value)
    return msg


def event_to_field(event: Event) -> bytes:
    """An event as the bytes of the ``DecideRequest.events`` field that carries it: what the
    referee's links tell each seat (written once, joined into every request that tells it)."""
    return event_field(event_to_proto(event))


def event_from_proto(msg: pb.Event) -> Event:
    """The engine's event; events of later editions (not in the engine yet) raise
    :class:`ProtocolError`."""
    try:
        which = msg.WhichOneof("kind")
        if which is None:
            raise _fail("event: no event set (or one newer than this code knows)")
        cls = EVENT_TYPES.get(which)
        if cls is None:
            raise _fail(f"event: {which} is not an event this engine knows yet")
        sub = getattr(msg, which)
        args: dict[str, Any] = {}
        names: tuple[str, ...] = cls.__slots__
        for name in names:
            value = getattr(sub, name)
            if name in _PLACEMENT_FIELDS:
                value = tuple((p.territory, p.armies) for p in value)
            elif name in _MOVE_FIELDS:
                value = tuple((m.source, m.target, m.armies) for m in value)
            elif not isinstance(value, (int, str, bool)):
                value = tuple(value)
            args[name] = value
        return cls(**args)
    except ProtocolError:
        raise
    except Exception as exc:
        raise _fail(f"event: not a valid hegemon.v1.Event ({exc})") from None


# ------------------------------------------------------------------ the view
def view_to_proto(
    view: View,
    events: Iterable[Event] = (),
    error: str = "",
    strikes: int = 0,
    bank_ms: int = 0,
    *,
    game_id: str = "",
    deadline_ms: int = 0,
    known: tuple[Sequence[int], Sequence[int]] | None = None,
) -> pb.DecideRequest:
    """The Decide request for ``view.seat``: its view, its pending decision (``view.pending``;
    left unset when None), the events since its last request, the error text if its last
    answer was refused or late, its strikes and the time left in its bank.

    ``events`` are redacted here for ``view.seat`` (:func:`hegemon.referee.events.redact`: another
    seat's drawn card becomes -1), so the caller may pass the game's raw events; redacting
    twice is harmless, so already-redacted events are fine too.

    ``known``: the (owner, armies) the seat's bot already holds (from its previous request):
    the view is then a delta (``DecideRequest.delta``) naming only the territories that changed.

    Written as bytes by :mod:`.decide_bytes` (as the referee sends it) and read back: one
    writer of the request, and cheaper than setting its fields one by one.
    """
    seat = view.seat
    data = WRITER.encode(
        view,
        [event_to_field(redact(e, seat)) for e in events],
        error,
        strikes,
        bank_ms,
        game_id=game_id,
        deadline_ms=deadline_ms,
        known=known,
    )
    return pb.DecideRequest.FromString(data)


def apply_view_delta(msg: pb.View, owner: list[int], armies: list[int]) -> None:
    """Update ``owner`` and ``armies`` (what the bot held) in place from a delta view
    (``DecideRequest.delta``); raises :class:`ProtocolError` for a malformed delta."""
    changed = msg.changed
    if len(msg.owner) != len(changed) or len(msg.armies) != len(changed):
        raise _fail(
            f"view delta: {len(changed)} changed territories but {len(msg.owner)} owners "
            f"and {len(msg.armies)} army counts"
        )
    size = len(owner)
    for t, who, n in zip(changed, msg.owner, msg.armies, strict=True):
        if not 0 <= t < size:
            raise _fail(f"view delta: {t} is not a territory")
        owner[t] = who
        armies[t] = n


def view_from_proto(
    msg: pb.DecideRequest | pb.View,
    rules: RuleSet,
    board: Board,
    known: tuple[list[int], list[int]] | None = None,
) -> View:
    """The engine's :class:`~referee.view.View` for a Decide request (or a bare View message),
    given the game's rules and board from StartGame (:func:`rules_from_proto`,
    :func:`board_from_proto`). ``pending`` comes from the request's decision.

    ``known``: the (owner, armies) lists the bot holds for this game, for view deltas. They
    are updated in place from the request — a delta changes the territories it names, a full
    view replaces them all — so they always hold the board the returned view shows. A delta
    without ``known`` is a :class:`ProtocolError`."""
    try:
        pending = None
        delta = False
        if isinstance(msg, pb.DecideRequest):
            if msg.HasField("decision"):
                pending = decision_from_proto(msg.decision)
            v = msg.view
            delta = msg.delta
        elif isinstance(msg, pb.View):
            v = msg
        else:
            raise _fail(f"view: expected a DecideRequest or View, got {type(msg).__name__}")
        if delta:
            if known is None or len(known[0]) != board.size:
                raise _fail("view: a delta, but no earlier full view of this game to apply it to")
            apply_view_delta(v, *known)
            owner, armies = tuple(known[0]), tuple(known[1])
        else:
            if len(v.owner) != board.size or len(v.armies) != board.size:
                raise _fail(
                    f"view: {len(v.owner)} owners and {len(v.armies)} army counts for "
                    f"{board.size} territories"
                )
            owner, armies = tuple(v.owner), tuple(v.armies)
            if known is not None:
                known[0][:] = owner
                known[1][:] = armies
        return View(
            seat=v.seat,
            rules=rules,
            board=board,
            owner=owner,
            armies=armies,
            seats=tuple(
                SeatInfo(
                    s.seat,
                    s.territories,
                    s.armies,
                    s.cards,
                    s.eliminated,
                    s.forfeited,
                    s.neutral,
                    s.team,
                    s.capital,
                    tuple(s.shown_missions),
                    s.ally_of,
                )
                for s in v.seats
            ),
            hand=tuple(v.hand),
            trade_count=v.trade_count,
            next_trade_value=v.next_trade_value,
            round=v.round,
            current=v.current,
            pending=pending,
            missions=tuple(v.missions),
            capital=v.capital,
            centres=tuple(v.centres),
            stacks=tuple((s.territory, s.seat, s.armies) for s in v.stacks),
        )
    except ProtocolError:
        raise
    except Exception as exc:
        raise _fail(f"view: not a valid hegemon.v1.View ({exc})") from None


# ------------------------------------------------------------------ actions
def action_to_proto(action: Action | Blitz) -> pb.Action:
    """A player's action as a message. :class:`~referee.actions.Forfeit` is the referee's,
    never a bot's, and has no message: it raises :class:`ProtocolError`."""
    if type(action) is Claim:
        return pb.Action(claim=pb.Claim(territory=action.territory))
    if type(action) is Place:
        return pb.Action(
            place=pb.Place(
                placements=[pb.Placement(territory=a, armies=n) for a, n in action.placements]
            )
        )
    if type(action) is Trade:
        trade = pb.Trade(cards=action.cards)
        if action.bonus_territory != -1:
            trade.bonus_territory = action.bonus_territory
        return pb.Action(trade=trade)
    if type(action) is Attack:
        return pb.Action(
            attack=pb.Attack(source=action.source, target=action.target, dice=action.dice)
        )
    if type(action) is Blitz:
        attack = pb.Attack(
            source=action.source,
            target=action.target,
            dice=action.dice,
            until=action.until,
            until_target=action.until_target,
        )
        if action.occupy is not None:
            share = action.occupy
            attack.occupy.CopyFrom(
                pb.OccupyShare(numerator=share.numerator, denominator=share.denominator)
            )
        return pb.Action(attack=attack)
    if type(action) is Defend:
        return pb.Action(defend=pb.Defend(dice=action.dice))
    if type(action) is Occupy:
        return pb.Action(occupy=pb.Occupy(armies=action.armies))
    if type(action) is Fortify:
        return pb.Action(
            fortify=pb.Fortify(source=action.source, target=action.target, armies=action.armies)
        )
    if type(action) is Pass:
        return pb.Action(pass_=pb.Pass())
    if type(action) is Capital:
        return pb.Action(capital=pb.Capital(territory=action.territory))
    if type(action) is PlaceNeutral:
        return pb.Action(place_neutral=pb.PlaceNeutral(placements=_placements(action.placements)))
    if type(action) is Bribe:
        return pb.Action(bribe=pb.Bribe(neutral=action.neutral, cards=action.cards))
    if type(action) is ReinforceAlly:
        return pb.Action(reinforce_ally=pb.ReinforceAlly(placements=_placements(action.placements)))
    if type(action) is FortifyAlly:
        move = pb.Move(source=action.source, target=action.target, armies=action.armies)
        return pb.Action(fortify_ally=pb.FortifyAlly(moves=[move]))
    if type(action) is BuildCentre:
        return pb.Action(build_centre=pb.BuildCentre(territory=action.territory))
    if type(action) is Forfeit:
        raise _fail("forfeit is the referee's action, not a bot's: it has no message")
    raise _fail(f"not an action: {type(action).__name__}")


def _placements(pairs: Iterable[tuple[int, int]]) -> list[pb.Placement]:
    return [pb.Placement(territory=t, armies=n) for t, n in pairs]


def _pairs(what: str, placements: Sequence[Any]) -> tuple[tuple[int, int], ...]:
    if len(placements) > MAX_PLACEMENTS:
        raise _fail(f"{what}: {len(placements)} placements; at most one per territory")
    return tuple((p.territory, p.armies) for p in placements)


def decide_reply(game_id: str, action: Action | Blitz, full_view: bool = False) -> pb.DecideReply:
    """A bot's reply to a Decide request (``full_view``: ask for the full view next time)."""
    return pb.DecideReply(game_id=game_id, action=action_to_proto(action), full_view=full_view)


def answer_from_proto(
    msg: pb.Action | pb.DecideReply | bytes, game_id: str | None = None
) -> Action | Blitz:
    """As :func:`action_from_proto`, but an attack with ``until`` set is a
    :class:`~hegemon.referee.orders.Blitz` (an order): what the referee reads."""
    try:
        return _action_from_proto(msg, game_id)
    except ProtocolError:
        raise
    except Exception as exc:  # a bug or an unforeseen message: still the bot's protocol error
        raise _fail(f"malformed action: {type(exc).__name__}: {exc}") from None


def action_from_proto(
    msg: pb.Action | pb.DecideReply | bytes, game_id: str | None = None
) -> Action:
    """The engine action in a bot's answer: an Action, a DecideReply (whose ``game_id`` must
    equal ``game_id`` when given) or the serialised bytes of a DecideReply. An order is read
    as the action that answers this decision (a blitz as its first attack).

    Raises :class:`ProtocolError` — and nothing else, whatever ``msg`` is — when no action is
    set, the action is of a kind this engine does not know yet, or its shape is wrong (a trade
    of other than three cards, a many-into-one fortify). Legality is for the engine to judge.
    """
    answer = answer_from_proto(msg, game_id)
    return answer.first if isinstance(answer, Blitz) else answer


def _action_from_proto(msg: Any, game_id: str | None) -> Action | Blitz:
    if isinstance(msg, (bytes, bytearray, memoryview)):
        try:
            msg = pb.DecideReply.FromString(bytes(msg))
        except DecodeError as exc:
            raise _fail(f"the reply is not a hegemon.v1.DecideReply: {exc}") from None
    if isinstance(msg, pb.DecideReply):
        if game_id is not None and msg.game_id != game_id:
            raise _fail(f"the reply is for game {msg.game_id[:64]!r}, not {game_id!r}")
        if not msg.HasField("action"):
            raise _fail("the reply holds no action")
        msg = msg.action
    if not isinstance(msg, pb.Action):
        what = type(msg).__name__ if not isinstance(msg, Message) else msg.DESCRIPTOR.full_name
        raise _fail(f"expected a hegemon.v1.Action or DecideReply, got {what}")
    which = msg.WhichOneof("kind")
    if which is None:
        raise _fail("the reply sets no action (or one newer than this referee knows)")
    sub = getattr(msg, which)
    if which == "claim":
        return Claim(sub.territory)
    if which == "place":
        return Place(_pairs(which, sub.placements))
    if which == "trade":
        if len(sub.cards) != 3:
            raise _fail(f"trade: give exactly three card ids, got {len(sub.cards)}")
        bonus = sub.bonus_territory if sub.HasField("bonus_territory") else -1
        return Trade((sub.cards[0], sub.cards[1], sub.cards[2]), bonus)
    if which == "attack":
        if sub.HasField("until"):
            share = _occupy_share(sub.occupy) if sub.HasField("occupy") else None
            return Blitz(sub.source, sub.target, sub.dice, sub.until, sub.until_target, share)
        return Attack(sub.source, sub.target, sub.dice)
    if which == "defend":
        return Defend(sub.dice)
    if which == "occupy":
        return Occupy(sub.armies)
    if which == "fortify":
        if len(sub.more):
            raise _fail(
                "fortify: many-into-one moves (Fortify.more) are not supported by "
                "this engine yet; send one move"
            )
        return Fortify(sub.source, sub.target, sub.armies)
    if which == "pass_":
        return Pass()
    if which == "capital":
        return Capital(sub.territory)
    if which == "place_neutral":
        return PlaceNeutral(_pairs(which, sub.placements))
    if which == "reinforce_ally":
        return ReinforceAlly(_pairs(which, sub.placements))
    if which == "bribe":
        if len(sub.cards) > MAX_PLACEMENTS:
            raise _fail(f"bribe: {len(sub.cards)} cards; no hand holds that many")
        return Bribe(sub.neutral, tuple(sub.cards))
    if which == "fortify_ally":
        if len(sub.moves) != 1:
            raise _fail(
                f"fortify_ally: send exactly one move (the ally's one), got {len(sub.moves)}"
            )
        m = sub.moves[0]
        return FortifyAlly(m.source, m.target, m.armies)
    if which == "build_centre":
        return BuildCentre(sub.territory)
    raise _fail(f"{which} is not an action this referee knows")


def _occupy_share(msg: Any) -> OccupyShare:
    """A blitz's Attack.occupy, checked (the referee divides by its denominator)."""
    try:
        return OccupyShare(msg.numerator, msg.denominator)
    except ValueError as exc:
        raise _fail(f"attack.occupy: {exc}") from None


def _check_tables() -> None:
    """Every engine kind and event has its message (checked at import: a mismatch is a bug)."""
    oneof = {f.name for f in pb.Event.DESCRIPTOR.oneofs_by_name["kind"].fields}
    missing = set(EVENT_TYPES) - oneof
    assert not missing, f"events without a message: {missing}"
    for tag, cls in EVENT_TYPES.items():
        message_type = pb.Event.DESCRIPTOR.fields_by_name[tag].message_type
        assert message_type is not None, f"event {tag}: not a message field"
        names: tuple[str, ...] = cls.__slots__
        absent = [n for n in names if n not in message_type.fields_by_name]
        assert not absent, f"event {tag}: fields without a message field: {absent}"


_check_tables()
