"""``hegemon web``, ``hegemon report`` and the replay file as a user runs them (subprocesses),
with a real season of the sample bots played by ``hegemon season run`` while the season page
is open in headless Chromium."""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from hegemon.leaderboard.store import Store
from hegemon.referee.record import replay
from tests.helpers.league import (
    CLI,
    ROOT,
    SeasonSpec,
    create_season,
    env_for,
    register_samples,
    saved_id,
    start_hegemon,
)
from tests.helpers.web import Page, browser, territories  # noqa: F401 (browser: a fixture)
from tests.helpers.web_server import running_web

SPEC = SeasonSpec(name="real", games=3, players=4, turn_limit=4, seed=11)


def run(argv: list[str], home: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        argv, cwd=ROOT, env=env_for(home), capture_output=True, text=True, timeout=300
    )


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("web-cli-home")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("HEGEMON_HOME", str(folder))
        mp.delenv("HEGEMON_DB", raising=False)
        with Store() as store:
            create_season(store, SPEC, register_samples(store))
    return folder


@pytest.fixture(scope="module")
def server(home: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``hegemon web`` on a free loopback port, until the module's tests are done."""
    with running_web(home, tmp_path_factory.mktemp("web-log") / "web.log") as url:
        yield url


@pytest.mark.slow
def test_the_season_page_follows_a_real_season_run(home, server, browser, tmp_path):
    tab = Page(browser, tmp_path)
    try:
        page = tab.open(f"{server}/season/real", "real-before")
        assert "0 of 3 games played" in page.locator(".progress-text").inner_text()
        runner = start_hegemon(
            "season", "run", "real", "--concurrency", "1", "--quiet", home=home,
            log=tmp_path / "run.log",
        )  # fmt: skip
        try:
            page.wait_for_function(
                "!document.querySelector('.progress-text').textContent.startsWith('0 of 3')",
                timeout=120_000,
            )
            page.screenshot(path=str(tmp_path / "real-during.png"), full_page=True)
            page.wait_for_function(
                "document.querySelector('.status').textContent === 'finished'",
                timeout=120_000,
            )
            assert runner.wait(60) == 0, (tmp_path / "run.log").read_text()
        finally:
            if runner.poll() is None:
                runner.kill()
        assert "3 of 3 games played" in page.locator(".progress-text").inner_text()
        assert page.locator("table.board tr[data-bot]").count() == 4
        page.screenshot(path=str(tmp_path / "real-after.png"), full_page=True)
        assert tab.errors == []
        # a real game's replay, in the site and as a file from ``replay --html``
        games = json.load(urllib.request.urlopen(f"{server}/api/games?season=real"))
        first = games["games"][0]["id"]
        record = json.load(urllib.request.urlopen(f"{server}/api/games/{first}"))
        with Store(home / "arena.db") as store:
            real = store.season_by_name("real")
            assert real is not None
            path = next(g.record_path for _, g in store.games(saved_id(real)) if g.id == first)
        verdict = replay(Path(path).read_text(encoding="utf-8"))
        assert verdict.ok and verdict.game is not None
        final = list(zip(verdict.game.owner, verdict.game.armies, strict=True))
        assert record["replay"]["final"] == {
            "owner": verdict.game.owner,
            "armies": verdict.game.armies,
        }
        page = tab.open(f"{server}/game/{first}", "real-game")
        page.keyboard.press("End")
        assert territories(page) == final
        out = tmp_path / "replay.html"
        made = run([sys.executable, "-c", CLI, "replay", path, "--html", str(out)], home)
        assert made.returncode == 0, made.stderr
        page = tab.open(out.as_uri(), "real-replay-file")
        page.keyboard.press("End")
        assert territories(page) == final
    finally:
        tab.close()


def test_report_writes_pages_that_work_from_disk(home, browser, tmp_path):
    # the season the test before follows as it is played; run alone, this plays it here
    played = run([sys.executable, "-c", CLI, "season", "run", "real", "--quiet"], home)
    assert played.returncode == 0, played.stderr
    out = tmp_path / "site"
    made = run([sys.executable, "-c", CLI, "report", str(out)], home)
    assert made.returncode == 0, made.stderr
    assert "pages written" in made.stdout
    tab = Page(browser, tmp_path)
    try:
        page = tab.open((out / "index.html").as_uri(), "report-index")
        assert page.locator("table.board tr[data-bot]").count() >= 1
        tab.open((out / "season-real.html").as_uri(), "report-season")
    finally:
        tab.close()
    missing = run(
        [sys.executable, "-c", CLI, "report", str(out), "--db", str(tmp_path / "no.db")], home
    )
    assert missing.returncode == 1 and "no database" in missing.stderr
