"""Accounts on a real server over real HTTP (uvicorn on the loopback, httpx as the browser):
who may open which route (the access-control table: every route of the app × anonymous,
member, owner, admin), who sees a bot's logs and fault details, CSRF, the cookies' flags,
invitations, disabled users, token revocation, login throttling and admin actions."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlmodel import select

from hegemon.leaderboard.accounts.invitations import create_invitation
from hegemon.leaderboard.accounts.throttle import LoginThrottle, Throttle
from hegemon.leaderboard.accounts.users import add_user
from hegemon.leaderboard.ladder import ladder_entrants
from hegemon.leaderboard.store import BotRow, InvitationRow, MatchRow, Store, utcnow
from hegemon.referee.runner.botlog import logs_dir, seat_log
from tests.helpers.league import hegemon
from tests.helpers.web import Page, browser, store_season  # noqa: F401 (browser: a fixture)
from tests.helpers.web_server import serving

PASSWORDS = {
    "ada": "ada's long admin password",
    "mel": "mel owns the crashing bot",
    "olga": "olga owns no bot at all",
    "dora": "dora may be disabled soon",
}
ROLES = ("anonymous", "member", "owner", "admin")
USER_OF = {"member": "olga", "owner": "mel", "admin": "ada"}
LOG_TEXT = "SECRET-LOG-LINE of the owner's bot"
CSRF = re.compile(r'name=csrf value="([^"]+)"')
LENIENT = LoginThrottle(Throttle(free=10_000), Throttle(free=10_000))


@dataclass
class Arena:
    store: Store
    url: str  # trusts 127.0.0.1 as a reverse proxy
    strict_url: str  # trusts no proxy, and slows sign-ins after a few failures
    faulty_game: int  # a game where mel's bot crashed (its log kept)
    seat: int  # mel's bot's seat in it
    bot_id: int  # mel's bot
    quiet_game: int  # a game without faults


@pytest.fixture(scope="module")
def arena(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Arena]:
    from hegemon.leaderboard.web.server import make_app

    home = tmp_path_factory.mktemp("accounts-home")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("HEGEMON_HOME", str(home))
        mp.delenv("HEGEMON_DB", raising=False)
        store = Store()
        season = store_season(store, home / "records", "league", games=10, seed=5)
        assert season.id is not None
        users = {
            name: add_user(store, name, pw, "admin" if name == "ada" else "member")
            for name, pw in PASSWORDS.items()
        }
        games = store.games(season.id)
        match, game = next((m, g) for m, g in games if g.faults)
        quiet = next(g for _, g in games if not g.faults)
        seat = game.faults[0]["seat"]
        bot_id = match.seats[seat]
        with store.session(write=True) as s:
            bot = s.get(BotRow, bot_id)
            assert bot is not None
            bot.owner_id = users["mel"].id
            s.add(bot)
        log = seat_log(logs_dir(Path(game.record_path)), seat)
        log.parent.mkdir(parents=True, exist_ok=True)
        log.write_text(LOG_TEXT, encoding="utf-8")
        strict = LoginThrottle(Throttle(free=3, first_wait=600), Throttle(free=6, first_wait=600))
        try:
            with (
                serving(make_app(store, ["127.0.0.1"], LENIENT)) as url,
                serving(make_app(store, (), strict)) as strict_url,
            ):
                assert game.id is not None and quiet.id is not None
                yield Arena(store, url, strict_url, game.id, seat, bot_id, quiet.id)
        finally:
            store.close()


OPEN: list[httpx.Client] = []


@pytest.fixture(autouse=True)
def _close_clients() -> Iterator[None]:
    yield
    while OPEN:
        OPEN.pop().close()


def client(url: str, **kwargs: Any) -> httpx.Client:
    """A browser (or a script) of its own: cookies kept, redirects not followed."""
    made = httpx.Client(base_url=url, follow_redirects=False, timeout=60, **kwargs)
    OPEN.append(made)
    return made


def csrf_of(c: httpx.Client, page: str = "/login") -> str:
    """The CSRF token of the forms ``page`` shows to this client."""
    found = CSRF.search(c.get(page).text)
    assert found, f"{page} has no form with a CSRF token"
    return found.group(1)


def signed_in(url: str, name: str, **kwargs: Any) -> httpx.Client:
    c = client(url, **kwargs)
    answer = c.post("/login", data={"name": name, "password": PASSWORDS[name], "csrf": csrf_of(c)})
    assert answer.status_code == 303, answer.text
    return c


def as_role(arena: Arena, role: str) -> httpx.Client:
    if role == "anonymous":
        c = client(arena.url)
        csrf_of(c)  # a browser that has seen a form: it holds the pre-sign-in cookie
        return c
    return signed_in(arena.url, USER_OF[role])


# ---------------------------------------------------------------------------------- the table
OK = (200, 200, 200, 200)
SIGNED_IN = (303, 200, 200, 200)  # anonymous: sent to sign in
ADMINS = (303, 403, 403, 200)
ADMIN_ACTION = (303, 403, 403, 404)  # on things that do not exist: nothing changes
ADMIN_REFUSED = (303, 403, 403, 400)  # bad input: nothing changes
RUNNERS = (401, 401, 401, 401)  # a runner token's routes: nobody signed in may use them
WRONG_PASSWORD = {"name": "nobody", "password": "not the password"}
NEW_PASSWORD = {"current": "wrong", "password": "0123456789ab", "again": "0123456789ab"}

# (method, route) -> (url, form or json body, expected status of anonymous, member, owner,
# admin). Every route of the app must have a row: a new route without one fails the test.
TABLE: dict[tuple[str, str], tuple[str, dict[str, Any] | None, tuple[int, int, int, int]]] = {
    ("GET", "/"): ("/", None, OK),
    ("GET", "/season/{name}"): ("/season/league", None, OK),
    ("GET", "/season/{name}/live"): ("/season/league/live", None, OK),
    ("GET", "/bots"): ("/bots", None, OK),
    ("GET", "/bot/{bot_id}"): ("/bot/{bot}", None, OK),
    ("GET", "/games"): ("/games", None, OK),
    ("GET", "/game/{game_id}"): ("/game/{game}", None, OK),
    ("GET", "/api"): ("/api", None, OK),
    ("GET", "/api/leaderboard"): ("/api/leaderboard", None, OK),
    ("GET", "/api/seasons"): ("/api/seasons", None, OK),
    ("GET", "/api/seasons/{name}"): ("/api/seasons/league", None, OK),
    ("GET", "/api/seasons/{name}/history"): ("/api/seasons/league/history", None, OK),
    ("GET", "/api/bots"): ("/api/bots", None, OK),
    ("GET", "/api/bots/{bot_id}"): ("/api/bots/{bot}", None, OK),
    ("GET", "/api/bots/{bot_id}/history"): ("/api/bots/{bot}/history", None, OK),
    ("GET", "/api/games"): ("/api/games", None, OK),
    ("GET", "/api/games/{game_id}"): ("/api/games/{game}", None, OK),
    ("GET", "/api/games/{game_id}/record"): ("/api/games/{game}/record", None, OK),
    ("GET", "/api/games/{game_id}/logs/{seat}"): (
        "/api/games/{game}/logs/{seat}",
        None,
        (401, 403, 200, 200),
    ),
    # games in play: public (no game in play here: 404 for everyone, the list empty)
    ("GET", "/live/{match_id}"): ("/live/999999", None, (404, 404, 404, 404)),
    ("GET", "/live/{match_id}/events"): ("/live/999999/events", None, (404, 404, 404, 404)),
    ("GET", "/api/live"): ("/api/live", None, OK),
    ("GET", "/static"): ("/static/style.css", None, OK),
    ("GET", "/login"): ("/login", None, OK),
    ("POST", "/login"): ("/login", WRONG_PASSWORD, (401, 401, 401, 401)),
    ("GET", "/signup"): ("/signup?code=no-such-code", None, OK),
    ("POST", "/signup"): (
        "/signup",
        {"code": "no-such-code", "name": "zed", "password": "x" * 12, "again": "x" * 12},
        (400, 400, 400, 400),
    ),
    ("GET", "/account"): ("/account", None, SIGNED_IN),
    ("POST", "/account/password"): ("/account/password", NEW_PASSWORD, (303, 400, 400, 400)),
    ("POST", "/account/tokens"): ("/account/tokens", {"name": "from the table"}, SIGNED_IN),
    ("POST", "/account/tokens/{token_id}/revoke"): (
        "/account/tokens/999999/revoke",
        {},
        (303, 404, 404, 404),
    ),
    ("GET", "/admin/users"): ("/admin/users", None, ADMINS),
    ("POST", "/admin/users/{name}/disable"): ("/admin/users/nobody/disable", {}, ADMIN_ACTION),
    ("POST", "/admin/users/{name}/enable"): ("/admin/users/nobody/enable", {}, ADMIN_ACTION),
    ("POST", "/admin/games/{game_id}/void"): ("/admin/games/999999/void", {}, ADMIN_ACTION),
    ("GET", "/admin/bots"): ("/admin/bots", None, ADMINS),
    ("POST", "/admin/bots/{name}/disable"): ("/admin/bots/nobody/disable", {}, ADMIN_ACTION),
    ("POST", "/admin/bots/{name}/enable"): ("/admin/bots/nobody/enable", {}, ADMIN_ACTION),
    ("GET", "/admin/competitions"): ("/admin/competitions", None, ADMINS),
    # a name no season may have: nothing is created, the admin gets the form and its error
    ("POST", "/admin/ladders"): ("/admin/ladders", {"name": "no spaces"}, ADMIN_REFUSED),
    ("POST", "/admin/seasons"): ("/admin/seasons", {"name": "no spaces"}, ADMIN_REFUSED),
    ("POST", "/api/tokens"): ("/api/tokens", WRONG_PASSWORD, (401, 401, 401, 401)),
    ("GET", "/api/me"): ("/api/me", None, (401, 200, 200, 200)),
    ("GET", "/api/me/bots"): ("/api/me/bots", None, (401, 200, 200, 200)),
    # submitting (a form body is no bot archive: refused, nothing stored)
    ("POST", "/api/bots/{name}/versions"): ("/api/bots/table/versions", {}, (401, 400, 400, 400)),
    ("GET", "/api/versions/{bot_id}"): ("/api/versions/{bot}", None, (401, 404, 200, 200)),
    ("GET", "/me/bots"): ("/me/bots", None, SIGNED_IN),
    ("POST", "/me/bots"): ("/me/bots", {}, (303, 400, 400, 400)),
    ("GET", "/me/bots/{bot_id}/log"): ("/me/bots/{bot}/log", None, (401, 404, 200, 200)),
    # notifications and webhooks: each member's own (a hook that is not theirs: 404)
    ("GET", "/me/notifications"): ("/me/notifications", None, SIGNED_IN),
    ("POST", "/me/notifications/read"): ("/me/notifications/read", {}, (303, 303, 303, 303)),
    ("GET", "/api/notifications"): ("/api/notifications", None, (401, 200, 200, 200)),
    ("POST", "/account/hooks"): ("/account/hooks", {"url": "ftp://x"}, (303, 400, 400, 400)),
    ("POST", "/account/hooks/{hook_id}/delete"): (
        "/account/hooks/999999/delete",
        {},
        (303, 404, 404, 404),
    ),
    ("POST", "/account/digest"): ("/account/digest", {"digest": "off"}, (303, 303, 303, 303)),
    # teams (who in a team may do what: tests/web/test_teams.py's own table)
    ("GET", "/teams/{name}"): ("/teams/no-such-team", None, (404, 404, 404, 404)),
    ("POST", "/teams"): ("/teams", {"name": "no spaces"}, (303, 400, 400, 400)),
    ("POST", "/teams/{name}/{action}"): ("/teams/nope/accept", {}, (303, 404, 404, 404)),
    ("GET", "/api/teams/{name}"): ("/api/teams/no-such-team", None, (404, 404, 404, 404)),
    ("GET", "/api/me/teams"): ("/api/me/teams", None, (401, 200, 200, 200)),
    ("POST", "/api/teams"): ("/api/teams", {}, (401, 400, 400, 400)),
    ("POST", "/api/teams/{name}/{action}"): ("/api/teams/nope/leave", {}, (401, 404, 404, 404)),
    # choosing the version that plays: the owner's (and an admin's); a form is no JSON: 400
    ("POST", "/api/bots/{name}/pin"): ("/api/bots/{name}/pin", {}, (401, 403, 400, 400)),
    ("POST", "/me/bots/{name}/pin"): ("/me/bots/{name}/pin", {"version": ""}, (303, 403, 303, 303)),
    # test games on demand: each member's own (no ladder here: the owner's is refused, 400)
    ("POST", "/api/challenges"): ("/api/challenges", {}, (401, 400, 400, 400)),
    ("GET", "/api/challenges/{challenge_id}"): (
        "/api/challenges/999999",
        None,
        (401, 404, 404, 404),
    ),
    ("GET", "/api/me/challenges"): ("/api/me/challenges", None, (401, 200, 200, 200)),
    ("GET", "/challenge/{challenge_id}"): ("/challenge/999999", None, (303, 404, 404, 404)),
    ("POST", "/bot/{bot_id}/challenges"): (
        "/bot/{bot}/challenges",
        {"games": "2"},
        (303, 403, 400, 400),
    ),
    ("POST", "/logout"): ("/logout", {}, (303, 303, 303, 303)),
    # final events: public pages (a season that is no event is not shown as one); the admins
    # create them (a bad name: nothing is created, the admin gets the form and its error)
    ("GET", "/events"): ("/events", None, OK),
    ("GET", "/event/{name}"): ("/event/league", None, (404, 404, 404, 404)),
    ("GET", "/api/events"): ("/api/events", None, OK),
    ("GET", "/api/events/{name}"): ("/api/events/league", None, (404, 404, 404, 404)),
    ("POST", "/admin/events"): ("/admin/events", {"name": "no spaces"}, ADMIN_REFUSED),
    # the runners' API: a runner token's only, never a member's session (nor an admin's)
    ("POST", "/api/runner/claim"): ("/api/runner/claim", {}, RUNNERS),
    ("POST", "/api/runner/heartbeat"): ("/api/runner/heartbeat", {}, RUNNERS),
    ("POST", "/api/runner/release"): ("/api/runner/release", {}, RUNNERS),
    ("GET", "/api/runner/archives/{digest}"): ("/api/runner/archives/" + "0" * 64, None, RUNNERS),
    ("POST", "/api/runner/result"): ("/api/runner/result", {}, RUNNERS),
}


def table_routes() -> set[tuple[str, str]]:
    """(method, path) of every route of the server's one route table (HEAD answers as GET
    does): the app serves exactly these (``test_the_app_serves_the_route_table``)."""
    from starlette.routing import Mount, Route

    from hegemon.leaderboard.web.routes import ROUTES

    found: set[tuple[str, str]] = set()
    for route in ROUTES:
        if isinstance(route, Route):
            found.update((m, route.path) for m in route.methods or () if m != "HEAD")
        elif isinstance(route, Mount):
            found.add(("GET", route.path))
        else:
            pytest.fail(f"a route of an unknown kind: {route!r}")
    return found


def test_the_app_serves_the_route_table():
    from hegemon.leaderboard.web.routes import ROUTES
    from hegemon.leaderboard.web.server import make_app

    with Store("sqlite:///:memory:") as store:
        assert make_app(store).routes == ROUTES


def test_every_route_has_a_row_in_the_access_table():
    routes = table_routes()
    assert sorted(routes - TABLE.keys()) == [], "routes without a row in TABLE"
    assert sorted(TABLE.keys() - routes) == [], "rows of TABLE for routes that are gone"


def test_the_access_table(arena):
    owned = arena.store.get_bot(arena.bot_id)
    assert owned is not None
    ids = {"game": arena.faulty_game, "seat": arena.seat, "bot": arena.bot_id, "name": owned.name}
    clients = {role: as_role(arena, role) for role in ROLES}
    csrf = {role: csrf_of(c, "/login") for role, c in clients.items()}
    answers: dict[tuple[str, str], list[int]] = {}
    # the sign-out last: it ends the sessions the other rows use
    for (method, route), (url, body, _) in sorted(
        TABLE.items(), key=lambda r: r[0][1] == "/logout"
    ):
        path = url.format(**ids)
        for role in ROLES:
            c = clients[role]
            if method == "GET":
                answer = c.get(path)
            elif route == "/api/tokens":
                answer = c.post(path, json=body)
            else:
                answer = c.post(path, data={**(body or {}), "csrf": csrf[role]})
            answers.setdefault((method, route), []).append(answer.status_code)
    wrong = {
        key: (tuple(got), TABLE[key][2])
        for key, got in answers.items()
        if tuple(got) != TABLE[key][2]
    }
    assert wrong == {}, "(got, expected) for anonymous, member, owner, admin"


# ---------------------------------------------------------------------------------- who sees what
@pytest.mark.parametrize("role", ROLES)
def test_a_bots_logs_and_fault_details_only_for_its_owner_and_admins(arena, role):
    c = as_role(arena, role)
    private = role in ("owner", "admin")
    log = c.get(f"/api/games/{arena.faulty_game}/logs/{arena.seat}")
    assert (LOG_TEXT in log.text) == private
    faults = c.get(f"/api/bots/{arena.bot_id}").json()["faults"]
    assert faults and all((f["detail"] is not None) == private for f in faults)
    logged = [f["log"] for f in faults if f["game"] == arena.faulty_game]
    assert logged == [private]
    link = f"/api/games/{arena.faulty_game}/logs/{arena.seat}"
    assert (link in c.get(f"/bot/{arena.bot_id}").text) == private
    game = c.get(f"/api/games/{arena.faulty_game}").json()
    assert all((f["detail"] is not None) == private for f in game["faults"])
    assert ("secret log" in str(game["replay"])) == private
    assert ("secret log" in c.get(f"/api/games/{arena.faulty_game}/record").text) == private
    listed = c.get("/api/games?fault=yes").json()["games"]
    mine = [g for g in listed if g["id"] == arena.faulty_game]
    assert mine and all((f["detail"] is not None) == private for f in mine[0]["faults"])
    # the rest is public: the game, its replay and its result
    assert c.get(f"/game/{arena.faulty_game}").status_code == 200


# ---------------------------------------------------------------------------------- CSRF, cookies
def test_a_state_change_without_its_csrf_token_is_refused(arena):
    owner, member = signed_in(arena.url, "mel"), signed_in(arena.url, "olga")
    mine, theirs = csrf_of(owner, "/account"), csrf_of(member, "/account")

    def tokens_named(name: str) -> int:
        return owner.get("/account").text.count(f"<td class=l>{name}</td>")

    assert owner.post("/account/tokens", data={"name": "no-token"}).status_code == 403
    assert (
        owner.post("/account/tokens", data={"name": "no-token", "csrf": "0" * 64}).status_code
        == 403
    )
    assert (
        owner.post("/account/tokens", data={"name": "no-token", "csrf": theirs}).status_code == 403
    )
    assert owner.post("/logout", data={"csrf": theirs}).status_code == 403
    assert tokens_named("no-token") == 0
    assert owner.post("/account/tokens", data={"name": "by-form", "csrf": mine}).status_code == 200
    answer = owner.post(
        "/account/tokens", data={"name": "by-header"}, headers={"X-CSRF-Token": mine}
    )
    assert answer.status_code == 200
    assert tokens_named("by-form") == tokens_named("by-header") == 1
    # a sign-in form posted from elsewhere (no pre-sign-in cookie) is refused too
    stranger = client(arena.url)
    data = {"name": "mel", "password": PASSWORDS["mel"], "csrf": mine}
    assert stranger.post("/login", data=data).status_code == 403
    # a Bearer token is no ambient credential: no CSRF token needed
    token = owner.post("/api/tokens", json={"name": "mel", "password": PASSWORDS["mel"]}).json()
    script = client(arena.url, headers={"Authorization": f"Bearer {token['token']}"})
    assert script.post("/account/tokens", data={"name": "by-script"}).status_code == 200


def cookie(answer: httpx.Response, name: str) -> list[str]:
    """The attributes of the cookie ``name`` that ``answer`` sets, lowercased."""
    found = [c for c in answer.headers.get_list("set-cookie") if c.startswith(f"{name}=")]
    assert len(found) == 1, answer.headers.get_list("set-cookie")
    return [part.strip().lower() for part in found[0].split(";")[1:]]


def sign_in_answer(url: str, **headers: str) -> httpx.Response:
    """mel signing in with a browser that sends ``headers``. Its pre-sign-in cookie is sent
    back by hand: over HTTPS (as a proxy says) it is Secure, and the client, talking plain
    HTTP to the loopback, would keep it to itself."""
    c = client(url, headers=headers)
    form = c.get("/login")
    found = CSRF.search(form.text)
    assert found
    presession = re.search(r"hegemon_csrf=([^;]+)", form.headers["set-cookie"])
    assert presession
    c.cookies.clear()
    data = {"name": "mel", "password": PASSWORDS["mel"], "csrf": found.group(1)}
    return c.post("/login", data=data, headers={"Cookie": f"hegemon_csrf={presession.group(1)}"})


def test_the_session_cookie_is_httponly_samesite_and_secure_behind_https(arena):
    plain = cookie(sign_in_answer(arena.url), "hegemon_session")
    assert "httponly" in plain and "samesite=lax" in plain and "path=/" in plain
    assert "secure" not in plain
    presession = cookie(client(arena.url).get("/login"), "hegemon_csrf")
    assert "httponly" in presession and "samesite=lax" in presession
    # HTTPS as the trusted proxy (127.0.0.1 for this server) says: Secure
    https = cookie(sign_in_answer(arena.url, **{"X-Forwarded-Proto": "https"}), "hegemon_session")
    assert "secure" in https and "httponly" in https
    # the same header from an address the server does not trust changes nothing
    other = sign_in_answer(arena.strict_url, **{"X-Forwarded-Proto": "https"})
    assert "secure" not in cookie(other, "hegemon_session")


# ---------------------------------------------------------------------------------- accounts
def signup(url: str, code: str, name: str, password: str) -> httpx.Response:
    c = client(url)
    token = csrf_of(c, f"/signup?code={code}")
    form = {"code": code, "name": name, "password": password, "again": password, "csrf": token}
    return c.post("/signup", data=form)


def test_an_invitation_makes_one_account_before_it_expires(arena):
    code = create_invitation(arena.store)
    first = signup(arena.url, code, "ivy", "ivy's long password")
    assert first.status_code == 303 and first.headers["location"] == "/account"
    me = client(arena.url, cookies=first.cookies).get("/api/me").json()
    assert me == {"name": "ivy", "role": "member"}
    again = signup(arena.url, code, "ivan", "ivan's long password")
    assert again.status_code == 400 and "already used" in again.text
    late = create_invitation(arena.store, lifetime=timedelta(minutes=5))
    with arena.store.session(write=True) as s:
        for row in s.exec(select(InvitationRow).where(InvitationRow.used_by == None)):  # noqa: E711
            row.expires_at = utcnow() - timedelta(seconds=1)
            s.add(row)
    expired = signup(arena.url, late, "ike", "ike's long password")
    assert expired.status_code == 400 and "expired" in expired.text


def test_a_disabled_user_is_refused_everywhere_at_once(arena):
    dora = signed_in(arena.url, "dora")
    token = dora.post("/api/tokens", json={"name": "dora", "password": PASSWORDS["dora"]}).json()
    script = client(arena.url, headers={"Authorization": f"Bearer {token['token']}"})
    assert script.get("/api/me").status_code == 200
    admin = signed_in(arena.url, "ada")
    csrf = csrf_of(admin, "/admin/users")
    assert admin.post("/admin/users/dora/disable", data={"csrf": csrf}).status_code == 303
    try:
        assert dora.get("/api/me").status_code == 401  # the session no longer signs in
        assert script.get("/api/me").status_code == 401  # nor the token
        refused = sign_in_answer_as(arena.url, "dora")
        assert refused.status_code == 403 and "disabled" in refused.text
    finally:
        assert admin.post("/admin/users/dora/enable", data={"csrf": csrf}).status_code == 303
    assert sign_in_answer_as(arena.url, "dora").status_code == 303
    assert script.get("/api/me").status_code == 200


def sign_in_answer_as(url: str, name: str) -> httpx.Response:
    c = client(url)
    return c.post("/login", data={"name": name, "password": PASSWORDS[name], "csrf": csrf_of(c)})


def test_a_revoked_token_stops_working(arena):
    owner = signed_in(arena.url, "mel")
    made = client(arena.url).post(
        "/api/tokens", json={"name": "mel", "password": PASSWORDS["mel"], "token_name": "ci"}
    )
    assert made.status_code == 201
    token = made.json()
    script = client(arena.url, headers={"Authorization": f"Bearer {token['token']}"})
    assert script.get("/api/me").json()["name"] == "mel"
    page = owner.get("/account").text
    row = re.search(rf'<tr data-token="{token["id"]}">(.*?)</tr>', page, re.S)
    assert row and "never" not in row.group(1) and "active" in row.group(1)
    assert token["token"] not in page  # listed, never shown again
    csrf = csrf_of(owner, "/account")
    revoked = owner.post(f"/account/tokens/{token['id']}/revoke", data={"csrf": csrf})
    assert revoked.status_code == 303
    assert script.get("/api/me").status_code == 401
    # another member cannot revoke mel's tokens
    other = signed_in(arena.url, "olga")
    second = (
        client(arena.url)
        .post("/api/tokens", json={"name": "mel", "password": PASSWORDS["mel"]})
        .json()
    )
    answer = other.post(
        f"/account/tokens/{second['id']}/revoke", data={"csrf": csrf_of(other, "/account")}
    )
    assert answer.status_code == 404
    kept = client(arena.url, headers={"Authorization": f"Bearer {second['token']}"})
    assert kept.get("/api/me").status_code == 200


def test_sign_ins_are_slowed_per_account_and_per_address(arena):
    url = arena.strict_url  # 3 failures free per account and address, 6 per address
    wrong = {"name": "mel", "password": "a wrong password"}
    attempts = [sign_in_answer_with(url, wrong).status_code for _ in range(4)]
    assert attempts == [401, 401, 401, 429]
    # the right password is not even checked while the account waits
    assert (
        sign_in_answer_with(url, {"name": "mel", "password": PASSWORDS["mel"]}).status_code == 429
    )
    # another account from the same address still signs in (the address is under its limit)
    assert (
        sign_in_answer_with(url, {"name": "ada", "password": PASSWORDS["ada"]}).status_code == 303
    )
    # guessing many names from one address: the address waits, whatever the account
    for name in ("olga", "olga", "dora"):
        assert sign_in_answer_with(url, {"name": name, "password": "wrong"}).status_code == 401
    right = {"name": "ada", "password": PASSWORDS["ada"]}
    assert sign_in_answer_with(url, right).status_code == 429
    api = client(url).post("/api/tokens", json=right)
    assert api.status_code == 429


def sign_in_answer_with(url: str, form: dict[str, str]) -> httpx.Response:
    c = client(url)
    return c.post("/login", data={**form, "csrf": csrf_of(c)})


def test_an_admin_voids_a_game_and_it_leaves_the_results(arena):
    before = client(arena.url).get("/api/games").json()["total"]
    admin = signed_in(arena.url, "ada")
    member = signed_in(arena.url, "olga")
    path = f"/admin/games/{arena.quiet_game}/void"
    assert f'action="{path}"' in admin.get(f"/game/{arena.quiet_game}").text
    assert f'action="{path}"' not in member.get(f"/game/{arena.quiet_game}").text
    assert member.post(path, data={"csrf": csrf_of(member, "/account")}).status_code == 403
    done = admin.post(path, data={"csrf": csrf_of(admin, "/account"), "reason": "wrong version"})
    assert done.status_code == 200
    assert client(arena.url).get(f"/api/games/{arena.quiet_game}").status_code == 404
    assert client(arena.url).get("/api/games").json()["total"] == before - 1
    with arena.store.session() as s:
        voided = s.exec(select(MatchRow).where(MatchRow.status == "void")).all()
    assert [m.last_error for m in voided] == ["voided by ada: wrong version"]


# ---------------------------------------------------------------------------------- admin pages
NEW_POSTS = ("/admin/bots/random/disable", "/admin/bots/random/enable", "/admin/ladders",
             "/admin/seasons")  # fmt: skip
ERROR_LINE = re.compile(r"<p class=error role=alert>(.*?)</p>", re.S)


def the_error(answer: httpx.Response) -> str:
    """The one error line a page shows (exactly one, on one line)."""
    found = ERROR_LINE.findall(answer.text)
    assert len(found) == 1, answer.text
    assert "\n" not in found[0]
    return found[0]


def test_the_new_admin_actions_refuse_a_post_without_its_csrf_token(arena):
    admin, member = signed_in(arena.url, "ada"), signed_in(arena.url, "olga")
    theirs = csrf_of(member, "/account")
    seasons, states = len(arena.store.seasons()), [b.state for b in arena.store.bots()]
    forms = {
        "/admin/ladders": {"name": "csrf-ladder"},
        "/admin/seasons": {"name": "csrf-season", "bots": "random, aggressive, planner"},
    }
    for path in NEW_POSTS:
        form = forms.get(path, {"version": "1"})
        assert admin.post(path, data=form).status_code == 403, path
        assert admin.post(path, data={**form, "csrf": theirs}).status_code == 403, path
        assert admin.post(path, data={**form, "csrf": "0" * 64}).status_code == 403, path
    assert len(arena.store.seasons()) == seasons
    assert [b.state for b in arena.store.bots()] == states


def test_an_admin_creates_a_ladder_and_a_season_from_the_web(arena):
    admin, member = signed_in(arena.url, "ada"), signed_in(arena.url, "olga")
    form_page = admin.get("/admin/competitions")
    assert form_page.status_code == 200
    assert 'action="/admin/ladders"' in form_page.text and "<option>classic-2004" in form_page.text
    assert 'href="/admin/competitions"' in form_page.text  # in the admin's top bar
    assert 'href="/admin/competitions"' not in member.get("/").text
    csrf = csrf_of(admin, "/admin/competitions")
    ladder = {"name": "web-ladder", "rules": "classic-2004", "set": "turn_limit=30",
              "players": "3", "time": "30+0.5", "clock": "wall", "csrf": csrf}  # fmt: skip
    made = admin.post("/admin/ladders", data=ladder)
    assert made.status_code == 303
    assert made.headers["location"] == "/admin/competitions?created=web-ladder"
    shown = admin.get(made.headers["location"]).text
    assert "created ladder web-ladder: run it with hegemon season run web-ladder" in shown
    row = arena.store.season_by_name("web-ladder")
    assert row is not None and row.is_ladder and row.preset == "classic-2004"
    assert (row.players, row.options["turn_limit"]) == (3, 30)
    assert (row.time_bank, row.time_increment, row.time_clock) == (30, 0.5, "wall")
    bots = ["random", "aggressive", "planner"]
    season = {"name": "web-season", "rules": "classic", "players": "3",
              "bots": ", ".join(bots), "games": "6", "seed": "7", "csrf": csrf}  # fmt: skip
    made = admin.post("/admin/seasons", data=season)
    assert made.status_code == 303, made.text
    row = arena.store.season_by_name("web-season")
    assert row is not None and not row.is_ladder and (row.games, row.seed) == (6, 7)
    assert row.id is not None
    assert [b.name for b in arena.store.season_bots(row.id)] == bots
    assert len(arena.store.matches(row.id)) == 6
    # the command line sees them as its own (a process of its own: the tables of this
    # process's console keep the width it was made with, which may be too narrow for a name)
    cli_env = {**os.environ, "COLUMNS": "200"}  # the arena's home, and room for the names
    listed = hegemon("ladder", "list", env=cli_env)
    assert listed.returncode == 0 and "web-ladder" in listed.stdout, listed.stderr
    listed = hegemon("season", "list", env=cli_env)
    assert listed.returncode == 0 and "web-season" in listed.stdout, listed.stderr
    # a name taken: the form again, with one line
    again = admin.post("/admin/ladders", data=ladder)
    assert again.status_code == 400
    assert the_error(again) == "a season named &#39;web-ladder&#39; already exists"


@pytest.mark.parametrize(
    "path, form, fragment",
    [
        ("/admin/ladders", {"name": "no spaces"}, "bad ladder name"),
        ("/admin/ladders", {"rules": "clasic"}, "did you mean &#39;classic&#39;"),
        ("/admin/ladders", {"set": "dice=7"}, "unknown option &#39;dice&#39;"),
        ("/admin/ladders", {"set": "turn_limit"}, "must look like NAME=VALUE"),
        ("/admin/ladders", {"players": "9"}, "not 9 (--players)"),
        ("/admin/ladders", {"players": "four"}, "--players must be a whole number"),
        ("/admin/ladders", {"time": "60+x"}, "bad time control &#39;60+x&#39;"),
        ("/admin/ladders", {"max_strikes": "-1"}, "--max-strikes cannot be negative"),
        ("/admin/ladders", {"decision_time": "0"}, "--decision-time must be positive"),
        ("/admin/seasons", {"players": "2"}, "not 2 (--players)"),
        ("/admin/seasons", {"bots": "random, zed, planner"}, "unknown bot &#39;zed&#39;"),
        ("/admin/seasons", {"bots": "random, random, planner"}, "--bots lists random@v1 twice"),
        ("/admin/seasons", {"bots": ""}, "--bots names no bot"),
        ("/admin/seasons", {"games": "0"}, "--games must be at least 1"),
        ("/admin/seasons", {"players": "5"}, "need at least 5 different bots"),
    ],
)
def test_bad_competition_input_gives_the_form_back_with_one_line(arena, path, form, fragment):
    admin = signed_in(arena.url, "ada")
    base = {"name": "refused", "players": "3", "bots": "random, aggressive, planner"}
    before = len(arena.store.seasons())
    answer = admin.post(path, data={**base, **form, "csrf": csrf_of(admin, "/admin/competitions")})
    assert answer.status_code == 400
    assert fragment in the_error(answer)
    assert 'action="/admin/ladders"' in answer.text  # the form again, as it was filled
    assert f'value="{form.get("name", "refused")}"' in answer.text
    assert len(arena.store.seasons()) == before


def test_an_admin_disables_a_bot_version_and_enables_it_again(arena):
    admin, member = signed_in(arena.url, "ada"), signed_in(arena.url, "olga")
    target = next(b for b in ladder_entrants(arena.store) if b.id != arena.bot_id)
    assert target.id is not None
    listing = admin.get("/admin/bots")
    assert f'action="/admin/bots/{target.name}/disable"' in listing.text
    assert member.get("/admin/bots").status_code == 403
    csrf = csrf_of(admin, "/admin/bots")
    form = {"version": f"v{target.version}", "reason": "plays too slowly", "csrf": csrf}
    assert member.post(f"/admin/bots/{target.name}/disable", data={
        **form, "csrf": csrf_of(member, "/account")}).status_code == 403  # fmt: skip
    try:
        done = admin.post(f"/admin/bots/{target.name}/disable", data=form)
        assert (done.status_code, done.headers["location"]) == (303, "/admin/bots")
        row = arena.store.get_bot(target.id)
        assert row is not None and (row.state, row.reason) == ("disabled", "plays too slowly")
        assert target.id not in [b.id for b in ladder_entrants(arena.store)]
        assert f'action="/admin/bots/{target.name}/enable"' in admin.get("/admin/bots").text
    finally:
        again = admin.post(
            f"/admin/bots/{target.name}/enable", data={"version": str(target.version),
                                                       "csrf": csrf}
        )  # fmt: skip
    assert again.status_code == 303
    row = arena.store.get_bot(target.id)
    assert row is not None and row.state == "active"
    assert target.id in [b.id for b in ladder_entrants(arena.store)]
    # a version or a bot that does not exist: 404 with its one line, nothing changed
    missing = admin.post(f"/admin/bots/{target.name}/disable", data={"version": "99",
                                                                     "csrf": csrf})  # fmt: skip
    assert missing.status_code == 404 and f"bot {target.name} has no version 99" in missing.text
    unknown = admin.post("/admin/bots/nobody/disable", data={"csrf": csrf})
    assert unknown.status_code == 404 and "unknown bot &#39;nobody&#39;" in unknown.text
    bad = admin.post(f"/admin/bots/{target.name}/disable", data={"version": "x", "csrf": csrf})
    assert bad.status_code == 400 and "bad version" in bad.text
    assert [b.state for b in arena.store.bots(target.name)][-1] == "active"


def test_signing_in_and_making_a_token_in_a_real_browser(arena, browser, tmp_path):
    """The forms as Chromium submits them: sign in, the account page, a token shown once, the
    top bar naming the user; no console error anywhere."""
    tab = Page(browser, tmp_path)
    try:
        page = tab.open(f"{arena.url}/bot/{arena.bot_id}", "bot-anonymous")
        assert page.locator("a.log").count() == 0
        page.click("text=sign in")
        page.fill("input[name=name]", "mel")
        page.fill("input[name=password]", PASSWORDS["mel"])
        page.click("button:has-text('sign in')")
        page.wait_for_url(f"{arena.url}/")
        assert page.locator("header.top a[href='/account']").inner_text() == "mel"
        page = tab.open(f"{arena.url}/bot/{arena.bot_id}", "bot-owner")
        assert page.locator("a.log").count() == 1
        page = tab.open(f"{arena.url}/account", "account")
        page.fill("input[name=name][placeholder=laptop]", "from chromium")
        page.click("button:has-text('create a token')")
        assert page.locator("code.token").inner_text().startswith("hgm_")
        page.screenshot(path=str(tmp_path / "token-shown.png"))
        assert tab.errors == []
    finally:
        tab.close()


def test_an_admin_creates_a_ladder_in_a_real_browser(arena, browser, tmp_path):
    """The admins' form as Chromium submits it: the top bar's link, the form, the notice and
    the new ladder listed; no console error anywhere."""
    tab = Page(browser, tmp_path)
    try:
        page = tab.open(f"{arena.url}/login", "login")
        page.fill("input[name=name]", "ada")
        page.fill("input[name=password]", PASSWORDS["ada"])
        page.click("button:has-text('sign in')")
        page.wait_for_url(f"{arena.url}/")
        page.click("header.top a[href='/admin/competitions']")
        page.wait_for_url(f"{arena.url}/admin/competitions")
        ladder = page.locator("form[action='/admin/ladders']")
        ladder.locator("input[name=name]").fill("chromium-ladder")
        ladder.locator("select[name=rules]").select_option("classic-2004")
        ladder.locator("input[name=set]").fill("turn_limit=20")
        ladder.locator("input[name=players]").fill("3")
        ladder.locator("button").click()
        page.wait_for_url(f"{arena.url}/admin/competitions?created=chromium-ladder")
        assert "created ladder chromium-ladder" in page.locator("p.notice").inner_text()
        assert page.locator("tr[data-season='chromium-ladder']").count() == 1
        page.screenshot(path=str(tmp_path / "ladder-created.png"), full_page=True)
        page = tab.open(f"{arena.url}/admin/bots", "versions")
        assert page.locator("form[action$='/disable'] button").count() > 0
        assert tab.errors == []
    finally:
        tab.close()
    row = arena.store.season_by_name("chromium-ladder")
    assert row is not None and row.is_ladder and row.options["turn_limit"] == 20
