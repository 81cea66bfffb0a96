"""``hegemon report OUT/``: the web pages as static files that work from disk (``file://``):
the leaderboards, each season, each bot, the game list and a replay page per game, linked by
relative paths, with the stylesheet and scripts beside them in ``static/``.

A report is for publishing: the bots' logs and fault details, which only a bot's owner and the
admins see on the site, are left out unless asked for (``private=True``, ``--private``)."""

from __future__ import annotations

import shutil
from pathlib import Path

from hegemon.leaderboard.store import Store
from hegemon.referee.record import RecordError
from hegemon.referee.viewer.replay import STATIC_DIR as VIEWER_STATIC
from hegemon.referee.viewer.replay import replay_data

from . import pages
from .data import Arena
from .links import Links
from .templating import STATIC_DIR
from .visibility import redact_bot, redact_record, redact_replay

LINKS = Links(static=True)


def write_report(
    db: str | None, out_dir: str | Path, replays: bool = True, private: bool = False
) -> list[Path]:
    """Write the report of the arena database ``db`` into ``out_dir``; returns the pages
    written. ``replays=False`` leaves out the per-game replay pages (big arenas);
    ``private=True`` keeps the bots' logs and fault details in (a report for the organiser)."""
    out = Path(out_dir)
    (out / "static").mkdir(parents=True, exist_ok=True)
    for asset in [*STATIC_DIR.iterdir(), *VIEWER_STATIC.iterdir()]:
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
            data = arena.bot(bot) if private else redact_bot(arena.bot(bot))
            put(LINKS.bot(bot.id), pages.bot_page(data, LINKS, ids))
            for fault in data["faults"]:  # the logs the bot page links to
                log = arena.seat_log_text(fault["game"], fault["seat"]) if fault["log"] else None
                if log is not None:
                    (out / LINKS.log(fault["game"], fault["seat"])).write_text(log, "utf-8")
        games = arena.games(limit=10**9)
        put("games.html", pages.games_page(games, LINKS, {}, {}))
        if replays:
            for g in games["games"]:
                title = f"{g['season']} #{g['number']}"
                text = arena.record_text(g["id"])
                try:
                    replay = replay_data(text, title) if text is not None else None
                except RecordError:
                    replay = None
                if text is None or replay is None:  # the game list links it all the same
                    put(
                        LINKS.game(g["id"]),
                        pages.message_page(title, _no_replay(arena, g["id"]), LINKS),
                    )
                    continue
                if not private:
                    seats = set(range(len(g["seats"])))
                    replay, text = redact_replay(replay, seats), redact_record(text, seats)
                (out / LINKS.record(g["id"])).write_text(text, encoding="utf-8")
                put(LINKS.game(g["id"]), pages.game_page(replay, g, LINKS))
    return written


def _no_replay(arena: Arena, game_id: int) -> str:
    """Why a game of the list has no replay in the report."""
    found = arena.game(game_id)
    if found is not None and arena.withheld(found[1]):
        return (
            "This game is withheld: every rotation of a duplicate table plays the same deal, "
            "so its record is shown once all of them are played."
        )
    return "No readable record of this game was kept."
