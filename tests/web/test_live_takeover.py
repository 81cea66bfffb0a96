"""A live game's row when a runner's claim is taken over, and its page before the first write,
over a real SQLite file, a real HTTP server and headless Chromium: the row a second runner
began is not deleted nor written to by the first one's late cleanup (it is keyed by runner),
and a live page opened before the runner's first write reloads itself until the game is drawn.
The record is a real game's (played in-process), written as a runner writes it."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from hegemon.leaderboard.live import rows
from hegemon.leaderboard.live.feed import dump, public_lines
from hegemon.leaderboard.store import MatchRow, Store
from tests.helpers.web import Page, browser, store_season  # noqa: F401 (browser: a fixture)
from tests.helpers.web_server import serving
from tests.web.test_account_abuse import serve

FIRST, SECOND = "runner-a", "runner-b"


@dataclass
class Played:
    store: Store
    url: str
    match_id: int
    season_id: int
    seats: list[str]
    record: str  # its public lines, as a runner writes them
    decisions: int


@pytest.fixture
def played(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Played]:
    """One real game's match, and the web served over its store."""
    monkeypatch.setenv("HEGEMON_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("HEGEMON_DB", raising=False)
    with Store() as store:
        season = store_season(store, tmp_path / "records", "live", 1, seed=7)
        assert season.id is not None
        match, game = store.games(season.id)[0]
        assert match.id is not None
        with store.session(write=True) as s:  # the seed the game was played with (see
            row = s.get(MatchRow, match.id)  # play_matches): the web replays the record with it
            assert row is not None
            row.seed %= 2**32
        lines = [json.loads(line) for line in Path(game.record_path).read_text().splitlines()]
        kept = public_lines(lines)
        decisions = sum(1 for line in kept if line.get("type") == "action")
        seats = [f"seat {i}" for i in range(len(match.seats))]
        with serving(serve(store)) as url:
            yield Played(store, url, match.id, season.id, seats, dump(kept), decisions)


def begin(game: Played, worker: str) -> None:
    rows.begin(game.store, game.match_id, game.season_id, "live #1", game.seats, worker)


def listed(game: Played) -> list[int]:
    answer = httpx.get(f"{game.url}/api/live", timeout=60)
    assert answer.status_code == 200
    return [g["match"] for g in answer.json()["games"]]


def test_a_runner_whose_claim_was_taken_over_leaves_the_new_runners_row(played: Played) -> None:
    begin(played, FIRST)
    rows.append(played.store, played.match_id, played.record[:200], 1, FIRST)
    begin(played, SECOND)  # the first runner's claim went stale: the second plays it afresh
    rows.append(played.store, played.match_id, played.record, played.decisions, SECOND)
    # the first runner, late, writes and cleans up what it thinks is its row
    rows.append(played.store, played.match_id, "late lines\n", 1, FIRST)
    rows.end(played.store, played.match_id, FIRST)
    assert listed(played) == [played.match_id]
    found = rows.read(played.store, played.match_id)
    assert found is not None and found[0].record == played.record
    assert found[0].decisions == played.decisions
    rows.end(played.store, played.match_id, SECOND)  # its own runner's cleanup does remove it
    assert listed(played) == []


def test_a_live_page_opened_before_the_first_write_follows_once_it_comes(
    played: Played, browser, tmp_path: Path
) -> None:
    begin(played, FIRST)
    tab = Page(browser, tmp_path)
    try:
        page = tab.open(f"{played.url}/live/{played.match_id}", "starting")
        assert "The game is starting" in page.content()
        rows.append(played.store, played.match_id, played.record, played.decisions, FIRST)
        page.wait_for_selector("#rp-map g.territory", timeout=60_000)  # it reloaded itself
        assert tab.errors == []
    finally:
        tab.close()
