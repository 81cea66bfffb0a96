"""Every game ends: the backstops on a game's length that every game hegemon plays gets.

A rule set may play without a round limit (``turn_limit`` 0, every preset's default: the board
game has none). Bots that never attack (the SDK's default answers) then play for ever, and a
single such game would hold a runner, its memory and every game queued behind it. So every game
the product plays (ladders, seasons, check games, ``hegemon play``, ``bench``, the learning
environments) is played under :func:`bounded` rules: a rule set that sets no round limit gets
:data:`DEFAULT_ROUND_LIMIT`, and the game is stopped after :data:`DEFAULT_DECISION_LIMIT`
decisions whatever its rounds (a bot can spin one round out to a great length: one-army
attacks from a stack grown by escalating card sets). Either way the game ends as the rules end
it at their round limit: ranked by territories, then armies (docs/rules.md §6, "Turn limit").

The engine stays as the rules say (a game built from ``make_rules("classic")`` has no limit):
the backstops are the product's, applied where it starts a game. Pure data, no I/O.
"""

from __future__ import annotations

from dataclasses import replace

from .rules import RuleSet

DEFAULT_ROUND_LIMIT = 500
"""Rounds after which a game whose rules set no ``turn_limit`` ends. The sample bots' games on
the classic map end by conquest within about 50 rounds; ten times that leaves any real game
alone and stops a game of bots that never attack."""

DEFAULT_DECISION_LIMIT = 100_000
"""Decisions (answered or applied by the referee) after which any game ends, behind the round
limit: a real 500-round game of six seats takes fewer, and at about 200 bytes a decision its
record stays under 20 MB."""

DECISION_LIMIT_REASON = "decision limit"
"""A game's ``finish_reason`` when :data:`DEFAULT_DECISION_LIMIT` (or a game's own decision
limit) stopped it; ``"turn limit"`` when its round limit did."""

CUT_SHORT = frozenset({"turn limit", DECISION_LIMIT_REASON})
"""The ``finish_reason`` of a game a limit stopped rather than won (a learning environment's
episode is truncated, not terminated)."""


def bounded(rules: RuleSet, round_limit: int = DEFAULT_ROUND_LIMIT) -> RuleSet:
    """``rules`` with a round limit: their own ``turn_limit`` if they set one, else
    ``round_limit``."""
    if rules.turn_limit:
        return rules
    return replace(rules, turn_limit=round_limit)


def round_limit_note(rules: RuleSet, round_limit: int = DEFAULT_ROUND_LIMIT) -> str:
    """What a command says when ``rules`` get the default round limit ("" when they set
    their own)."""
    if rules.turn_limit:
        return ""
    return (
        f"{rules.preset} sets no round limit: the game ends after {round_limit} rounds "
        "(--set turn_limit=N to change)"
    )
