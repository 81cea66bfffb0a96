"""The admins' event form on a real server (uvicorn on 127.0.0.1) with a real HTTP client: an
admin creates a final and lands on its page, which shows everyone the seed's hash (not the
seed) and the entrants; a refused form says why in one line and stores nothing; a member may
not create one."""

from __future__ import annotations

import re
from collections.abc import Iterator

import httpx
import pytest

from hegemon.leaderboard.accounts.users import add_user
from hegemon.leaderboard.store import Store
from hegemon.leaderboard.web.server import make_app
from tests.helpers.ladder import fake_bots
from tests.helpers.league import (  # noqa: F401  (home, store: fixtures)
    SeasonSpec,
    create_season,
    hegemon,
    home,
    store,
)
from tests.helpers.web_server import serving

PASSWORD = "a long password 1"
CSRF = re.compile(r'name=csrf value="([0-9a-f]+)"')


@pytest.fixture
def site(store: Store) -> Iterator[str]:
    fake_bots(store, 6)
    add_user(store, "ada", PASSWORD, "admin")
    add_user(store, "mel", PASSWORD, "member")
    with serving(make_app(store)) as url:
        yield url


OPEN: list[httpx.Client] = []


@pytest.fixture(autouse=True)
def _close_clients() -> Iterator[None]:
    yield
    while OPEN:
        OPEN.pop().close()


def signed_in(url: str, name: str) -> tuple[httpx.Client, str]:
    """A client signed in as ``name``, and its forms' CSRF token."""
    c = httpx.Client(base_url=url, follow_redirects=False, timeout=60)
    OPEN.append(c)
    token = CSRF.search(c.get("/login").text)
    assert token
    answer = c.post("/login", data={"name": name, "password": PASSWORD, "csrf": token[1]})
    assert answer.status_code == 303, answer.text
    token = CSRF.search(c.get("/admin/competitions" if name == "ada" else "/account").text)
    assert token
    return c, token[1]


FORM = {"name": "cup", "format": "knockout", "players": "4", "advance": "2", "set": "turn_limit=5"}


def test_an_admin_creates_a_final_on_the_form_and_everyone_sees_its_seed_hash(site, store):
    ada, csrf = signed_in(site, "ada")
    refused = ada.post(
        "/admin/events", data={**FORM, "bots": "bot00,bot01,bot02,bot03,bot04,bot05", "csrf": csrf}
    )
    assert refused.status_code == 400
    assert "a knockout of 6 bots at tables of 4" in refused.text
    assert 'value="bot00,bot01,bot02,bot03,bot04,bot05"' in refused.text  # the form kept
    assert store.seasons() == []

    made = ada.post(
        "/admin/events", data={**FORM, "bots": "bot03, bot01, bot02, bot00", "csrf": csrf}
    )
    assert made.status_code == 303 and made.headers["location"] == "/event/cup"
    shown = httpx.get(f"{site}/api/events/cup").json()  # a visitor
    assert [e["bot"] for e in shown["entrants"]] == ["bot03@v1", "bot01@v1", "bot02@v1", "bot00@v1"]
    assert shown["seed"] == "secret" and re.fullmatch("[0-9a-f]{64}", shown["seed_hash"])
    page = httpx.get(f"{site}/event/cup").text
    assert shown["seed_hash"] in page and "Standings so far" in page
    assert "cup" in httpx.get(f"{site}/events").text

    mel, token = signed_in(site, "mel")
    again = mel.post(
        "/admin/events",
        data={**FORM, "name": "cup2", "bots": "bot00,bot01,bot02,bot03", "csrf": token},
    )
    assert again.status_code == 403
    assert [s.name for s in store.seasons()] == ["cup"]


def test_an_events_season_is_shown_as_the_event_not_as_a_season(site, store, home):
    ada, csrf = signed_in(site, "ada")
    made = ada.post("/admin/events", data={**FORM, "bots": "bot00,bot01,bot02,bot03", "csrf": csrf})
    assert made.status_code == 303, made.text
    create_season(store, SeasonSpec(name="league", games=2), store.bots()[:4])
    front = httpx.get(f"{site}/").text  # a visitor
    assert '<a href="/event/cup">cup</a> <span class=kind>(final event)</span>' in front
    assert 'href="/season/cup"' not in front and 'href="/season/league"' in front
    listed = hegemon("season", "list", home=home)
    assert listed.returncode == 0, listed.stdout + listed.stderr
    assert "final events (not seasons; hegemon event list): cup" in listed.stdout
    rows = [line for line in listed.stdout.splitlines() if line.startswith("│")]
    assert any(" league " in r for r in rows) and not any(" cup " in r for r in rows)
