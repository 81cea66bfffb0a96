"""Submitting bots over the web: ``POST /api/bots/{name}/versions?team=`` (the command line's
``hegemon submit [--team T]``: the packed archive as the body, a token or a session with its CSRF
header), ``GET /api/versions/{id}`` (a version's state, reason and check log, for its owner
and the admins), and the "my bots" pages (``/me/bots``: the upload form, each bot's versions
with their states and reasons; ``/me/bots/{id}/log``: a version's check log).

The web process only stores a version (queued); a runner plays its check game. Every refusal
is an HTTP 4xx with one line (``{"error": …}`` on the API)."""

from __future__ import annotations

from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.datastructures import UploadFile
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, RedirectResponse, Response

from hegemon.leaderboard.accounts.ownership import is_mine, may_act_on, teams_of
from hegemon.leaderboard.accounts.teams import my_teams
from hegemon.leaderboard.registry import (
    RegistryError,
    Submitted,
    Submitter,
    file_upload,
    submit_archive,
)
from hegemon.leaderboard.registry.quotas import QuotaError
from hegemon.leaderboard.registry.upload import archive_budget
from hegemon.leaderboard.store import BotRow, UserRow

from ..auth import form_token, viewer
from ..templating import render
from .common import nav, path_id, store

ARCHIVE_SUFFIXES = (".tar.gz", ".tgz")
"""A browser's upload ending so is a packed bot (``hegemon submit``'s format); any other file
is one bot file (``bot.py``, ``bot.js``, …)."""


class TooLarge(Exception):
    """An upload past the archive budget: refused while it streams in."""


def version_data(bot: BotRow, log: bool = False) -> dict[str, Any]:
    """A version as its owner sees it (``log``: with its check game's log)."""
    data: dict[str, Any] = {
        "id": bot.id,
        "name": bot.name,
        "version": bot.version,
        "label": bot.label,
        "state": bot.state,
        "reason": bot.reason,
        "added_at": bot.added_at.isoformat(),
    }
    if log:
        data["log"] = bot.check_log
    return data


def _status(exc: RegistryError) -> int:
    return exc.status if isinstance(exc, QuotaError) else 400


async def _read_capped(request: Request, budget: int) -> bytes:
    """The request's body, refused (:class:`TooLarge`) as soon as it passes ``budget``."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > budget:
        raise TooLarge
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > budget:
            raise TooLarge
        chunks.append(chunk)
    return b"".join(chunks)


def _too_large(budget: int) -> str:
    return f"refused: the upload is larger than the arena's limit for a bot ({budget} bytes)"


def _submitter(user: UserRow, team: object = None) -> Submitter:
    """``user`` submitting, for the ``team`` named (a blank or missing one: for themselves)."""
    assert user.id is not None
    named = team.strip() if isinstance(team, str) and team.strip() else None
    return Submitter(user.id, user.is_admin, named)


def _own_version(request: Request) -> BotRow | Response:
    """The version of the path's ``bot_id`` if the viewer may see its private parts."""
    user = viewer(request)
    if user is None:
        return JSONResponse({"error": "sign in first"}, 401)
    bot_id = path_id(request, "bot_id")
    bot = None if bot_id is None else store(request).get_bot(bot_id)
    if bot is None or not may_act_on(store(request), user, bot):
        return JSONResponse({"error": "no such version of yours"}, 404)
    return bot


async def api_submit(request: Request) -> Response:
    """``POST /api/bots/{name}/versions``: a packed bot as the body → its version (201 new,
    200 the same files already there)."""
    user = viewer(request)
    if user is None:
        return JSONResponse({"error": "sign in first (hegemon login URL)"}, 401)
    budget = archive_budget()
    try:
        archive = await _read_capped(request, budget)
    except TooLarge:
        return JSONResponse({"error": _too_large(budget)}, 413)
    command = request.query_params.get("command") or None
    name = request.path_params["name"]
    try:
        done: Submitted = await run_in_threadpool(
            submit_archive,
            store(request),
            _submitter(user, request.query_params.get("team")),
            name,
            archive,
            command,
        )
    except RegistryError as exc:
        return JSONResponse({"error": str(exc)}, _status(exc))
    body = {**version_data(done.bot), "new": done.new, "url": f"/api/versions/{done.bot.id}"}
    return JSONResponse(body, 201 if done.new else 200)


def api_version(request: Request) -> Response:
    """``GET /api/versions/{bot_id}``: one's version with its check log."""
    found = _own_version(request)
    return found if isinstance(found, Response) else JSONResponse(version_data(found, True))


def check_log(request: Request) -> Response:
    """``GET /me/bots/{bot_id}/log``: one's version's check log."""
    found = _own_version(request)
    if isinstance(found, Response):
        return found
    if found.check_log is None:
        return PlainTextResponse("(no log: not checked yet)")
    return PlainTextResponse(found.check_log or "(the bot wrote nothing)")


def _my_bots(request: Request, status: int = 200, **context: Any) -> Response:
    user = viewer(request)
    if user is None:
        return RedirectResponse("/login?next=/me/bots", 303)
    teams = teams_of(store(request), user)
    versions = [b for b in store(request).bots() if is_mine(user.id, b, teams)]
    names: dict[str, list[BotRow]] = {}
    for bot in reversed(versions):  # newest version first
        names.setdefault(bot.name, []).append(bot)
    return render(
        request,
        "my_bots.html",
        "My bots",
        nav(request),
        status,
        csrf=form_token(request),
        bots=names,
        teams=my_teams(store(request), user)["teams"],
        **context,
    )


def my_bots(request: Request) -> Response:
    """``GET /me/bots``: the upload form and one's bots' versions."""
    return _my_bots(request)


async def upload(request: Request) -> Response:
    """``POST /me/bots``: a bot uploaded from the browser (a packed bot or one file)."""
    user = viewer(request)
    if user is None:
        return RedirectResponse("/login?next=/me/bots", 303)
    budget = archive_budget()
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > budget:
        return _my_bots(request, 413, error=_too_large(budget))
    async with request.form(max_files=1, max_fields=10) as form:
        name, command, sent = form.get("name"), form.get("command"), form.get("file")
        team = form.get("team")
        if not isinstance(name, str) or not isinstance(sent, UploadFile):
            return _my_bots(request, 400, error="give the bot's name and a file")
        data = await sent.read(budget + 1)
        filename = sent.filename or ""
    if len(data) > budget:
        return _my_bots(request, 413, error=_too_large(budget))
    given = command.strip() if isinstance(command, str) and command.strip() else None
    try:
        if filename.endswith(ARCHIVE_SUFFIXES):
            archive = data
        else:
            archive, inferred = await run_in_threadpool(file_upload, filename, data)
            given = given or inferred
        done = await run_in_threadpool(
            submit_archive, store(request), _submitter(user, team), name, archive, given
        )
    except RegistryError as exc:
        return _my_bots(request, _status(exc), error=str(exc))
    bot = done.bot
    notice = (
        f"{bot.label} is queued for its check game"
        if done.new
        else f"these files are {bot.label} already ({bot.state}); nothing changed"
    )
    return _my_bots(request, 201 if done.new else 200, notice=notice)
