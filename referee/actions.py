"""Actions: what a player answers to its pending decision, and their compact record form.

Each action serialises to a short JSON list, e.g. ``["attack", 12, 14, 3]``; that form is what
game records store and what :func:`action_from_list` reads back (validating its shape, never
trusting it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, TypeAlias, get_args

from .quickinit import quick_init


class ActionFormatError(ValueError):
    """A serialised action that is not of any action's shape."""


@dataclass(frozen=True, slots=True)
class Claim:
    """Take a free territory during a ``claim`` set-up."""

    territory: int
    tag: ClassVar[str] = "claim"


@dataclass(frozen=True, slots=True)
class Place:
    """Put armies on own territories: ``((territory, armies), ...)`` summing to the armies due."""

    placements: tuple[tuple[int, int], ...]
    tag: ClassVar[str] = "place"


@dataclass(frozen=True, slots=True)
class Trade:
    """Trade three cards as a set. ``bonus_territory`` picks which pictured own territory gets
    the territory bonus when several could (-1: the first one)."""

    cards: tuple[int, int, int]
    bonus_territory: int = -1
    tag: ClassVar[str] = "trade"


@dataclass(frozen=True, slots=True)
class Attack:
    """Roll ``dice`` dice from ``source`` against the neighbouring enemy ``target``."""

    source: int
    target: int
    dice: int
    tag: ClassVar[str] = "attack"


@dataclass(frozen=True, slots=True)
class Defend:
    """Roll ``dice`` dice in defence."""

    dice: int
    tag: ClassVar[str] = "defend"


@dataclass(frozen=True, slots=True)
class Occupy:
    """Move ``armies`` into the territory just conquered."""

    armies: int
    tag: ClassVar[str] = "occupy"


@dataclass(frozen=True, slots=True)
class Fortify:
    """Move ``armies`` from ``source`` to ``target`` (one move a turn)."""

    source: int
    target: int
    armies: int
    tag: ClassVar[str] = "fortify"


@dataclass(frozen=True, slots=True)
class Pass:
    """Decline: trade no set, stop attacking, or skip the fortify move."""

    tag: ClassVar[str] = "pass"


@dataclass(frozen=True, slots=True)
class Capital:
    """Choose ``territory`` (an own one) as the secret capital (capital Risk)."""

    territory: int
    tag: ClassVar[str] = "capital"


@dataclass(frozen=True, slots=True)
class PlaceNeutral:
    """Put armies on territories of the neutral(s) the decision names (two-player games)."""

    placements: tuple[tuple[int, int], ...]
    tag: ClassVar[str] = "place_neutral"


@dataclass(frozen=True, slots=True)
class Bribe:
    """Give ``cards`` from your hand face down to the neutral ``neutral`` (two-player 2004
    active): each card moves it one step toward you on its alliance track."""

    neutral: int
    cards: tuple[int, ...]
    tag: ClassVar[str] = "bribe"


@dataclass(frozen=True, slots=True)
class ReinforceAlly:
    """Place the rolled armies on your ally's territories (two-player 2004 active)."""

    placements: tuple[tuple[int, int], ...]
    tag: ClassVar[str] = "reinforce_ally"


@dataclass(frozen=True, slots=True)
class FortifyAlly:
    """Your ally's one free move: ``armies`` from ``source`` to ``target``, both its own."""

    source: int
    target: int
    armies: int
    tag: ClassVar[str] = "fortify_ally"


@dataclass(frozen=True, slots=True)
class BuildCentre:
    """Spend the decision's armies on a production centre on ``territory`` (Risiko! Master)."""

    territory: int
    tag: ClassVar[str] = "build_centre"


@dataclass(frozen=True, slots=True)
class Forfeit:
    """Not a player's move: the referee removes ``player`` from the game (a fault)."""

    player: int
    reason: str
    tag: ClassVar[str] = "forfeit"


#: What a player may answer: every action but :class:`Forfeit`. Bots, the SDK and the codec
#: deal in these; only the referee builds a ``Forfeit``.
PlayerAction: TypeAlias = (
    Claim
    | Place
    | Trade
    | Attack
    | Defend
    | Occupy
    | Fortify
    | Pass
    | Capital
    | PlaceNeutral
    | Bribe
    | ReinforceAlly
    | FortifyAlly
    | BuildCentre
)
#: Everything the engine applies and a record holds: a player's action or a referee's forfeit.
Action: TypeAlias = PlayerAction | Forfeit

for _action in get_args(Action):
    quick_init(_action)  # every action: built on the hot path (by bots, the codec, records)


def action_to_list(action: Action) -> list[Any]:
    """The compact record form of an action."""
    if isinstance(action, (Place, PlaceNeutral, ReinforceAlly)):
        return [action.tag, [list(p) for p in action.placements]]
    if isinstance(action, Bribe):
        return ["bribe", action.neutral, list(action.cards)]
    if isinstance(action, Trade):
        return ["trade", list(action.cards), action.bonus_territory]
    if isinstance(action, Pass):
        return ["pass"]
    return [action.tag, *(getattr(action, f) for f in action.__slots__)]


def _ints(values: list[Any], count: int, what: str) -> list[int]:
    if len(values) != count or any(type(v) is not int for v in values):
        raise ActionFormatError(f"{what} needs {count} whole number(s), got {values!r}")
    return values


def _pair(value: Any) -> tuple[int, int]:
    first, second = _ints(value if isinstance(value, list) else [value], 2, "a placement")
    return first, second


_PLACING: dict[str, type[Place] | type[PlaceNeutral] | type[ReinforceAlly]] = {
    "place": Place,
    "place_neutral": PlaceNeutral,
    "reinforce_ally": ReinforceAlly,
}


def player_action_from_list(data: Any) -> PlayerAction:
    """Rebuild a player's action from its record form: like :func:`action_from_list`, but a
    ``forfeit`` (which only the referee may build) is refused with :class:`ActionFormatError`."""
    action = action_from_list(data)
    if isinstance(action, Forfeit):
        raise ActionFormatError("forfeit is not a player's action")
    return action


def action_from_list(data: Any) -> Action:
    """Rebuild an action from its record form; raises :class:`ActionFormatError` on any
    other shape."""
    if not isinstance(data, list) or not data or not isinstance(data[0], str):
        raise ActionFormatError(f"an action must be a list starting with its name, got {data!r}")
    tag, args = data[0], data[1:]
    if tag == "claim":
        return Claim(*_ints(args, 1, tag))
    if tag in ("place", "place_neutral", "reinforce_ally"):
        if len(args) != 1 or not isinstance(args[0], list):
            raise ActionFormatError(f"{tag} needs a list of [territory, armies], got {args!r}")
        pairs = tuple(_pair(p) for p in args[0])
        return _PLACING[tag](pairs)
    if tag == "bribe":
        if len(args) != 2 or not isinstance(args[1], list):
            raise ActionFormatError(f"bribe needs [neutral, cards], got {args!r}")
        (neutral,) = _ints(args[:1], 1, "bribe neutral")
        return Bribe(neutral, tuple(_ints(args[1], len(args[1]), "bribe cards")))
    if tag == "fortify_ally":
        return FortifyAlly(*_ints(args, 3, tag))
    if tag == "trade":
        if len(args) != 2 or not isinstance(args[0], list):
            raise ActionFormatError(f"trade needs [cards, bonus_territory], got {args!r}")
        a, b, c = _ints(args[0], 3, "trade cards")
        return Trade((a, b, c), *_ints(args[1:], 1, "bonus territory"))
    if tag == "attack":
        return Attack(*_ints(args, 3, tag))
    if tag == "defend":
        return Defend(*_ints(args, 1, tag))
    if tag == "occupy":
        return Occupy(*_ints(args, 1, tag))
    if tag == "fortify":
        return Fortify(*_ints(args, 3, tag))
    if tag == "capital":
        return Capital(*_ints(args, 1, tag))
    if tag == "build_centre":
        return BuildCentre(*_ints(args, 1, tag))
    if tag == "pass" and not args:
        return Pass()
    if tag == "forfeit" and len(args) == 2 and type(args[0]) is int and isinstance(args[1], str):
        return Forfeit(args[0], args[1])
    raise ActionFormatError(f"unknown action {data!r}")
