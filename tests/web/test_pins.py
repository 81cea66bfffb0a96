"""Choosing the version that plays, on a real ``hegemon web`` over a real SQLite file, through
the real command line (``hegemon login``, ``hegemon pin``, ``hegemon unpin``), a real HTTP
client and Chromium: the ladder's board has one row per bot (the version now playing, with its
own rating and games), a bot's page lists every version with its rating, games and state, a
pin rolls a bot back in new matches, bad input and another member's bot get one line."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from hegemon.leaderboard.accounts.teams import find_team
from hegemon.leaderboard.accounts.users import add_user
from hegemon.leaderboard.ladder import fill_queue
from hegemon.leaderboard.store import BotRow, SeasonRow, Store
from hegemon.leaderboard.store.versions import DISABLED, REFUSED
from tests.helpers.ladder import drive, fake_bots, make_ladder, past_games
from tests.helpers.league import env_for, hegemon, one_line_error
from tests.helpers.web import Page, browser, sign_in  # noqa: F401 (browser: a fixture)
from tests.helpers.web_server import cli_logins, running_web

PASSWORD = "a long enough password"
USERS = {"mel": "member", "olga": "member", "ada": "admin"}
CSRF = re.compile(r'name=csrf value="([^"]+)"')
BOT = "bot01"  # mel's
NOT_YOURS = f"{BOT} is not your bot: only its owner may choose its version"


@dataclass
class Arena:
    home: Path
    url: str
    store: Store
    ladder: SeasonRow
    ids: dict[int, int]  # mel's bot's version -> its id
    configs: dict[str, Path]  # user -> XDG_CONFIG_HOME (signed in there)


@pytest.fixture(scope="module")
def arena(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Arena]:
    """A ladder of six bots (rows that are never run; games stored as a runner would): mel's
    ``bot01`` has v1 (retired, with games), v2 (active, with games), v3 refused and v4
    disabled. ``hegemon web`` over it; each user signed in with ``hegemon login``."""
    home = tmp_path_factory.mktemp("pins-home")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("HEGEMON_HOME", str(home))
        mp.delenv("HEGEMON_DB", raising=False)
        store = Store()
        users = {u: add_user(store, u, PASSWORD, role) for u, role in USERS.items()}
        fake_bots(store, 6)
        ladder = make_ladder(store)
        past_games(store, ladder, 24)
        with store.session(write=True) as s:
            v1 = s.get(BotRow, _id(store, BOT, 1))
            assert v1 is not None
            v1.owner_id = users["mel"].id
            for version, state in ((2, "queued"), (3, REFUSED), (4, DISABLED)):
                s.add(
                    BotRow(
                        name=BOT, version=version, command=["true"], language="x",
                        content_hash=f"{version:064x}", owner_id=users["mel"].id, state=state,
                        reason="" if state == "queued" else f"the reason for v{version}",
                    )
                )  # fmt: skip
        store.set_state(_id(store, BOT, 2), "active")  # v2 passed its check: v1 retires
        drive(store, ladder, 16)  # v2 plays first: it has games of its own
        ids = {v: _id(store, BOT, v) for v in (1, 2, 3, 4)}
    try:
        with running_web(home, home / "web.log") as url:
            configs = cli_logins(home, url, dict.fromkeys(USERS, PASSWORD))
            yield Arena(home, url, store, ladder, ids, configs)
    finally:
        store.close()


def _id(store: Store, name: str, version: int) -> int:
    found = store.find_bot(name, version)
    assert found is not None and found.id is not None
    return found.id


def run(arena: Arena, user: str, *args: str):
    """``hegemon ARGS`` as ``user`` (signed in to the arena) in a process of its own."""
    return hegemon(*args, env=env_for(arena.home, XDG_CONFIG_HOME=str(arena.configs[user])))


def board(arena: Arena) -> dict[str, Any]:
    answer = httpx.get(f"{arena.url}/api/seasons/{arena.ladder.name}", timeout=60)
    assert answer.status_code == 200
    return answer.json()["board"]


def versions(arena: Arena) -> dict[int, dict[str, Any]]:
    """Mel's bot's versions as its page's JSON lists them, by number."""
    answer = httpx.get(f"{arena.url}/api/bots/{arena.ids[1]}", timeout=60)
    return {v["version"]: v for v in answer.json()["versions"]}


def ladder_games(arena: Arena, bot_id: int) -> int:
    assert arena.ladder.id is not None
    return sum(bot_id in m.seats for m, _ in arena.store.games(arena.ladder.id))


def token_client(arena: Arena, user: str) -> httpx.Client:
    config = json.loads(next(arena.configs[user].rglob("*.json")).read_text())
    headers = {"Authorization": f"Bearer {config['token']}"}
    return httpx.Client(base_url=arena.url, headers=headers, timeout=60)


@contextmanager
def signed_in(arena: Arena, user: str) -> Iterator[tuple[httpx.Client, str]]:
    """A browser-like client signed in as ``user`` through the form, and its CSRF token."""
    with httpx.Client(base_url=arena.url, timeout=60) as c:
        token = CSRF.search(c.get("/login").text)
        assert token is not None
        form = {"name": user, "password": PASSWORD, "csrf": token.group(1)}
        assert c.post("/login", data=form).status_code == 303
        found = CSRF.search(c.get("/account").text)
        assert found is not None
        yield c, found.group(1)


def row_of(rows: list[dict[str, Any]], name: str) -> dict[str, Any]:
    [row] = [r for r in rows if r["bot"] == name]
    return row


# ---------------------------------------------------------------------------------- the board
def test_the_board_has_one_row_per_bot_the_version_now_playing(arena: Arena) -> None:
    rows = board(arena)["rows"]
    assert len(rows) == len({r["bot"] for r in rows}) == 6
    mel = row_of(rows, BOT)
    assert mel["version"] == 2 and mel["games"] == ladder_games(arena, arena.ids[2])
    assert [r["rank"] for r in rows] == list(range(1, 7))
    page = httpx.get(f"{arena.url}/season/{arena.ladder.name}", timeout=60).text
    shown = re.findall(r"<tr data-bot=\"([^\"]+)\"", page.split('<table class="data board')[1])
    assert sorted(shown) == sorted(r["label"] for r in rows)  # the page: the same six rows
    assert "1 row of earlier versions not shown" in page


def test_a_bots_page_lists_every_version_with_its_rating_games_and_state(arena: Arena) -> None:
    found = versions(arena)
    assert {v: found[v]["state"] for v in found} == {
        1: "retired", 2: "active", 3: REFUSED, 4: DISABLED,
    }  # fmt: skip
    assert found[2]["marks"] == ["playing"] and found[1]["marks"] == []
    for version in (1, 2):  # each with its own games, as many as it played
        [standing] = found[version]["standings"]
        assert standing["games"] == ladder_games(arena, arena.ids[version]) > 0
        assert standing["rating"] is not None
    assert found[3]["standings"] == [] and found[4]["standings"] == []
    page = httpx.get(f"{arena.url}/bot/{arena.ids[2]}", timeout=60).text
    assert re.search(r"<td class='l state'>active · playing</td>", page)
    assert re.search(r"<td class='l state'>refused</td>", page)


# ---------------------------------------------------------------------------------- pinning
def test_a_member_rolls_back_from_the_command_line_and_unpins(arena: Arena) -> None:
    assert arena.ladder.id is not None
    done = run(arena, "mel", "pin", BOT, "v1")
    assert done.returncode == 0, done.stderr
    assert f"{BOT} is pinned to v1: {BOT} v1 plays" in done.stdout
    try:
        mel = row_of(board(arena)["rows"], BOT)  # the board: v1, with its own figures
        assert mel["version"] == 1 and mel["games"] == ladder_games(arena, arena.ids[1])
        found = versions(arena)
        assert found[1]["marks"] == ["pinned", "playing"] and found[2]["marks"] == []
        me = run(arena, "mel", "me", "--json")  # hegemon me says it too
        [mine] = json.loads(me.stdout)["bots"]
        assert {v["version"]: v["marks"] for v in mine["versions"]}[1] == ["pinned", "playing"]
        before = max(m.number for m in arena.store.matches(arena.ladder.id))
        fill_queue(arena.store, arena.ladder, depth=4)  # the matchmaker seats v1, never v2
        made = [m.seats for m in arena.store.matches(arena.ladder.id) if m.number > before]
        assert made and all(arena.ids[2] not in seats for seats in made)
        assert any(arena.ids[1] in seats for seats in made)
    finally:
        undone = run(arena, "mel", "unpin", BOT, "--json")
    assert undone.returncode == 0, undone.stderr
    assert json.loads(undone.stdout) | {"message": ""} == {
        "name": BOT, "pinned": None, "playing": 2, "message": "",
    }  # fmt: skip
    assert row_of(board(arena)["rows"], BOT)["version"] == 2


@pytest.mark.parametrize(
    ("version", "status", "says"),
    [
        (3, 409, "bot01@v3 is refused: the reason for v3; only a version that passed its check"),
        (4, 409, "bot01@v4 is disabled: the reason for v4"),
        (99, 404, "bot01 has no version 99 (its versions: 1 to 4)"),
        (10**40, 400, "the version must be at most 1000000000"),
        ("-1", 400, "the version must be at least 1"),
        ("two", 400, "the version must be a whole number; got 'two'"),
        (True, 400, "bad version: give a version number"),
        ([1], 400, "bad version: give a version number"),
    ],
)
def test_bad_versions_get_one_line_and_change_nothing(
    arena: Arena, version: Any, status: int, says: str
) -> None:
    with token_client(arena, "mel") as mel:
        answer = mel.post(f"/api/bots/{BOT}/pin", json={"version": version})
    assert answer.status_code == status
    error = answer.json()["error"]
    assert says in error and "\n" not in error and str(arena.home) not in error
    assert row_of(board(arena)["rows"], BOT)["version"] == 2


def test_no_one_pins_another_members_bot(arena: Arena) -> None:
    with token_client(arena, "olga") as olga:
        answer = olga.post(f"/api/bots/{BOT}/pin", json={"version": 1})
        assert answer.status_code == 403
        assert (
            answer.json()["error"]
            == f"{BOT} is not your bot: only its owner may choose its version"
        )
        assert olga.post("/api/bots/no-such-bot/pin", json={"version": 1}).status_code == 404
    anonymous = httpx.post(f"{arena.url}/api/bots/{BOT}/pin", json={"version": 1}, timeout=60)
    assert anonymous.status_code in (401, 403)  # no token, no cookie (a browser's: 401)
    refused = run(arena, "olga", "pin", BOT, "1")
    assert one_line_error(refused) == f"error: not changed: {NOT_YOURS}"
    with signed_in(arena, "olga") as (c, csrf):
        assert "class=pin" not in c.get(f"/bot/{arena.ids[2]}").text  # no form for her
        form = c.post(f"/me/bots/{BOT}/pin", data={"version": "1", "csrf": csrf})
        assert form.status_code == 403 and "is not your bot" in form.text
    assert row_of(board(arena)["rows"], BOT)["version"] == 2


def test_the_api_wants_json_and_the_form_its_csrf_token(arena: Arena) -> None:
    with token_client(arena, "mel") as mel:
        answer = mel.post(f"/api/bots/{BOT}/pin", content=b"version=1")
        assert answer.status_code == 400 and answer.json()["error"].startswith("send JSON")
    with signed_in(arena, "mel") as (c, _):
        assert c.post(f"/me/bots/{BOT}/pin", data={"version": "1"}).status_code == 403
    assert row_of(board(arena)["rows"], BOT)["version"] == 2


def test_the_owner_pins_from_the_bots_page_in_a_browser(arena: Arena, browser, tmp_path) -> None:
    tab = Page(browser, tmp_path)
    try:
        page = tab.open(f"{arena.url}/login", "login")
        sign_in(page, "mel", PASSWORD)
        page.wait_for_url(f"{arena.url}/")
        page = tab.open(f"{arena.url}/bot/{arena.ids[2]}", "bot-v2")
        page.select_option("form.pin select[name=version]", "1")
        page.click("form.pin button")
        page.wait_for_url(f"{arena.url}/bot/{arena.ids[1]}")  # the version that plays now
        state = page.text_content(f"tr[data-version='{BOT}@v1'] td.state")
        assert state == "retired · pinned · playing"
        assert row_of(board(arena)["rows"], BOT)["version"] == 1
        page.select_option("form.pin select[name=version]", "")  # unpin
        page.click("form.pin button")
        page.wait_for_url(f"{arena.url}/bot/{arena.ids[2]}")
        assert tab.errors == []
    finally:
        tab.close()
        run(arena, "mel", "unpin", BOT)
    assert row_of(board(arena)["rows"], BOT)["version"] == 2


# ---------------------------------------------------------------------------------- admin's view
STATE_AND_TEAM = re.compile(
    r"<tr data-bot=\"(?P<label>[^\"]+)\">.*?<td class='l state'>(?P<state>[^<]*)</td>"
    r"<td class='l team'>(?P<team>.*?)</td>"
)


def admin_rows(arena: Arena) -> dict[str, tuple[str, str]]:
    """``/admin/bots`` as ada sees it: each version's label → (state and marks, team cell)."""
    with signed_in(arena, "ada") as (ada, _):
        page = ada.get("/admin/bots")
    assert page.status_code == 200
    return {m["label"]: (m["state"], m["team"]) for m in STATE_AND_TEAM.finditer(page.text)}


def test_the_admins_see_which_version_plays_and_a_team_bots_team(arena: Arena) -> None:
    with token_client(arena, "olga") as olga:
        assert olga.post("/api/teams", json={"name": "owls"}).status_code == 201
    with arena.store.session(write=True) as s:  # olga's team's bot (as uploaded with team=)
        team_bot = s.get(BotRow, _id(arena.store, "bot03", 1))
        assert team_bot is not None and team_bot.id is not None
        owls = find_team(s, "owls")
        assert owls is not None
        team_bot.team_id = owls.id
    rows = admin_rows(arena)
    assert rows[f"{BOT}@v2"][0] == "active · playing" and rows[f"{BOT}@v1"][0] == "retired"
    assert rows["bot03@v1"] == ("active · playing", '<a href="/teams/owls">owls</a>')
    assert rows[f"{BOT}@v2"][1] == ""  # mel's own bot: no team
    assert run(arena, "mel", "pin", BOT, "v1").returncode == 0
    try:
        rows = admin_rows(arena)
        assert rows[f"{BOT}@v1"][0] == "retired · pinned · playing"
        assert rows[f"{BOT}@v2"][0] == "active"
    finally:
        assert run(arena, "mel", "unpin", BOT).returncode == 0
    page = httpx.get(f"{arena.url}/bot/{team_bot.id}", timeout=60).text  # a visitor
    assert 'team <a class=team href="/teams/owls">owls</a>' in page
    assert httpx.get(f"{arena.url}/teams/owls", timeout=60).status_code == 200  # not dead
    assert "class=team" not in httpx.get(f"{arena.url}/bot/{arena.ids[2]}", timeout=60).text
