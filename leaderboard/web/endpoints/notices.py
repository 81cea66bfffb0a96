"""A member's notifications and webhooks: ``/me/notifications`` (the list, mark-as-read) and
its JSON twin ``/api/notifications``; on the account page, adding a hook (its secret shown
once), removing one, and the daily digest's opt-in. Each member reaches only their own."""

from __future__ import annotations

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response

from hegemon.leaderboard.notify.digest import set_digest
from hegemon.leaderboard.notify.hooks import HookError, add_hook, remove_hook
from hegemon.leaderboard.notify.notices import mark_read, notices_of, payload, unread_count
from hegemon.leaderboard.store import UserRow

from ..params import database_id
from .accounts import account_page
from .common import message, page, path_id, signed_in, store


def notifications(request: Request) -> Response:
    """``GET /me/notifications``: one's notices, newest first, unread ones marked."""
    user = signed_in(request)
    if not isinstance(user, UserRow):
        return user
    assert user.id is not None
    notices = notices_of(store(request), user.id)
    unread = sum(1 for n in notices if n.read_at is None)
    return page(
        request, "notifications.html", "Notifications", notices=notices, unread=unread,
        api="/api/notifications",
    )  # fmt: skip


def api_notifications(request: Request) -> Response:
    """``GET /api/notifications``: ``{unread, notices}`` (each as its webhook delivery says
    it, with ``read``)."""
    user = signed_in(request)
    if not isinstance(user, UserRow):
        return user
    assert user.id is not None
    notices = [payload(n) for n in notices_of(store(request), user.id)]
    return JSONResponse({"unread": unread_count(store(request), user.id), "notices": notices})


async def read(request: Request) -> Response:
    """``POST /me/notifications/read``: mark the notice ``id`` read (no ``id``: all of them)."""
    user = signed_in(request)
    if not isinstance(user, UserRow):
        return user
    assert user.id is not None
    given = str((await request.form()).get("id", "")).strip()
    notice_id = database_id(given) if given else None
    if given and notice_id is None:
        return message(request, "Not found", "No such notice.", 404)
    await run_in_threadpool(mark_read, store(request), user.id, notice_id)
    return RedirectResponse("/me/notifications", 303)


async def new_hook(request: Request) -> Response:
    """``POST /account/hooks``: a new webhook; its secret is on the answer, and never again."""
    user = signed_in(request)
    if not isinstance(user, UserRow):
        return user
    assert user.id is not None
    url = str((await request.form()).get("url", ""))
    try:
        row, secret = await run_in_threadpool(add_hook, store(request), user.id, url)
    except HookError as exc:
        return await run_in_threadpool(account_page, request, 400, error=str(exc))
    return await run_in_threadpool(
        account_page, request, new_hook_secret=secret, new_hook_url=row.url
    )


def delete_hook(request: Request) -> Response:
    """``POST /account/hooks/{hook_id}/delete``: one of one's own hooks, and its log."""
    user = signed_in(request)
    if not isinstance(user, UserRow):
        return user
    assert user.id is not None
    hook_id = path_id(request, "hook_id")
    try:
        remove_hook(store(request), user.id, hook_id if hook_id is not None else -1)
    except HookError as exc:
        return account_page(request, 404, error=str(exc))
    return RedirectResponse("/account#hooks", 303)


async def digest(request: Request) -> Response:
    """``POST /account/digest``: ``digest=on`` asks for the daily digest, ``off`` stops it."""
    user = signed_in(request)
    if not isinstance(user, UserRow):
        return user
    assert user.id is not None
    wanted = str((await request.form()).get("digest", "")) == "on"
    await run_in_threadpool(set_digest, store(request), user.id, wanted)
    return RedirectResponse("/account#hooks", 303)
