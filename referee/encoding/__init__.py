"""Fixed-size numbers for learning code: one seat's view as an array, every answer as an index.

This module imports only numpy and :mod:`hegemon.referee`, and works from a
:class:`hegemon.referee.view.View` — what the referee's redaction (``view_for``) leaves one seat
— so the environments (:mod:`hegemon.env.multi_agent`, :mod:`hegemon.env.single_agent`) and a
bot playing over gRPC (the SDK's ``BotView`` is a ``View``) encode alike.

A :class:`Layout` fixes the sizes for one map (``Layout.for_board(board)``; every rule set on
that map shares it). Its **action space** is one ``Discrete(layout.actions)`` for every decision
of every edition; the indices are, in this order:

========================  =====================================================================
``PASS`` (0)               pass: trade no set, stop attacking, skip the fortify move, build no
                           centre, bribe no one, leave the ally alone
``territory(t)``           pick territory ``t``: claim it, make it the capital, build a centre on
                           it, place armies on it, or name the source (then the target) of an
                           attack or a fortify move
``amount(b)``              an amount, by bucket ``b`` of :data:`BUCKETS` (see :func:`amount`):
                           defence dice, armies to occupy with, to move, to place on the
                           territory just picked
``card_set(k)``            trade the ``k``-th set of ``legal.trades(hand)`` (at most
                           :data:`MAX_SETS`)
``seat(r)``                pick the seat ``r`` places after the observer (a bribe's neutral)
``card(i)``                give the ``i``-th card of the hand (a bribe)
========================  =====================================================================

Compound decisions are split into atomic steps, whose progress a :class:`Partial` holds:

- PLACE, PLACE_NEUTRAL, REINFORCE_ALLY: a territory, then (when more than one army could go
  there) an amount bucket of the armies left; again until every army is placed.
- ATTACK: the source, then the target; the attack rolls the most dice allowed.
- FORTIFY, FORTIFY_ALLY: the source, the target, then an amount bucket of the armies movable.
- BRIBE: the neutral, then one card of the hand.

Use it as a loop (or :func:`answer`, which is this loop)::

    partial = Partial()
    while True:
        index = policy(encode(view, decision, partial), action_mask(view, decision, partial))
        action = to_action(index, view, decision, partial)
        if action is not None:
            break  # the complete answer to ``decision``

The **observation** (:func:`encode`) is one float32 vector of ``layout.features`` numbers, all
at least 0: per territory (owner relative to the observer — 0 is the observer, r the seat r
places after it — armies, centre, capitals, the card in hand, its value, its part in the pending
decision and the partial answer), per continent (bonus, the observer's share, held whole by the
observer or by another), per seat relative to the observer (territories, armies, cards, out,
neutral, team-mate, ally, missions shown), the hand (cards per insignia, sets), the decision
(kind, bounds, step), the edition's state (trades made, next set's value, round, the observer's
missions, the rule set).
"""

from __future__ import annotations

from hegemon.referee.observation import (
    BUCKETS,
    KINDS,
    MAX_HAND,
    MAX_MISSIONS,
    MAX_SEATS,
    MAX_SETS,
    OBSERVATION_HIGH,
    PASS,
    Layout,
    Partial,
    Sections,
    ViewEncoder,
    action_mask,
    amount,
    answer,
    encode,
    layout_of,
    to_action,
)

__all__ = [
    "BUCKETS",
    "KINDS",
    "MAX_HAND",
    "MAX_MISSIONS",
    "MAX_SEATS",
    "MAX_SETS",
    "OBSERVATION_HIGH",
    "PASS",
    "Layout",
    "Partial",
    "Sections",
    "ViewEncoder",
    "action_mask",
    "amount",
    "answer",
    "encode",
    "layout_of",
    "to_action",
]
