"""Choosing the version of a bot that plays: ``POST /api/bots/{name}/pin`` (``hegemon pin`` /
``hegemon unpin``: JSON ``{"version": N}``, or ``{"version": null}`` to unpin) and the form on
a bot's page, ``POST /me/bots/{name}/pin`` (its ``version`` field; blank: unpin). Only the bot's
owner (or an admin) may; every refusal is one line (:class:`~hegemon.leaderboard.store.pins.
PinError`), ``{"error": …}`` on the API."""

from __future__ import annotations

from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response

from hegemon.leaderboard.accounts.ownership import may_act_on
from hegemon.leaderboard.store import UserRow
from hegemon.leaderboard.store.pins import PinError, Pinned, not_yours, set_pin

from ..auth import viewer
from ..params import ParamError, whole_number
from .common import message, signed_in, store

HIGHEST = 10**9
"""The largest version number a pin may name (past it: not a version of any bot)."""

ASK = 'give a version number, e.g. {"version": 2} (or {"version": null} to unpin)'


def version_of(value: Any) -> int | None:
    """A pin's version as sent: a whole number (``2``, ``"2"``, ``"v2"``) or nothing (None,
    ``""``: unpin); else :class:`PinError`."""
    if value is None or value == "":
        return None
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise PinError(f"bad version: {ASK}")
    text = str(value).strip().removeprefix("v")
    try:
        return whole_number(text, "the version", 1, HIGHEST)
    except ParamError as exc:
        raise PinError(f"bad version: {exc}") from None


def _may_pin(request: Request, user: UserRow) -> bool:
    """Whether ``user`` may choose the path's bot's version: :func:`may_act_on` its newest
    version (its owner, a member of its team, an admin; every version of a name has the same
    owner); :class:`PinError` if none exists."""
    name = request.path_params["name"]
    newest = store(request).find_bot(name)
    if newest is None:
        raise PinError(f"no bot named {name[:70]!r}", 404)
    return may_act_on(store(request), user, newest)


def _pin(request: Request, user: UserRow, version: int | None) -> Pinned:
    """Pin (or unpin) the path's bot for ``user`` (:func:`set_pin`)."""
    name = request.path_params["name"]
    return set_pin(store(request), user.id, name, version, _may_pin(request, user))


async def api_pin(request: Request) -> Response:
    """``POST /api/bots/{name}/pin``: ``{"version": N}`` pins version N to play (rolls back
    or holds one); ``{"version": null}`` unpins (the newest active version plays)."""
    user = viewer(request)
    if user is None:
        return JSONResponse({"error": "sign in first (hegemon login URL)"}, 401)
    try:
        if not await run_in_threadpool(_may_pin, request, user):  # before reading the body
            raise not_yours(request.path_params["name"])
        body = await _json(request)
        if not isinstance(body, dict) or "version" not in body:
            raise PinError(f"send JSON: {ASK}")
        done = await run_in_threadpool(_pin, request, user, version_of(body["version"]))
    except PinError as exc:
        return JSONResponse({"error": str(exc)}, exc.status)
    return JSONResponse(
        {"name": done.name, "pinned": done.pinned, "playing": done.playing, "message": done.line()}
    )


async def _json(request: Request) -> Any:
    """The request's JSON body, or None if it is not JSON."""
    try:
        return await request.json()
    except ValueError:
        return None


async def pin_form(request: Request) -> Response:
    """``POST /me/bots/{name}/pin``: the bot page's form (``version``; blank: unpin), then
    back to the page of the version that plays."""
    user = signed_in(request)
    if not isinstance(user, UserRow):
        return user
    form = await request.form()
    try:
        done = await run_in_threadpool(_pin, request, user, version_of(form.get("version")))
    except PinError as exc:
        return message(request, "Not changed", str(exc), exc.status)
    playing = store(request).find_bot(done.name, done.playing) if done.playing else None
    if playing is None or playing.id is None:
        return message(request, "Version chosen", done.line(), 200)
    return RedirectResponse(f"/bot/{playing.id}", 303)
