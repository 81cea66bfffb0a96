"""The HTML pages: the boards, a season (and its live part), the bots, a bot, the game list
and a game's replay. The hot ones (a season, the game list) are kept rendered
(:func:`.common.cached`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response

from hegemon.leaderboard.accounts.ownership import may_act_on
from hegemon.leaderboard.store import SeasonRow
from hegemon.referee.record import RecordError

from .. import pages as html
from ..auth import form_token, viewer
from ..links import SERVED
from ..params import clamped
from ..templating import void_form
from ..visibility import redact_games
from .challenges import owner_form, test_of
from .common import arena, cached, links, not_found, store
from .live import playing_list
from .views import GAME_NOT_FOUND, filters, hidden, ids, seen
from .views import bot as bot_data
from .views import game as game_data

PAGE_SIZE = 50
"""Games a page of the game list shows."""


def _tables(request: Request, season: SeasonRow, data: dict[str, Any]) -> str:
    """The season's tables (board, crosstable, progress), made again only when the board
    shown changes (it may be refitted in the background)."""
    assert season.id is not None
    board = data["board"]
    # a ladder's board changes with the versions playing too (a pin), not only with its games
    playing = tuple(board.get("playing", ()))
    shown = (board.get("games"), data["history"]["games"], len(arena(request).labels()), playing)

    def make() -> str:
        return html.season_tables(data, ids(request), SERVED)

    return arena(request).cached(("season-html", season.id), shown, make)


def index(request: Request) -> Response:
    """``/``: every season and the all-time boards."""
    found, where = arena(request), links(request)
    playing = playing_list(found.store, where)  # the games in play (.live)
    return HTMLResponse(
        html.index_page(found.seasons(), found.all_time(), ids(request), where, playing)
    )


async def _season(
    request: Request, json: bool, answer: Callable[[SeasonRow, dict[str, Any], str], Response]
) -> Response:
    """The path's season as ``answer(season, its page's data, its tables)``, kept rendered."""

    def make() -> Response:
        found = arena(request).season(request.path_params["name"])
        if found is None:
            return not_found("season", json)
        data = arena(request).season_page(found)
        return answer(found, data, _tables(request, found, data))

    return await cached(request, make)


async def season(request: Request) -> Response:
    """``/season/{name}``: a season's (or a ladder's) board, chart and progress."""

    def answer(found: SeasonRow, data: dict[str, Any], tables: str) -> Response:
        return HTMLResponse(html.season_page(data, tables, links(request)))

    return await _season(request, False, answer)


async def season_live(request: Request) -> Response:
    """``/season/{name}/live``: the part of a season's page that follows it while it plays."""

    def answer(found: SeasonRow, data: dict[str, Any], tables: str) -> Response:
        text = html.season_live(data, tables)
        return JSONResponse({"status": found.status, "html": text})

    return await _season(request, True, answer)


def bots(request: Request) -> Response:
    """``/bots``: every bot version."""
    return HTMLResponse(html.bots_page(arena(request).bots(), links(request)))


def bot(request: Request) -> Response:
    """``/bot/{bot_id}``: a bot version's ratings, results and faults."""
    data = bot_data(request)
    if data is None:
        return not_found("bot", False)
    found = store(request).get_bot(data["bot"]["id"])
    user = viewer(request)
    mine = found is not None and may_act_on(store(request), user, found)
    pin = form_token(request) if mine else None  # the owner's form choosing the version
    tests = owner_form(request, found) if found is not None and mine else None
    page = html.bot_page(data, links(request), ids(request), pin, tests)
    return HTMLResponse(page)


async def games(request: Request) -> Response:
    """``/games``: the finished games, newest first, a page at a time, filtered."""
    return await cached(request, lambda: _games(request))


def _games(request: Request) -> Response:
    shown = filters(request)
    number = clamped(request.query_params.get("page"), 1, 1, 10**9)
    data = arena(request).games(**shown, limit=PAGE_SIZE, offset=(number - 1) * PAGE_SIZE)
    data = redact_games(data, seen(request))
    seasons = store(request).seasons()
    choices = {
        "season": [s.name for s in seasons],
        "bot": sorted(arena(request).labels().values()),
        "rule_set": sorted({s.preset for s in seasons}),
    }
    shown["fault"] = request.query_params.get("fault") or None
    paging = html.Paging(number, PAGE_SIZE, str(request.query_params))
    return HTMLResponse(html.games_page(data, links(request), shown, choices, paging))


def game(request: Request) -> Response:
    """``/game/{game_id}``: a game's replay, its result, and (for an admin) the void form."""
    try:
        found = game_data(request)
    except RecordError as exc:
        return HTMLResponse(html.message_page("Bad record", str(exc), links(request)), 500)
    if found is None:
        return not_found(GAME_NOT_FOUND, False)
    info, replay = found
    user = viewer(request)
    admin = void_form(info["id"], form_token(request)) if user and user.is_admin else None
    secret = hidden(request, info["id"])
    kept = arena(request).logged_seats(info["id"])
    logs = [s for s in range(len(replay["seats"])) if s not in secret and s in kept]
    # a signed-in viewer with a seat of their own (an admin: every seat) may try a new version
    try_here = user is not None and len(secret) < len(info["places"])
    test = test_of(request, info)  # a challenge's: its page, not a season's (it has none)
    page = html.game_page(replay, info, links(request), admin, logs, try_here, test)
    return HTMLResponse(page)
