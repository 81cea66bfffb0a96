"""What every endpoint reads from the app (``request.app.state``, set by
:func:`hegemon.leaderboard.web.server.make_app`) and the answers they share: the arena's data,
the store, the top bar's links, a 404, and the hot pages kept rendered."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import replace
from typing import cast

from markupsafe import Markup
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response

from hegemon.leaderboard.accounts.throttle import LoginThrottle
from hegemon.leaderboard.accounts.users import any_users
from hegemon.leaderboard.notify.notices import unread_count
from hegemon.leaderboard.store import Store, UserRow

from .. import pages
from ..auth import form_token, viewer
from ..changes import Changes
from ..data import Arena
from ..kept import PREVIOUS, Kept
from ..links import SERVED, Links
from ..params import database_id
from ..templating import account_nav, render


def arena(request: Request) -> Arena:
    """The arena's data (and its boards kept in memory) the app serves."""
    return cast(Arena, request.app.state.arena)


def store(request: Request) -> Store:
    """The arena database the app serves."""
    return arena(request).store


def throttle(request: Request) -> LoginThrottle:
    """How the app slows sign-ins."""
    return cast(LoginThrottle, request.app.state.throttle)


def path_id(request: Request, name: str) -> int | None:
    """The route's ``name`` parameter as a database id, or None when it cannot be one."""
    return database_id(request.path_params[name])


def nav(request: Request) -> Markup:
    """The top bar's account links for whoever asks (a member's with their unread count)."""
    user = viewer(request)
    if user is None:
        return account_nav(None, any_users(store(request)))
    assert user.id is not None
    return account_nav(user, True, unread_count(store(request), user.id))


def links(request: Request) -> Links:
    """Where a served page's links point, the top bar's account links included."""
    return replace(SERVED, account=nav(request))


def not_found(what: str, json: bool) -> Response:
    """404: no such ``what`` (as JSON on the API, else as a page)."""
    if json:
        return JSONResponse({"error": f"no such {what}"}, status_code=404)
    return HTMLResponse(pages.message_page("Not found", f"No such {what}.", SERVED), 404)


def page(
    request: Request, template: str, title: str, status: int = 200, **context: object
) -> Response:
    """A page of the accounts' templates, with the form's CSRF token."""
    return render(
        request, template, title, nav(request), status, csrf=form_token(request), **context
    )


def message(request: Request, title: str, text: str, status: int) -> Response:
    """A page of one message (a refusal, a done action)."""
    return page(request, "message.html", title, status, message=text)


def signed_in(request: Request) -> UserRow | Response:
    """The signed-in user, or the answer to someone who is not: 401 on the API, else off to
    sign in (and back here after)."""
    user = viewer(request)
    if user is not None:
        return user
    if request.url.path.startswith("/api/"):
        return JSONResponse({"error": "sign in first"}, 401)
    return RedirectResponse(f"/login?next={request.url.path}", 303)


def admin(request: Request) -> UserRow | Response:
    """The signed-in admin, or the answer to anyone else (:func:`signed_in`, else 403)."""
    user = signed_in(request)
    if isinstance(user, UserRow) and not user.is_admin:
        return message(request, "Not allowed", "Only admins may do this.", 403)
    return user


def _viewer_key(request: Request) -> Hashable:
    """Who is asking, as far as a page may differ: anonymous, or the signed-in user (their
    name and role are in the top bar, what they may see depends on who they are)."""
    user = viewer(request)
    return None if user is None else (user.id, user.name, user.is_admin)


async def cached(request: Request, make: Callable[[], Response]) -> Response:
    """``make()``'s response, made once for each viewer while the database and the boards
    in memory are unchanged (the hot pages: a ladder's board, the game list).

    A kept page is served on the event loop (SQLite's change token is a local read of
    microseconds): no hop to a worker thread and back for the many requests that find
    their page; a page to make (or a token that is a round trip) goes to a thread."""
    state = request.app.state
    changes, kept = cast(Changes, state.changes), cast(Kept, state.pages)
    # the token is read before the page's data, so a page is never newer than its key
    token = changes() if changes.instant else await run_in_threadpool(changes)
    version = None if token is None else (token, arena(request).generation)
    key = (request.scope["path"], request.scope["query_string"], _viewer_key(request))

    def parts() -> tuple[int, str | None, bytes]:
        response = make()
        return response.status_code, response.media_type, bytes(response.body)

    hit = kept.ready(key, version)
    if hit is None:
        hit = await run_in_threadpool(kept.get, key, version, parts, PREVIOUS)
    status, media, body = cast(tuple[int, str | None, bytes], hit)
    return Response(body, status, media_type=media)
