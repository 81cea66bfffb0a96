"""Turning a bot's attack into a blitz that plays exactly as the bot would have.

:func:`press` asks the bot's own ``decide`` what it would answer after each roll the attack
could lead to (the same board with other armies on the source and the target), and returns a
:class:`~hegemon.referee.orders.Blitz` whose ``until`` stops where the bot might have answered
otherwise: the referee then plays the rolls the bot would have asked for, without the round
trips, and the game is the very same. It is exact for a bot whose attack decision depends only
on its view's board (owners, armies, seats) and its game context, not on the events, its
randomness or what it remembers from decision to decision (``Bot.press_attacks`` opts in).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from hegemon.referee.actions import Action, Attack
from hegemon.referee.decisions import Decision
from hegemon.referee.formulas import attack_dice
from hegemon.referee.orders import Blitz

from .context import BotView

__all__ = ["press"]

PROBES = 40
"""The most hypothetical boards :func:`press` asks the bot about for one attack."""


def press(
    decide: Callable[[BotView, Decision], Action],
    view: BotView,
    decision: Decision,
    attack: Attack,
    probes: int = PROBES,
) -> Attack | Blitz:
    """``attack`` (the bot's answer to ``decision``) as a blitz down to the lowest source
    strength at which ``decide`` answers the same attack for every defending strength the
    target could then have (at most ``probes`` boards asked); ``attack`` itself if none."""
    s, t = attack.source, attack.target
    owner = view.owner
    a, d = view.armies[s], view.armies[t]
    me, foe = owner[s], owner[t]
    if me != view.seat or foe == me or foe < 0 or a < 3:
        return attack  # nothing to press (a source of 2 stops after one roll anyway)
    armies = list(view.armies)
    seats = list(view.seats)
    until = a
    asked = 0
    for a2 in range(a, 1, -1):  # the source's armies before a roll the order would make
        same = Attack(s, t, min(attack.dice, attack_dice(a2)))
        for d2 in range(d, 0, -1):  # every strength the target may have left by then
            if a2 == a and d2 == d:
                continue  # the board of this very decision
            asked += 1
            if asked > probes:
                return Blitz(s, t, attack.dice, until) if until < a else attack
            armies[s], armies[t] = a2, d2
            seats[me] = replace(view.seats[me], armies=view.seats[me].armies - (a - a2))
            seats[foe] = replace(view.seats[foe], armies=view.seats[foe].armies - (d - d2))
            board = replace(view, armies=tuple(armies), seats=tuple(seats))
            if decide(board, decision) != same:
                return Blitz(s, t, attack.dice, until) if until < a else attack
        until = a2 - 1
    return Blitz(s, t, attack.dice, max(until, 1))
