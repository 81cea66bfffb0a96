"""Test games on demand: a member asks for N unrated games of one of their active versions
against chosen active bots or its ladder neighbours (:mod:`.ask`), within a quota
(:mod:`.quotas`). Each challenge is a small season of kind ``challenge`` with the ladder's
rules, played by the arena's runners between ladder turns (:mod:`.turns`), off every board and
rating; its page and the command line show its results and, against one opponent, the SPRT of
the run (:mod:`.results`); its finish is told to its owner (:mod:`.finished`)."""

from __future__ import annotations

from .ask import Ask, make_challenge
from .quotas import ChallengeError, ChallengeQuotas

__all__ = ["Ask", "ChallengeError", "ChallengeQuotas", "make_challenge"]
