"""Helpers for the two-player games' neutral armies and allies (docs/rules.md §5), and the safe
defaults :class:`hegemon.sdk.Bot` answers their decisions with.

In a two-player game the players hold seats 0 and 1 and each neutral colour a seat after
them (``SeatInfo.neutral``; ``SeatInfo.ally_of`` is the player an active neutral is allied
to, -1 if uncommitted). The decisions they bring:

- ``place_neutral``: place armies for the neutral(s) in ``decision.seats`` (set-up: one army
  each, ``decision.maximum`` = 1; two-player-2000: half the opponent's reinforcements).
- ``bribe`` (two-player-2004-active): give 1..``decision.maximum`` cards to one neutral, or pass.
- ``reinforce_ally``: place ``decision.armies`` (a die roll) on the ally ``decision.seats[0]``,
  or pass.
- ``fortify_ally``: one move between the ally's territories, or pass.
- ``defend`` also comes for a neutral's territory that the other player attacks.

>>> from hegemon.referee import Game, make_rules
>>> from hegemon.referee.view import view_for
>>> game = Game(make_rules("two-player-2004-passive"), 2, seed=3)
>>> view = view_for(game, 0)
>>> neutral_seats(view)
[2, 3, 4, 5]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from hegemon.referee import legal
from hegemon.referee.actions import (
    Action,
    Bribe,
    Pass,
    PlaceNeutral,
    ReinforceAlly,
)
from hegemon.referee.decisions import Decision
from hegemon.referee.position import Position
from hegemon.referee.view import SeatInfo

__all__ = [
    "allies",
    "ally_attack_options",
    "bribe_choice",
    "default_bribe",
    "default_fortify_ally",
    "default_place_neutral",
    "default_reinforce_ally",
    "is_neutral",
    "neutral_seats",
    "opponents",
]


class _View(Position, Protocol):
    @property
    def seat(self) -> int: ...
    @property
    def seats(self) -> Sequence[SeatInfo]: ...
    @property
    def hand(self) -> Sequence[int]: ...


def is_neutral(view: _View, seat: int) -> bool:
    """Whether ``seat`` is a neutral colour (not a player, nor a player who forfeited)."""
    info = view.seats[seat]
    return info.neutral and not info.forfeited


def neutral_seats(view: _View) -> list[int]:
    """The neutral colours' seats (two-player games; empty otherwise)."""
    return [s.seat for s in view.seats if s.neutral and not s.forfeited]


def opponents(view: _View) -> list[int]:
    """The other players still in the game (neutral colours excluded)."""
    return [
        s.seat
        for s in view.seats
        if s.seat != view.seat and not (s.neutral or s.eliminated or s.forfeited)
    ]


def allies(view: _View, seat: int | None = None) -> list[int]:
    """The neutral colours allied to ``seat`` (default: the view's own seat)."""
    me = view.seat if seat is None else seat
    return [s.seat for s in view.seats if s.neutral and not s.forfeited and s.ally_of == me]


def ally_attack_options(view: _View) -> list[tuple[int, int, int]]:
    """The (source, target, most dice) attacks the view's seat may make with its allies'
    armies (two-player-2004-active)."""
    return [a for a in legal.attacks(view, view.seat) if view.owner[a[0]] != view.seat]


def _exposure(view: _View, t: int, against: Sequence[int]) -> tuple[int, int, int]:
    """How much ``t`` faces the seats ``against``: their neighbouring armies, neighbours, -t."""
    owner, armies = view.owner, view.armies
    hostile = [n for n in view.board.neighbours[t] if owner[n] in against]
    return (sum(armies[n] for n in hostile), len(hostile), -t)


def default_place_neutral(view: _View, decision: Decision) -> Action:
    """Place for the neutral(s) where they face your opponent hardest (its most armies next
    door): a neutral is a wall between you. At set-up, one army on each neutral."""
    against = opponents(view)
    picks: list[tuple[int, int]] = []
    left = decision.armies
    for seat in decision.seats:
        own = legal.own_territories(view, seat)
        if not own or left <= 0:
            continue
        best = max(own, key=lambda t: _exposure(view, t, against))
        n = min(decision.maximum, left) if decision.maximum else left
        picks.append((best, n))
        left -= n
    if left > 0 and picks:  # no per-seat limit left anything over: give it to the first pick
        picks[0] = (picks[0][0], picks[0][1] + left)
    return PlaceNeutral(tuple(picks))


def _contact(view: _View, seat: int) -> int:
    """How many of ``seat``'s territories border the view's own."""
    owner, me = view.owner, view.seat
    return sum(
        1
        for t in legal.own_territories(view, seat)
        if any(owner[n] == me for n in view.board.neighbours[t])
    )


def bribe_choice(view: _View, decision: Decision) -> Action:
    """A bribe worth making, or Pass: one card you do not need for a set, to the neutral
    allied to your opponent that borders you most (one card makes it uncommitted), else to the
    uncommitted neutral that borders you most (one card makes it your ally)."""
    hand = list(view.hand)
    sets = legal.trades(hand, view.board)
    keep = set(sets[0]) if sets else set()
    spare = [c for c in hand if c not in keep]
    candidates = [
        s for s in decision.seats if view.seats[s].ally_of != view.seat and _contact(view, s) > 0
    ]
    if not spare or not candidates:
        return Pass()
    theirs = [s for s in candidates if view.seats[s].ally_of >= 0]
    target = max(theirs or candidates, key=lambda s: (_contact(view, s), -s))
    return Bribe(target, (spare[0],))


def default_bribe(view: _View, decision: Decision) -> Action:
    """Default: bribe nobody (keep your cards for trading)."""
    return Pass()


def default_reinforce_ally(view: _View, decision: Decision) -> Action:
    """Default: the rolled armies on the ally's territory facing your opponent hardest."""
    own = legal.own_territories(view, decision.seats[0]) if decision.seats else []
    if not own:
        return Pass()
    best = max(own, key=lambda t: _exposure(view, t, opponents(view)))
    return ReinforceAlly(((best, decision.armies),))


def default_fortify_ally(view: _View, decision: Decision) -> Action:
    """Default: skip the ally's move."""
    return Pass()
