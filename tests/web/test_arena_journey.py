"""A real user's path through a real arena, in headless Chromium: ``hegemon arena --workers 1``
on 127.0.0.1 over a fresh home where the organiser (an admin, on the command line) made two
members and a ladder. Member ann signs in, uploads a bot through "my bots", sees it checked and
active, sees its first ladder game, opens its replay and reads her bot's log of that game;
member bob, in a browser context of his own, and an anonymous visitor see the replay but not
the log."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.helpers.league import hegemon, wait_for
from tests.helpers.web import Page, browser, sign_in  # noqa: F401 (browser: a fixture)
from tests.helpers.web_server import running_web

PASSWORD = "correct horse battery staple"
SECRET = "ann's secret: 4 8 15 16 23 42"
# A bot that plays the SDK's default moves and writes, in each game (a runner may keep its
# process from one game to the next), a line only its owner may read.
BOT = f"""\
import sys

from hegemon.sdk import Bot, run


class Secretive(Bot):
    name = "secretive"

    def on_start(self, game):
        print({SECRET!r}, file=sys.stderr, flush=True)


run(Secretive())
"""


def organise(home: Path, *args: str, stdin: str | None = None) -> None:
    """``hegemon ARGS`` as the organiser runs it in the arena's home; it must succeed."""
    done = hegemon(*args, home=home, stdin=stdin)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.fixture
def arena(tmp_path: Path) -> Iterator[str]:
    """A running arena whose ladder waits for a third bot: two members, ann and bob, and the
    organiser's two sample bots on a 3-player ladder of short games (3 turns)."""
    home = tmp_path / "home"
    home.mkdir()
    for member in ("ann", "bob"):
        organise(home, "user", "add", member, "--password-stdin", stdin=PASSWORD + "\n")
    for sample in ("random", "aggressive"):
        organise(home, "bot", "add", f"house-{sample}", sample)
    organise(home, "ladder", "create", "lad", "--players", "3", "--set", "turn_limit=3")
    with running_web(home, tmp_path / "arena.log", ("arena", "--workers", "1")) as url:
        yield url


def json_of(page: Any, path: str) -> Any:
    """``path`` of the site read with the page's own session (its cookies)."""
    answer = page.request.get(path)
    assert answer.ok, f"{path}: HTTP {answer.status}"
    return answer.json()


def signed_in(browser: Any, shots: Path, url: str, name: str) -> Page:
    """A tab of a browser context of its own, signed in as ``name`` (on "my bots")."""
    tab = Page(browser, shots)
    page = tab.open(f"{url}/login?next=/me/bots", f"{name}-login")
    sign_in(page, name, PASSWORD)
    page.wait_for_url("**/me/bots")
    return tab


@pytest.mark.slow
def test_a_member_uploads_a_bot_sees_its_first_ladder_game_and_alone_reads_its_log(
    arena, browser, tmp_path
):
    ann = signed_in(browser, tmp_path, arena, "ann")
    page = ann.page
    bot = tmp_path / "secretive.py"
    bot.write_text(BOT)
    page.fill("form[enctype] input[name=name]", "ann-bot")
    page.set_input_files("input[name=file]", str(bot))
    page.click("form[enctype] button")
    page.wait_for_selector("text=ann-bot@v1 is queued for its check game")
    row = "tr[data-version]"
    version = f"{arena}/api/versions/{page.get_attribute(row, 'data-version')}"

    wait_for(
        "its check game", lambda: json_of(page, version)["state"] not in ("queued", "checking")
    )
    page.reload()
    assert page.get_attribute(row, "data-state") == "active"
    assert page.inner_text(f"{row} .reason").startswith("passed: place")

    games = f"{arena}/api/games?bot=ann-bot%40v1"
    wait_for("its first ladder game", lambda: json_of(page, games)["games"], timeout=240)
    page.click(f"{row} a")  # its version's page, then its games, then the first one
    page.click("main a:text-is('games')")
    page.click("main a[href^='/game/']")
    page.wait_for_selector("#rp-map g.territory")
    assert "ann-bot@v1" in (page.text_content("#replay-data") or "")
    page.screenshot(path=str(tmp_path / "ann-replay.png"), full_page=True)
    assert ann.errors == []
    game = page.url
    # her own seat's log is linked (the organiser's bots' are not hers to read)
    assert page.locator("a.log").all_inner_texts() == ["ann-bot@v1"]
    page.click("a.log")
    assert SECRET in page.inner_text("body")
    log = page.url
    ann.close()

    bob = signed_in(browser, tmp_path, arena, "bob")
    anonymous = Page(browser, tmp_path)
    try:
        for who, tab in (("bob", bob), ("anonymous", anonymous)):
            page = tab.open(game, f"{who}-replay")  # the public replay, drawn without an error
            page.wait_for_selector("#rp-map g.territory")
            assert page.locator("a.log").count() == 0
            refused = page.goto(log)
            assert refused is not None
            assert refused.status == (403 if who == "bob" else 401)
            assert SECRET not in page.content()
    finally:
        bob.close()
        anonymous.close()
