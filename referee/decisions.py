"""The pending decision: who must decide what next, within which bounds; and the phase of
the game that poses it."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final

from .quickinit import quick_init


class Phase(StrEnum):
    """Where the game stands (docs/rules.md §1): which decisions it may pose next."""

    SETUP = "setup"  # being set up (no decision posed yet)
    CLAIM = "claim"  # set-up: players claim free territories in turn
    SETUP_PLACE = "setup_place"  # set-up: players place their reserves one army at a time
    REINFORCE = "reinforce"  # a turn begins: trade sets, place the armies due
    ATTACK = "attack"  # attack, defend, occupy
    ELIMINATION_TRADE = "elimination_trade"  # trade the cards taken from an eliminated player
    FORTIFY = "fortify"  # the turn's one fortify move
    CAPITALS = "capitals"  # set-up over: each player picks a secret capital


class Kind(StrEnum):
    """Every kind of decision a player can be asked for, in every edition."""

    CLAIM = "claim"  # take a free territory (claim set-up)
    PLACE = "place"  # place `armies` on own territories, in any split
    TRADE = "trade"  # trade a set of cards, or pass (not when `forced`)
    ATTACK = "attack"  # attack (source, target, dice) or stop
    DEFEND = "defend"  # defender dice, 1..`maximum`
    OCCUPY = "occupy"  # armies to move into `target`, `minimum`..`maximum`
    FORTIFY = "fortify"  # one move (source, target, armies) or skip
    # Later editions (docs/rules.md §2–§7): the state machine and protocol already name them.
    PLACE_NEUTRAL = "place_neutral"  # place armies on a neutral's territories
    CAPITAL = "capital"  # choose a secret capital
    BRIBE = "bribe"  # give cards to a neutral
    REINFORCE_ALLY = "reinforce_ally"  # place a die roll of armies for an ally
    FORTIFY_ALLY = "fortify_ally"  # one free move for an ally
    BUILD_CENTRE = "build_centre"  # build a production centre


class Kinds:
    """Every :class:`Kind` as a plain class attribute, for the hot paths. On Python 3.11 reading
    a member off an Enum class (``Kind.ATTACK``) costs about 0.13 µs, as the Enum metaclass's
    ``__getattr__`` keeps the look-up off CPython's quick path; off this class it is a tenth."""

    CLAIM: Final = Kind.CLAIM
    PLACE: Final = Kind.PLACE
    TRADE: Final = Kind.TRADE
    ATTACK: Final = Kind.ATTACK
    DEFEND: Final = Kind.DEFEND
    OCCUPY: Final = Kind.OCCUPY
    FORTIFY: Final = Kind.FORTIFY
    PLACE_NEUTRAL: Final = Kind.PLACE_NEUTRAL
    CAPITAL: Final = Kind.CAPITAL
    BRIBE: Final = Kind.BRIBE
    REINFORCE_ALLY: Final = Kind.REINFORCE_ALLY
    FORTIFY_ALLY: Final = Kind.FORTIFY_ALLY
    BUILD_CENTRE: Final = Kind.BUILD_CENTRE


class Phases:
    """Every :class:`Phase` as a plain class attribute (see :class:`Kinds`)."""

    SETUP: Final = Phase.SETUP
    CLAIM: Final = Phase.CLAIM
    SETUP_PLACE: Final = Phase.SETUP_PLACE
    REINFORCE: Final = Phase.REINFORCE
    ATTACK: Final = Phase.ATTACK
    ELIMINATION_TRADE: Final = Phase.ELIMINATION_TRADE
    FORTIFY: Final = Phase.FORTIFY
    CAPITALS: Final = Phase.CAPITALS


@dataclass(frozen=True, slots=True)
class Decision:
    """What ``player`` must decide now. Fields not used by a kind stay at their defaults.

    - CLAIM: ``territories`` are the free territories.
    - PLACE: ``armies`` to place, on own territories.
    - TRADE: ``forced`` when a set must be traded (too many cards).
    - ATTACK: from an own territory with >= 2 armies to an enemy neighbour, 1..3 dice.
    - DEFEND: ``source``/``target`` of the battle, ``attack_dice`` rolled against you,
      1..``maximum`` dice.
    - OCCUPY: move ``minimum``..``maximum`` armies from ``source`` into ``target``.
    - FORTIFY: one move, leaving at least one army behind.
    - CAPITAL: choose one of ``territories`` (own ones) as the secret capital.
    - PLACE_NEUTRAL: place ``armies`` on territories of the neutral ``seats``; ``maximum``
      (when not 0) is the most any one of them may get (set-up: 1, one army each).
    - BRIBE: give 1..``maximum`` cards to one neutral of ``seats`` (the most any of them
      still takes), or pass.
    - REINFORCE_ALLY: place ``armies`` (a die roll) on the territories of the ally
      ``seats[0]``, or pass.
    - FORTIFY_ALLY: one move between territories of the ally ``seats[0]``, or pass.
    """

    kind: Kind
    player: int
    armies: int = 0
    minimum: int = 0
    maximum: int = 0
    source: int = -1
    target: int = -1
    attack_dice: int = 0
    forced: bool = False
    territories: tuple[int, ...] = ()
    seats: tuple[int, ...] = ()  # the neutrals or the ally the decision concerns

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind.value, "player": self.player}
        for name in ("armies", "minimum", "maximum", "attack_dice"):
            if getattr(self, name):
                data[name] = getattr(self, name)
        for name in ("source", "target"):
            if getattr(self, name) >= 0:
                data[name] = getattr(self, name)
        if self.forced:
            data["forced"] = True
        if self.territories:
            data["territories"] = list(self.territories)
        if self.seats:
            data["seats"] = list(self.seats)
        return data


quick_init(Decision)

#: :class:`Decision`'s constructor, answering with the equal decision built before when there is
#: one: a game asks the same few decisions over and over (attack, defend, occupy), and a frozen
#: dataclass is slow to build. Decisions are immutable, so sharing one is safe.
shared = functools.lru_cache(maxsize=1 << 14)(Decision)
