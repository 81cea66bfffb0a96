"""Continuous ladders: seasons that never end, whose matches a matchmaker makes as games finish.

``hegemon ladder create`` stores a season of kind ``ladder`` with no schedule. Every bot's active
version is an entrant (:func:`.entrants.ladder_entrants`; a new version replaces the old one in
matchmaking, the old keeps its games and its place in the board's history). :func:`fill_queue`
(:mod:`.matchmaker`) keeps a few pending matches queued for the runners (``hegemon season run``,
the same claims as any season, on any machine); each table is chosen by :func:`choose_table`
(:mod:`.policy`, pure and deterministic): a new version (any bot whose interval is wider than
its neighbours') first, within a bounded share of the tables, then bots that must play now so
that none starves, then the bot whose interval is widest, with the opponents nearest to it in
rating, seated to even out seat counts. The intervals and ratings are the matchmaker's own,
updated game by game (:mod:`.online`), so a table costs the same at any length of the ladder.
"""

from __future__ import annotations

from .entrants import ladder_entrants
from .matchmaker import QUEUE_DEPTH, fill_queue
from .online import Belief, Ratings
from .policy import Entrant, choose_table, starve_limit

__all__ = [
    "QUEUE_DEPTH",
    "Belief",
    "Entrant",
    "Ratings",
    "choose_table",
    "fill_queue",
    "ladder_entrants",
    "starve_limit",
]
