"""Bot-controlled text is inert: a real bot whose Hello name and error message carry terminal
escapes, NUL, a right-to-left override, rich markup and ``<!--<script>`` plays a real game;
``hegemon play``, ``replay`` and ``logs`` show its words with none of that reaching the
terminal, and its replay viewer (``play --html``, as the web pages embed it) still starts in
Chromium. A real ``hegemon web`` answers a bad id in a route with a 404 and a message."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from hegemon.leaderboard.store import Store
from tests.helpers.league import ROOT, hegemon
from tests.helpers.web import Page, browser  # noqa: F401 (browser: a fixture)
from tests.helpers.web_server import running_web

HOSTILE_BOT = ROOT / "tests" / "bots" / "hostile_text.py"
UNSAFE = {"\x1b": "ESC", "\x00": "NUL", "\x07": "BEL", "\u202e": "RLO"}


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A game with the hostile bot: its record, and what ``hegemon play`` printed."""
    folder = tmp_path_factory.mktemp("bot-text")
    record = folder / "game.jsonl"
    played = hegemon(
        "play", "--bot", str(HOSTILE_BOT), "--bot", "random", "--bot", "random",
        "--set", "turn_limit=2", "--record", str(record), "--html", str(folder / "game.html"),
        "--allow-faults", "-q",
    )  # fmt: skip
    assert played.returncode == 0, played.stderr
    return record, played.stdout + played.stderr


def unsafe_in(text: str) -> list[str]:
    return [name for ch, name in UNSAFE.items() if ch in text]


def test_play_shows_the_bots_words_inert(game):
    _, shown = game
    assert unsafe_in(shown) == []
    assert "hostile" in shown and "[bold red]x[/]" in shown  # shown as text, not as style
    assert "fault · seat 0" in shown


@pytest.mark.parametrize("command", ["replay", "logs"])
def test_replay_and_logs_show_the_bots_words_inert(game, command):
    record, _ = game
    done = hegemon(command, str(record))
    assert done.returncode == 0, done.stderr
    assert unsafe_in(done.stdout + done.stderr) == []
    assert "[bold red]x[/]" in done.stdout


def test_the_replay_viewer_starts_whatever_the_bots_said(game, browser, tmp_path):
    record, _ = game
    page_file = record.with_suffix(".html")
    html = page_file.read_text(encoding="utf-8")
    data = html.split('<script id=replay-data type="application/json">', 1)[1]
    data = data.split("</script>", 1)[0]
    assert not {"<", ">", "&"} & set(data)  # nothing the HTML parser could take as markup
    assert json.loads(data)["seats"][0].startswith("hostile")
    tab = Page(browser, tmp_path)
    try:
        page = tab.open(page_file.as_uri(), "hostile-replay")
        page.wait_for_function("window.hegemonReplay !== undefined")
        page.click("#rp-last")
        assert "<!--<script>" in page.inner_text("body")  # the name, shown as text
    finally:
        tab.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``hegemon web`` over an empty arena on a free loopback port."""
    home = tmp_path_factory.mktemp("bad-ids-home")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("HEGEMON_HOME", str(home))
        mp.delenv("HEGEMON_DB", raising=False)
        Store().close()
    with running_web(home, home / "web.log") as url:
        yield url


HUGE = "1" * 30
BAD_PATHS = [
    f"/game/{HUGE}",
    "/game/²",
    f"/bot/{HUGE}",
    "/bot/%C2%B2",
    f"/season/{HUGE}",
    "/season/%C2%B2",
    f"/api/games/{HUGE}",
    f"/api/games/{HUGE}/record",
    "/api/games/%C2%B2/record",
    f"/api/games/1/logs/{HUGE}",
    f"/api/bots/{HUGE}",
    f"/api/seasons/{HUGE}",
    "/api/seasons/%C2%B2/history",
    f"/games?limit={HUGE}",
]


@pytest.mark.parametrize("path", BAD_PATHS)
def test_a_bad_id_in_a_route_is_a_404_with_a_message(server, path):
    try:
        with urllib.request.urlopen(server + path.replace("²", "%C2%B2"), timeout=30) as answer:
            assert answer.status == 200 and path.startswith("/games?")  # a limit is clamped
            return
    except urllib.error.HTTPError as exc:
        with exc:  # its connection, closed
            assert exc.code == 404, f"{path}: {exc.code}"
            assert "no such" in exc.read().decode("utf-8").lower()
