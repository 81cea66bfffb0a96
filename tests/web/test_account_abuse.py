"""Accounts against a stranger, on a real server over real HTTP (uvicorn on the loopback, httpx
as browsers and scripts, each "address" a different X-Forwarded-For from the trusted proxy):
no one can lock a member out by guessing at their name, simultaneous guesses get no more
password checks than the budget, simultaneous submissions no more bots than the quota (on
SQLite and PostgreSQL), names that look alike are one name, a password change revokes the API
tokens, and no number in a route or form is a 500."""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from starlette.routing import Route

from hegemon.leaderboard.accounts.invitations import create_invitation
from hegemon.leaderboard.accounts.throttle import LoginThrottle, Throttle
from hegemon.leaderboard.accounts.tokens import create_token
from hegemon.leaderboard.accounts.users import add_user, list_users
from hegemon.leaderboard.registry import find_source, pack_source
from hegemon.leaderboard.registry.upload import command_text
from hegemon.leaderboard.store import Store
from tests.helpers.league import pg_server, pg_url, register_samples, using_home  # noqa: F401
from tests.helpers.web_server import serving

PASSWORDS = {
    "ada": "ada's long admin password",
    "alice": "alice's long password",
    "bob": "bob's long password",
    "cat": "cat's long password",
    "pat": "pat's long password",
}
CSRF = re.compile(r'name=csrf value="([^"]+)"')
PAIR_FREE, ADDRESS_FREE = 3, 8  # failures free per account and address, and per address
POLITE = "from hegemon.sdk import Bot, run\n\n\nclass Polite(Bot):\n    name = 'polite'\n\n\n"


@dataclass
class Site:
    url: str
    store: Store
    app: Any


def strict() -> LoginThrottle:
    """Few free failures, then a wait longer than any test."""
    return LoginThrottle(
        Throttle(free=PAIR_FREE, first_wait=600), Throttle(free=ADDRESS_FREE, first_wait=600)
    )


def serve(store: Store) -> Any:
    """The app over ``store``, trusting the loopback as its proxy, sign-ins slowed strictly,
    and every simultaneous upload of these tests received (none turned away as busy: the quota,
    not the upload limit, is what they test)."""
    from hegemon.leaderboard.web.limits import WebLimits
    from hegemon.leaderboard.web.server import make_app

    return make_app(store, ["127.0.0.1"], strict(), limits=WebLimits(max_uploads=16))


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    """An arena with the sample bots (the organiser's: ``random``, ``planner``, …) and a few
    users, served by a real server."""
    home = tmp_path_factory.mktemp("abuse-home")
    with using_home(home), Store() as store:
        register_samples(store)
        for name, password in PASSWORDS.items():
            add_user(store, name, password, "admin" if name == "ada" else "member")
        app = serve(store)
        with serving(app) as url:
            yield Site(url, store, app)


OPEN: list[httpx.Client] = []


@pytest.fixture(autouse=True)
def _close_clients() -> Iterator[None]:
    yield
    while OPEN:
        OPEN.pop().close()


def client(url: str, address: str, **headers: str) -> httpx.Client:
    """A browser or script at ``address`` (as the trusted proxy says)."""
    made = httpx.Client(
        base_url=url,
        follow_redirects=False,
        timeout=120,
        headers={"X-Forwarded-For": address, **headers},
    )
    OPEN.append(made)
    return made


def csrf_of(c: httpx.Client, page: str = "/login") -> str:
    found = CSRF.search(c.get(page).text)
    assert found, f"{page} has no form with a CSRF token"
    return found.group(1)


def sign_in(url: str, address: str, name: str, password: str) -> httpx.Response:
    """A browser at ``address`` signing in on /login."""
    c = client(url, address)
    return c.post("/login", data={"name": name, "password": password, "csrf": csrf_of(c)})


def token_login(url: str, address: str, name: str, password: str) -> httpx.Response:
    """``hegemon login`` from ``address``: a token for a name and password."""
    return client(url, address).post("/api/tokens", json={"name": name, "password": password})


def signed_in(url: str, address: str, name: str) -> httpx.Client:
    c = client(url, address)
    form = {"name": name, "password": PASSWORDS[name], "csrf": csrf_of(c)}
    assert c.post("/login", data=form).status_code == 303
    return c


def at_once(count: int, call: Callable[[int], httpx.Response]) -> list[httpx.Response]:
    """``call(i)`` for ``i`` in ``range(count)``, each in its own thread, all released together
    (real simultaneous requests to the server, not one after another)."""
    start = threading.Barrier(count)
    answers: list[httpx.Response | None] = [None] * count

    def run(i: int) -> None:
        start.wait()
        answers[i] = call(i)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert all(a is not None for a in answers)
    return [a for a in answers if a is not None]


# ---------------------------------------------------------------------------------- lock-out
def test_a_stranger_guessing_at_a_name_cannot_lock_its_member_out(site):
    stranger, alice = "203.0.113.7", "198.51.100.20"
    answers = [sign_in(site.url, stranger, "alice", "a wrong guess").status_code for _ in range(6)]
    assert answers == [401] * PAIR_FREE + [429] * (6 - PAIR_FREE)
    assert token_login(site.url, stranger, "alice", "another guess").status_code == 429
    # alice, from her own address, signs in on the site and from the command line
    assert sign_in(site.url, alice, "alice", PASSWORDS["alice"]).status_code == 303
    made = token_login(site.url, alice, "alice", PASSWORDS["alice"])
    assert made.status_code == 201 and made.json()["user"] == "alice"
    # the stranger's right guess, had it come, is not even checked: the pair waits
    assert sign_in(site.url, stranger, "alice", PASSWORDS["alice"]).status_code == 429


def test_an_address_guessing_many_names_waits_for_every_name(site):
    guesser = "203.0.113.99"
    names = ["bob", "cat", "nobody", "bob", "cat", "nobody", "ada", "ada"]
    assert len(names) == ADDRESS_FREE
    assert [sign_in(site.url, guesser, n, "wrong").status_code for n in names] == [401] * 8
    # past the address's budget, even a right password from it waits (for any name) ...
    assert sign_in(site.url, guesser, "pat", PASSWORDS["pat"]).status_code == 429
    assert token_login(site.url, guesser, "pat", PASSWORDS["pat"]).status_code == 429
    # ... while the members themselves, elsewhere, are not slowed
    assert sign_in(site.url, "198.51.100.21", "bob", PASSWORDS["bob"]).status_code == 303


def test_simultaneous_guesses_get_no_more_password_checks_than_the_budget(site):
    guesser = "203.0.113.50"

    def guess(i: int) -> httpx.Response:
        return token_login(site.url, guesser, "cat", f"guess number {i}")

    statuses = sorted(a.status_code for a in at_once(24, guess))
    # 401: the password was checked (and wrong); 429: refused before any check
    assert statuses == [401] * PAIR_FREE + [429] * (24 - PAIR_FREE)


def test_simultaneous_sign_ins_of_one_member_all_succeed(site):
    address = "198.51.100.30"

    def right(i: int) -> httpx.Response:
        return token_login(site.url, address, "bob", PASSWORDS["bob"])

    assert [a.status_code for a in at_once(8, right)] == [201] * 8


# ---------------------------------------------------------------------------------- names
def signup(site: Site, name: str) -> httpx.Response:
    """Signing up as ``name`` with a new invitation."""
    code = create_invitation(site.store)
    c = client(site.url, "198.51.100.40")
    password = "a new member's long password"
    form = {"code": code, "name": name, "password": password, "again": password}
    return c.post("/signup", data={**form, "csrf": csrf_of(c, f"/signup?code={code}")})


@pytest.mark.parametrize("name", ["alice\n", " alice ", "ALICE", "Alice", "Al1ce", "AIice"])
def test_a_user_name_like_a_taken_one_is_refused(site, name):
    answer = signup(site, name)
    assert answer.status_code == 400, answer.text
    assert "taken" in answer.text


def test_a_user_name_is_the_whole_string(site):
    answer = signup(site, "eve\nsecond line")
    assert answer.status_code == 400 and "not a user name" in answer.text
    made = signup(site, " eve\n")  # stripped: eve
    assert made.status_code == 303
    browser = client(site.url, "198.51.100.41")
    browser.cookies = made.cookies
    assert browser.get("/api/me").json() == {
        "name": "eve",
        "role": "member",
    }


def bot_archive(folder: Path, text: str) -> tuple[bytes, str]:
    """The packed one-file bot ``text`` (as ``hegemon submit`` sends it) and its command."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "bot.py").write_text(text)
    source = find_source(str(folder / "bot.py"))
    return pack_source(source), command_text(source.command)


def submit(url: str, token: str, name: str, packed: tuple[bytes, str]) -> httpx.Response:
    """``hegemon submit``: the archive posted with the member's token."""
    return httpx.post(
        f"{url}/api/bots/{name}/versions",
        params={"command": packed[1]},
        content=packed[0],
        headers={"Authorization": f"Bearer {token}"},
        timeout=120,
    )


def token_of(store: Store, name: str) -> str:
    user = next(u for u in list_users(store) if u.name == name)
    assert user.id is not None
    return create_token(store, user.id, "test")[1]


@pytest.mark.parametrize("name", ["RANDOM", "Random", "rand0m", "p1anner", "PLANNER"])
def test_a_bot_name_like_a_registered_one_is_refused(site, tmp_path, name):
    packed = bot_archive(tmp_path, POLITE + f"# {name}\nrun(Polite())\n")
    answer = submit(site.url, token_of(site.store, "cat"), name, packed)
    assert answer.status_code == 409, answer.text
    assert "looks like" in answer.json()["error"]
    assert site.store.find_bot(name) is None


# ---------------------------------------------------------------------------------- quotas
@pytest.mark.parametrize(
    "backend", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]
)
def test_simultaneous_submissions_get_no_more_bots_than_the_quota(
    backend, request, tmp_path, monkeypatch
):
    monkeypatch.setenv("HEGEMON_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("HEGEMON_DB", raising=False)
    for quota in ("HEGEMON_QUOTA_BOTS", "HEGEMON_QUOTA_SUBMISSIONS", "HEGEMON_QUOTA_STORAGE"):
        monkeypatch.delenv(quota, raising=False)  # the defaults: 5 live bots
    target = request.getfixturevalue("pg_url") if backend == "postgres" else None
    packed = [bot_archive(tmp_path / f"b{i}", POLITE + f"# {i}\nrun(Polite())\n") for i in range(8)]
    with Store(target) as store:
        add_user(store, "dan", "dan's long password", "member")
        token = token_of(store, "dan")
        with serving(serve(store)) as url:
            answers = at_once(8, lambda i: submit(url, token, f"dans-bot-{i}", packed[i]))
        statuses = sorted(a.status_code for a in answers)
        assert statuses == [201] * 5 + [403] * 3, [a.text for a in answers]
        refused = [a.json()["error"] for a in answers if a.status_code == 403]
        assert all(e.startswith("refused: you have 5 live bots") for e in refused)
        kept = [b for b in store.bots() if b.name.startswith("dans-bot-")]
        assert len(kept) == 5


# ---------------------------------------------------------------------------------- passwords
def test_a_password_change_revokes_the_api_tokens_and_says_so(site):
    address = "198.51.100.50"
    made = token_login(site.url, address, "pat", PASSWORDS["pat"])
    assert made.status_code == 201
    script = client(site.url, address, Authorization=f"Bearer {made.json()['token']}")
    assert script.get("/api/me").status_code == 200
    browser = signed_in(site.url, address, "pat")
    new = "pat's new long password"
    form = {"current": PASSWORDS["pat"], "password": new, "again": new}
    changed = browser.post("/account/password", data={**form, "csrf": csrf_of(browser, "/account")})
    assert changed.status_code == 303
    page = browser.get(changed.headers["location"])
    assert page.status_code == 200
    assert "your API token is revoked" in page.text and "hegemon login" in page.text
    refused = script.get("/api/me")
    assert refused.status_code == 401 and "password change" in refused.json()["error"]
    again = token_login(site.url, address, "pat", new)
    assert again.status_code == 201
    fresh = client(site.url, address, Authorization=f"Bearer {again.json()['token']}")
    assert fresh.get("/api/me").json()["name"] == "pat"
    PASSWORDS["pat"] = new


# ---------------------------------------------------------------------------------- numbers
BAD_NUMBERS = ["9" * 23, "-1", "x", "1e3", "\N{SUPERSCRIPT TWO}"]
"""A number no database column holds, a negative one, and three that are no number."""


def numeric_routes(app: Any) -> list[tuple[str, str, list[str]]]:
    """(method, path, its numeric parameters) of every route with one (ids and seats): every
    parameter but a bot's name and an archive's content digest (a runner's, hex)."""
    found = []
    for route in app.routes:
        if isinstance(route, Route) and route.param_convertors:
            numeric = [p for p in route.param_convertors if p not in ("name", "digest")]
            if numeric:
                found += [
                    (m, route.path, numeric) for m in sorted(route.methods or ()) if m != "HEAD"
                ]
    return found


def test_every_numeric_route_parameter_refuses_a_bad_number_with_a_message(site):
    admin = signed_in(site.url, "198.51.100.60", "ada")  # sees every page there is
    csrf = csrf_of(admin, "/account")
    routes = numeric_routes(site.app)
    assert len(routes) >= 10, routes
    for method, path, params in routes:
        for param in params:
            for bad in BAD_NUMBERS:
                url = path
                for other in params:
                    url = url.replace("{" + other + "}", bad if other == param else "1")
                url = url.replace("{name}", "random")
                answer = admin.request(
                    method, url, data={"csrf": csrf} if method == "POST" else None
                )
                assert answer.status_code in (400, 404), (method, url, answer.status_code)
                assert answer.text.strip(), (method, url)


@pytest.mark.parametrize("version", ["9" * 23, "-1", "two", "0"])
def test_a_bad_version_to_disable_is_a_400_with_a_message(site, version):
    admin = signed_in(site.url, "198.51.100.61", "ada")
    form = {"version": version, "reason": "x", "csrf": csrf_of(admin, "/admin/bots")}
    answer = admin.post("/admin/bots/random/disable", data=form)
    assert answer.status_code == 400
    assert "version" in answer.text
    random = site.store.find_bot("random")
    assert random is not None and random.state == "active"


@pytest.mark.parametrize(
    "form, fragment",
    [
        ({"players": "9" * 40}, "--players must be at most 1000"),
        ({"games": "9" * 40}, "--games must be at most 1000000"),
        ({"max_strikes": "-" + "9" * 30}, "--max-strikes must be at least -1000000"),
        ({"seed": "9" * 60}, "--seed must be at most"),
        ({"decision_time": "1e999"}, "--decision-time must be a number of seconds"),
        ({"decision_time": "nan"}, "--decision-time must be a number of seconds"),
    ],
)
def test_a_huge_number_in_a_competition_form_is_a_400(site, form, fragment):
    admin = signed_in(site.url, "198.51.100.62", "ada")
    base = {"name": "huge", "players": "3", "bots": "random, aggressive, planner", "games": "3"}
    data = {**base, **form, "csrf": csrf_of(admin, "/admin/competitions")}
    answer = admin.post("/admin/seasons", data=data)
    assert answer.status_code == 400
    assert fragment in answer.text
    assert site.store.season_by_name("huge") is None


@pytest.mark.parametrize("query", ["page=" + "9" * 30, "page=-4", "page=x", "page=%C2%B2"])
def test_a_bad_page_number_is_the_first_or_last_page_never_a_500(site, query):
    assert client(site.url, "198.51.100.63").get(f"/games?{query}").status_code == 200
    api = client(site.url, "198.51.100.63").get(f"/api/games?{query.replace('page', 'offset')}")
    assert api.status_code == 200


def test_a_stolen_session_cannot_guess_the_password_unthrottled(site):
    thief = signed_in(site.url, "203.0.113.80", "bob")
    csrf = csrf_of(thief, "/account")

    def change(current: str) -> httpx.Response:
        form = {"current": current, "password": "x" * 20, "again": "x" * 20, "csrf": csrf}
        return thief.post("/account/password", data=form)

    for i in range(PAIR_FREE):
        wrong = change(f"guess {i}")
        assert wrong.status_code == 400 and "the current password is wrong" in wrong.text
    waiting = change(PASSWORDS["bob"])  # even the right one, now
    assert waiting.status_code == 400 and "too many failed sign-ins" in waiting.text
    assert token_login(site.url, "198.51.100.70", "bob", PASSWORDS["bob"]).status_code == 201
