"""What an event shows, the same to everybody (only what is public: bots' labels, tables,
places and points, the seed's hash and, once it ended, the seed): a dict that ``hegemon event
show --json``, ``/api/events/{name}`` and the event's page all read."""

from __future__ import annotations

from typing import Any

from ..store import FINISHED, Store
from .formats import KNOCKOUT, standings, table_order
from .progress import EventState, load


def _labels(store: Store, state: EventState) -> dict[int, str]:
    return {i: b.label for i, b in store.bots_by_id(state.entrants).items()}


def _rounds(state: EventState, label: dict[int, str]) -> list[dict[str, Any]]:
    seed = {bot: i for i, bot in enumerate(state.entrants)}
    played = state.played()
    advance = state.event.advance if state.event.format == KNOCKOUT else 0
    rounds = []
    for number, tables in enumerate(state.rounds, start=1):
        shown = []
        for table, matches in tables:
            games = [
                {
                    "match": m.number,
                    "game_id": state.games[m.id].id if m.id in state.games else None,
                    "seats": [label[b] for b in m.seats],
                    "places": list(state.games[m.id].places) if m.id in state.games else None,
                    "status": m.status,
                }
                for m in matches
            ]
            over = all(g["status"] in ("done", "void") for g in games)
            order = table_order(table, played, seed) if over else []
            shown.append(
                {
                    "table": matches[0].table_number,
                    "bots": [label[b] for b in table],
                    "games": games,
                    "order": [label[b] for b in order],
                    "advancing": [label[b] for b in order[:advance]]
                    if number < state.event.rounds
                    else [],
                }
            )
        rounds.append({"round": number, "tables": shown})
    return rounds


def _standings(state: EventState, label: dict[int, str]) -> list[dict[str, Any]]:
    """The final standings once stored, else the points so far (every format)."""
    games: dict[int, int] = {}
    for p in state.played():
        for bot in p.seats:
            games[bot] = games.get(bot, 0) + 1
    if state.event.standings is not None:
        rows = [(r["place"], r["bot_id"], r["points"]) for r in state.event.standings]
    else:
        now = standings(state.entrants, state.played())
        rows = [(i + 1, bot, pts) for i, (bot, pts) in enumerate(now)]
    return [
        {
            "place": place,
            "bot_id": bot,
            "bot": label[bot],
            "points": pts,
            "games": games.get(bot, 0),
        }
        for place, bot, pts in rows
    ]


def event_view(store: Store, name: str) -> dict[str, Any] | None:
    """The event ``name`` as shown (None: no such event)."""
    state = load(store, name)
    if state is None:
        return None
    label = _labels(store, state)
    season, event = state.season, state.event
    ended = season.status == FINISHED
    table = _standings(state, label)
    return {
        "name": season.name,
        "format": event.format,
        "status": season.status,
        "rules": season.preset,
        "seats": season.players,
        "advance": event.advance,
        "rounds_planned": event.rounds,
        "rotations": event.rotate,
        "source": event.source,
        "seed_hash": event.seed_hash,
        "seed": season.seed_shown(),
        "entrants": [
            {"seed": i + 1, "bot_id": b, "bot": label[b]} for i, b in enumerate(state.entrants)
        ],
        "rounds": _rounds(state, label),
        "standings": table,
        "final": ended,
        "winner": table[0]["bot"] if ended and table else None,
        "games_left": state.remaining,
    }


def event_names(store: Store) -> list[dict[str, Any]]:
    """Every event: name, format, status, entrants and winner (once ended), newest first."""
    from sqlmodel import col, select

    from ..store import EVENT, EventRow, SeasonRow

    with store.session() as s:
        rows = s.exec(
            select(SeasonRow, EventRow)
            .join(EventRow, col(EventRow.season_id) == col(SeasonRow.id))
            .where(col(SeasonRow.kind) == EVENT)
            .order_by(col(SeasonRow.id).desc())
        ).all()
    winners = [e.standings[0]["bot_id"] for _, e in rows if e.standings]
    label = {i: b.label for i, b in store.bots_by_id(winners).items()}
    return [
        {
            "name": season.name,
            "format": event.format,
            "status": season.status,
            "source": event.source,
            "winner": label.get(event.standings[0]["bot_id"]) if event.standings else None,
        }
        for season, event in rows
    ]
