"""Turning a bot's attack into a blitz that plays exactly as the bot would have.

:func:`press` asks the bot's own ``decide`` what it would answer after each roll the attack
could lead to (the same board with other armies on the source and the target), and returns a
:class:`~hegemon.referee.orders.Blitz` whose ``until`` and ``until_target`` stop it where the
bot might have answered otherwise: the referee then plays the rolls the bot would have asked
for, without the round trips, and the game is the very same. It is exact for a bot whose
attack decision depends only on its view's board (owners, armies, seats) and its game context,
not on the events, its randomness or what it remembers from decision to decision
(``Bot.press_attacks`` opts in), and that keeps no reference to the views it is given (the
probes reuse one view object).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import replace

from hegemon.referee.actions import Action, Attack
from hegemon.referee.decisions import Decision
from hegemon.referee.formulas import attack_dice
from hegemon.referee.orders import Blitz
from hegemon.referee.view import SeatInfo

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
    """``attack`` (the bot's answer to ``decision``) as a blitz over the largest box of
    (source armies, target armies) around the present board, grown one row or column at a
    time, on every board of which ``decide`` answers the same attack (at most ``probes`` boards
    asked); ``attack`` itself if the box is this board alone."""
    s, t = attack.source, attack.target
    owner = view.owner
    a, d = view.armies[s], view.armies[t]
    me, foe = owner[s], owner[t]
    if me != view.seat or foe == me or foe < 0 or a < 3:
        return attack  # nothing to press (a source of 2 stops after one roll anyway)
    armies = list(view.armies)
    seats = list(view.seats)
    mine: dict[int, SeatInfo] = {}  # the seats' public totals, by the armies left
    theirs: dict[int, SeatInfo] = {}
    board = copy.copy(view)  # one view, its board changed in place for each probe (fast)
    # every probe is a board after this attack's first roll, where no attack is forced any
    # more (Risiko! Master expert's "obbligo di attacco" is met by one attack)
    after = replace(decision, forced=False)
    object.__setattr__(board, "pending", after)
    asked = 0

    def same(a2: int, d2: int) -> bool:
        nonlocal asked
        asked += 1
        armies[s], armies[t] = a2, d2
        if a2 not in mine:
            mine[a2] = replace(view.seats[me], armies=view.seats[me].armies - (a - a2))
        if d2 not in theirs:
            theirs[d2] = replace(view.seats[foe], armies=view.seats[foe].armies - (d - d2))
        seats[me], seats[foe] = mine[a2], theirs[d2]
        object.__setattr__(board, "armies", tuple(armies))
        object.__setattr__(board, "seats", tuple(seats))
        try:
            answer = decide(board, after)
        except Exception:  # e.g. no legal attack on that board (Risiko! Master's dice rules)
            return False  # a probe the bot cannot answer ends the box; the real one may differ
        return answer == Attack(s, t, min(attack.dice, attack_dice(a2)))

    # the box: source armies low_a..a, target armies low_d..d, every board of it checked
    low_a, low_d = a, d
    grow_a, grow_d = True, d > 1
    while grow_a or grow_d:
        if grow_a:  # one source army fewer, against every target strength of the box
            row = range(low_d, d + 1)
            if low_a <= 2 or asked + len(row) > probes:
                grow_a = False
            elif all(same(low_a - 1, d2) for d2 in row):
                low_a -= 1
            else:
                grow_a = False
        if grow_d:  # one target army fewer, against every source strength of the box
            column = range(low_a, a + 1)
            if low_d <= 1 or asked + len(column) > probes:
                grow_d = False
            elif all(same(a2, low_d - 1) for a2 in column):
                low_d -= 1
            else:
                grow_d = False
    if low_a == a and low_d == d:
        return attack
    return Blitz(s, t, attack.dice, until=low_a - 1, until_target=0 if low_d <= 1 else low_d - 1)
