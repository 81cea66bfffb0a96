"""``hegemon web``: a read-only web server over the arena database (Starlette on uvicorn).

Every HTML page has a JSON twin under ``/api/`` (the same dict, from
:mod:`hegemon.leaderboard.web.data`); ``/api`` lists them. Endpoints are plain functions:
Starlette runs them in its thread pool, so a slow board fit never blocks other requests.
"""

from __future__ import annotations

from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from hegemon.leaderboard.store import SeasonRow, Store
from hegemon.referee.record import RecordError

from . import pages
from .data import Arena
from .params import database_id
from .replay import STATIC_DIR, replay_data

LINKS = pages.Links(static=False)
GAME_NOT_FOUND = (
    "game (or its record: a duplicate table's games are shown once all its rotations are played)"
)


def _ids(arena: Arena) -> dict[str, int]:
    return {b.label: b.id for b in arena.store.bots() if b.id is not None}


def _not_found(what: str, json: bool) -> Response:
    if json:
        return JSONResponse({"error": f"no such {what}"}, status_code=404)
    return HTMLResponse(pages.page("Not found", f"<p>No such {what}.</p>", LINKS), 404)


def _path_id(request: Request, name: str) -> int | None:
    """The route's ``name`` parameter as a database id, or None when it cannot be one."""
    return database_id(request.path_params[name])


def _filters(request: Request) -> dict[str, Any]:
    q = request.query_params
    fault = q.get("fault")
    return {
        "season": q.get("season") or None,
        "bot": q.get("bot") or None,
        "rule_set": q.get("rule_set") or None,
        "fault": None if not fault else fault in ("yes", "1", "true"),
    }


def _int(value: str | None, default: int, low: int = 0, high: int = 10_000) -> int:
    try:
        return max(low, min(high, int(value))) if value is not None else default
    except ValueError:
        return default


def make_app(store: Store) -> Starlette:
    """The web application over ``store`` (read-only)."""
    arena = Arena(store)

    def _tables(season: SeasonRow, data: dict[str, Any]) -> str:
        assert season.id is not None
        return arena.cached(
            ("season-html", season.id),
            arena.version([season.id]),
            lambda: pages.season_tables(data, _ids(arena), LINKS),
        )

    def index(request: Request) -> Response:
        return HTMLResponse(pages.index_page(arena.seasons(), arena.all_time(), _ids(arena), LINKS))

    def season(request: Request) -> Response:
        found = arena.season(request.path_params["name"])
        if found is None:
            return _not_found("season", False)
        data = arena.season_page(found)
        return HTMLResponse(pages.season_page(data, _tables(found, data), LINKS))

    def season_live(request: Request) -> Response:
        found = arena.season(request.path_params["name"])
        if found is None:
            return _not_found("season", True)
        data = arena.season_page(found)
        html = pages.season_live(data, _tables(found, data))
        return JSONResponse({"status": found.status, "html": html})

    def bots(request: Request) -> Response:
        return HTMLResponse(pages.bots_page(arena.bots(), LINKS))

    def bot(request: Request) -> Response:
        bot_id = _path_id(request, "bot_id")
        found = None if bot_id is None else arena.store.get_bot(bot_id)
        if found is None:
            return _not_found("bot", False)
        return HTMLResponse(pages.bot_page(arena.bot(found), LINKS, _ids(arena)))

    def games(request: Request) -> Response:
        filters = _filters(request)
        data = arena.games(**filters, limit=_int(request.query_params.get("limit"), 200, 1))
        choices = {
            "season": [s.name for s in arena.store.seasons()],
            "bot": [b.label for b in arena.store.bots()],
            "rule_set": sorted({s.preset for s in arena.store.seasons()}),
        }
        shown = dict(filters)
        shown["fault"] = request.query_params.get("fault") or None
        return HTMLResponse(pages.games_page(data, LINKS, shown, choices))

    def _game(game_id: int | None) -> tuple[dict[str, Any], dict[str, Any]] | None:
        if game_id is None:
            return None
        found = arena.game(game_id)
        text = arena.record_text(game_id)
        if found is None or text is None:
            return None
        game, match, season_name = found
        info = {
            "id": game.id,
            "season": season_name,
            "number": match.number,
            "places": game.places,
            "faults": game.faults,
            "reason": game.finish_reason,
            "decisions": game.decisions,
            "duration": game.duration,
        }
        return info, replay_data(text, f"{season_name} #{match.number}")

    def game(request: Request) -> Response:
        try:
            found = _game(_path_id(request, "game_id"))
        except RecordError as exc:
            return HTMLResponse(pages.page("Bad record", f"<p>{pages.esc(exc)}</p>", LINKS), 500)
        if found is None:
            return _not_found(GAME_NOT_FOUND, False)
        info, replay = found
        return HTMLResponse(pages.game_page(replay, info, LINKS))

    def api_doc(request: Request) -> Response:
        return HTMLResponse(pages.api_page(LINKS))

    def api_leaderboard(request: Request) -> Response:
        return JSONResponse(arena.all_time())

    def api_seasons(request: Request) -> Response:
        return JSONResponse(arena.seasons())

    def api_season(request: Request) -> Response:
        found = arena.season(request.path_params["name"])
        return (
            _not_found("season", True) if found is None else JSONResponse(arena.season_page(found))
        )

    def api_history(request: Request) -> Response:
        found = arena.season(request.path_params["name"])
        if found is None:
            return _not_found("season", True)
        return JSONResponse(arena.season_history(found))

    def api_bots(request: Request) -> Response:
        return JSONResponse(arena.bots())

    def api_bot(request: Request) -> Response:
        bot_id = _path_id(request, "bot_id")
        found = None if bot_id is None else arena.store.get_bot(bot_id)
        return _not_found("bot", True) if found is None else JSONResponse(arena.bot(found))

    def api_games(request: Request) -> Response:
        q = request.query_params
        return JSONResponse(
            arena.games(
                **_filters(request),
                limit=_int(q.get("limit"), 100, 1),
                offset=_int(q.get("offset"), 0, 0, 10**9),
            )
        )

    def api_game(request: Request) -> Response:
        try:
            found = _game(_path_id(request, "game_id"))
        except RecordError as exc:
            return JSONResponse({"error": str(exc)}, status_code=500)
        if found is None:
            return _not_found(GAME_NOT_FOUND, True)
        info, replay = found
        return JSONResponse({**info, "replay": replay})

    def api_record(request: Request) -> Response:
        game_id = _path_id(request, "game_id")
        text = None if game_id is None else arena.record_text(game_id)
        if text is None:
            return _not_found(GAME_NOT_FOUND, True)
        return PlainTextResponse(text, media_type="application/x-ndjson")

    def api_log(request: Request) -> Response:
        game_id, seat = _path_id(request, "game_id"), _path_id(request, "seat")
        known = game_id is not None and seat is not None
        text = arena.seat_log_text(game_id, seat) if known else None  # type: ignore[arg-type]
        if text is None:
            return _not_found("game, seat (or its log)", True)
        return PlainTextResponse(text)

    routes = [
        Route("/", index),
        Route("/season/{name}", season),
        Route("/season/{name}/live", season_live),
        Route("/bots", bots),
        Route("/bot/{bot_id}", bot),
        Route("/games", games),
        Route("/game/{game_id}", game),
        Route("/api", api_doc),
        Route("/api/leaderboard", api_leaderboard),
        Route("/api/seasons", api_seasons),
        Route("/api/seasons/{name}", api_season),
        Route("/api/seasons/{name}/history", api_history),
        Route("/api/bots", api_bots),
        Route("/api/bots/{bot_id}", api_bot),
        Route("/api/games", api_games),
        Route("/api/games/{game_id}", api_game),
        Route("/api/games/{game_id}/record", api_record),
        Route("/api/games/{game_id}/logs/{seat}", api_log),
        Mount("/static", StaticFiles(directory=STATIC_DIR), name="static"),
    ]
    app = Starlette(routes=routes)
    app.state.arena = arena
    return app


def serve(db: str | None = None, host: str = "127.0.0.1", port: int = 8000) -> None:
    """Serve the web pages of the arena database ``db`` (default: the usual one) until stopped.
    The boards are fitted in the background from the start (a big arena's take a while)."""
    import threading

    import uvicorn

    with Store(db, create=False) as store:
        app = make_app(store)
        threading.Thread(target=app.state.arena.warm, name="hegemon-web-warm", daemon=True).start()
        uvicorn.run(app, host=host, port=port, log_level="warning")
