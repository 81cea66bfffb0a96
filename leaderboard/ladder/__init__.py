"""Continuous ladders: seasons that never end, whose matches a matchmaker makes as games finish.

``hegemon ladder create`` stores a season of kind ``ladder`` with no schedule. Every bot's active
version is an entrant (:func:`.entrants.ladder_entrants`; a new version replaces the old one in
matchmaking, the old keeps its games and its place in the board's history). :func:`fill_queue`
(:mod:`.matchmaker`) keeps a few pending matches queued for the runners (``hegemon season run``,
the same claims as any season, on any machine); each table is chosen by :func:`choose_table`
(:mod:`.policy`, pure and deterministic): bots that must play now so that none starves, then
new versions until they are no longer provisional, then the bot whose interval is widest, with
the opponents nearest to it in rating, seated to even out seat counts.
"""

from __future__ import annotations

from .entrants import ladder_entrants
from .matchmaker import QUEUE_DEPTH, fill_queue
from .policy import Entrant, choose_table, interval_width, starve_limit

__all__ = [
    "QUEUE_DEPTH",
    "Entrant",
    "choose_table",
    "fill_queue",
    "interval_width",
    "ladder_entrants",
    "starve_limit",
]
