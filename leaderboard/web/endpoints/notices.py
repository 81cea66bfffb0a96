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


def member_id(request: Request) -> int | Response:
    """The signed-in member's id, or the answer to someone who is not signed in."""
    user = signed_in(request)
    if not isinstance(user, UserRow):
        return user
    assert user.id is not None
    return user.id


def notifications(request: Request) -> Response:
    """``GET /me/notifications``: one's notices, newest first, unread ones marked."""
    user_id = member_id(request)
    if not isinstance(user_id, int):
        return user_id
    notices = notices_of(store(request), user_id)
    unread = sum(1 for n in notices if n.read_at is None)
    return page(
        request, "notifications.html", "Notifications", notices=notices, unread=unread,
        api="/api/notifications",
    )  # fmt: skip


def api_notifications(request: Request) -> Response:
    """``GET /api/notifications``: ``{unread, notices}`` (each as its webhook delivery says
    it, with ``read``)."""
    user_id = member_id(request)
    if not isinstance(user_id, int):
        return user_id
    notices = [payload(n) for n in notices_of(store(request), user_id)]
    return JSONResponse({"unread": unread_count(store(request), user_id), "notices": notices})


async def read(request: Request) -> Response:
    """``POST /me/notifications/read``: mark the notice ``id`` read (no ``id``: all of them)."""
    user_id = member_id(request)
    if not isinstance(user_id, int):
        return user_id
    given = str((await request.form()).get("id", "")).strip()
    notice_id = database_id(given) if given else None
    if given and notice_id is None:
        return message(request, "Not found", "No such notice.", 404)
    await run_in_threadpool(mark_read, store(request), user_id, notice_id)
    return RedirectResponse("/me/notifications", 303)


async def new_hook(request: Request) -> Response:
    """``POST /account/hooks``: a new webhook; its secret is on the answer, and never again."""
    user_id = member_id(request)
    if not isinstance(user_id, int):
        return user_id
    url = str((await request.form()).get("url", ""))
    try:
        row, secret = await run_in_threadpool(add_hook, store(request), user_id, url)
    except HookError as exc:
        return await run_in_threadpool(account_page, request, 400, error=str(exc))
    return await run_in_threadpool(
        account_page, request, new_hook_secret=secret, new_hook_url=row.url
    )


def delete_hook(request: Request) -> Response:
    """``POST /account/hooks/{hook_id}/delete``: one of one's own hooks, and its log."""
    user_id = member_id(request)
    if not isinstance(user_id, int):
        return user_id
    hook_id = path_id(request, "hook_id")
    try:
        remove_hook(store(request), user_id, hook_id if hook_id is not None else -1)
    except HookError as exc:
        return account_page(request, 404, error=str(exc))
    return RedirectResponse("/account#hooks", 303)


async def digest(request: Request) -> Response:
    """``POST /account/digest``: ``digest=on`` asks for the daily digest, ``off`` stops it."""
    user_id = member_id(request)
    if not isinstance(user_id, int):
        return user_id
    wanted = str((await request.form()).get("digest", "")) == "on"
    await run_in_threadpool(set_digest, store(request), user_id, wanted)
    return RedirectResponse("/account#hooks", 303)
