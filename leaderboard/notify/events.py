"""What each event tells its member, and to whom: a version checked (its owner), a bot's
faults grouped (its owner, at most one notice per bot per :data:`FAULTS_EVERY`), a final
event's results (each entrant's owner). A notice says only what its member may see: their own
versions' reasons (no path of the server), fault kinds and game numbers — never another
member's logs, fault details or files."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from datetime import datetime, timedelta

from sqlmodel import col, select

from hegemon.referee.bottext import no_paths

from ..store import BotRow, GameRow, MatchRow, NoticeRow, Store
from .notices import Notice, notify

CHECKED, FAULTS, RESULTS = "version.checked", "bot.faults", "event.results"
FAULTS_EVERY = timedelta(hours=1)
"""At most one faults notice per bot in this time; later faults wait for the next one."""
LOOK_BACK = 2 * FAULTS_EVERY
"""Games finished longer ago than this are not looked at again."""


def version_checked(store: Store, bot: BotRow) -> NoticeRow | None:
    """Tell ``bot``'s owner how its check went (None: the organiser's bot, nobody to tell)."""
    if bot.owner_id is None:
        return None
    reason = no_paths(bot.reason)
    verdict = "is active" if bot.state == "active" else f"was {bot.state}"
    return notify(
        store,
        bot.owner_id,
        Notice(
            CHECKED, f"{bot.label} {verdict}", reason, "/me/bots",
            {"bot": bot.name, "version": bot.version, "bot_id": bot.id, "state": bot.state,
             "reason": reason},
            bot.id,
        ),
    )  # fmt: skip


def _last_faults_notice(store: Store, bot_id: int) -> NoticeRow | None:
    with store.session() as s:
        return s.exec(
            select(NoticeRow)
            .where(col(NoticeRow.bot_id) == bot_id, col(NoticeRow.kind) == FAULTS)
            .order_by(col(NoticeRow.id).desc())
        ).first()


def _recent_faults(store: Store, since: datetime) -> dict[int, list[tuple[int, str]]]:
    """Bot id → (game id, fault kind) of every fault in the games finished since ``since``."""
    with store.session() as s:
        rows = s.exec(
            select(MatchRow, GameRow)
            .join(GameRow, col(GameRow.match_id) == col(MatchRow.id))
            .where(col(GameRow.finished_at) >= since)
            .order_by(col(GameRow.id))
        ).all()
    found: dict[int, list[tuple[int, str]]] = defaultdict(list)
    for match, game in rows:
        assert game.id is not None
        for fault in game.faults:
            seat = fault.get("seat")
            if isinstance(seat, int) and 0 <= seat < len(match.seats):
                found[match.seats[seat]].append((game.id, str(fault.get("kind", "fault"))))
    return found


def faults_notice(bot: BotRow, faults: Sequence[tuple[int, str]]) -> Notice:
    """One notice grouping ``bot``'s ``faults`` ((game id, kind), in game order)."""
    kinds = Counter(kind for _, kind in faults)
    games = sorted({game for game, _ in faults})
    said = ", ".join(f"{kind} ×{n}" for kind, n in sorted(kinds.items()))
    plural = "s" if len(games) > 1 else ""
    return Notice(
        FAULTS,
        f"{bot.label}: {len(faults)} fault{'s' if len(faults) > 1 else ''} in {len(games)} "
        f"game{plural}",
        f"{said} (game{plural} {', '.join(str(g) for g in games)})",
        f"/game/{games[-1]}",
        {"bot": bot.name, "version": bot.version, "bot_id": bot.id, "faults": dict(kinds),
         "games": games, "upto_game": games[-1]},
        bot.id,
    )  # fmt: skip


def group_faults(store: Store, now: datetime) -> list[NoticeRow]:
    """A faults notice for each member's bot that faulted since its last one, unless that one
    is younger than :data:`FAULTS_EVERY` (those faults wait, and are grouped into the next)."""
    made = []
    for bot_id, faults in _recent_faults(store, now - LOOK_BACK).items():
        with store.session() as s:
            bot = s.get(BotRow, bot_id)
        if bot is None or bot.owner_id is None:  # the organiser's: nobody to tell
            continue
        last = _last_faults_notice(store, bot_id)
        if last is not None and now - last.created_at < FAULTS_EVERY:
            continue
        upto = int(last.data.get("upto_game", 0)) if last is not None else 0
        new = [(game, kind) for game, kind in faults if game > upto]
        if new:
            made.append(notify(store, bot.owner_id, faults_notice(bot, new)))
    return made


def event_results(
    store: Store, event: str, standings: Sequence[tuple[int, int]], link: str = ""
) -> list[NoticeRow]:
    """Tell each entrant's owner a final event's results: ``standings`` is (bot id, place)
    best first; each owner hears their own bots' places and how many took part. The hook
    point for final events (issue 35 item 6), which do not exist yet."""
    made = []
    with store.session() as s:
        ids = [bot_id for bot_id, _ in standings]
        bots = {b.id: b for b in s.exec(select(BotRow).where(col(BotRow.id).in_(ids)))}
    for bot_id, place in standings:
        bot = bots.get(bot_id)
        if bot is None or bot.owner_id is None:
            continue
        title = f"{event}: {bot.label} placed {place} of {len(standings)}"
        data = {"event": event, "bot": bot.name, "version": bot.version, "bot_id": bot.id,
                "place": place, "entrants": len(standings)}  # fmt: skip
        made.append(notify(store, bot.owner_id, Notice(RESULTS, title, "", link, data, bot.id)))
    return made
