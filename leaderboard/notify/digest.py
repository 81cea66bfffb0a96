"""The opt-in daily digest: for each member who asked, once a day, their bots' rating, rank and
games on each season or ladder they play in, and the games played since the last digest."""

from __future__ import annotations

from collections import Counter
from datetime import datetime, timedelta
from typing import Any

from sqlmodel import col, select

from ..boards import board
from ..store import BotRow, GameRow, MatchRow, NoticePrefsRow, NoticeRow, Store
from .notices import Notice, notify

DIGEST = "digest"
EVERY = timedelta(days=1)


def set_digest(store: Store, user_id: int, wanted: bool) -> None:
    """Opt ``user_id`` in to (or out of) the daily digest."""
    with store.session(write=True) as s:
        prefs = s.get(NoticePrefsRow, user_id) or NoticePrefsRow(user_id=user_id)
        prefs.digest = wanted
        s.add(prefs)


def wants_digest(store: Store, user_id: int) -> bool:
    """Whether ``user_id`` asked for the daily digest."""
    with store.session() as s:
        prefs = s.get(NoticePrefsRow, user_id)
        return prefs is not None and prefs.digest


def _games_since(store: Store, since: datetime) -> Counter[tuple[int, int]]:
    """(season id, bot id) → games finished since ``since``."""
    with store.session() as s:
        seats = s.exec(
            select(MatchRow.season_id, MatchRow.seats)
            .join(GameRow, col(GameRow.match_id) == col(MatchRow.id))
            .where(col(GameRow.finished_at) >= since)
        ).all()
    return Counter((season, bot) for season, bots in seats for bot in set(bots))


def standings(store: Store, user_id: int, since: datetime) -> list[dict[str, Any]]:
    """Each of ``user_id``'s bots on each competition it plays in: rating, rank, games (in
    all, and since ``since``) — what the public board shows, nothing more."""
    with store.session() as s:
        mine = {b.id for b in s.exec(select(BotRow).where(col(BotRow.owner_id) == user_id))}
    if not mine:
        return []
    recent = _games_since(store, since)
    rows: list[dict[str, Any]] = []
    for season in store.seasons():
        table = board(store, season).rows
        for row in (r for r in table if r.bot_id in mine):
            rows.append({
                "competition": season.name, "bot": row.label, "bot_id": row.bot_id,
                "rating": None if row.rating is None else round(row.rating),
                "rank": row.rank, "of": len(table), "games": row.games,
                "games_since": recent[(season.id or 0, row.bot_id)],
            })  # fmt: skip
    return rows


def digest_notice(rows: list[dict[str, Any]]) -> Notice:
    """The digest of ``rows`` (:func:`standings`) as one notice."""
    lines = [
        f"{r['bot']} on {r['competition']}: rank {r['rank']} of {r['of']}, rating "
        f"{'—' if r['rating'] is None else r['rating']}, {r['games']} games "
        f"({r['games_since']} today)"
        for r in rows
    ]
    title = f"Your daily digest: {len(rows)} standing{'s' if len(rows) != 1 else ''}"
    body = "\n".join(lines) or "No games yet."
    return Notice(DIGEST, title, body, "/me/bots", {"standings": rows})


def send_digests(store: Store, now: datetime) -> list[NoticeRow]:
    """A digest for each member who asked for one and had none in the last day."""
    with store.session() as s:
        due = s.exec(select(NoticePrefsRow).where(col(NoticePrefsRow.digest).is_(True))).all()
    made = []
    for prefs in due:
        last = prefs.last_digest_at
        if last is not None and now - last < EVERY:
            continue
        rows = standings(store, prefs.user_id, last or now - EVERY)
        made.append(notify(store, prefs.user_id, digest_notice(rows)))
        with store.session(write=True) as s:
            row = s.get(NoticePrefsRow, prefs.user_id)
            if row is not None:
                row.last_digest_at = now
                s.add(row)
    return made
