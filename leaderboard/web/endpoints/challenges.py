"""Test games on demand (:mod:`hegemon.leaderboard.challenges`) over the web: ``POST
/api/challenges`` (``hegemon challenge``: a JSON body, a token or a session with its CSRF
header), ``GET /api/challenges/{id}`` and the page ``/challenge/{id}`` (its owner's and the
admins'; anyone else: 404), and the form on a bot's page (``POST /bot/{id}/challenges``).
Every refusal is one line (``{"error": …}`` on the API), never a 500."""

from __future__ import annotations

from typing import Any

from markupsafe import Markup
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response

from hegemon.leaderboard.accounts.ownership import allowed
from hegemon.leaderboard.challenges import Ask, ChallengeError, ChallengeQuotas, make_challenge
from hegemon.leaderboard.challenges.results import (
    challenge_data,
    challenge_of_season,
    challenges_of,
    get_challenge,
)
from hegemon.leaderboard.store import BotRow, ChallengeRow, UserRow

from ..auth import form_token, viewer
from ..challenge_form import challenge_form
from .common import message, page, path_id, signed_in, store


def _ask(body: Any) -> Ask:
    """The JSON body's :class:`Ask` (a bad field: :class:`ChallengeError`)."""
    if not isinstance(body, dict):
        raise ChallengeError("send a JSON object: bot, games, vs, version, ladder")
    bot, games, vs = body.get("bot"), body.get("games", 10), body.get("vs", [])
    version, ladder = body.get("version"), body.get("ladder")
    if isinstance(vs, str):
        vs = vs.split(",")
    if not isinstance(bot, str) or not bot:
        raise ChallengeError("say which bot of yours plays (bot)")
    if not isinstance(games, int) or isinstance(games, bool):
        raise ChallengeError("games must be a whole number")
    if not isinstance(vs, list) or not all(isinstance(v, str) for v in vs):
        raise ChallengeError("vs must be a list of bot names")
    if version is not None and (not isinstance(version, int) or isinstance(version, bool)):
        raise ChallengeError("version must be a whole number")
    if ladder is not None and not isinstance(ladder, str):
        raise ChallengeError("ladder must be a ladder's name")
    return Ask(bot, games, tuple(vs), version, ladder or None)


def _store(request: Request, user: UserRow, ask: Ask) -> ChallengeRow:
    return make_challenge(store(request), user, ask, ChallengeQuotas.from_env())


async def api_create(request: Request) -> Response:
    """``POST /api/challenges``: a challenge asked for → 201 and its data."""
    user = signed_in(request)
    if not isinstance(user, UserRow):
        return user
    try:
        body = await request.json()
    except ValueError:
        return JSONResponse({"error": "send a JSON object: bot, games, vs, version, ladder"}, 400)
    try:
        row = await run_in_threadpool(_store, request, user, _ask(body))
    except ChallengeError as exc:
        return JSONResponse({"error": str(exc)}, exc.status)
    data = await run_in_threadpool(challenge_data, store(request), row)
    return JSONResponse(data, 201)


def _may_open(user: UserRow | None, challenge: ChallengeRow) -> bool:
    """Whether ``user`` may open ``challenge``'s page: its owner and the admins."""
    if user is None:
        return False
    return allowed(user.id, user.is_admin, challenge.owner_id, None, frozenset())


def test_of(request: Request, info: dict[str, Any]) -> dict[str, Any] | None:
    """For a game page: None if the game (``info``) is not a challenge's, else its challenge's
    id and page (``url``: None for a viewer who may not open it, so no link is dead)."""
    found = challenge_of_season(store(request), info["season"])
    if found is None:
        return None
    url = f"/challenge/{found.id}" if _may_open(viewer(request), found) else None
    return {"id": found.id, "url": url}


def _mine(request: Request) -> tuple[UserRow, ChallengeRow | None] | Response:
    """The signed-in viewer and the path's challenge if they may see it (else None)."""
    user = signed_in(request)
    if not isinstance(user, UserRow):
        return user
    challenge_id = path_id(request, "challenge_id")
    found = None if challenge_id is None else get_challenge(store(request), challenge_id)
    if found is not None and not _may_open(user, found):
        found = None
    return user, found


def api_challenge(request: Request) -> Response:
    """``GET /api/challenges/{challenge_id}``: one's challenge, its results and SPRT."""
    found = _mine(request)
    if isinstance(found, Response):
        return found
    if found[1] is None:
        return JSONResponse({"error": "no such challenge of yours"}, 404)
    return JSONResponse(challenge_data(store(request), found[1]))


def challenge_page(request: Request) -> Response:
    """``/challenge/{challenge_id}``: one's challenge as a page."""
    found = _mine(request)
    if isinstance(found, Response):
        return found
    if found[1] is None:
        return message(request, "Not found", "No such challenge of yours.", 404)
    data = challenge_data(store(request), found[1])
    return page(request, "challenge.html", f"Challenge {data['id']}", c=data)


def api_mine(request: Request) -> Response:
    """``GET /api/me/challenges``: the signed-in member's own challenges, newest first, each
    with its progress and (against one opponent) the SPRT line."""
    user = signed_in(request)
    if not isinstance(user, UserRow):
        return user
    assert user.id is not None
    rows = challenges_of(store(request), user.id)
    return JSONResponse({"challenges": [_summary(challenge_data(store(request), r)) for r in rows]})


def _summary(data: dict[str, Any]) -> dict[str, Any]:
    """A challenge's line in a list: its facts and progress, the SPRT line, not each game."""
    sprt = data["sprt"]
    kept = ("id", "bot", "chosen", "ladder", "games", "done", "void", "status", "finished")
    return {
        **{k: data[k] for k in kept},
        "opponents": [o["bot"] for o in data["opponents"]],
        "mean_place": data["mean_place"],
        "created_at": data["created_at"],
        "sprt": None if sprt is None else sprt["line"],
        "url": data["url"],
    }


async def form_create(request: Request) -> Response:
    """``POST /bot/{bot_id}/challenges``: the bot page's form → the new challenge's page."""
    user = signed_in(request)
    if not isinstance(user, UserRow):
        return user
    bot_id = path_id(request, "bot_id")
    bot = None if bot_id is None else store(request).get_bot(bot_id)
    if bot is None:
        return message(request, "Not found", "No such bot.", 404)
    async with request.form(max_files=0, max_fields=10) as form:
        vs, games, ladder = (str(form.get(k) or "").strip() for k in ("vs", "games", "ladder"))
    try:
        if not games.isdigit():
            raise ChallengeError("games must be a whole number")
        ask = Ask(bot.name, int(games), tuple(vs.split(",")), bot.version, ladder or None)
        row = await run_in_threadpool(_store, request, user, ask)
    except ChallengeError as exc:
        return message(request, "Test games refused", str(exc), exc.status)
    return RedirectResponse(f"/challenge/{row.id}", 303)


def owner_form(request: Request, bot: BotRow) -> Markup | None:
    """The test games form for ``bot``, a version the viewer may act on (the caller has
    checked: :func:`may_act_on`), if it is active; else None."""
    if bot.id is None or bot.state != "active":
        return None
    return challenge_form(bot.id, form_token(request), ChallengeQuotas.from_env().max_games)
