"""Who plays in the ladders: each bot name's active version."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypeVar

from sqlmodel import Session, col, select

from ..store import BotRow, Store, UserRow
from ..store.versions import ACTIVE

T = TypeVar("T")


def ladder_entrants(store: Store) -> list[BotRow]:
    """Each bot name's active version (its newest in the ``active`` state), by name, leaving out
    bots whose owner is disabled. A new version replaces the old one in matchmaking once its
    check passes; the old keeps its games and its history."""
    with store.session() as s:
        rows = s.exec(select(BotRow).order_by(col(BotRow.name), col(BotRow.version))).all()
        disabled = _disabled(s)
    return _newest_active(((b.name, b.state, b.owner_id, b) for b in rows), disabled)


def entrant_ids(session: Session) -> list[int]:
    """The ids of :func:`ladder_entrants`, read as a few columns (what the matchmaker needs)."""
    rows = session.exec(
        select(col(BotRow.name), col(BotRow.state), col(BotRow.owner_id), col(BotRow.id)).order_by(
            col(BotRow.name), col(BotRow.version)
        )
    ).all()
    found = _newest_active(((n, s, o, i) for n, s, o, i in rows), _disabled(session))
    return [i for i in found if i is not None]


def _disabled(session: Session) -> set[int]:
    found = session.exec(select(col(UserRow.id)).where(col(UserRow.disabled))).all()
    return {u for u in found if u is not None}


def _newest_active(rows: Iterable[tuple[str, str, int | None, T]], disabled: set[int]) -> list[T]:
    """Of (name, state, owner id, item) rows by name then version: each name's newest active
    one whose owner is not disabled."""
    newest: dict[str, T] = {}
    for name, state, owner, item in rows:
        if state == ACTIVE and owner not in disabled:
            newest[name] = item
    return list(newest.values())
