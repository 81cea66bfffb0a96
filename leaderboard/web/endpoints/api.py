"""The JSON API: every HTML page's twin (the same dict the page is drawn from), a game's
record and a seat's log; ``/api`` lists them."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response

from hegemon.leaderboard.store import UserRow
from hegemon.referee.record import RecordError

from .. import pages as html
from ..auth import viewer
from ..mine import my_bots as my_bots_data
from ..params import clamped
from ..visibility import redact_games, redact_record
from .common import arena, links, not_found, path_id, signed_in, store
from .views import GAME_NOT_FOUND, filters, hidden, seen
from .views import bot as bot_data
from .views import game as game_data


def api_doc(request: Request) -> Response:
    """``/api``: what the API serves."""
    return HTMLResponse(html.api_page(links(request)))


def leaderboard(request: Request) -> Response:
    """The all-time boards, one per rule set."""
    return JSONResponse(arena(request).all_time())


def seasons(request: Request) -> Response:
    """Every season with its progress."""
    return JSONResponse(arena(request).seasons())


def season(request: Request) -> Response:
    """A season's board, chart and progress (``/season/{name}``'s data)."""
    found = arena(request).season(request.path_params["name"])
    if found is None:
        return not_found("season", True)
    return JSONResponse(arena(request).season_page(found))


def history(request: Request) -> Response:
    """Every point of a season's rating history."""
    found = arena(request).season(request.path_params["name"])
    if found is None:
        return not_found("season", True)
    return JSONResponse(arena(request).season_history(found))


def bots(request: Request) -> Response:
    """Every bot version."""
    return JSONResponse(arena(request).bots())


def bot(request: Request) -> Response:
    """A bot version's data (``/bot/{bot_id}``'s), as the viewer may see it."""
    data = bot_data(request)
    return not_found("bot", True) if data is None else JSONResponse(data)


def bot_history(request: Request) -> Response:
    """The rating history of every version of a bot's name."""
    bot_id = path_id(request, "bot_id")
    found = None if bot_id is None else store(request).get_bot(bot_id)
    if found is None:
        return not_found("bot", True)
    return JSONResponse(arena(request).version_history(found))


def games(request: Request) -> Response:
    """The finished games, newest first, filtered (``limit``, ``offset``; ``mine=1``: only
    games where one of the signed-in user's bots sat)."""
    q = request.query_params
    owner = None
    if q.get("mine") not in (None, "", "0"):
        user = viewer(request)
        if user is None:
            return JSONResponse({"error": "sign in: mine=1 lists your own bots' games"}, 401)
        owner = user.id
    data = arena(request).games(
        **filters(request),
        limit=clamped(q.get("limit"), 100, 1),
        offset=clamped(q.get("offset"), 0, 0, 10**9),
        owner=owner,
    )
    return JSONResponse(redact_games(data, seen(request)))


def my_bots(request: Request) -> Response:
    """``GET /api/me/bots``: the signed-in user's own bots (an admin's too: theirs only) —
    versions and states, standings, last games, faults grouped (:mod:`..mine`)."""
    user = signed_in(request)
    if not isinstance(user, UserRow):
        return user
    return JSONResponse(my_bots_data(arena(request), user))


def game(request: Request) -> Response:
    """A game's facts and replay, as the viewer may see them."""
    try:
        found = game_data(request)
    except RecordError as exc:
        return JSONResponse({"error": str(exc)}, status_code=500)
    if found is None:
        return not_found(GAME_NOT_FOUND, True)
    info, replay = found
    return JSONResponse({**info, "replay": replay})


def record(request: Request) -> Response:
    """A game's record (JSON lines), the seats the viewer may not see redacted."""
    game_id = path_id(request, "game_id")
    text = None if game_id is None else arena(request).record_text(game_id)
    if game_id is None or text is None:
        return not_found(GAME_NOT_FOUND, True)
    text = redact_record(text, hidden(request, game_id))
    return PlainTextResponse(text, media_type="application/x-ndjson")


def log(request: Request) -> Response:
    """What a seat's bot wrote in a game: for its owner and the admins only."""
    game_id, seat = path_id(request, "game_id"), path_id(request, "seat")
    if game_id is None or seat is None:
        return not_found("game, seat (or its log)", True)
    if seat in hidden(request, game_id):
        if viewer(request) is None:
            return JSONResponse({"error": "sign in: a bot's logs are its owner's"}, 401)
        return JSONResponse({"error": "only the bot's owner and admins see its logs"}, 403)
    text = arena(request).seat_log_text(game_id, seat)
    if text is None:
        return not_found("game, seat (or its log)", True)
    return PlainTextResponse(text)
