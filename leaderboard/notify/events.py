"""What each event tells its member, and to whom: a version checked (its owner), a bot's
faults grouped (its owner, at most one notice per bot per :data:`FAULTS_EVERY`), a final
event's results (each entrant's owner). A team's bot's owners are every member of its team
(:func:`~hegemon.leaderboard.accounts.ownership.keepers`), each told in a notice of their own.
A notice says only what its member may see: their own versions' reasons (no path of the
server), fault kinds and game numbers — never another member's logs, fault details or files."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from datetime import datetime, timedelta

from sqlmodel import col, select

from hegemon.referee.bottext import no_paths

from ..accounts.ownership import keepers
from ..store import BotRow, GameRow, MatchRow, NoticeRow, Store
from .notices import Notice, notify

CHECKED, FAULTS, RESULTS = "version.checked", "bot.faults", "event.results"
FAULTS_EVERY = timedelta(hours=1)
"""At most one faults notice per bot in this time; later faults wait for the next one."""
LOOK_BACK = 2 * FAULTS_EVERY
"""Games finished longer ago than this are not looked at again."""


def tell(store: Store, bot: BotRow, notice: Notice) -> list[NoticeRow]:
    """Write ``notice`` about ``bot`` for each of its :func:`keepers` (none: the organiser's
    bot, nobody to tell)."""
    return [notify(store, user_id, notice) for user_id in keepers(store, bot)]


def version_checked(store: Store, bot: BotRow) -> list[NoticeRow]:
    """Tell ``bot``'s owners how its check went."""
    reason = no_paths(bot.reason)
    verdict = "is active" if bot.state == "active" else f"was {bot.state}"
    return tell(
        store,
        bot,
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
    made: list[NoticeRow] = []
    for bot_id, faults in _recent_faults(store, now - LOOK_BACK).items():
        with store.session() as s:
            bot = s.get(BotRow, bot_id)
        if bot is None or (bot.owner_id is None and bot.team_id is None):  # nobody to tell
            continue
        last = _last_faults_notice(store, bot_id)
        if last is not None and now - last.created_at < FAULTS_EVERY:
            continue
        upto = int(last.data.get("upto_game", 0)) if last is not None else 0
        new = [(game, kind) for game, kind in faults if game > upto]
        if new:
            made.extend(tell(store, bot, faults_notice(bot, new)))
    return made


def event_results(
    store: Store, event: str, standings: Sequence[tuple[int, int]], link: str = ""
) -> list[NoticeRow]:
    """Tell each entrant's owners a final event's results: ``standings`` is (bot id, place)
    best first; each owner hears their own bots' places and how many took part. The hook
    point for final events (issue 35 item 6), which do not exist yet."""
    made: list[NoticeRow] = []
    with store.session() as s:
        ids = [bot_id for bot_id, _ in standings]
        bots = {b.id: b for b in s.exec(select(BotRow).where(col(BotRow.id).in_(ids)))}
    for bot_id, place in standings:
        bot = bots.get(bot_id)
        if bot is None:
            continue
        title = f"{event}: {bot.label} placed {place} of {len(standings)}"
        data = {"event": event, "bot": bot.name, "version": bot.version, "bot_id": bot.id,
                "place": place, "entrants": len(standings)}  # fmt: skip
        made.extend(tell(store, bot, Notice(RESULTS, title, "", link, data, bot.id)))
    return made
