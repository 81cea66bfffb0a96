"""Watching a game live (issue 35 item 7): a real ``hegemon arena`` (web server and runner)
plays a season of slow bots; a real HTTP client reads a game's server-sent events while it is
played, and headless Chromium draws its live page. What the stream shows must be the public's
and behind the runner: at every update a prefix of the finished game's public form, at least
``DELAY`` decisions short of what the runner has stored, with no seed and no card in a hand."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from hegemon.leaderboard.live.feed import public_lines
from hegemon.leaderboard.live.public import DELAY, HIDDEN_CARD, public_replay
from hegemon.leaderboard.store import LiveGameRow, Store
from hegemon.referee.viewer.replay import replay_data
from tests.helpers.league import hegemon, wait_for
from tests.helpers.web import Page, browser  # noqa: F401 (browser: a fixture)
from tests.helpers.web_server import running_web

# A bot that plays like the random sample bot, a little slowly: a game lasts seconds, so
# spectators see it move.
SLOW_BOT = """\
import time

from hegemon.sample_bots.random import RandomBot
from hegemon.sdk import run


class Slow(RandomBot):
    name = "slow"

    def decide(self, view, decision):
        time.sleep(0.02)
        return super().decide(view, decision)


run(Slow())
"""


@dataclass
class Arena:
    url: str
    home: Path


def organise(home: Path, *args: str) -> None:
    done = hegemon(*args, home=home)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.fixture(scope="module")
def arena(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Arena]:
    """A running arena playing a season of three slow bots, one game at a time (far more games
    than the tests watch, so that however slowly the module's tests run — 8 ran out once, on
    a quiet machine — each test still finds one in play; the arena stops with the module)."""
    root = tmp_path_factory.mktemp("live")
    home = root / "home"
    home.mkdir()
    bot = root / "slow.py"
    bot.write_text(SLOW_BOT)
    for name in ("slow-a", "slow-b", "slow-c"):
        organise(home, "bot", "add", name, str(bot))
    organise(
        home, "season", "create", "watched", "--bots", "slow-a,slow-b,slow-c",
        "--players", "3", "--games", "40", "--clock", "wall", "--set", "turn_limit=20",
    )  # fmt: skip
    with running_web(home, root / "arena.log", ("arena", "--workers", "1")) as url:
        yield Arena(url, home)


def playing(url: str) -> list[dict[str, Any]]:
    return list(httpx.get(f"{url}/api/live", timeout=30).json()["games"])


def live_game(arena: Arena, least: int = 0, most: int = 10**9) -> dict[str, Any]:
    """A game in play with between ``least`` and ``most`` decisions shown (waits for one)."""
    found: list[dict[str, Any]] = []

    def one() -> bool:
        found[:] = [g for g in playing(arena.url) if least <= g["shown"] <= most]
        return bool(found)

    wait_for("a game in play", one)
    return found[0]


def stored(home: Path, match_id: int) -> LiveGameRow | None:
    """The runner's live row of a game in play (None: no longer in play)."""
    with Store(str(home / "arena.db"), create=False) as store, store.session() as s:
        return s.get(LiveGameRow, match_id)


def events(response: httpx.Response) -> Iterator[tuple[str, dict[str, Any]]]:
    """The server-sent events of a streamed response, as (event, data)."""
    kind, data = "message", ""
    for line in response.iter_lines():
        if line.startswith("event: "):
            kind = line[7:]
        elif line.startswith("data: "):
            data += line[6:]
        elif line == "" and data:
            yield kind, json.loads(data)
            kind, data = "message", ""


def finished_public(arena: Arena, game_url: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """A finished game's replay data (whole) and its public form, from its record as served."""
    game_id = int(game_url.rsplit("/", 1)[1])
    text = httpx.get(f"{arena.url}/api/games/{game_id}/record", timeout=30).text
    full = replay_data(text)
    return full, public_replay(full)


def test_a_game_in_play_streams_its_public_form_behind_the_runner_and_ends(arena):
    game = live_game(arena, most=0)  # one just started: followed from its first decision
    assert game["url"] == f"/live/{game['match']}"
    home_page = httpx.get(arena.url + "/", timeout=30).text
    assert "Now playing" in home_page
    seen: list[dict[str, Any]] = []
    updates_in_play = 0
    ended: dict[str, Any] = {}
    kept = ""  # the runner's row, as last read while in play
    with httpx.stream("GET", arena.url + game["events"], timeout=60) as response:
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        for kind, data in events(response):
            if kind == "end":
                ended = data
                break
            assert kind == "steps" and data["from"] == len(seen)
            seen += data["steps"]
            row = stored(arena.home, game["match"])
            if row is not None:  # still in play: the stream stays DELAY behind the runner
                updates_in_play += 1
                assert len(seen) <= row.decisions - DELAY
                kept = row.record
    assert updates_in_play >= 2, "decisions arrive while the game is played"
    assert ended["status"] == "finished" and ended["url"].startswith("/game/")
    full, public = finished_public(arena, ended["url"])
    # what was streamed is the start of the finished game's public form, never more
    assert 0 < len(seen) <= len(public["steps"])
    assert seen == public["steps"][: len(seen)]
    streamed = json.dumps(seen)
    assert all(card == HIDDEN_CARD for s in seen for hand in s.get("h", []) for card in hand)
    private = {
        e["t"] for s in full["steps"] for e in s["ev"] if "r" in e and e["t"] != e["r"]
    }  # a drawn card's name, a fault's detail: what only one seat was told
    assert private, "the game drew cards (else this test checks nothing)"
    assert not [t for t in private if json.dumps(t)[1:-1] in streamed]
    assert "notes" not in streamed and str(full["seed"]) not in streamed
    assert kept and str(full["seed"]) not in kept and '"result"' not in kept
    # the finished game's page is its replay; its live page sends there
    answer = httpx.get(arena.url + game["url"], timeout=30)
    assert answer.status_code == 303 and answer.headers["location"] == ended["url"]


def test_live_streams_are_bounded_per_address(arena):
    game = live_game(arena)
    url = arena.url + game["events"]
    with httpx.Client(timeout=60) as client:
        opened = [client.stream("GET", url) for _ in range(5)]
        answers = [stream.__enter__() for stream in opened]
        try:
            codes = [a.status_code for a in answers]
            assert codes[:4] == [200] * 4 and codes[4] == 429
            refusal = answers[4].read().decode()
            assert refusal.count("\n") == 1 and "at most 4 live streams" in refusal
        finally:
            for stream in opened:
                stream.__exit__(None, None, None)


def test_the_live_page_draws_the_game_and_follows_it(arena, browser, tmp_path):
    # drawn, and with decisions still to come: a game here lasts some 450 decisions, and the
    # runner writes its row each second, ~45 decisions apart (the bots sleep 20 ms a decision)
    game = live_game(arena, least=1, most=200)
    tab = Page(browser, tmp_path)
    try:
        page = tab.open(arena.url + game["url"], "live")
        assert page.locator("#rp-map g.territory").count() > 0
        first = page.evaluate("window.hegemonReplay.steps")
        page.wait_for_function(f"window.hegemonReplay.steps > {first}", timeout=120_000)
        assert page.evaluate("window.hegemonReplay.position()") == page.evaluate(
            "window.hegemonReplay.steps"
        ), "a viewer at the end follows the game"
        page.wait_for_url("**/game/*", timeout=180_000)  # the game over: its replay
        tab.page.screenshot(path=str(tmp_path / "replay.png"))
        assert tab.errors == []
    finally:
        tab.close()


def test_a_runner_keeps_no_private_line_in_its_live_row():
    lines: list[dict[str, Any]] = [
        {"type": "header", "format": 1, "seed": 1234, "seats": ["a", "b"]},
        {"type": "opening", "events": []},
        {"type": "note", "seat": 0, "text": "my plan"},
        {"type": "fault", "seat": 1, "fault": "crash", "detail": "a secret", "n": 3},
        {"type": "action", "n": 0, "player": 0, "action": ["pass"], "events": []},
        {"type": "result", "places": [1, 2], "reason": "conquest", "seed": 1234},
    ]
    kept = public_lines(lines)
    assert [line["type"] for line in kept] == ["header", "opening", "fault", "action"]
    assert "a secret" not in str(kept) and "1234" not in str(kept) and "my plan" not in str(kept)
    assert kept[2] == {"type": "fault", "seat": 1, "fault": "crash", "n": 3}
