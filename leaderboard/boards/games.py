"""The finished games a board is made of, read back from the store."""

from __future__ import annotations

from dataclasses import dataclass

from sqlmodel import col, select

from ..store import GameRow, MatchRow, SeasonRow, Store


@dataclass(frozen=True)
class PlayedGame:
    """One stored game: who sat where and where each seat finished."""

    season_id: int
    number: int
    seats: tuple[int, ...]  # bot ids in seat order
    places: tuple[int, ...]  # place of each seat, 1 = won
    faults: tuple[int, ...]  # seat of each fault recorded in the game


def load_games(
    store: Store, season_id: int | None = None, preset: str | None = None
) -> list[PlayedGame]:
    """The finished games of a season (or of every season under ``preset``, or all), in
    schedule order. Only the columns the boards need are read."""
    query = select(  # type: ignore[call-overload]  # sqlmodel types up to 4 columns
        col(MatchRow.season_id),
        col(MatchRow.number),
        col(MatchRow.seats),
        col(GameRow.places),
        col(GameRow.faults),
    ).join(GameRow, col(GameRow.match_id) == col(MatchRow.id))
    if season_id is not None:
        query = query.where(col(MatchRow.season_id) == season_id)
    if preset is not None:
        query = query.join(SeasonRow, col(SeasonRow.id) == col(MatchRow.season_id)).where(
            col(SeasonRow.preset) == preset
        )
    query = query.order_by(col(MatchRow.season_id), col(MatchRow.number))
    with store.session() as s:
        rows = s.exec(query).all()
    return [
        PlayedGame(
            int(sid),
            int(number),
            tuple(int(b) for b in seats),
            tuple(int(p) for p in places),
            tuple(int(f.get("seat", -1)) for f in (faults or ()) if isinstance(f, dict)),
        )
        for sid, number, seats, places, faults in rows
    ]
