"""The web over a ladder: the game list a page at a time (newest first, stable pages, page
links), every version's rating history, boards served while they are refitted, on a real
server (``hegemon web`` on 127.0.0.1) over a real SQLite file."""

from __future__ import annotations

import json
import threading
import urllib.request
from pathlib import Path

from hegemon.leaderboard.store import BotRow, Store
from hegemon.leaderboard.web.data import Arena
from tests.helpers.ladder import drive, fake_bots, make_ladder
from tests.helpers.league import home, store  # noqa: F401  (fixtures)
from tests.helpers.web_server import running_web


def _get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=60) as response:
        assert response.status == 200
        return response.read().decode()


def test_the_game_list_pages_newest_first_and_versions_keep_their_history(
    home: Path, store: Store, tmp_path: Path
) -> None:
    fake_bots(store, 6)
    ladder = make_ladder(store)
    drive(store, ladder, 30)
    newer = BotRow(name="bot02", version=2, command=["true"], content_hash="e" * 64, language="x")
    with store.session(write=True) as s:
        s.add(newer)
    drive(store, ladder, 30)
    assert ladder.id is not None
    played = sorted((int(g.id or 0) for _, g in store.games(ladder.id)), reverse=True)
    with running_web(home, tmp_path / "web.log") as url:
        first = json.loads(_get(f"{url}/api/games?limit=25"))
        second = json.loads(_get(f"{url}/api/games?limit=25&offset=25"))
        assert first["total"] == len(played)
        assert [g["id"] for g in first["games"] + second["games"]] == played[:50]

        page = _get(f"{url}/games")
        assert f"games 1–50 of {len(played)}, newest first" in page
        assert 'rel=next href="?page=2"' in page
        last = _get(f"{url}/games?season=lad&page=2")
        assert f"games 51–{len(played)} of {len(played)}" in last
        assert 'rel=prev href="?season=lad&amp;page=1"' in last

        assert "(ladder) games played" in _get(f"{url}/season/lad")
        history = json.loads(_get(f"{url}/api/bots/{newer.id}/history"))
        versions = {h["version"]: h["points"] for h in history["history"]}
        assert set(versions) == {"bot02@v1", "bot02@v2"}
        assert versions["bot02@v1"] and versions["bot02@v2"]
        assert "lad · bot02@v1" in _get(f"{url}/bot/{newer.id}")  # both lines in the chart


def test_a_board_being_refitted_is_served_as_it_was(store: Store) -> None:
    arena = Arena(store)
    assert arena.cached("board", 1, lambda: "fitted on 1 game", stale_ok=True) == "fitted on 1 game"
    release, refitted = threading.Event(), threading.Event()

    def slow_refit() -> str:
        release.wait(60)
        refitted.set()
        return "fitted on 2 games"

    # a game was added: the request does not wait for the refit, which goes on meanwhile
    assert arena.cached("board", 2, slow_refit, stale_ok=True) == "fitted on 1 game"
    release.set()
    assert refitted.wait(60)

    def never() -> str:
        raise AssertionError("refitted again instead of using the background refit")

    for _ in range(6000):  # the refit's value is stored just after it returns
        if arena.cached("board", 2, never, stale_ok=True) == "fitted on 2 games":
            break
        release.wait(0.01)
    assert arena.cached("board", 2, never) == "fitted on 2 games"
