"""The pages say what they mean (issue 35 item 8), read over a real ``hegemon web`` on the
loopback and a real SQLite file: every count says what it counts and agrees with the others,
ratings are whole numbers, the chart says which rating it draws, a competition's page says
whether bots keep their process between games, a seat's empty log says why, and ``/api``
documents every ``/api`` route of the route table, the write endpoints and the token flow."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from starlette.routing import Route

from hegemon.leaderboard.accounts.users import add_user
from hegemon.leaderboard.store import Store
from hegemon.leaderboard.web.pages import board_caption
from hegemon.leaderboard.web.routes import ROUTES
from hegemon.referee.runner.botlog import logs_dir, write_seat_logs
from tests.helpers.ladder import drive, make_ladder
from tests.helpers.web import store_season
from tests.helpers.web_server import running_web

ADMIN, PASSWORD = "ada", "ada runs this arena here"
GAMES = 6  # the season's
LADDER_GAMES = 5  # at least: the ladder plays whole rounds of tables


@dataclass
class Site:
    url: str
    season_id: int
    bot_id: int  # a bot of the season
    game_id: int  # a season game whose seat 0 wrote nothing and seat 1 a line
    ladder_games: int


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    """A season of real in-process games (one game's seat logs kept as the runner keeps
    them: seat 0 empty), a ladder with a few games, an admin; served by ``hegemon web``."""
    home = tmp_path_factory.mktemp("front-home")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("HEGEMON_HOME", str(home))
        mp.delenv("HEGEMON_DB", raising=False)
        with Store() as store:
            season = store_season(store, home / "records", "autumn", GAMES, seed=3)
            assert season.id is not None
            ladder = make_ladder(store, "lad")
            ladder_games = len(drive(store, ladder, LADDER_GAMES))
            _, game = store.games(season.id)[0]
            assert game.id is not None
            write_seat_logs(logs_dir(Path(game.record_path)), [b"", b"hello from seat 1\n"])
            add_user(store, ADMIN, PASSWORD, "admin")
            bot_id = store.season_bots(season.id)[0].id
            assert bot_id is not None
        with running_web(home, home / "web.log") as url:
            yield Site(url, season.id, bot_id, game.id, ladder_games)


@pytest.fixture(scope="module")
def admin(site: Site) -> Iterator[httpx.Client]:
    """A browser signed in as the admin."""
    with httpx.Client(base_url=site.url, timeout=60) as client:
        found = re.search(r'name=csrf value="([^"]+)"', client.get("/login").text)
        assert found, "the sign-in page has a CSRF token"
        form = {"name": ADMIN, "password": PASSWORD, "csrf": found.group(1)}
        assert client.post("/login", data=form).status_code == 303
        yield client


def get(site: Site, path: str) -> str:
    response = httpx.get(site.url + path, timeout=60)
    assert response.status_code == 200, (path, response.text)
    return response.text


def cells(page: str, cls: str) -> list[str]:
    """The text of every ``<td class=cls>`` of a page."""
    return [html.unescape(c) for c in re.findall(rf"<td class={cls}>([^<]*)</td>", page)]


# ---------------------------------------------------------------------------------- counts
def test_the_board_caption_counts_the_games_the_progress_line_counts(site: Site) -> None:
    page = get(site, "/season/autumn")
    assert f"{GAMES} of {GAMES} games played" in page
    assert f"rated from {GAMES} games · Plackett–Luce" in page
    # the games list counts the same games
    assert f"of {GAMES}, newest first" in get(site, "/games?season=autumn")
    # the bot list says when each version was added as the game list says when games ended
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d", cells(get(site, "/bots"), "'l date'")[0])


def test_a_board_being_refitted_says_how_many_games_it_does_not_count_yet() -> None:
    # the page served while the refit runs: the progress line already counts 32 games
    caption = board_caption({"games": 28, "method": "pl"}, {"done": 32, "ladder": True})
    assert caption == (
        "rated from 28 of the 32 games played · Plackett–Luce (the 4 newest are being added)"
    )


def test_the_admins_see_how_many_games_a_ladder_has_played(site: Site, admin: httpx.Client) -> None:
    page = admin.get("/admin/competitions").text
    row = re.search(r'<tr data-season="lad">.*?</tr>', page)
    assert row, "the ladder is listed"
    assert f"<td class=played>{site.ladder_games} (ladder)</td>" in row.group(0)
    season = re.search(r'<tr data-season="autumn">.*?</tr>', page)
    assert season and f"<td class=played>{GAMES} of {GAMES}</td>" in season.group(0)


# ---------------------------------------------------------------------------------- ratings
def test_ratings_on_the_pages_are_whole_numbers(site: Site) -> None:
    for path in ("/", "/season/autumn", f"/bot/{site.bot_id}"):
        shown = cells(get(site, path), "rating")
        assert shown, f"{path} shows ratings"
        assert all(re.fullmatch(r"-?\d+", r) for r in shown), (path, shown)


def test_the_chart_says_it_is_not_the_boards_rating(site: Site) -> None:
    page = get(site, "/season/autumn")
    assert "<h2>Incremental Elo history — another rating than the board&#39;s</h2>" in page
    assert "Rating history</h2>" not in page


# ---------------------------------------------------------------------------------- processes
def test_a_competitions_page_says_whether_bots_keep_their_process(site: Site) -> None:
    for name, kind in (("autumn", "season"), ("lad", "ladder")):
        page = html.unescape(get(site, f"/season/{name}"))
        assert (
            "Bots keep their process between games: the runner reuses a bot's process from "
            f"one game of this {kind} to the next"
        ) in page
    seasons = httpx.get(f"{site.url}/api/seasons/autumn", timeout=60).json()["season"]
    assert seasons["keeps_process"] is True


def test_an_empty_log_says_why_and_a_written_one_is_as_written(
    site: Site, admin: httpx.Client
) -> None:
    empty = admin.get(f"/api/games/{site.game_id}/logs/0")
    assert empty.status_code == 200
    assert empty.text.startswith("(nothing written in this game. The bot's process is reused")
    written = admin.get(f"/api/games/{site.game_id}/logs/1")
    assert written.text == "hello from seat 1\n"
    # the game page links both logs
    page = admin.get(f"/game/{site.game_id}").text
    assert f"/api/games/{site.game_id}/logs/0" in page
    assert f"/api/games/{site.game_id}/logs/1" in page


# ---------------------------------------------------------------------------------- /api
def documented(page: str) -> set[tuple[str, str]]:
    """(method, path) of every row of ``/api``'s tables, the path without its query and
    each ``{parameter}`` as ``{}``."""
    rows = re.findall(r"<tr><td class=l>([A-Z]+)</td><td class=l><code>([^<]+)</code>", page)
    return {(m, re.sub(r"\{[^}]*\}", "{}", html.unescape(p).split("?")[0])) for m, p in rows}


def test_api_documents_every_api_route_of_the_route_table(site: Site) -> None:
    shown = documented(get(site, "/api"))
    routes = {
        (method, re.sub(r"\{[^}]*\}", "{}", r.path))
        for r in ROUTES
        if isinstance(r, Route) and r.path.startswith("/api/")
        for method in sorted((r.methods or {"GET"}) - {"HEAD"})
    }
    assert ("POST", "/api/tokens") in routes  # the table is read, not assumed
    assert routes - shown == set(), "routes /api does not document"
    assert shown - routes == set(), "documented paths that are no route"


def test_api_tells_the_token_flow(site: Site) -> None:
    page = html.unescape(get(site, "/api"))
    for step in (
        "POST /api/tokens",
        '{"name": "NAME", "password": "PASSWORD", "token_name": "my laptop"}',
        "Authorization: Bearer TOKEN",
        "POST /api/bots/NAME/versions",
    ):
        assert step in page, step
