"""A game's page links each seat's kept log without reading it: over a real SQLite file and a
real HTTP server, the page of a game whose logs are stored in the database links them, and
no statement it runs reads a log's bytes (an existence query per game, not a decompression
per seat)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import sqlalchemy as sa

from hegemon.leaderboard.accounts.users import add_user
from hegemon.leaderboard.store import Store
from hegemon.leaderboard.store.records import add_game_files
from tests.helpers.web import store_season
from tests.helpers.web_server import serving
from tests.web.test_account_abuse import serve

PASSWORD = "a long enough password"


@pytest.fixture
def store(tmp_path, monkeypatch) -> Iterator[Store]:
    monkeypatch.setenv("HEGEMON_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("HEGEMON_DB", raising=False)
    with Store() as opened:
        yield opened


def test_the_game_page_links_stored_logs_without_reading_them(store, tmp_path):
    season = store_season(store, tmp_path / "records", "logged", 1, seed=5)
    assert season.id is not None
    match, game = store.games(season.id)[0]
    assert match.id is not None and game.id is not None
    big = b"a long log line from the bot\n" * 20_000
    with store.session(write=True) as s:  # seat 0 logged, seat 1 not (a remote bot's)
        add_game_files(s, match.id, None, [big] + [None] * (len(match.seats) - 1))
    statements: list[str] = []

    def seen(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        statements.append(statement)

    add_user(store, "ada", PASSWORD, "admin")  # an admin may see every seat's log
    with serving(serve(store)) as url, httpx.Client(base_url=url, timeout=60) as admin:
        found = re.search(r'name=csrf value="([^"]+)"', admin.get("/login").text)
        assert found is not None
        form = {"name": "ada", "password": PASSWORD, "csrf": found.group(1)}
        assert admin.post("/login", data=form).status_code == 303
        sa.event.listen(store.engine, "before_cursor_execute", seen)
        try:
            page = admin.get(f"{url}/game/{game.id}")
        finally:
            sa.event.remove(store.engine, "before_cursor_execute", seen)
    assert page.status_code == 200, page.text
    assert f"/api/games/{game.id}/logs/0" in page.text
    assert f"/api/games/{game.id}/logs/1" not in page.text
    assert any("stored_logs" in s for s in statements)  # the page did look for logs
    assert not [s for s in statements if "stored_logs.data" in s]  # and read none
