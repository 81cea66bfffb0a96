"""Orders: answers a bot gives once that the referee plays out for it, saving round trips.

Two kinds, both opt-in:

- :class:`Blitz`, an attack pressed: answer an ATTACK decision with ``Blitz(source, target,
  dice, until)`` and the referee rolls that attack, then answers every following ATTACK
  decision of the seat with the same attack (the most dice up to ``dice`` the source allows)
  as long as the target is not taken, the source holds more than ``until`` armies and the
  target more than ``until_target``. With an :class:`OccupyShare` (``occupy``), the OCCUPY that
  follows when that blitz conquers its target is answered too: a share of the armies there.
- :class:`Policies`, standing orders for the whole game: DEFEND with the most dice; OCCUPY
  with the fewest armies, all of them, or all but ``keep`` (each within the decision's bounds).

:func:`automatic` is the whole rule: given the seat's order and policies and the pending
decision (and the public board), the action the seat's bot would be taken to answer, or None
when the bot must be asked. An order covers nothing else: a conquest's OCCUPY (unless a policy
or the blitz's share covers it), a trade forced by an elimination or a full hand, a placement,
a fortify, any other attack all go to the bot, and an ATTACK a blitz no longer covers ends the
blitz. Everything :func:`automatic` reads is public (the board and the decision), so an order
never tells a bot anything it could not see, and what it answers is exactly what the bot would
have answered (the referee records the same actions, dice and events either way).

Pure logic, no I/O: the arbiter (:mod:`hegemon.referee.arbiter`) applies it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import ClassVar

from .actions import Action, Attack, Defend, Occupy
from .decisions import Decision, Kind
from .formulas import attack_dice

__all__ = [
    "Blitz",
    "DefendPolicy",
    "OccupyPolicy",
    "OccupyShare",
    "Policies",
    "automatic",
    "blitz_attack",
    "occupy_share",
]


INT32 = 2**31 - 1  # the protocol's largest share term (and no float overflow in the rule)


@dataclass(frozen=True, slots=True)
class OccupyShare:
    """A blitz's rule for the OCCUPY after its conquest: move ``round(A * numerator /
    denominator)`` armies (Python's ``round`` of the true division), A being the armies on the
    source less one plus those on the target at that decision, within its minimum..maximum.
    ``numerator >= 0``, ``denominator >= 1`` (the protocol refuses anything else)."""

    numerator: int
    denominator: int = 1

    def __post_init__(self) -> None:
        if not self.valid:
            raise ValueError(
                f"occupy share {self.numerator!r}/{self.denominator!r}: the numerator must be "
                f"0 or more and the denominator 1 or more (both whole numbers, at most {INT32})"
            )

    @property
    def valid(self) -> bool:
        """Whole numbers in range (checked again where it is applied: a bot in the referee's
        process could have changed them since)."""
        n, d = self.numerator, self.denominator
        return type(n) is int and type(d) is int and 0 <= n <= INT32 and 1 <= d <= INT32


@dataclass(frozen=True, slots=True)
class Blitz:
    """Attack ``target`` from ``source`` with ``dice`` dice (fewer when the source has too few
    armies) again and again until the target falls, the source is down to ``until`` armies (at
    least 1) or the target down to ``until_target`` (0: until it falls). Its first roll is the
    answer to the pending ATTACK decision. ``occupy`` (None: ask the bot) answers the OCCUPY
    that follows when this blitz conquers the target (before any occupy policy)."""

    source: int
    target: int
    dice: int
    until: int = 1
    until_target: int = 0
    occupy: OccupyShare | None = None
    tag: ClassVar[str] = "blitz"

    @property
    def first(self) -> Attack:
        """The attack that answers the decision the blitz was given for."""
        return Attack(self.source, self.target, self.dice)


class DefendPolicy(StrEnum):
    """How a seat answers DEFEND without being asked."""

    ASK = "ask"  # ask the bot every time
    MOST = "most"  # the most dice allowed


class OccupyPolicy(StrEnum):
    """How a seat answers OCCUPY (after a conquest) without being asked."""

    ASK = "ask"  # ask the bot every time
    MIN = "min"  # the fewest armies allowed
    ALL = "all"  # the most armies allowed (one stays behind)
    KEEP = "keep"  # all but ``Policies.keep`` armies (within the bounds)


@dataclass(frozen=True, slots=True)
class Policies:
    """A seat's standing orders for a game (the default asks the bot for everything)."""

    defend: DefendPolicy = DefendPolicy.ASK
    occupy: OccupyPolicy = OccupyPolicy.ASK
    keep: int = 1  # OccupyPolicy.KEEP: armies left on the attacking territory

    @property
    def any(self) -> bool:
        """Does this cover any decision at all?"""
        return self.defend is not DefendPolicy.ASK or self.occupy is not OccupyPolicy.ASK


NO_POLICIES = Policies()


def blitz_attack(
    order: Blitz, player: int, owner: Sequence[int], armies: Sequence[int]
) -> Attack | None:
    """The next roll of ``order`` for ``player``, or None once it is over: the target taken (or
    no longer an enemy's) or down to ``until_target`` armies, the source lost or down to
    ``until`` armies (or to one)."""
    source, target = order.source, order.target
    if owner[source] != player or owner[target] == player:
        return None
    if armies[target] <= order.until_target:
        return None
    left = armies[source]
    if left <= max(order.until, 1):
        return None
    return Attack(source, target, min(order.dice, attack_dice(left)))


def occupy_share(share: OccupyShare, decision: Decision, armies: Sequence[int]) -> Occupy:
    """The OCCUPY answer ``share`` gives for ``decision`` (its bounds respected)."""
    total = armies[decision.source] - 1 + armies[decision.target]
    return _occupy_within(round(total * share.numerator / share.denominator), decision)


def _occupy_within(wanted: int, decision: Decision) -> Occupy:
    return Occupy(min(max(wanted, decision.minimum), decision.maximum))


def automatic(
    decision: Decision,
    order: Blitz | None,
    policies: Policies,
    owner: Sequence[int],
    armies: Sequence[int],
) -> Action | None:
    """The action ``decision``'s seat answers by its ``order`` or ``policies``, or None: ask the
    bot. The caller still checks the action against the engine (an illegal one means: ask)."""
    kind = decision.kind
    if kind is Kind.ATTACK:
        if order is None:
            return None
        return blitz_attack(order, decision.player, owner, armies)
    if kind is Kind.DEFEND:
        if policies.defend is DefendPolicy.MOST:
            return Defend(decision.maximum)
        return None
    if kind is Kind.OCCUPY:
        if (
            order is not None
            and isinstance(order.occupy, OccupyShare)
            and order.occupy.valid
            and (order.source, order.target) == (decision.source, decision.target)
        ):
            return occupy_share(order.occupy, decision, armies)
        rule = policies.occupy
        if rule is OccupyPolicy.MIN:
            return Occupy(decision.minimum)
        if rule is OccupyPolicy.ALL:
            return Occupy(decision.maximum)
        if rule is OccupyPolicy.KEEP:
            wanted = armies[decision.source] - max(policies.keep, 1)
            return _occupy_within(wanted, decision)
        return None
    return None
