"""A small knockout final on a real arena: the organiser registers four sample bots and
creates the event on the command line (its seed's hash printed), ``hegemon arena --workers
2`` plays it with real bot processes (two runners: round 2 is made once, by whichever finishes
round 1), and its bracket page, in headless Chromium, shows the winner and links each game's
replay; the seed shown at the end is the one whose hash was published."""

from __future__ import annotations

import hashlib
import json
import re
import urllib.request
from pathlib import Path

import pytest

from tests.helpers.league import hegemon, wait_for
from tests.helpers.web import Page, browser  # noqa: F401 (browser: a fixture)
from tests.helpers.web_server import running_web

BOTS = ("random", "aggressive", "planner", "continental")


def organise(home: Path, *args: str) -> str:
    """``hegemon ARGS`` in the arena's home; it must succeed: its output."""
    done = hegemon(*args, home=home)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def event(url: str) -> dict:
    with urllib.request.urlopen(f"{url}/api/events/final", timeout=30) as answer:
        return json.loads(answer.read())


@pytest.mark.slow
def test_a_knockout_on_a_real_arena_ends_with_its_winner_on_the_bracket_page(
    tmp_path: Path, browser
) -> None:
    home = tmp_path / "home"
    home.mkdir()
    for bot in BOTS:
        organise(home, "bot", "add", bot, bot)
    said = organise(
        home, "event", "create", "final", "--format", "knockout", "--bots", ",".join(BOTS),
        "--rules", "two-player-classic", "--players", "2", "--round-limit", "3",
        "--no-rotations",
    )  # fmt: skip
    published = re.search(r"seed sha256: ([0-9a-f]{64})", said)
    assert published, said
    log = tmp_path / "arena.log"
    with running_web(home, log, ("arena", "--workers", "2")) as url:
        before = event(url)
        assert before["seed"] == "secret" and before["seed_hash"] == published[1]
        wait_for("the final to end", lambda: event(url)["status"] == "finished", timeout=600)
        ended = event(url)
        tab = Page(browser, tmp_path)
        page = tab.open(f"{url}/event/final", "bracket")  # the screenshot: tmp_path/bracket.png
        assert page.inner_text("#winner") == f"Winner: {ended['winner']}"
        final = ended["rounds"][-1]["tables"]
        assert len(ended["rounds"]) == 2 and len(final) == 1
        assert ended["winner"] == final[0]["order"][0]  # the final table's first
        assert ended["standings"][0]["bot"] == ended["winner"]
        # every game of the bracket links its replay, which opens
        links = page.locator(".bracket a[href^='/game/']")
        assert links.count() == 3
        links.last.click()
        page.wait_for_url("**/game/*")
        assert "final" in page.title()
        tab.close()
    seed = int(ended["seed"])  # revealed at the end: the one whose hash was published
    assert hashlib.sha256(f"hegemon-seed:{seed}".encode()).hexdigest() == published[1]
    made = re.findall(r"final: round 2 made", log.read_text())
    assert len(made) == 1, log.read_text()  # by one of the two runners
