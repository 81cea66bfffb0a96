"""A bot whose name is markup — ``<script>alert(1)</script>``, a template expression
``{{7*7}}``, ``</textarea>`` — is shown as that text on every page that shows bot names (the
leaderboards, a season and its live part, the bot list, bot pages, the game list and its
filters, a game, "my bots", the static report and the standalone replay viewer): never as
markup, never evaluated. The registry refuses such a name; the pages must not depend on that
(an older database, a name from elsewhere), so the test writes it straight into the database.
Real pages over HTTP from a real server, then in headless Chromium: no alert ever opens."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from sqlmodel import select

from hegemon.leaderboard.accounts.tokens import create_token
from hegemon.leaderboard.accounts.users import add_user
from hegemon.leaderboard.store import BotRow, Store
from tests.helpers.league import SeasonSpec, create_season, register_samples, using_home
from tests.helpers.web import Page, browser, play_matches  # noqa: F401 (browser: a fixture)
from tests.helpers.web_server import serving

HOSTILE = "<script>alert(1)</script>{{7*7}}</textarea><!--"
LABEL = f"{HOSTILE}@v1"
MARKUP = ("<script>alert(1)</script>", "</textarea>", "<!--")  # none may reach a page as is
SEASON = "hostile"


@dataclass
class Arena:
    home: Path
    store: Store
    url: str
    token: str  # mel's: she owns the hostile bot
    bot_id: int  # the hostile bot
    other_id: int  # a bot that played it (its head to head names it)
    game_id: int  # a game the hostile bot played


@pytest.fixture(scope="module")
def arena(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Arena]:
    """The sample bots, one renamed to markup and owned by mel, and a season of real games."""
    from hegemon.leaderboard.web.server import make_app

    with using_home(tmp_path_factory.mktemp("hostile-home")) as home:
        store = Store()
        bots = register_samples(store)
        mel = add_user(store, "mel", "mel's long password", "member")
        with store.session(write=True) as s:
            row = s.exec(select(BotRow).where(BotRow.id == bots[0].id)).one()
            row.name, row.owner_id = HOSTILE, mel.id
            s.add(row)
        season = create_season(store, SeasonSpec(name=SEASON, games=5, seed=4), bots)
        play_matches(store, season, home / "records", SEASON)
        assert season.id is not None and bots[0].id is not None and bots[1].id is not None
        game_id = next(g.id for m, g in store.games(season.id) if bots[0].id in m.seats)
        assert game_id is not None and mel.id is not None
        token = create_token(store, mel.id, "test")[1]
        try:
            with serving(make_app(store)) as url:
                yield Arena(home, store, url, token, bots[0].id, bots[1].id, game_id)
        finally:
            store.close()


def served_pages(arena: Arena) -> list[str]:
    """Every served page that shows a bot's name."""
    return [
        "/",
        f"/season/{SEASON}",
        "/bots",
        f"/bot/{arena.bot_id}",
        f"/bot/{arena.other_id}",
        "/games",
        f"/games?bot={quote(LABEL)}",
        f"/game/{arena.game_id}",
        "/me/bots",
    ]


def text_of(page: str) -> str:
    """What a person reads of an HTML page: its text without tags, entities decoded."""
    return html.unescape(re.sub(r"<[^>]+>", " ", page))


def embedded(page: str) -> str | None:
    """The replay data a page embeds in its ``<script>`` (None: none)."""
    found = re.search(r'<script id=replay-data type="application/json">(.*?)</script>', page)
    return found.group(1) if found else None


def assert_inert(page: str, where: str) -> None:
    """The name is in ``page`` only as text (or as inert JSON), never as markup."""
    for markup in MARKUP:
        assert markup not in page, f"{where}: {markup!r} reached the page as markup"
    data = embedded(page)
    shown = text_of(page.replace(data, "") if data else page)
    if data is not None:
        assert not {"<", ">", "&"} & set(data), f"{where}: the embedded data holds markup"
        shown += " ".join(json.loads(data)["seats"])
    assert HOSTILE in shown, f"{where}: the name is not shown as text"


def test_every_served_page_shows_the_name_as_text(arena):
    with httpx.Client(base_url=arena.url, timeout=60) as c:
        c.headers["Authorization"] = f"Bearer {arena.token}"  # the owner: her pages too
        for path in served_pages(arena):
            page = c.get(path)
            assert page.status_code == 200, path
            assert_inert(page.text, path)
        live = c.get(f"/season/{SEASON}/live").json()["html"]  # what a running season swaps in
        assert_inert(live, "the season's live part")
        filtered = c.get(f"/games?bot={quote(LABEL)}").text
        chosen = re.findall(r"<option selected>([^<]*)</option>", filtered)
        assert [html.unescape(x) for x in chosen] == [LABEL], "the bot filter keeps the bot"


def test_the_static_report_and_the_replay_viewer_show_the_name_as_text(arena, tmp_path):
    from hegemon.leaderboard.web import replay_html
    from hegemon.leaderboard.web.report import write_report

    written = write_report(str(arena.home / "arena.db"), tmp_path / "site")
    names = {p.name for p in written}
    assert {"index.html", "bots.html", "games.html", f"bot-{arena.bot_id}.html"} <= names
    for path in written:
        page = path.read_text(encoding="utf-8")
        for markup in MARKUP:
            assert markup not in page, f"{path.name}: {markup!r} reached the page as markup"
    for name in ("index.html", f"season-{SEASON}.html", "bots.html", f"bot-{arena.bot_id}.html",
                 "games.html", f"game-{arena.game_id}.html"):  # fmt: skip
        assert_inert((tmp_path / "site" / name).read_text(encoding="utf-8"), name)
    record = next(arena.home.glob("records/*.jsonl")).read_text(encoding="utf-8")
    assert_inert(replay_html(record, "hostile"), "replay --html")


def test_no_page_runs_the_name_in_a_browser(arena, browser, tmp_path):
    tab = Page(browser, tmp_path)
    alerts: list[str] = []

    def dialog(d: Any) -> None:
        alerts.append(d.message)
        d.dismiss()

    tab.page.on("dialog", dialog)
    try:
        for path in served_pages(arena)[:-1]:  # "my bots" needs a sign-in: served test above
            page = tab.open(arena.url + path, re.sub(r"\W", "-", path))
            if path.startswith("/game/"):
                page.wait_for_function("window.hegemonReplay !== undefined")
                page.click("#rp-last")
            assert HOSTILE in page.inner_text("body"), f"{path}: the name is not shown"
        assert alerts == [], f"an alert opened: {alerts}"
    finally:
        tab.close()
