"""HTTP runners' long-poll claims (``POST /api/runner/claim`` with ``wait``,
:mod:`hegemon.leaderboard.arena.http_runner.waiting`): the web application served by a real
uvicorn (the arena's own :class:`~hegemon.leaderboard.web.stoppable.StoppableServer`) on a
real SQLite file or a real PostgreSQL, asked over real HTTP. The room's count of waiting claims
is read from the application to know when the claims wait (no sleep)."""

from __future__ import annotations

import contextlib
import http.client
import json
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import pytest
import uvicorn

from hegemon.leaderboard.arena.http_runner.waiting import CAPACITY_ENV, WaitingRoom
from hegemon.leaderboard.arena.wakeup import LISTENING
from hegemon.leaderboard.store import CLAIMED, Store
from hegemon.leaderboard.store.runner_tokens import create_runner_token
from hegemon.leaderboard.web.server import make_app
from hegemon.leaderboard.web.stoppable import StoppableServer
from tests.helpers.league import (  # noqa: F401 (pg_server: the fixture pg_url asks for)
    SeasonSpec,
    create_season,
    free_port,
    pg_server,
    pg_url,
    register_samples,
    saved_id,
    using_home,
    wait_for,
)

pytestmark = [pytest.mark.slow]

ROOM = 3
"""Claims that may wait at once on the servers here."""


@dataclass
class Web:
    url: str
    store: Store
    token: str
    app: Any
    stop: threading.Event

    @property
    def room(self) -> WaitingRoom:
        room = getattr(self.app.state, "runner_waiting", None)
        assert isinstance(room, WaitingRoom), "no claim has waited yet"
        return room

    def waiting(self) -> int:
        room = getattr(self.app.state, "runner_waiting", None)
        return room.waiting if isinstance(room, WaitingRoom) else 0


@contextlib.contextmanager
def serve(store: Store) -> Iterator[Web]:
    """The arena's web application over ``store``, served by a StoppableServer in a thread."""
    app = make_app(store)
    port = free_port()
    stop = threading.Event()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
    server = StoppableServer(config, stop)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    wait_for("the web server to listen", lambda: server.started or not thread.is_alive(), 60)
    assert server.started, "the web server did not start"
    try:
        yield Web(f"http://127.0.0.1:{port}", store, create_runner_token(store, "t"), app, stop)
    finally:
        stop.set()
        thread.join(30)


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def web(request, tmp_path, monkeypatch) -> Iterator[Web]:
    monkeypatch.setenv(CAPACITY_ENV, str(ROOM))
    monkeypatch.setenv("HEGEMON_RUNNER_LEASE", "60")
    with using_home(tmp_path / "home"):
        (tmp_path / "home").mkdir()
        db = request.getfixturevalue("pg_url") if request.param == "postgresql" else None
        with Store(db) as store:
            register_samples(store)
            with serve(store) as served:
                yield served


def send_claim(web: Web, worker: str, wait: float) -> http.client.HTTPConnection:
    """A claim sent (its answer not read yet): the connection to read it from."""
    parts = urlsplit(web.url)
    conn = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=60)
    body = json.dumps({"worker": worker, "wait": wait})
    headers = {"Authorization": f"Bearer {web.token}", "Content-Type": "application/json"}
    conn.request("POST", "/api/runner/claim", body, headers)
    return conn


def answer(conn: http.client.HTTPConnection) -> tuple[int, Any]:
    with contextlib.closing(conn):
        response = conn.getresponse()
        return response.status, json.loads(response.read() or b"null")


def claim(web: Web, worker: str, wait: float) -> tuple[int, Any]:
    return answer(send_claim(web, worker, wait))


def test_a_claim_that_finds_nothing_waits_and_answers_none_at_its_end(web):
    assert claim(web, "w", 0) == (200, {"match": None})  # no wait asked: at once, as before
    status, body = claim(web, "w", 1.5)
    assert status == 200 and body == {"match": None, "waited": True}
    status, body = claim(web, "w", "soon")  # type: ignore[arg-type]
    assert status == 400 and '"wait"' in body["error"]


def test_waiting_claims_get_the_matches_of_a_season_made_while_they_wait(web):
    conns = [send_claim(web, f"w{i}", 30) for i in range(2)]
    wait_for("both claims to wait", lambda: web.waiting() == 2, 30)
    spec = SeasonSpec(name="made-while-waiting", games=2, turn_limit=4)
    season = create_season(web.store, spec, web.store.bots())
    with ThreadPoolExecutor(2) as pool:
        answers = list(pool.map(answer, conns))  # well before their 30 s: woken by the match
    assert [status for status, _ in answers] == [200, 200]
    ids = {body["match"]["id"] for _, body in answers}
    assert len(ids) == 2 and all(body["waited"] for _, body in answers), answers
    held = {m.id: m.worker for m in web.store.matches(saved_id(season)) if m.status == CLAIMED}
    assert held == {body["match"]["id"]: f"t/w{i}" for i, (_, body) in enumerate(answers)}
    assert web.waiting() == 0


@pytest.mark.parametrize("web", ["sqlite"], indirect=True)
def test_a_flood_of_long_polls_is_bounded_and_a_runner_that_hangs_up_frees_its_place(web):
    start = threading.Barrier(4 * ROOM)

    def flood(i: int) -> tuple[int, Any]:
        start.wait()
        return claim(web, f"f{i}", 3)

    with ThreadPoolExecutor(4 * ROOM) as pool:
        answers = list(pool.map(flood, range(4 * ROOM)))
    statuses = sorted(status for status, _ in answers)
    assert statuses == [200] * ROOM + [503] * (3 * ROOM), statuses
    assert all("too many runners" in body["error"] for status, body in answers if status == 503)
    assert web.waiting() == 0

    # the room full of claims whose runners then hang up: their places are freed at once
    hung = [send_claim(web, f"h{i}", 30) for i in range(ROOM)]
    wait_for("the room to fill", lambda: web.waiting() == ROOM, 30)
    assert claim(web, "late", 30)[0] == 503
    with urlopen_json(web, "/api/seasons") as seasons:  # the server answers everyone else
        assert seasons is not None
    for conn in hung:
        conn.close()
    wait_for("the hung-up claims to leave", lambda: web.waiting() == 0, 20)
    assert claim(web, "late", 0.5) == (200, {"match": None, "waited": True})


@contextlib.contextmanager
def urlopen_json(web: Web, path: str) -> Iterator[Any]:
    import urllib.request

    with urllib.request.urlopen(web.url + path, timeout=30) as response:
        yield json.loads(response.read())


@pytest.mark.parametrize("web", ["sqlite"], indirect=True)
def test_a_stopping_web_server_answers_its_waiting_claims_at_once(web):
    conns = [send_claim(web, f"s{i}", 30) for i in range(2)]
    wait_for("both claims to wait", lambda: web.waiting() == 2, 30)
    for conn in conns:
        conn.sock.settimeout(15)  # half their wait: answered by the stop, not their end
    web.stop.set()
    answers = [answer(conn) for conn in conns]
    assert answers == [(200, {"match": None, "waited": True})] * 2
    assert web.room.closed


@pytest.mark.parametrize(
    "web", [pytest.param("postgresql", marks=pytest.mark.postgres)], indirect=True
)
def test_a_waiting_claim_takes_over_a_lease_that_lapses_though_no_write_announces_it(
    web, monkeypatch
):
    monkeypatch.setenv("HEGEMON_RUNNER_LEASE", "5")  # read at the server's first claim
    assert claim(web, "first", 0.5)[1]["waited"] is True  # the room and its listener made
    listener = web.room.listener
    assert listener is not None
    wait_for("the server to listen", lambda: listener.state == LISTENING, 30)
    season = create_season(web.store, SeasonSpec(name="lapsing", games=1), web.store.bots())
    status, held = claim(web, "gone", 0)  # a runner that will never heartbeat
    assert status == 200 and held["match"] is not None
    heir = send_claim(web, "heir", 30)

    def taken_over() -> bool:
        [match] = web.store.matches(saved_id(season))
        return (match.status, match.worker) == (CLAIMED, "t/heir")

    # woken when the lease lapses (5 s), not at the end of its wait (30 s: the guard's 20 s fail)
    wait_for("the waiting claim to take the lapsed lease over", taken_over, 20)
    status, body = answer(heir)
    assert status == 200 and body["waited"] is True and body["match"] is not None, body
    assert body["match"]["id"] == held["match"]["id"]
