"""``hegemon web``: the web server over the arena database (Starlette on uvicorn).

Every HTML page has a JSON twin under ``/api/`` (the same dict, from
:mod:`hegemon.leaderboard.web.data`); ``/api`` lists them. Endpoints are plain functions:
Starlette runs them in its thread pool, so a slow board fit never blocks other requests. The
hot pages (a season's board, the game list) are kept rendered for each viewer until the
database or a board in memory changes (:mod:`.page_cache`, :mod:`.changes`); a kept page is
served from the event loop, only a page to make goes to the thread pool.

The pages are public, except a bot's logs and fault details, seen only by its owner and the
admins (:mod:`.visibility`); the accounts' pages are :mod:`.account_routes`, who is asking is
:mod:`.auth`. An arena without accounts has nothing to sign in to: its pages are read-only.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Callable, Hashable, Sequence
from dataclasses import replace
from typing import Any, cast

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from hegemon.leaderboard.accounts.throttle import LoginThrottle
from hegemon.leaderboard.accounts.users import any_users
from hegemon.leaderboard.store import SeasonRow, Store
from hegemon.referee.record import RecordError

from . import pages
from .account_routes import TOKENS_PATH, account_routes
from .auth import account_middleware, form_token, viewer
from .changes import Changes
from .data import Arena
from .fitter import Fitter
from .links import SERVED, Links
from .page_cache import PageCache
from .params import clamped, database_id
from .replay import STATIC_DIR, replay_data
from .submit_routes import submit_routes
from .templating import account_nav, void_form
from .visibility import Seen, redact_bot, redact_faults, redact_games, redact_record, redact_replay

GAME_NOT_FOUND = (
    "game (or its record: a duplicate table's games are shown once all its rotations are played)"
)


PAGE_SIZE = 50
"""Games a page of the game list shows."""


def _ids(arena: Arena) -> dict[str, int]:
    return {label: bot_id for bot_id, label in arena.labels().items()}


def _not_found(what: str, json: bool) -> Response:
    if json:
        return JSONResponse({"error": f"no such {what}"}, status_code=404)
    return HTMLResponse(pages.message_page("Not found", f"No such {what}.", SERVED), 404)


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


def _viewer_key(request: Request) -> Hashable:
    """Who is asking, as far as a page may differ: anonymous, or the signed-in user (their
    name and role are in the top bar, what they may see depends on who they are)."""
    user = viewer(request)
    return None if user is None else (user.id, user.name, user.is_admin)


def make_app(
    store: Store,
    trusted_proxies: Sequence[str] = (),
    throttle: LoginThrottle | None = None,
    fitter: Fitter | None = None,
) -> Starlette:
    """The web application over ``store``. ``trusted_proxies``: the addresses of reverse
    proxies whose X-Forwarded-For/-Proto headers are believed (none: every header is ignored);
    ``throttle``: how sign-ins are slowed (default: :meth:`LoginThrottle.default`);
    ``fitter``: where boards are refitted in the background (default: in a thread here)."""
    arena = Arena(store, fitter)
    changes = Changes(store)
    kept = PageCache()

    async def cached(request: Request, make: Callable[[], Response]) -> Response:
        """``make()``'s response, made once for each viewer while the database and the boards
        in memory are unchanged (the hot pages: a ladder's board, the game list).

        A kept page is served on the event loop (SQLite's change token is a local read of
        microseconds): no hop to a worker thread and back for the many requests that find
        their page; a page to make (or a token that is a round trip) goes to a thread."""
        # the token is read before the page's data, so a page is never newer than its key
        token = changes() if changes.instant else await run_in_threadpool(changes)
        version = None if token is None else (token, arena.generation)
        key = (request.scope["path"], request.scope["query_string"], _viewer_key(request))

        def parts() -> tuple[int, str | None, bytes]:
            response = make()
            return response.status_code, response.media_type, bytes(response.body)

        hit = kept.ready(key, version)
        if hit is None:
            hit = await run_in_threadpool(kept.get, key, version, parts)
        status, media, body = cast(tuple[int, str | None, bytes], hit)
        return Response(body, status, media_type=media)

    def links(request: Request) -> Links:
        user = viewer(request)
        nav = account_nav(user, user is not None or any_users(store))
        return replace(SERVED, account=nav)

    def tables(data: dict[str, Any]) -> str:
        return pages.season_tables(data, _ids(arena), SERVED)

    def _tables(season: SeasonRow, data: dict[str, Any]) -> str:
        assert season.id is not None
        # made again when the board shown changes (it may be refitted in the background)
        shown = (data["board"].get("games"), data["history"]["games"], len(arena.labels()))
        return arena.cached(("season-html", season.id), shown, lambda: tables(data))

    def index(request: Request) -> Response:
        page = pages.index_page(arena.seasons(), arena.all_time(), _ids(arena), links(request))
        return HTMLResponse(page)

    async def season(request: Request) -> Response:
        def make() -> Response:
            found = arena.season(request.path_params["name"])
            if found is None:
                return _not_found("season", False)
            data = arena.season_page(found)
            return HTMLResponse(pages.season_page(data, _tables(found, data), links(request)))

        return await cached(request, make)

    async def season_live(request: Request) -> Response:
        def make() -> Response:
            found = arena.season(request.path_params["name"])
            if found is None:
                return _not_found("season", True)
            data = arena.season_page(found)
            html = pages.season_live(data, _tables(found, data))
            return JSONResponse({"status": found.status, "html": html})

        return await cached(request, make)

    def bots(request: Request) -> Response:
        return HTMLResponse(pages.bots_page(arena.bots(), links(request)))

    def _bot(request: Request) -> dict[str, Any] | None:
        """A bot's data as the viewer may see it (None: no such bot)."""
        bot_id = _path_id(request, "bot_id")
        found = None if bot_id is None else arena.store.get_bot(bot_id)
        if found is None:
            return None
        data = arena.bot(found)
        return data if Seen(store, viewer(request)).bot(found.id) else redact_bot(data)

    def bot(request: Request) -> Response:
        data = _bot(request)
        if data is None:
            return _not_found("bot", False)
        return HTMLResponse(pages.bot_page(data, links(request), _ids(arena)))

    async def games(request: Request) -> Response:
        return await cached(request, lambda: _games(request))

    def _games(request: Request) -> Response:
        filters = _filters(request)
        number = clamped(request.query_params.get("page"), 1, 1, 10**9)
        data = arena.games(**filters, limit=PAGE_SIZE, offset=(number - 1) * PAGE_SIZE)
        data = redact_games(data, Seen(store, viewer(request)))
        seasons = arena.store.seasons()
        choices = {
            "season": [s.name for s in seasons],
            "bot": sorted(arena.labels().values()),
            "rule_set": sorted({s.preset for s in seasons}),
        }
        shown = dict(filters)
        shown["fault"] = request.query_params.get("fault") or None
        paging = pages.Paging(number, PAGE_SIZE, str(request.query_params))
        return HTMLResponse(pages.games_page(data, links(request), shown, choices, paging))

    def _hidden(request: Request, game_id: int) -> set[int]:
        """The seats of a game whose fault details and logs the viewer may not see."""
        found = arena.game(game_id)
        return set() if found is None else Seen(store, viewer(request)).hidden_seats(found[1].seats)

    def _game(request: Request) -> tuple[dict[str, Any], dict[str, Any]] | None:
        game_id = _path_id(request, "game_id")
        if game_id is None:
            return None
        found = arena.game(game_id)
        text = arena.record_text(game_id)
        if found is None or text is None:
            return None
        game, match, season_name = found
        hidden = _hidden(request, game_id)
        info = {
            "id": game.id,
            "season": season_name,
            "number": match.number,
            "places": game.places,
            "faults": redact_faults(game.faults, hidden),
            "reason": game.finish_reason,
            "decisions": game.decisions,
            "duration": game.duration,
        }
        return info, redact_replay(replay_data(text, f"{season_name} #{match.number}"), hidden)

    def game(request: Request) -> Response:
        try:
            found = _game(request)
        except RecordError as exc:
            return HTMLResponse(pages.message_page("Bad record", str(exc), links(request)), 500)
        if found is None:
            return _not_found(GAME_NOT_FOUND, False)
        info, replay = found
        user = viewer(request)
        admin = void_form(info["id"], form_token(request)) if user and user.is_admin else None
        hidden = _hidden(request, info["id"])
        logs = [
            s
            for s in range(len(replay["seats"]))
            if s not in hidden and arena.seat_log_text(info["id"], s) is not None
        ]
        return HTMLResponse(pages.game_page(replay, info, links(request), admin, logs))

    def api_doc(request: Request) -> Response:
        return HTMLResponse(pages.api_page(links(request)))

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
        data = _bot(request)
        return _not_found("bot", True) if data is None else JSONResponse(data)

    def api_bot_history(request: Request) -> Response:
        bot_id = _path_id(request, "bot_id")
        found = None if bot_id is None else arena.store.get_bot(bot_id)
        if found is None:
            return _not_found("bot", True)
        return JSONResponse(arena.version_history(found))

    def api_games(request: Request) -> Response:
        q = request.query_params
        data = arena.games(
            **_filters(request),
            limit=clamped(q.get("limit"), 100, 1),
            offset=clamped(q.get("offset"), 0, 0, 10**9),
        )
        return JSONResponse(redact_games(data, Seen(store, viewer(request))))

    def api_game(request: Request) -> Response:
        try:
            found = _game(request)
        except RecordError as exc:
            return JSONResponse({"error": str(exc)}, status_code=500)
        if found is None:
            return _not_found(GAME_NOT_FOUND, True)
        info, replay = found
        return JSONResponse({**info, "replay": replay})

    def api_record(request: Request) -> Response:
        game_id = _path_id(request, "game_id")
        text = None if game_id is None else arena.record_text(game_id)
        if game_id is None or text is None:
            return _not_found(GAME_NOT_FOUND, True)
        text = redact_record(text, _hidden(request, game_id))
        return PlainTextResponse(text, media_type="application/x-ndjson")

    def api_log(request: Request) -> Response:
        game_id, seat = _path_id(request, "game_id"), _path_id(request, "seat")
        if game_id is None or seat is None:
            return _not_found("game, seat (or its log)", True)
        if seat in _hidden(request, game_id):
            if viewer(request) is None:
                return JSONResponse({"error": "sign in: a bot's logs are its owner's"}, 401)
            return JSONResponse({"error": "only the bot's owner and admins see its logs"}, 403)
        text = arena.seat_log_text(game_id, seat)
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
        Route("/api/bots/{bot_id}/history", api_bot_history),
        Route("/api/games", api_games),
        Route("/api/games/{game_id}", api_game),
        Route("/api/games/{game_id}/record", api_record),
        Route("/api/games/{game_id}/logs/{seat}", api_log),
        *account_routes(store, throttle or LoginThrottle.default()),
        *submit_routes(store),  # uploads and "my bots" (.submit_routes)
        Mount("/static", StaticFiles(directory=STATIC_DIR), name="static"),
    ]
    middleware = account_middleware(store, trusted_proxies, csrf_exempt=[TOKENS_PATH])
    app = Starlette(routes=routes, middleware=middleware)
    app.state.arena = arena
    return app


def warm_then_freeze(arena: Arena) -> None:
    """Fit every board (:meth:`Arena.warm`), then take what the server holds by then out of
    the garbage collector's sight (``gc.freeze``): the modules, templates and boards loaded,
    over a hundred thousand objects that live as long as the server, which every full
    collection walked again — 100-200 ms with the interpreter's lock held, every second or
    so under load, while every request waited (the p99 of ``benchmarks/web_load.py``). A
    full collection then walks only what was made since."""
    try:
        arena.warm()
    finally:
        gc.collect()  # the garbage of start-up is freed, not kept for good
        gc.freeze()


def serve(
    db: str | None = None,
    host: str = "127.0.0.1",
    port: int = 8000,
    trusted_proxies: Sequence[str] = (),
    stop: threading.Event | None = None,
) -> None:
    """Serve the web pages of the arena database ``db`` (default: the usual one) until stopped
    (Ctrl-C, SIGTERM, or ``stop`` set — even before the server listens: then it never does).
    The boards are fitted in the background from the start (a big arena's take a while).
    Forwarded headers are believed only from ``trusted_proxies`` (see :func:`make_app`)."""
    import uvicorn

    from .stoppable import StoppableServer

    stop = stop or threading.Event()
    with Store(db, create=False) as store:
        fitter = Fitter(store.secret_url())
        app = make_app(store, trusted_proxies, fitter=fitter)
        warm = threading.Thread(
            target=warm_then_freeze, args=(app.state.arena,), name="hegemon-web-warm", daemon=True
        )
        warm.start()
        # uvicorn's own forwarded-header handling trusts 127.0.0.1 by default: off, ours decides
        config = uvicorn.Config(app, host=host, port=port, log_level="warning", proxy_headers=False)
        try:
            if not stop.is_set():
                StoppableServer(config, stop).run()
        except KeyboardInterrupt:  # uvicorn raises a Ctrl-C again once it has stopped
            pass
        finally:
            fitter.close()
