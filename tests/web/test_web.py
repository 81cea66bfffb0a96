"""The web views in a real headless Chromium (Debian's ``chromium``, driven by Playwright):
the server's pages over a database of real (in-process) games, the replay viewer and the static
report from ``file://`` (tests/web/test_web_cli.py: the commands, and a season page following a
real season run).

Every page visited is saved as a screenshot under the test's tmp folder (``screenshots/``).
Chromium is part of the test set-up (scripts/system-packages installs it): without it these
tests FAIL saying what to install.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from hegemon.leaderboard import boards
from hegemon.leaderboard.store import Store
from hegemon.referee.record import parse, replay
from tests.helpers.league import SeasonSpec, create_season
from tests.helpers.web import (  # noqa: F401 (browser: a fixture)
    Page,
    browser,
    play_record,
    store_season,
    territories,
)
from tests.helpers.web_server import serving


@dataclass
class Site:
    home: Path
    store: Store
    url: str
    shots: Path


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    """A home with a played season 'league' (12 real games, faults in two) and a season
    'live' not played yet, served by the real app on the loopback."""
    from hegemon.leaderboard.web.server import make_app

    home = tmp_path_factory.mktemp("web-home")
    shots = tmp_path_factory.mktemp("screenshots")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("HEGEMON_HOME", str(home))
        mp.delenv("HEGEMON_DB", raising=False)
        store = Store()
        season = store_season(store, home / "records", "league", games=12, seed=5)
        assert season.id is not None
        bots = store.season_bots(season.id)
        create_season(store, SeasonSpec(name="live", games=6, seed=9), bots)
        try:
            with serving(make_app(store)) as url:
                yield Site(home, store, url, shots)
        finally:
            store.close()


def game_ids(store: Store, season: str) -> list[tuple[int, str, list[dict[str, Any]]]]:
    found = store.season_by_name(season)
    assert found is not None and found.id is not None
    ids: list[tuple[int, str, list[dict[str, Any]]]] = []
    for _, g in store.games(found.id):
        assert g.id is not None, "a stored game has an id"
        ids.append((g.id, g.record_path, g.faults))
    return ids


# ---------------------------------------------------------------------------------- pages
def test_every_page_and_api_loads_without_console_errors(site, browser):
    league = site.store.season_by_name("league")
    bot = site.store.bots()[0]
    games = game_ids(site.store, "league")
    faulty = next(g for g in games if g[2])
    pages = {
        "index": "/",
        "season": "/season/league",
        "season-live": "/season/live",
        "bots": "/bots",
        "bot": f"/bot/{bot.id}",
        "games": "/games",
        "games-filtered": f"/games?season=league&bot={bot.label}&fault=yes",
        "game": f"/game/{faulty[0]}",
        "api": "/api",
    }
    tab = Page(browser, site.shots)
    try:
        for shot, path in pages.items():
            tab.open(site.url + path, shot)
        # the filters: only games with a fault, each with this bot
        tab.open(site.url + pages["games-filtered"], "games-filtered")
        rows = tab.page.locator("table.games tr").count() - 1
        expected = [g for _, g in site.store.games(league.id) if g.faults and any(g.faults)]
        assert 0 < rows <= len(expected)
        # every documented API path answers JSON, and agrees with its page's data
        api = {
            "/api/leaderboard": "boards",
            "/api/seasons": "seasons",
            "/api/seasons/league": "board",
            "/api/seasons/league/history": "series",
            "/api/bots": "bots",
            f"/api/bots/{bot.id}": "head_to_head",
            "/api/games?fault=yes": "games",
            f"/api/games/{faulty[0]}": "replay",
        }
        for path, key in api.items():
            response = tab.page.request.get(site.url + path)
            assert response.ok, path
            assert key in response.json(), path
        # the record as stored, less the fault's detail: the bot's owner's (and admins') only
        record = tab.page.request.get(f"{site.url}/api/games/{faulty[0]}/record").text()
        stored = Path(faulty[1]).read_text(encoding="utf-8")
        assert "secret log" in stored and "secret log" not in record
        assert [x for x in record.splitlines() if '"fault"' not in x] == [
            x for x in stored.splitlines() if '"fault"' not in x
        ]
        assert tab.page.request.get(site.url + "/api/seasons/nope").status == 404
    finally:
        tab.close()


def test_the_pages_fit_a_phone_screen(site, browser):
    tab = Page(browser, site.shots, width=390, height=844)
    try:
        for shot, path in {"phone-index": "/", "phone-season": "/season/league"}.items():
            page = tab.open(site.url + path, shot)
            assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
        game = game_ids(site.store, "league")[0][0]
        page = tab.open(f"{site.url}/game/{game}", "phone-game")
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    finally:
        tab.close()


def test_the_leaderboard_matches_the_database(site, browser):
    season = site.store.season_by_name("league")
    board = boards.board(site.store, season, cached=False)
    tab = Page(browser, site.shots)
    try:
        page = tab.open(f"{site.url}/season/league", "season-board")
        shown = page.eval_on_selector_all(
            "table.board tr[data-bot]",
            "rows => rows.map(r => [r.dataset.bot, r.querySelector('.rating').textContent,"
            " r.querySelector('.games').textContent, r.querySelector('.wins').textContent,"
            " r.querySelector('.faults').textContent])",
        )
        assert shown == [
            [r.label, f"{r.rating:.0f}", str(r.games), str(r.wins), str(r.faults)]
            for r in board.rows
        ]
        assert sum(r.faults for r in board.rows) > 0
        # sorting by a column reorders the rows (and a second click reverses them)
        page.click("table.board th:nth-child(7)")
        wins = page.eval_on_selector_all(
            "table.board tr[data-bot] .wins", "cs => cs.map(c => Number(c.textContent))"
        )
        assert wins == sorted(wins)
    finally:
        tab.close()


# ---------------------------------------------------------------------------------- replay
def test_a_replay_stepped_to_the_end_shows_the_final_board(site, browser):
    tab = Page(browser, site.shots)
    try:
        for game_id, record_path, _ in game_ids(site.store, "league")[:4]:
            text = Path(record_path).read_text(encoding="utf-8")
            verdict = replay(text)
            assert verdict.ok and verdict.game is not None
            final = list(zip(verdict.game.owner, verdict.game.armies, strict=True))
            page = tab.open(f"{site.url}/game/{game_id}", f"game-{game_id}-start")
            steps = page.evaluate("window.hegemonReplay.steps")
            assert steps == verdict.actions
            page.keyboard.press("ArrowRight")
            page.keyboard.press("ArrowRight")
            assert page.evaluate("window.hegemonReplay.position()") == 2
            page.keyboard.press("End")
            assert page.evaluate("window.hegemonReplay.position()") == steps
            assert territories(page) == final
            assert "result" in page.locator("#rp-events").inner_text()
            page.screenshot(path=str(site.shots / f"game-{game_id}-end.png"))
            page.keyboard.press("Home")
            assert page.evaluate("window.hegemonReplay.position()") == 0
            page.keyboard.press("Shift+ArrowRight")
            assert 0 < page.evaluate("window.hegemonReplay.position()") < steps
    finally:
        tab.close()


def hidden_from(text: str) -> tuple[list[dict[int, set[str]]], dict[int, set[str]]]:
    """What each seat must not see: per viewer position (0 = set-up, i = after decision i),
    the labels of the cards other seats drew in that decision (a trade shows them later, to
    all); and, anywhere, the detail of other seats' faults."""
    from hegemon.referee.board import builtin_map

    lines = parse(text)
    board = builtin_map(lines[0]["rules"]["map"])
    seats = range(lines[0]["players"])
    per_step: list[dict[int, set[str]]] = [{s: set() for s in seats}]
    details: dict[int, set[str]] = {s: set() for s in seats}
    for line in lines:
        if line["type"] == "fault":
            for s in seats:
                if s != line["seat"]:
                    details[s].add(line["detail"])
        if line["type"] != "action":
            continue
        step: dict[int, set[str]] = {s: set() for s in seats}
        for e in line["events"]:
            if e["event"] == "card_drawn":
                for s in seats:
                    if s != e["player"]:
                        step[s].add(board.card_label(e["card"]))
        per_step.append(step)
    return per_step, details


def test_a_seat_view_never_shows_another_seats_cards(site, browser):
    game_id, record_path, _ = next(g for g in game_ids(site.store, "league") if g[2])
    text = Path(record_path).read_text(encoding="utf-8")
    per_step, details = hidden_from(text)
    seats = len(details)
    drew = {
        e["player"]
        for line in parse(text)
        for e in line.get("events") or []
        if e["event"] == "card_drawn"
    }
    assert any(details.values()) and any(any(step.values()) for step in per_step)
    tab = Page(browser, site.shots)
    try:
        page = tab.open(f"{site.url}/game/{game_id}", "seat-view")
        for seat in range(seats):
            page.select_option("#rp-seat", str(seat))
            # every decision: the event list and the other seats' card cells as shown
            shown = page.evaluate(
                """(seat) => {
                    const r = window.hegemonReplay, out = [];
                    for (let i = 0; i <= r.steps; i++) {
                        r.go(i);
                        const cards = Array.from(document.querySelectorAll('#rp-seats .cards'));
                        out.push([document.getElementById('rp-events').textContent,
                                  cards.filter((c, j) => j !== seat).map(c => c.textContent),
                                  cards[seat].textContent]);
                    }
                    return out;
                }""",
                seat,
            )
            own_cards_seen = False
            assert len(shown) == len(per_step)
            for (events, others, own), secret in zip(shown, per_step, strict=True):
                assert all(c.endswith(" cards") for c in others), others
                assert not any(word in events for word in secret[seat] | details[seat]), events
                own_cards_seen = own_cards_seen or own != "—"
            assert own_cards_seen == (seat in drew), f"seat {seat}: its own cards"
            page.screenshot(path=str(site.shots / f"seat-view-{seat}.png"))
        # the full view shows the cards; the fault's detail is for the bot's owner and admins
        page.select_option("#rp-seat", "-1")
        page.keyboard.press("End")
        assert "secret log" not in json.dumps(
            page.evaluate("JSON.parse(document.getElementById('replay-data').textContent)")
        )
    finally:
        tab.close()


def test_the_replay_file_works_from_disk(site, browser, tmp_path):
    from hegemon.leaderboard.web import write_replay_html

    _, record_path, _ = game_ids(site.store, "league")[1]
    out = write_replay_html(record_path, tmp_path / "replay.html")
    verdict = replay(Path(record_path).read_text(encoding="utf-8"))
    assert verdict.game is not None
    html = out.read_text(encoding="utf-8")
    fetched = re.findall(r'(?:src|href)="([^"]*)"', html)
    assert all(url.startswith("data:") for url in fetched), fetched  # nothing to fetch
    tab = Page(browser, site.shots)
    try:
        page = tab.open(out.as_uri(), "replay-file")
        page.click("#rp-last")
        assert territories(page) == list(zip(verdict.game.owner, verdict.game.armies, strict=True))
        page.click("#rp-first")
        page.click("#rp-play")
        page.wait_for_function("window.hegemonReplay.position() > 3")
        page.click("#rp-play")
    finally:
        tab.close()


# ---------------------------------------------------------------------------------- report
def test_the_static_report_works_from_file(site, browser, tmp_path):
    from hegemon.leaderboard.web.report import write_report

    written = write_report(str(site.home / "arena.db"), tmp_path / "report")
    assert (tmp_path / "report" / "index.html") in written
    tab = Page(browser, site.shots)
    try:
        page = tab.open((tmp_path / "report" / "index.html").as_uri(), "report-index")
        page.click("text=league")
        page.wait_for_load_state()
        assert page.url.endswith("season-league.html")
        assert page.locator("table.board tr[data-bot]").count() == 4
        page.screenshot(path=str(site.shots / "report-season.png"), full_page=True)
        page.click("table.board tr[data-bot] a")
        page.wait_for_load_state()
        assert "/bot-" in page.url
        page.screenshot(path=str(site.shots / "report-bot.png"), full_page=True)
        game_id, record_path, _ = game_ids(site.store, "league")[2]
        tab.open((tmp_path / "report" / f"game-{game_id}.html").as_uri(), "report-game")
        page.keyboard.press("End")
        verdict = replay(Path(record_path).read_text(encoding="utf-8"))
        assert verdict.game is not None
        assert territories(page) == list(zip(verdict.game.owner, verdict.game.armies, strict=True))
        tab.open((tmp_path / "report" / "games.html").as_uri(), "report-games")
        assert page.locator("table.games tr").count() == 1 + 12
        assert tab.errors == []
    finally:
        tab.close()


# ---------------------------------------------------------------------------------- data
def test_a_map_without_a_layout_is_laid_out_from_its_borders_the_same_every_time():
    from dataclasses import replace as with_name

    from hegemon.referee.board import builtin_map
    from hegemon.referee.viewer.layout import HEIGHT, WIDTH, force_layout, map_layout

    classic = builtin_map("classic")
    shipped = map_layout(classic)
    assert shipped[classic.index("Alaska")][0] < shipped[classic.index("Kamchatka")][0]
    other = with_name(classic, name="no-layout-here")
    points = map_layout(other)
    assert points == force_layout(other) and points != shipped
    assert len(set(points)) == classic.size
    assert all(0 <= x <= WIDTH and 0 <= y <= HEIGHT for x, y in points)


def test_the_replay_data_refuses_a_record_the_engine_does_not_reproduce():
    from hegemon.referee.record import RecordError
    from hegemon.referee.viewer.replay import replay_data

    text = play_record(7, ["a", "b", "c", "d"], turn_limit=3)
    data = replay_data(text)
    assert len(data["steps"]) == len(parse(text)) - 3  # header, opening, result
    lines = text.splitlines()
    tampered = [*lines[:10], lines[10].replace('"claim",', '"claim",1'), *lines[11:]]
    with pytest.raises(RecordError):
        replay_data("\n".join(tampered))


def test_a_seat_view_of_a_capital_game_hides_the_others_capitals():
    """capital-2000: a seat's replay shows another seat's capital choice only as "chooses a
    secret capital", both the action and its event (the full view shows the territory)."""
    from hegemon.referee.viewer.replay import replay_data
    from hegemon.sample_bots.random import RandomBot
    from hegemon.sdk import play_local

    local = play_local(
        [RandomBot() for _ in range(3)], "capital-2000", 3, options={"turn_limit": 2}
    )
    data = replay_data(local.record)
    chosen = [s for s in data["steps"] if s["a"].startswith("capital ")]
    assert len(chosen) == 3
    assert all(s["ar"] == "chooses a secret capital" for s in chosen)
    events = [e for s in chosen for e in s["ev"] if e["k"] == "capital_chosen"]
    assert len(events) == 3
    for step in chosen:
        for event in step["ev"]:
            if event["k"] == "capital_chosen":
                assert event["s"] == step["p"] and event["r"] != event["t"]
