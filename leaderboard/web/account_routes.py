"""The accounts' pages: sign in and out, sign up by invitation, one's account (password, API
tokens), the admins' pages and actions (users; bot versions disabled or enabled; games voided;
ladders and seasons created, by the command line's own code), and ``POST /api/tokens`` (a
token for ``hegemon login``, in exchange for a name and password)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any
from urllib.parse import quote

from markupsafe import Markup
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from hegemon.leaderboard.accounts import AccountError
from hegemon.leaderboard.accounts.games import void_game
from hegemon.leaderboard.accounts.invitations import redeem_invitation
from hegemon.leaderboard.accounts.passwords import MIN_LENGTH
from hegemon.leaderboard.accounts.sessions import close_session, close_user_sessions, open_session
from hegemon.leaderboard.accounts.signin import Refusal
from hegemon.leaderboard.accounts.signin import check_password as sign_in
from hegemon.leaderboard.accounts.throttle import LoginThrottle
from hegemon.leaderboard.accounts.tokens import (
    create_token,
    list_tokens,
    password_changed,
    revoke_token,
)
from hegemon.leaderboard.accounts.users import (
    any_users,
    list_users,
    set_disabled,
    set_password,
)
from hegemon.leaderboard.registry import RegistryError, set_bot_state
from hegemon.leaderboard.seasons.setup import (
    Plan,
    SeasonPlan,
    SetupError,
    create_ladder,
    create_season,
    default_time,
)
from hegemon.leaderboard.store import Store, UserRow
from hegemon.leaderboard.store.versions import ACTIVE, DISABLED, REFUSED, RETIRED
from hegemon.referee.chance import MAX_SEED
from hegemon.referee.rules import PRESETS
from hegemon.referee.timecontrol import CLOCKS

from .auth import Viewer, clear_session_cookie, form_token, set_session_cookie, viewer
from .params import ParamError, database_id, seconds, whole_number
from .templating import account_nav, render

TOKENS_PATH = "/api/tokens"
"""Takes a password, reads no cookie: exempt from the CSRF check."""


def _client(request: Request) -> str:
    return request.client.host if request.client else "unknown"


def _local(target: str | None) -> str:
    """Where to go after signing in: a path of this site only (never another site)."""
    if not target or not target.startswith("/") or target.startswith("//") or "\\" in target:
        return "/"
    return target


ENABLE_STATES = (DISABLED, RETIRED, REFUSED)
"""The states of a version the admins' bot page offers to enable (the others: to disable)."""

FORM_LIMITS = {"players": 1000, "max_strikes": 10**6, "games": 10**6, "seed": MAX_SEED}
"""The largest whole number each competition field takes, either way: past it no plan makes
sense (the shared checks say what is wrong with a number within it)."""


def _whole(form: Mapping[str, str], key: str, flag: str, default: int | None) -> int | None:
    """The form's whole number ``key`` (blank: ``default``), or a one-line :class:`SetupError`
    naming the command line's ``flag`` (the errors of the shared checks name them too)."""
    text = form.get(key, "").strip()
    if not text:
        return default
    limit = FORM_LIMITS[key]
    try:
        return whole_number(text, flag, -limit, limit)
    except ParamError as exc:
        raise SetupError(str(exc)) from None


def _seconds(form: Mapping[str, str], key: str, flag: str) -> float | None:
    """The form's number of seconds ``key`` (blank: the default), or a one-line error."""
    text = form.get(key, "").strip()
    try:
        return seconds(text, flag) if text else None
    except ParamError as exc:
        raise SetupError(str(exc)) from None


def competition_plan(form: Mapping[str, str], season: bool) -> Plan:
    """The plan of a ladder (or a ``season``) the admins' form asks for: the fields of
    ``hegemon ladder create`` / ``season create`` as text, ``--set`` as space-separated
    ``NAME=VALUE`` words, checked after by the same code as the command line's."""
    players = _whole(form, "players", "--players", 4)
    strikes = _whole(form, "max_strikes", "--max-strikes", None)
    assert players is not None
    common: dict[str, Any] = {
        "name": form.get("name", "").strip(),
        "rules": form.get("rules", "").strip() or "classic",
        "options": form.get("set", "").split(),
        "players": players,
        "time": form.get("time", "").strip() or None,
        "decision": _seconds(form, "decision_time", "--decision-time"),
        "clock": form.get("clock", "").strip() or "cpu",
        "max_strikes": strikes,
    }
    if not season:
        return Plan(**common)
    games = _whole(form, "games", "--games", 100)
    assert games is not None
    return SeasonPlan(
        **common,
        bots=form.get("bots", ""),
        games=games,
        seed=_whole(form, "seed", "--seed", None),
        duplicate=bool(form.get("duplicate")),
        keep_memory=not form.get("restart_per_game"),
    )


def account_routes(store: Store, throttle: LoginThrottle) -> list[Route]:
    """The routes of the accounts' pages over ``store``, sign-ins slowed by ``throttle``."""

    def nav(request: Request) -> Markup:
        user = viewer(request)
        return account_nav(user, user is not None or any_users(store))

    def page(request: Request, template: str, title: str, status: int = 200, **context: Any):
        return render(
            request, template, title, nav(request), status, csrf=form_token(request), **context
        )

    def message(request: Request, title: str, text: str, status: int) -> Response:
        return page(request, "message.html", title, status, message=text)

    def signed_in(request: Request) -> UserRow | Response:
        user = viewer(request)
        if user is not None:
            return user
        if request.url.path.startswith("/api/"):
            return JSONResponse({"error": "sign in first"}, 401)
        return RedirectResponse(f"/login?next={request.url.path}", 303)

    def admin(request: Request) -> UserRow | Response:
        user = signed_in(request)
        if isinstance(user, UserRow) and not user.is_admin:
            return message(request, "Not allowed", "Only admins may do this.", 403)
        return user

    def check_password(request: Request, name: str, password: str) -> UserRow | Refusal:
        """The user, or why not (a wrong password counted against the name and address)."""
        return sign_in(store, throttle, name, password, _client(request))

    # ------------------------------------------------------------------ sign in and out
    def login_form(request: Request) -> Response:
        if not any_users(store):
            return message(
                request, "No accounts", "This arena has no accounts: nothing to sign in to.", 404
            )
        next_ = _local(request.query_params.get("next"))
        return page(request, "login.html", "Sign in", next=next_, name="")

    async def login(request: Request) -> Response:
        form = await request.form()
        name, password = str(form.get("name", "")), str(form.get("password", ""))
        next_ = _local(str(form.get("next", "")))
        found = await run_in_threadpool(check_password, request, name, password)
        if not isinstance(found, UserRow):
            return page(
                request, "login.html", "Sign in", found.status, error=found.why, next=next_,
                name=name,
            )  # fmt: skip
        assert found.id is not None
        key = await run_in_threadpool(open_session, store, found.id)
        response = RedirectResponse(next_, 303)
        set_session_cookie(response, request, key)
        return response

    def logout(request: Request) -> Response:
        user = request.scope.get("user")
        if isinstance(user, Viewer) and user.via == "session":
            close_session(store, user.secret)
        response = RedirectResponse("/", 303)
        clear_session_cookie(response, request)
        return response

    # ------------------------------------------------------------------ sign up
    def signup_form(request: Request) -> Response:
        code = request.query_params.get("code", "")
        if not code:
            return message(request, "Sign up", "Signing up needs an invitation's link.", 400)
        return page(request, "signup.html", "Sign up", code=code, name="", min_length=MIN_LENGTH)

    async def signup(request: Request) -> Response:
        form = await request.form()
        code, name = str(form.get("code", "")), str(form.get("name", ""))
        password, again = str(form.get("password", "")), str(form.get("again", ""))
        try:
            if password != again:
                raise AccountError("the two passwords differ")
            user = await run_in_threadpool(redeem_invitation, store, code, name, password)
        except AccountError as exc:
            return page(
                request, "signup.html", "Sign up", 400, error=str(exc), code=code, name=name,
                min_length=MIN_LENGTH,
            )  # fmt: skip
        assert user.id is not None
        key = await run_in_threadpool(open_session, store, user.id)
        response = RedirectResponse("/account", 303)
        set_session_cookie(response, request, key)
        return response

    # ------------------------------------------------------------------ one's account
    def account_page(request: Request, status: int = 200, **context: Any) -> Response:
        user = signed_in(request)
        if not isinstance(user, UserRow):
            return user
        assert user.id is not None
        tokens = list_tokens(store, user.id)
        return page(
            request, "account.html", "Account", status, user=user, tokens=tokens,
            min_length=MIN_LENGTH, **context,
        )  # fmt: skip

    def account(request: Request) -> Response:
        revoked = database_id(request.query_params.get("changed", ""))
        notice = None if revoked is None else password_changed(revoked)
        return account_page(request, notice=notice)

    async def change_password(request: Request) -> Response:
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
            revoked = await run_in_threadpool(set_password, store, user.id, password)
        except AccountError as exc:
            return await run_in_threadpool(account_page, request, 400, error=str(exc))
        # every other browser signed in as this user is signed out; this one starts afresh
        await run_in_threadpool(close_user_sessions, store, user.id)
        key = await run_in_threadpool(open_session, store, user.id)
        response = RedirectResponse(f"/account?changed={revoked}", 303)
        set_session_cookie(response, request, key)
        return response

    async def new_token(request: Request) -> Response:
        user = signed_in(request)
        if not isinstance(user, UserRow):
            return user
        assert user.id is not None
        name = str((await request.form()).get("name", ""))
        try:
            row, value = await run_in_threadpool(create_token, store, user.id, name)
        except AccountError as exc:
            return await run_in_threadpool(account_page, request, 400, error=str(exc))
        return await run_in_threadpool(
            account_page, request, new_token=value, new_token_name=row.name
        )

    def revoke(request: Request) -> Response:
        user = signed_in(request)
        if not isinstance(user, UserRow):
            return user
        assert user.id is not None
        token_id = database_id(request.path_params["token_id"])
        try:
            revoke_token(store, user.id, token_id if token_id is not None else -1)
        except AccountError as exc:
            return account_page(request, 404, error=str(exc))
        return RedirectResponse("/account", 303)

    # ------------------------------------------------------------------ admins
    def users(request: Request) -> Response:
        user = admin(request)
        if not isinstance(user, UserRow):
            return user
        return page(request, "users.html", "Users", users=list_users(store))

    def disabling(disabled: bool) -> Callable[[Request], Response]:
        def endpoint(request: Request) -> Response:
            user = admin(request)
            if not isinstance(user, UserRow):
                return user
            try:
                set_disabled(store, request.path_params["name"], disabled)
            except AccountError as exc:
                return message(request, "Not found", str(exc), 404)
            return RedirectResponse("/admin/users", 303)

        return endpoint

    def bot_versions(request: Request) -> Response:
        user = admin(request)
        if not isinstance(user, UserRow):
            return user
        return page(
            request, "admin_bots.html", "Bot versions", bots=store.bots(),
            enable_states=ENABLE_STATES,
        )  # fmt: skip

    def bot_state(state: str) -> Callable[[Request], Any]:
        """``hegemon bot disable|enable NAME@vN`` from the admins' page: the form's
        ``version`` (blank: the latest, as a bare NAME on the command line) and ``reason``."""

        async def endpoint(request: Request) -> Response:
            user = admin(request)
            if not isinstance(user, UserRow):
                return user
            form = await request.form()
            name = request.path_params["name"]
            version = str(form.get("version", "")).strip().removeprefix("v")
            try:
                version = str(whole_number(version, "its number", 1)) if version else ""
            except ParamError as exc:
                why = f"bad version: {exc} (e.g. 2 for {name}@v2)"
                return message(request, "Bad version", why, 400)
            reason = str(form.get("reason", "")).strip() if state != ACTIVE else ""
            ref = f"{name}@v{version}" if version else name
            try:
                await run_in_threadpool(set_bot_state, store, ref, state, reason)
            except RegistryError as exc:
                return message(request, "Not found", str(exc), 404)
            return RedirectResponse("/admin/bots", 303)

        return endpoint

    def competitions_page(
        request: Request, status: int = 200, error: str | None = None, **forms: Any
    ) -> Response:
        user = admin(request)
        if not isinstance(user, UserRow):
            return user
        created = request.query_params.get("created")
        found = store.season_by_name(created) if created else None
        notice = None
        if found is not None:
            kind = "ladder" if found.is_ladder else "season"
            notice = f"created {kind} {found.name}: run it with hegemon season run {found.name}"
        return page(
            request, "competitions.html", "Ladders and seasons", status, error=error,
            notice=notice, presets=list(PRESETS), default_preset="classic", clocks=CLOCKS,
            default_time=default_time(), seasons=store.seasons(),
            ladder=forms.get("ladder", {}), season=forms.get("season", {}),
        )  # fmt: skip

    def competitions(request: Request) -> Response:
        return competitions_page(request)

    def creating(season: bool) -> Callable[[Request], Any]:
        """``hegemon season create`` (``season``) or ``ladder create`` from the admins' form:
        the same checks and creation; a refusal shows the form again with its one line."""
        make: Callable[[Store, Any], Any] = create_season if season else create_ladder

        async def endpoint(request: Request) -> Response:
            user = admin(request)
            if not isinstance(user, UserRow):
                return user
            form = {k: str(v) for k, v in (await request.form()).items() if k != "csrf"}
            try:
                created = await run_in_threadpool(make, store, competition_plan(form, season))
            except SetupError as exc:
                given = {"season" if season else "ladder": form}
                return await run_in_threadpool(competitions_page, request, 400, str(exc), **given)
            name = quote(created.season.name, safe="")
            return RedirectResponse(f"/admin/competitions?created={name}", 303)

        return endpoint

    async def void(request: Request) -> Response:
        user = admin(request)
        if not isinstance(user, UserRow):
            return user
        game_id = database_id(request.path_params["game_id"])
        reason = str((await request.form()).get("reason", ""))
        try:
            await run_in_threadpool(void_game, store, game_id or -1, user.name, reason)
        except AccountError as exc:
            return message(request, "Not found", str(exc), 404)
        return message(request, "Game voided", f"Game {game_id} is void: {reason}", 200)

    # ------------------------------------------------------------------ the API
    async def api_token(request: Request) -> Response:
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
                create_token, store, found.id, label or "hegemon login"
            )
        except AccountError as exc:
            return JSONResponse({"error": str(exc)}, 400)
        return JSONResponse(
            {"token": value, "id": row.id, "name": row.name, "user": found.name}, 201
        )

    def api_me(request: Request) -> Response:
        user = signed_in(request)
        if not isinstance(user, UserRow):
            return user
        return JSONResponse({"name": user.name, "role": user.role})

    return [
        Route("/login", login_form, methods=["GET"]),
        Route("/login", login, methods=["POST"]),
        Route("/logout", logout, methods=["POST"]),
        Route("/signup", signup_form, methods=["GET"]),
        Route("/signup", signup, methods=["POST"]),
        Route("/account", account, methods=["GET"]),
        Route("/account/password", change_password, methods=["POST"]),
        Route("/account/tokens", new_token, methods=["POST"]),
        Route("/account/tokens/{token_id}/revoke", revoke, methods=["POST"]),
        Route("/admin/users", users, methods=["GET"]),
        Route("/admin/users/{name}/disable", disabling(True), methods=["POST"]),
        Route("/admin/users/{name}/enable", disabling(False), methods=["POST"]),
        Route("/admin/games/{game_id}/void", void, methods=["POST"]),
        Route("/admin/bots", bot_versions, methods=["GET"]),
        Route("/admin/bots/{name}/disable", bot_state(DISABLED), methods=["POST"]),
        Route("/admin/bots/{name}/enable", bot_state(ACTIVE), methods=["POST"]),
        Route("/admin/competitions", competitions, methods=["GET"]),
        Route("/admin/ladders", creating(False), methods=["POST"]),
        Route("/admin/seasons", creating(True), methods=["POST"]),
        Route(TOKENS_PATH, api_token, methods=["POST"]),
        Route("/api/me", api_me, methods=["GET"]),
    ]
