"""Who is asking: the middleware that sets ``request.user`` from the session cookie (browsers)
or an ``Authorization: Bearer`` token (the command line), and the CSRF check of every
state-changing request that a cookie could have been sent with.

``request.user`` is a :class:`Viewer` (signed in) or Starlette's ``UnauthenticatedUser``;
:func:`viewer` gives the :class:`~hegemon.leaderboard.store.UserRow` or None.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from anyio import to_thread
from starlette.authentication import (
    AuthCredentials,
    AuthenticationBackend,
    AuthenticationError,
    BaseUser,
)
from starlette.middleware import Middleware
from starlette.middleware.authentication import AuthenticationMiddleware
from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from hegemon.leaderboard.accounts.csrf import (
    HEADER,
    PREFIX_BYTES,
    FormScan,
    csrf_token,
    csrf_valid,
)
from hegemon.leaderboard.accounts.keys import new_secret
from hegemon.leaderboard.accounts.sessions import LIFETIME, session_user
from hegemon.leaderboard.accounts.tokens import token_user
from hegemon.leaderboard.store import Store, UserRow

SESSION_COOKIE = "hegemon_session"
PRESESSION_COOKIE = "hegemon_csrf"  # the CSRF secret of a browser not signed in
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
RUNNER_API = "/api/runner/"
"""The runners' routes: their Bearer token is a runner token, which those routes check
themselves (:mod:`.endpoints.runner_api`); no member is signed in there."""


class Viewer(BaseUser):
    """A signed-in user, and how: ``via`` is ``"session"`` (a browser's cookie, whose value is
    ``secret``) or ``"token"`` (an API token)."""

    def __init__(self, row: UserRow, via: str, secret: str = ""):
        self.row, self.via, self.secret = row, via, secret

    @property
    def is_authenticated(self) -> bool:
        return True

    @property
    def display_name(self) -> str:
        return self.row.name

    @property
    def identity(self) -> str:
        return str(self.row.id)


def viewer(request: HTTPConnection) -> UserRow | None:
    """The signed-in user making ``request``, or None."""
    user = request.scope.get("user")
    return user.row if isinstance(user, Viewer) else None


class AccountBackend(AuthenticationBackend):
    """Bearer token first (a script's call), else the session cookie; a bad token is an error
    (401), a stale cookie just means "not signed in"."""

    def __init__(self, store: Store):
        self.store = store

    async def authenticate(self, conn: HTTPConnection) -> tuple[AuthCredentials, BaseUser] | None:
        if conn.url.path.startswith(RUNNER_API):
            return None
        header = conn.headers.get("authorization")
        if header is not None:
            scheme, _, value = header.partition(" ")
            if scheme.lower() != "bearer" or not value.strip():
                raise AuthenticationError("the Authorization header must be 'Bearer TOKEN'")
            user = await to_thread.run_sync(token_user, self.store, value.strip())
            if user is None:
                raise AuthenticationError(
                    "this token is unknown, revoked (a password change revokes every token) "
                    "or its user disabled: sign in again with hegemon login URL"
                )
            return _credentials(user), Viewer(user, "token")
        key = conn.cookies.get(SESSION_COOKIE)
        if key:
            user = await to_thread.run_sync(session_user, self.store, key)
            if user is not None:
                return _credentials(user), Viewer(user, "session", key)
        return None


def _credentials(user: UserRow) -> AuthCredentials:
    return AuthCredentials(["authenticated", "admin"] if user.is_admin else ["authenticated"])


def _auth_error(conn: HTTPConnection, exc: Exception) -> Response:
    return JSONResponse(
        {"error": str(exc)}, status_code=401, headers={"WWW-Authenticate": "Bearer"}
    )


# ---------------------------------------------------------------------------------- cookies
def _secure(request: HTTPConnection) -> bool:
    """Cookies are marked Secure when the request came over HTTPS (as the browser saw it: a
    trusted proxy's X-Forwarded-Proto has been applied to the scheme by then)."""
    return request.url.scheme in ("https", "wss")


def set_session_cookie(response: Response, request: HTTPConnection, key: str) -> None:
    response.set_cookie(
        SESSION_COOKIE,
        key,
        max_age=int(LIFETIME.total_seconds()),
        httponly=True,
        samesite="lax",
        secure=_secure(request),
    )


def clear_session_cookie(response: Response, request: HTTPConnection) -> None:
    response.delete_cookie(SESSION_COOKIE, httponly=True, samesite="lax", secure=_secure(request))


def form_token(request: Request) -> str:
    """The CSRF token to put in a form shown to ``request``'s browser (a browser not signed in
    gets a pre-sign-in cookie with the page, if it has none)."""
    user = request.scope.get("user")
    if isinstance(user, Viewer) and user.via == "session":
        return csrf_token(user.secret)
    state = request.scope.setdefault("state", {})
    secret = request.cookies.get(PRESESSION_COOKIE) or state.get(PRESESSION_COOKIE)
    if not secret:
        secret = state[PRESESSION_COOKIE] = new_secret()
    return csrf_token(secret)


# ---------------------------------------------------------------------------------- CSRF
class CsrfMiddleware:
    """Refuses (403) a state-changing request made with the browser's cookies unless it carries
    the CSRF token of those cookies, as the form field ``csrf`` or the header ``X-CSRF-Token``.
    Requests authenticated by a Bearer token carry no ambient credential and need none; nor do
    the ``exempt`` paths (which read no cookie: ``POST /api/tokens`` takes a password).

    Nothing is buffered to check: a request without a cookie secret is refused unread, the
    header is checked as it is, and the form field is looked for in the body as it streams
    (:class:`~hegemon.leaderboard.accounts.csrf.FormScan`), within its first
    ``PREFIX_BYTES``."""

    def __init__(self, app: ASGIApp, exempt: Sequence[str] = ()):
        self.app, self.exempt = app, frozenset(exempt)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        send = _with_presession_cookie(scope, send)
        user = scope.get("user")
        if (
            scope["method"] in SAFE_METHODS
            or scope["path"] in self.exempt
            or (isinstance(user, Viewer) and user.via == "token")
        ):
            await self.app(scope, receive, send)
            return
        request = Request(scope)
        secret = user.secret if isinstance(user, Viewer) else request.cookies.get(PRESESSION_COOKIE)
        given = request.headers.get(HEADER)
        if secret and given is None:  # no secret: refused before a byte of the body is read
            given, receive = await _form_token(request.headers.get("content-type", ""), receive)
        if not csrf_valid(secret, given):
            await _refused(scope, receive, send)
            return
        await self.app(scope, receive, send)


async def _refused(scope: Scope, receive: Receive, send: Send) -> None:
    message = "refused: the form's CSRF token is missing or stale (reload the page and retry)"
    wants_json = scope["path"].startswith("/api/")
    response = (
        JSONResponse({"error": message}, 403) if wants_json else PlainTextResponse(message, 403)
    )
    await response(scope, receive, send)


async def _form_token(content_type: str, receive: Receive) -> tuple[str | None, Receive]:
    """The CSRF field of a form, looked for in the first :data:`PREFIX_BYTES` of its body, and
    a ``receive`` that gives the app the body from its start: what was read to find the token
    (that much at most is held), then the rest as it arrives."""
    scan = FormScan(content_type)
    held: list[bytes] = []
    size, ended = 0, False
    while not scan.done and size < PREFIX_BYTES:
        message = await receive()
        if message["type"] != "http.request":
            return None, receive
        chunk = message.get("body", b"")
        held.append(chunk)
        scan.feed(chunk[: PREFIX_BYTES - size])  # a token past the prefix is not looked at
        size += len(chunk)
        if not message.get("more_body", False):
            scan.end()
            ended = True
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if sent:
            return await receive()
        sent = True
        return {"type": "http.request", "body": b"".join(held), "more_body": not ended}

    return scan.token, replay


def _with_presession_cookie(scope: Scope, send: Send) -> Send:
    """``send`` that adds the pre-sign-in cookie when :func:`form_token` made one."""

    async def sending(message: Message) -> None:
        state: dict[str, Any] = scope.get("state") or {}
        secret = state.get(PRESESSION_COOKIE)
        if message["type"] == "http.response.start" and secret:
            cookie = Response()
            cookie.set_cookie(
                PRESESSION_COOKIE,
                secret,
                httponly=True,
                samesite="lax",
                secure=_secure(HTTPConnection(scope)),
            )
            added = [h for h in cookie.raw_headers if h[0] == b"set-cookie"]
            message = {**message, "headers": [*message.get("headers", []), *added]}
        await send(message)

    return sending


# ---------------------------------------------------------------------------------- stack
def account_middleware(
    store: Store, trusted_proxies: Sequence[str] = (), csrf_exempt: Sequence[str] = ()
) -> list[Middleware]:
    """The middleware of a site with accounts, outermost first: forwarded headers applied when
    they come from a ``trusted_proxies`` address (the scheme and client of the request as the
    proxy saw them), then who is asking, then the CSRF check."""
    stack: list[Middleware] = []
    if trusted_proxies:
        from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

        stack.append(Middleware(ProxyHeadersMiddleware, trusted_hosts=list(trusted_proxies)))
    stack.append(
        Middleware(AuthenticationMiddleware, backend=AccountBackend(store), on_error=_auth_error)
    )
    stack.append(Middleware(CsrfMiddleware, exempt=csrf_exempt))
    return stack
