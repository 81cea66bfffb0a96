"""Test games on demand on a member's real path: a real ``hegemon arena`` (web server, runner,
notifier) over a home with a two-player ladder, members signed in with ``hegemon login``. Ann
asks for games of her bot from the command line and from her bot's page (Chromium); the games
are played, their results and the SPRT are shown to her alone, their replays to everyone, each
seat's log to its owner; nothing reaches a board; she is told when they finish. Bad input is one
line, never a 500; the quotas hold under simultaneous requests (a web server without runners)."""

from __future__ import annotations

import contextlib
import json
import re
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlmodel import select

from hegemon.leaderboard.store import ChallengeRow, Store
from tests.helpers.challenges import LADDER, PASSWORD, challenge_arena
from tests.helpers.league import env_for, hegemon, one_line_error, using_home, wait_for
from tests.helpers.web import Page, browser, sign_in  # noqa: F401 (browser: a fixture)
from tests.helpers.web_server import running_web


@dataclass
class Arena:
    home: Path
    url: str
    ids: dict[str, int]  # bot name -> its active version's id
    configs: dict[str, Path]  # member -> XDG_CONFIG_HOME (signed in there)


def login(home: Path, url: str, name: str) -> Path:
    """``hegemon login`` as ``name`` in a config folder of its own."""
    config = home / f"config-{name}"
    done = hegemon(
        "login", url, "--name", name, "--password-stdin",
        env=env_for(home, XDG_CONFIG_HOME=str(config)), stdin=PASSWORD + "\n",
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    return config


@pytest.fixture(scope="module")
def arena(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Arena]:
    home = tmp_path_factory.mktemp("challenges-home")
    ids = challenge_arena(home)
    with running_web(home, home / "arena.log", ("arena", "--workers", "1")) as url:
        configs = {name: login(home, url, name) for name in ("ann", "bob")}
        yield Arena(home, url, ids, configs)


def challenge(arena: Arena, user: str, *args: str):
    env = env_for(arena.home, XDG_CONFIG_HOME=str(arena.configs[user]))
    return hegemon("challenge", *args, env=env, timeout=900)


CLIENTS = contextlib.ExitStack()
"""The API clients the tests open, closed after each test (:func:`_closed`)."""


@pytest.fixture(autouse=True)
def _closed() -> Iterator[None]:
    yield
    CLIENTS.close()


def api(url: str, name: str | None) -> httpx.Client:
    """An API client of ``name`` (a token of theirs) or of an anonymous visitor."""
    client = CLIENTS.enter_context(httpx.Client(base_url=url, timeout=60))
    if name is not None:
        made = client.post(
            "/api/tokens", json={"name": name, "password": PASSWORD, "token_name": "tests"}
        )
        assert made.status_code == 201, made.text
        client.headers["Authorization"] = f"Bearer {made.json()['token']}"
    return client


@pytest.mark.slow
def test_a_member_challenges_from_the_command_line_and_alone_sees_the_results(arena):
    done = challenge(arena, "ann", "annbot", "--vs", "planner", "--games", "4", "--wait")
    assert done.returncode == 0, done.stdout + done.stderr
    found = re.search(r"^challenge (\d+): annbot@v1 against planner@v1", done.stdout, re.M)
    assert found, done.stdout
    assert "4 of 4 played · finished" in done.stdout
    assert re.search(r"^SPRT: games 4 · score [01]\.\d{3} · .* · LLR [-+]\d", done.stdout, re.M)
    number = int(found.group(1))
    ann, bob, anyone = api(arena.url, "ann"), api(arena.url, "bob"), api(arena.url, None)
    data = ann.get(f"/api/challenges/{number}").json()
    assert data["finished"] and data["done"] == 4 and len(data["results"]) == 4
    sprt = data["sprt"]
    assert sprt["games"] == 4 == sprt["wins"] + sprt["draws"] + sprt["losses"]
    seats = [g["seats"] for g in data["results"]]
    assert [s.index("annbot@v1") for s in seats] == [0, 1, 0, 1]  # both seats on each deal
    assert bob.get(f"/api/challenges/{number}").status_code == 404
    assert anyone.get(f"/api/challenges/{number}").status_code == 401
    page = ann.get(f"/challenge/{number}")
    assert sprt["line"] in page.text and f"/game/{data['results'][0]['id']}" in page.text
    # the replays are public; each seat's log is its owner's
    game = data["results"][0]
    assert anyone.get(f"/game/{game['id']}").status_code == 200
    mine, theirs = seats[0].index("annbot@v1"), seats[0].index("planner@v1")
    assert ann.get(f"/api/games/{game['id']}/logs/{mine}").status_code == 200
    assert bob.get(f"/api/games/{game['id']}/logs/{mine}").status_code == 403
    assert ann.get(f"/api/games/{game['id']}/logs/{theirs}").status_code == 403
    # on no board and in no rating
    season = anyone.get(f"/api/games/{game['id']}").json()["season"]
    assert season.startswith("challenge-")
    boards = anyone.get("/api/leaderboard").json()["boards"]
    assert all(b["seasons"] == [LADDER] for b in boards)
    assert [s["name"] for s in anyone.get("/api/seasons").json()["seasons"]] == [LADDER]
    assert anyone.get(f"/api/seasons/{season}").status_code == 404
    assert anyone.get(f"/season/{season}").status_code == 404
    rated = anyone.get(f"/api/bots/{arena.ids['annbot']}").json()["seasons"]
    assert {s["season"] for s in rated} <= {LADDER}

    def told() -> list[dict[str, Any]]:
        notices = ann.get("/api/notifications").json()["notices"]
        return [n for n in notices if n["event"] == "challenge.finished"]

    wait_for("ann's notice of the finish", told)
    [notice] = told()
    assert notice["link"] == f"/challenge/{number}" and notice["body"] == sprt["line"]
    assert bob.get("/api/notifications").json()["notices"] == []  # nothing of ann's


@pytest.mark.slow
def test_a_members_challenges_are_listed_and_their_games_link_only_they_may_open(arena):
    carl = env_for(arena.home, XDG_CONFIG_HOME=str(login(arena.home, arena.url, "carl")))
    numbers = []
    for games in ("2", "1"):
        done = hegemon(
            "challenge", "carlbot", "--vs", "planner", "--games", games, "--wait",
            env=carl, timeout=900,
        )  # fmt: skip
        found = re.search(r"^challenge (\d+):", done.stdout, re.M)
        assert done.returncode == 0 and found, done.stdout + done.stderr
        numbers.append(int(found.group(1)))
    first, second = numbers
    owner, other, ada = api(arena.url, "carl"), api(arena.url, "dora"), api(arena.url, "ada")
    anyone = api(arena.url, None)
    listed = owner.get("/api/me/challenges").json()["challenges"]
    assert [c["id"] for c in listed] == [second, first]  # newest first
    full = owner.get(f"/api/challenges/{first}").json()
    assert listed[1]["done"] == 2 == listed[1]["games"] and listed[1]["finished"]
    assert listed[1]["opponents"] == ["planner@v1"] and listed[1]["sprt"] == full["sprt"]["line"]
    assert other.get("/api/me/challenges").json() == {"challenges": []}  # none of carl's
    assert anyone.get("/api/me/challenges").status_code == 401
    # hegemon me: the same list, and a table of it
    shown = hegemon("me", "--json", env=carl)
    assert shown.returncode == 0 and json.loads(shown.stdout)["challenges"] == listed
    text = hegemon("me", env=carl).stdout
    row = next(line for line in text.splitlines() if re.match(rf"│ {first} +│", line))
    assert "carlbot@v1" in row and "planner@v1" in row and "2 of 2 · finished" in row
    assert full["sprt"]["line"][:40] in text.split("challenges", 1)[1]
    # its games' pages: a test game, linked to the challenge for whoever may open it only
    game = full["results"][0]["id"]
    for client, linked in ((owner, True), (ada, True), (other, False), (anyone, False)):
        page = client.get(f"/game/{game}")
        assert page.status_code == 200 and "a test game (unrated)" in page.text
        assert 'href="/season/' not in page.text  # a challenge has no season page
        assert (f'href="/challenge/{first}"' in page.text) is linked
        if linked:
            assert client.get(f"/challenge/{first}").status_code == 200


BAD = [
    (["nosuch", "--vs", "planner"], "no bot named nosuch"),
    (["bobbot", "--vs", "planner"], "bobbot is not your bot"),
    (["annbot", "--version", "2", "--vs", "planner"], "annbot@v2 is refused"),
    (["annbot", "--version", "7", "--vs", "planner"], "annbot has no version 7"),
    (["annbot", "--vs", "planner", "--games", "1000"], "ask for 1 to 100 games"),
    (["annbot", "--vs", "planner", "--games", "0"], "ask for 1 to 100 games"),
    (["annbot", "--vs", "nosuch"], "no active bot named nosuch"),
    (["annbot", "--vs", "annbot"], "annbot cannot play against itself"),
    (["annbot", "--vs", "planner", "--ladder", "nosuch"], "no ladder named nosuch"),
]


@pytest.mark.parametrize(("args", "said"), BAD, ids=[said for _, said in BAD])
def test_bad_input_is_one_line_and_stores_nothing(arena, args, said):
    line = one_line_error(challenge(arena, "ann", *args))
    assert said in line and "/tmp" not in line


def stored_challenges(arena: Arena) -> int:
    with using_home(arena.home), Store(create=False) as store, store.session() as s:
        return len(s.exec(select(ChallengeRow)).all())


def test_bad_api_bodies_are_refused_with_one_line(arena):
    ann, before = api(arena.url, "ann"), stored_challenges(arena)
    for body in ("not json", "[1, 2]", '{"bot": "annbot", "games": "many"}', '{"games": 3}'):
        answer = ann.post("/api/challenges", content=body)
        assert answer.status_code == 400 and "\n" not in answer.json()["error"], body
    assert stored_challenges(arena) == before  # none of these stored


def test_the_owner_asks_from_the_bots_page_in_a_browser(arena, browser, tmp_path):
    bot = arena.ids["annbot"]
    anyone = api(arena.url, None)
    assert "play test games" not in anyone.get(f"/bot/{bot}").text  # the owner's form only
    tab = Page(browser, tmp_path)
    page = tab.open(f"{arena.url}/login?next=/bot/{bot}", "login")
    sign_in(page, "ann", PASSWORD)
    page.wait_for_url(f"**/bot/{bot}")
    page.fill("form.challenge input[name=vs]", "random")
    page.fill("form.challenge input[name=games]", "2")
    page.click("form.challenge button")
    page.wait_for_url("**/challenge/*")
    status = page.text_content("#challenge-status") or ""
    assert "annbot@v1 against random@v1" in status and "of 2 games played" in status
    page.screenshot(path=str(tmp_path / "challenge.png"), full_page=True)
    tab.close()


# ---------------------------------------------------------------------------------- quotas
QUOTAS = {"HEGEMON_QUOTA_CHALLENGES": "3", "HEGEMON_QUOTA_CHALLENGE_GAMES": "10"}


@pytest.fixture(scope="module")
def web_only(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[Path, str, dict[str, int]]]:
    """The same arena served without runners (nothing finishes), with small quotas."""
    home = tmp_path_factory.mktemp("quota-home")
    ids = challenge_arena(home)
    with running_web(home, home / "web.log", **QUOTAS) as url:
        yield home, url, ids


def at_once(url: str, name: str, body: dict[str, Any], count: int) -> list[httpx.Response]:
    """``count`` requests of ``body`` by ``name`` sent together (released by one barrier)."""
    clients = [api(url, name) for _ in range(count)]
    start = threading.Barrier(count)
    answers: list[httpx.Response] = []

    def send(client: httpx.Client) -> None:
        start.wait()
        answers.append(client.post("/api/challenges", json=body))

    threads = [threading.Thread(target=send, args=(c,)) for c in clients]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers


def test_the_quotas_hold_under_simultaneous_requests(web_only):
    home, url, ids = web_only
    games = at_once(url, "ann", {"bot": "annbot", "vs": ["planner"], "games": 4}, 6)
    assert sorted(a.status_code for a in games) == [201] * 2 + [429] * 4  # 10 games a day
    assert all("challenge games a day" in a.json()["error"] for a in games if a.status_code != 201)
    flight = at_once(url, "bob", {"bot": "bobbot", "vs": ["planner"], "games": 1}, 6)
    assert sorted(a.status_code for a in flight) == [201] * 3 + [429] * 3  # 3 in flight
    assert all("still playing" in a.json()["error"] for a in flight if a.status_code != 201)
    with using_home(home), Store(create=False) as store, store.session() as s:
        stored = list(s.exec(select(ChallengeRow)).all())
    theirs = {ids["annbot"], ids["bobbot"]}
    assert sorted(c.games for c in stored if c.bot_id in theirs) == [1, 1, 1, 4, 4]


def test_without_opponents_a_version_meets_its_ladder_neighbour(web_only):
    _, url, _ = web_only
    asked = api(url, "carl").post("/api/challenges", json={"bot": "carlbot", "games": 2})
    assert asked.status_code == 201, asked.text
    data = asked.json()
    assert data["chosen"] == f"neighbours on {LADDER}" and data["games"] == 2
    # no ladder game played yet: every rating alike, the nearest is the first other name
    assert [o["bot"] for o in data["opponents"]] == ["aggressive@v1"]
    assert data["done"] == 0 and not data["finished"] and data["results"] == []
