"""Simultaneous first pins of the same bot, over a real HTTP server and a real database (a
SQLite file, and PostgreSQL): every answer is a 200 with the pin, none a 500, and the pin that
holds afterwards is one of those asked for."""

from __future__ import annotations

import httpx
import pytest

from hegemon.leaderboard.accounts.tokens import create_token
from hegemon.leaderboard.accounts.users import add_user
from hegemon.leaderboard.store import BotRow, Store
from hegemon.leaderboard.store.pins import pins_now
from hegemon.leaderboard.store.versions import ACTIVE, RETIRED
from tests.helpers.league import pg_server, pg_url  # noqa: F401 (fixtures)
from tests.helpers.web_server import serving
from tests.web.test_account_abuse import at_once, serve

PASSWORD = "a long enough password"
ROUNDS = 4  # of simultaneous first pins (each after an unpin): the race is a narrow one
AT_ONCE = 6


@pytest.mark.parametrize(
    "backend", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]
)
def test_simultaneous_first_pins_of_a_bot_all_answer_and_one_holds(
    backend, request, tmp_path, monkeypatch
):
    monkeypatch.setenv("HEGEMON_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("HEGEMON_DB", raising=False)
    target = request.getfixturevalue("pg_url") if backend == "postgres" else None
    with Store(target) as store:
        mel = add_user(store, "mel", PASSWORD, "member")
        assert mel.id is not None
        with store.session(write=True) as s:
            for version, state in ((1, RETIRED), (2, ACTIVE)):
                s.add(
                    BotRow(
                        name="racer", version=version, command=["true"], language="x",
                        content_hash=f"{version:064x}", owner_id=mel.id, state=state,
                    )
                )  # fmt: skip
        ids = {v.version: v.id for v in store.bots("racer")}
        token = create_token(store, mel.id, "test")[1]
        headers = {"Authorization": f"Bearer {token}"}
        with serving(serve(store)) as url, httpx.Client(headers=headers, timeout=60) as c:
            pin = f"{url}/api/bots/racer/pin"
            for _ in range(ROUNDS):
                assert c.post(pin, json={"version": None}).status_code == 200
                answers = at_once(AT_ONCE, lambda i: c.post(pin, json={"version": 1 + i % 2}))
                assert [a.status_code for a in answers] == [200] * AT_ONCE, [
                    a.text for a in answers
                ]
                assert {a.json()["pinned"] for a in answers} == {1, 2}
                assert pins_now(store)["racer"] in {ids[1], ids[2]}
