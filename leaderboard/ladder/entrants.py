"""Who plays in the ladders: each bot name's version that plays — the one its owner pinned, else
its newest active one (:func:`hegemon.leaderboard.store.pins.choose_playing`)."""

from __future__ import annotations

from sqlmodel import Session, col, select

from ..store import BotRow, Store
from ..store.pins import benched, choose_playing, pinned, playing_ids


def ladder_entrants(store: Store) -> list[BotRow]:
    """Each bot name's version that plays (its pinned one, else its newest in the ``active``
    state), by name, leaving out bots whose owner is disabled (a team's: whose team has no
    enabled member). A new version replaces the old one in matchmaking once its check passes,
    unless another is pinned; the old keeps its games and its history."""
    with store.session() as s:
        rows = s.exec(select(BotRow).order_by(col(BotRow.name), col(BotRow.version))).all()
        sitting_out = benched(s)
        pins = pinned(s)
    return choose_playing(
        ((b.name, b.state, b.owner_id, b.team_id, b.id, b) for b in rows), pins, sitting_out
    )


def entrant_ids(session: Session) -> list[int]:
    """The ids of :func:`ladder_entrants`, read as a few columns (what the matchmaker needs)."""
    return list(playing_ids(session).values())
