"""``hegemon report OUT/``: the web pages as static files that work from disk (``file://``):
the leaderboards, each season, each bot, the game list and a replay page per game, linked by
relative paths, with the stylesheet and scripts beside them in ``static/``."""

from __future__ import annotations

import shutil
from pathlib import Path

from hegemon.leaderboard.store import Store
from hegemon.referee.record import RecordError

from . import pages
from .data import Arena
from .replay import STATIC_DIR, replay_data

LINKS = pages.Links(static=True)


def write_report(db: str | None, out_dir: str | Path, replays: bool = True) -> list[Path]:
    """Write the report of the arena database ``db`` into ``out_dir``; returns the pages
    written. ``replays=False`` leaves out the per-game replay pages (big arenas)."""
    out = Path(out_dir)
    (out / "static").mkdir(parents=True, exist_ok=True)
    for asset in STATIC_DIR.iterdir():
        if asset.is_file():
            shutil.copyfile(asset, out / "static" / asset.name)
    written: list[Path] = []

    def put(name: str, text: str) -> None:
        path = out / name
        path.write_text(text, encoding="utf-8")
        written.append(path)

    with Store(db, create=False) as store:
        arena = Arena(store)
        ids = {b.label: b.id for b in store.bots() if b.id is not None}
        put("index.html", pages.index_page(arena.seasons(), arena.all_time(), ids, LINKS))
        for season in store.seasons():
            data = arena.season_page(season)
            tables = pages.season_tables(data, ids, LINKS)
            put(LINKS.season(season.name), pages.season_page(data, tables, LINKS))
        put("bots.html", pages.bots_page(arena.bots(), LINKS))
        for bot in store.bots():
            assert bot.id is not None
            data = arena.bot(bot)
            put(LINKS.bot(bot.id), pages.bot_page(data, LINKS, ids))
            for fault in data["faults"]:  # the logs the bot page links to
                log = arena.seat_log_text(fault["game"], fault["seat"]) if fault["log"] else None
                if log is not None:
                    (out / LINKS.log(fault["game"], fault["seat"])).write_text(log, "utf-8")
        games = arena.games(limit=10**9)
        put("games.html", pages.games_page(games, LINKS, {}, {}))
        if replays:
            for g in games["games"]:
                text = arena.record_text(g["id"])
                if text is None:
                    continue
                try:
                    data = replay_data(text, f"{g['season']} #{g['number']}")
                except RecordError:
                    continue
                (out / LINKS.record(g["id"])).write_text(text, encoding="utf-8")
                put(LINKS.game(g["id"]), pages.game_page(data, g, LINKS))
    return written
