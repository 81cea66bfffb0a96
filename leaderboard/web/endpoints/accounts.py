"""The accounts' pages: sign in and out, sign up by invitation, one's account (password, API
tokens), and the API's ``POST /api/tokens`` (a token for ``hegemon login``, in exchange for a
name and password) and ``GET /api/me``."""

from __future__ import annotations

from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response

from hegemon.leaderboard.accounts import AccountError
from hegemon.leaderboard.accounts.invitations import redeem_invitation
from hegemon.leaderboard.accounts.passwords import MIN_LENGTH
from hegemon.leaderboard.accounts.sessions import close_session, close_user_sessions, open_session
from hegemon.leaderboard.accounts.signin import Refusal
from hegemon.leaderboard.accounts.signin import check_password as sign_in
from hegemon.leaderboard.accounts.teams import my_teams
from hegemon.leaderboard.accounts.tokens import (
    create_token,
    list_tokens,
    password_changed,
    revoke_token,
)
from hegemon.leaderboard.accounts.users import any_users, set_password
from hegemon.leaderboard.notify.digest import wants_digest
from hegemon.leaderboard.notify.hooks import hook_logs
from hegemon.leaderboard.notify.sender import MAX_ATTEMPTS
from hegemon.leaderboard.store import UserRow

from ..auth import Viewer, clear_session_cookie, set_session_cookie
from ..params import database_id
from .common import message, page, path_id, signed_in, store, throttle

TOKENS_PATH = "/api/tokens"
"""Takes a password, reads no cookie: exempt from the CSRF check."""


def _client(request: Request) -> str:
    return request.client.host if request.client else "unknown"


def _local(target: str | None) -> str:
    """Where to go after signing in: a path of this site only (never another site)."""
    if not target or not target.startswith("/") or target.startswith("//") or "\\" in target:
        return "/"
    return target


def check_password(request: Request, name: str, password: str) -> UserRow | Refusal:
    """The user, or why not (a wrong password counted against the name and address)."""
    return sign_in(store(request), throttle(request), name, password, _client(request))


async def _signed_in_at(request: Request, user: UserRow, target: str) -> Response:
    """A new session for ``user`` (its cookie set), and off to ``target``."""
    assert user.id is not None
    key = await run_in_threadpool(open_session, store(request), user.id)
    response = RedirectResponse(target, 303)
    set_session_cookie(response, request, key)
    return response


# ---------------------------------------------------------------------------------- sign in, out
def login_form(request: Request) -> Response:
    """``GET /login``: the sign-in form (an arena without accounts has none)."""
    if not any_users(store(request)):
        return message(
            request, "No accounts", "This arena has no accounts: nothing to sign in to.", 404
        )
    next_ = _local(request.query_params.get("next"))
    return page(request, "login.html", "Sign in", next=next_, name="")


async def login(request: Request) -> Response:
    """``POST /login``: sign in, then back where the form was asked from."""
    form = await request.form()
    name, password = str(form.get("name", "")), str(form.get("password", ""))
    next_ = _local(str(form.get("next", "")))
    found = await run_in_threadpool(check_password, request, name, password)
    if not isinstance(found, UserRow):
        return page(
            request, "login.html", "Sign in", found.status, error=found.why, next=next_, name=name,
        )  # fmt: skip
    return await _signed_in_at(request, found, next_)


def logout(request: Request) -> Response:
    """``POST /logout``: end this browser's session."""
    user = request.scope.get("user")
    if isinstance(user, Viewer) and user.via == "session":
        close_session(store(request), user.secret)
    response = RedirectResponse("/", 303)
    clear_session_cookie(response, request)
    return response


# ---------------------------------------------------------------------------------- sign up
def signup_form(request: Request) -> Response:
    """``GET /signup?code=…``: the form of an invitation's link."""
    code = request.query_params.get("code", "")
    if not code:
        return message(request, "Sign up", "Signing up needs an invitation's link.", 400)
    return page(request, "signup.html", "Sign up", code=code, name="", min_length=MIN_LENGTH)


async def signup(request: Request) -> Response:
    """``POST /signup``: redeem an invitation, signed in at once."""
    form = await request.form()
    code, name = str(form.get("code", "")), str(form.get("name", ""))
    password, again = str(form.get("password", "")), str(form.get("again", ""))
    try:
        if password != again:
            raise AccountError("the two passwords differ")
        user = await run_in_threadpool(redeem_invitation, store(request), code, name, password)
    except AccountError as exc:
        return page(
            request, "signup.html", "Sign up", 400, error=str(exc), code=code, name=name,
            min_length=MIN_LENGTH,
        )  # fmt: skip
    return await _signed_in_at(request, user, "/account")


# ---------------------------------------------------------------------------------- one's account
def account_page(request: Request, status: int = 200, **context: Any) -> Response:
    """One's account page (with ``context``: an error, a new token or hook secret to show
    once): tokens, webhooks with their delivery log, the digest's choice, the password."""
    user = signed_in(request)
    if not isinstance(user, UserRow):
        return user
    assert user.id is not None
    tokens = list_tokens(store(request), user.id)
    hooks = hook_logs(store(request), user.id)
    return page(
        request, "account.html", "Account", status, user=user, tokens=tokens,
        min_length=MIN_LENGTH, hooks=hooks, digest=wants_digest(store(request), user.id),
        max_attempts=MAX_ATTEMPTS, teams=my_teams(store(request), user), **context,
    )  # fmt: skip


def account(request: Request) -> Response:
    """``GET /account`` (``?changed=N``: the password was just changed, N tokens revoked)."""
    revoked = database_id(request.query_params.get("changed", ""))
    notice = None if revoked is None else password_changed(revoked)
    return account_page(request, notice=notice)


async def change_password(request: Request) -> Response:
    """``POST /account/password``: every other browser signed in as this user is signed out;
    this one starts afresh."""
    user = signed_in(request)
    if not isinstance(user, UserRow):
        return user
    assert user.id is not None
    form = await request.form()
    current, password = str(form.get("current", "")), str(form.get("password", ""))
    if password != str(form.get("again", "")):
        return await run_in_threadpool(account_page, request, 400, error="the passwords differ")
    # checked as a sign-in is: a stolen session cannot guess at the password unthrottled
    found = await run_in_threadpool(check_password, request, user.name, current)
    if not isinstance(found, UserRow):
        why = "the current password is wrong" if found.status == 401 else found.why
        return await run_in_threadpool(account_page, request, 400, error=why)
    try:
        revoked = await run_in_threadpool(set_password, store(request), user.id, password)
    except AccountError as exc:
        return await run_in_threadpool(account_page, request, 400, error=str(exc))
    await run_in_threadpool(close_user_sessions, store(request), user.id)
    return await _signed_in_at(request, user, f"/account?changed={revoked}")


async def new_token(request: Request) -> Response:
    """``POST /account/tokens``: a new API token, shown once."""
    user = signed_in(request)
    if not isinstance(user, UserRow):
        return user
    assert user.id is not None
    name = str((await request.form()).get("name", ""))
    try:
        row, value = await run_in_threadpool(create_token, store(request), user.id, name)
    except AccountError as exc:
        return await run_in_threadpool(account_page, request, 400, error=str(exc))
    return await run_in_threadpool(account_page, request, new_token=value, new_token_name=row.name)


def revoke(request: Request) -> Response:
    """``POST /account/tokens/{token_id}/revoke``: one of one's own tokens."""
    user = signed_in(request)
    if not isinstance(user, UserRow):
        return user
    assert user.id is not None
    token_id = path_id(request, "token_id")
    try:
        revoke_token(store(request), user.id, token_id if token_id is not None else -1)
    except AccountError as exc:
        return account_page(request, 404, error=str(exc))
    return RedirectResponse("/account", 303)


# ---------------------------------------------------------------------------------- the API
async def api_token(request: Request) -> Response:
    """``POST /api/tokens``: ``{name, password, token_name}`` → a new token (``hegemon
    login``), throttled as the sign-in form is."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        return JSONResponse({"error": "send JSON: {name, password, token_name}"}, 415)
    try:
        body = await request.json()
    except ValueError:
        body = None
    if not isinstance(body, dict) or not all(
        isinstance(body.get(k), str) for k in ("name", "password")
    ):
        return JSONResponse({"error": "send JSON: {name, password, token_name}"}, 400)
    name, password = body["name"], body["password"]
    found = await run_in_threadpool(check_password, request, name, password)
    if not isinstance(found, UserRow):
        return JSONResponse({"error": found.why}, found.status)
    assert found.id is not None
    label = body.get("token_name") if isinstance(body.get("token_name"), str) else ""
    try:
        row, value = await run_in_threadpool(
            create_token, store(request), found.id, label or "hegemon login"
        )
    except AccountError as exc:
        return JSONResponse({"error": str(exc)}, 400)
    return JSONResponse({"token": value, "id": row.id, "name": row.name, "user": found.name}, 201)


def api_me(request: Request) -> Response:
    """``GET /api/me``: who the token (or session) is."""
    user = signed_in(request)
    if not isinstance(user, UserRow):
        return user
    return JSONResponse({"name": user.name, "role": user.role})
