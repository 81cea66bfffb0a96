"""Runners that join over HTTP (``hegemon runner --arena URL --token T``): a real ``hegemon
web`` over an arena's SQLite file, real runner processes whose homes have no database, and the
runner API's refusals (a stale, repeated or tampered post, a revoked token, the wrong kind of
token) asked over real HTTP."""

from __future__ import annotations

import http.client
import json
import signal
import subprocess
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import trio

from hegemon.leaderboard.arena.http_runner.client import ArenaClient, ArenaError
from hegemon.leaderboard.arena.http_runner.loop import HttpRunner
from hegemon.leaderboard.arena.http_runner.protocol import Lease, Result, read_lease, result_body
from hegemon.leaderboard.store import CLAIMED, DONE, FINISHED, PENDING, MatchRow, SeasonRow, Store
from hegemon.leaderboard.store.runner_tokens import revoke_runner_token
from hegemon.referee.record_check import checked_replay
from tests.helpers.league import (  # noqa: F401 (pg_server: the fixture pg_url asks for)
    SeasonSpec,
    create_season,
    descendants,
    env_for,
    games_per_match,
    hegemon,
    kill_all,
    pg_server,
    pg_url,
    register_samples,
    saved_id,
    start_hegemon,
    using_home,
    wait_for,
)
from tests.helpers.web_server import running_web

pytestmark = [pytest.mark.slow]

LEASE = "4"
"""Seconds an HTTP runner's lease lasts here without a heartbeat (the arena's default: 180)."""


@dataclass
class Arena:
    url: str
    home: Path
    store: Store
    token: str  # the runner token "probe"


def make_token(home: Path, name: str, *db: str) -> str:
    made = hegemon("runner-token", "create", name, *db, home=home)
    assert made.returncode == 0, made.stdout + made.stderr
    return made.stdout.strip().splitlines()[-1]


@pytest.fixture(scope="module")
def arena(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Arena]:
    home = tmp_path_factory.mktemp("arena")
    with using_home(home):
        with Store() as store:
            register_samples(store)
        token = make_token(home, "probe")
        with (
            running_web(home, home / "web.log", HEGEMON_RUNNER_LEASE=LEASE) as url,
            Store(create=False) as store,
        ):
            yield Arena(url, home, store, token)


def new_season(arena: Arena, name: str, turn_limit: int = 10, games: int = 1) -> SeasonRow:
    spec = SeasonSpec(name=name, games=games, turn_limit=turn_limit)
    return create_season(arena.store, spec, arena.store.bots())


def matches(arena: Arena, season: SeasonRow) -> list[MatchRow]:
    assert season.id is not None
    return arena.store.matches(season.id)


def start_runner(arena: Arena, machine: Path, token: str, worker: str) -> subprocess.Popen[bytes]:
    """``hegemon runner`` on a machine of its own: an empty home, no database."""
    machine.mkdir(exist_ok=True)
    env = env_for(machine, HEGEMON_RUNNER_TOKEN=token)
    args = ("runner", "--arena", arena.url, "--worker", worker)
    return start_hegemon(*args, env=env, log=machine / f"{worker}.log")


def stop(proc: subprocess.Popen[bytes]) -> None:
    kill_all([*descendants(proc.pid), proc.pid])
    proc.wait(30)


def stored_games(arena: Arena, season: SeasonRow) -> dict[int, int]:
    """Match number → games stored."""
    return games_per_match(arena.store, saved_id(season))


def finished(arena: Arena, season: SeasonRow) -> bool:
    assert season.id is not None
    found = arena.store.get_season(season.id)
    return found is not None and found.status == FINISHED


def claimed_by(arena: Arena, season: SeasonRow, prefix: str) -> bool:
    return any(
        m.status == CLAIMED and (m.worker or "").startswith(prefix) for m in matches(arena, season)
    )


# ---------------------------------------------------------------------------------- whole seasons
def test_a_season_played_by_an_http_runner_whose_home_has_no_database(arena, tmp_path):
    season = new_season(arena, "over-http", games=3)
    machine = tmp_path / "machine"
    runner = start_runner(arena, machine, arena.token, "far")
    try:
        wait_for("the season to be played over HTTP", lambda: finished(arena, season))
    finally:
        stop(runner)
    assert set(stored_games(arena, season).values()) == {1}
    assert not list(machine.glob("*.db"))  # it never had a database
    for _, game in arena.store.games(season.id):
        assert game.worker == "probe/far"
        with urllib.request.urlopen(f"{arena.url}/api/games/{game.id}/record") as served:
            assert checked_replay(served.read().decode()).ok  # served to a visitor
    # the bots came from the arena by digest and stay cached on the runner's machine
    digests = {b.content_hash for b in arena.store.season_bots(season.id)}
    assert {p.name for p in (machine / "bots").iterdir() if not p.name.startswith(".")} == digests
    said = (machine / "far.log").read_text() + (arena.home / "web.log").read_text()
    assert "Traceback" not in said
    assert not any(str(m.seed) in said for m in matches(arena, season))  # no seed in any log


def test_a_runner_killed_mid_game_has_its_match_replayed_by_another_once(arena, tmp_path):
    season = new_season(arena, "killed", turn_limit=60)
    first = start_runner(arena, tmp_path / "one", arena.token, "doomed")
    try:
        wait_for("the first runner's claim", lambda: claimed_by(arena, season, "probe/doomed"))
    finally:
        stop(first)  # kill -9, its bots too: mid-game
    [match] = matches(arena, season)
    assert match.status == CLAIMED, "the game ended before the kill: make it longer"
    second = start_runner(arena, tmp_path / "two", arena.token, "heir")
    try:
        wait_for("the second runner to play it", lambda: finished(arena, season))
    finally:
        stop(second)
    assert stored_games(arena, season) == {1: 1}
    [(_, game)] = arena.store.games(season.id)
    assert game.worker == "probe/heir"


def test_a_stopped_runner_gives_its_match_back_and_a_faulty_one_counts_an_attempt(arena, tmp_path):
    season = new_season(arena, "given-back", turn_limit=60)
    runner = start_runner(arena, tmp_path / "m", arena.token, "polite")
    try:
        wait_for("its claim", lambda: claimed_by(arena, season, "probe/polite"))
        runner.send_signal(signal.SIGTERM)
        assert runner.wait(60) == 0
    finally:
        stop(runner)
    [match] = matches(arena, season)
    assert (match.status, match.worker, match.attempts) == (PENDING, None, 0)  # not counted
    lease = claim(arena, "c")
    client = ArenaClient(arena.url, arena.token, print, retry_for=0)
    body = {"worker": "c", "match_id": lease.match_id, "reason": "its disk is full"}
    assert client.post("/api/runner/release", body) == {"released": True}
    [match] = matches(arena, season)
    assert (match.status, match.attempts) == (PENDING, 1)
    assert match.last_error == "runner fault (probe/c): its disk is full"
    assert client.post("/api/runner/release", body) == {"released": False}  # not c's now
    lease = claim(arena, "c")  # the season ends here: no game of it is needed
    assert arena.store.void_match(lease.match_id, "probe/c", "test over", max_attempts=1)


def test_a_season_over_http_on_postgresql(pg_url, tmp_path):
    home = tmp_path / "arena"
    home.mkdir()
    with using_home(home):
        with Store(pg_url) as store:
            register_samples(store)
        token = make_token(home, "pg", "--db", pg_url)
        with (
            running_web(
                home, home / "web.log", HEGEMON_DB=pg_url, HEGEMON_RUNNER_LEASE=LEASE
            ) as url,
            Store(pg_url, create=False) as store,
        ):
            on_pg = Arena(url, home, store, token)
            season = new_season(on_pg, "pg-http", games=2)
            runner = start_runner(on_pg, tmp_path / "machine", token, "far")
            try:
                wait_for("the season to be played over HTTP", lambda: finished(on_pg, season))
            finally:
                stop(runner)
            assert set(stored_games(on_pg, season).values()) == {1}
            assert {game.worker for _, game in store.games(saved_id(season))} == {"pg/far"}


# ---------------------------------------------------------------------------------- posts
class Capturing(HttpRunner):
    """The HTTP runner's own play (bots in its sandbox), its result kept rather than posted."""

    result: Result | None = None

    async def _post(self, lease: Lease, name: str, result: Any) -> None:
        self.result = Result(
            lease.match_id, result.record, result.logs, result.duration, result.decisions
        )


def claim(arena: Arena, worker: str, token: str | None = None) -> Lease:
    client = ArenaClient(arena.url, token or arena.token, print)
    lease = read_lease(client.post("/api/runner/claim", {"worker": worker}))
    assert lease is not None
    return lease


def play(arena: Arena, lease: Lease, worker: str) -> Result:
    runner = Capturing(ArenaClient(arena.url, arena.token, print), worker, print)
    trio.run(runner.play, lease)
    assert runner.result is not None
    return runner.result


def post(arena: Arena, worker: str, result: Result) -> tuple[int, dict[str, Any]]:
    client = ArenaClient(arena.url, arena.token, print, retry_for=0)
    try:
        return 200, client.post("/api/runner/result", result_body(worker, result))
    except ArenaError as exc:
        return exc.status, {"error": str(exc)}


def tampered(record: str) -> str:
    """The record with its result's places reversed: the winner a loser."""
    lines = record.splitlines()
    last = json.loads(lines[-1])
    last["places"] = last["places"][::-1]
    return "\n".join([*lines[:-1], json.dumps(last, separators=(",", ":"))]) + "\n"


def test_posts_stale_repeated_and_tampered(arena):
    season = new_season(arena, "posted")
    lease = claim(arena, "a")
    assert lease.season.name == "posted" and lease.game_id == "posted-1"
    played = play(arena, lease, "a")
    [match] = matches(arena, season)

    # a record that does not verify: refused, a runner fault, the match back in the queue
    bad = Result(played.match_id, tampered(played.record), played.logs, 1.0, 1)
    status, answer = post(arena, "a", bad)
    assert status == 422 and "does not verify" in answer["error"]
    [match] = matches(arena, season)
    assert match.status == PENDING and match.attempts == 1
    assert (match.last_error or "").startswith("runner fault (probe/a)")
    assert stored_games(arena, season) == {1: 0}

    # a stale post: a's lease was given back and b holds the match now
    assert claim(arena, "a").match_id == match.id
    assert claim(arena, "a").match_id == match.id  # a claim retried: the same match, not two
    assert arena.store.release_claims("probe/a") == 1
    assert claim(arena, "b").match_id == match.id
    status, answer = post(arena, "a", played)
    assert status == 409 and "does not hold" in answer["error"]
    assert "\n" not in answer["error"]

    # b's post stored; the same post again (a lost answer retried) gets the same answer
    first = post(arena, "b", played)
    assert first[0] == 200 and first[1]["stored"] is True
    assert post(arena, "b", played) == first
    assert stored_games(arena, season) == {1: 1}
    [match] = matches(arena, season)
    assert match.status == DONE
    # a different post for the stored match, or another runner's: refused, nothing changes
    status, answer = post(arena, "b", bad)
    assert status == 409 and "stored already" in answer["error"]
    assert post(arena, "a", played)[0] == 409
    assert stored_games(arena, season) == {1: 1}


def test_bad_bodies_get_one_line(arena):
    client = ArenaClient(arena.url, arena.token, print, retry_for=0)
    bodies: list[tuple[str, dict[str, Any]]] = [
        ("/api/runner/claim", {}),
        ("/api/runner/claim", {"worker": "a/b"}),
        ("/api/runner/heartbeat", {"worker": "a"}),
        ("/api/runner/result", {"worker": "a", "match_id": 1, "record": "", "logs": []}),
        ("/api/runner/result", {"worker": "a", "match_id": 999999, "record": "x", "logs": ["%"],
                                "duration": 1, "decisions": 1}),
    ]  # fmt: skip
    for path, body in bodies:
        with pytest.raises(ArenaError) as refused:
            client.post(path, body)
        assert refused.value.status == 400 and "\n" not in str(refused.value), path
    with pytest.raises(ArenaError) as missing:
        client.get("/api/runner/archives/" + "0" * 64)
    assert missing.value.status == 404
    # a post past the body limit is refused before its body is read
    host, port = arena.url.removeprefix("http://").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=30)
    connection.putrequest("POST", "/api/runner/result")
    connection.putheader("Authorization", f"Bearer {arena.token}")
    connection.putheader("Content-Length", str(65 * 1024 * 1024))
    connection.endheaders()
    assert connection.getresponse().status == 413
    connection.close()


# ---------------------------------------------------------------------------------- tokens
def test_a_revoked_token_is_refused_even_mid_game(arena, tmp_path):
    token = make_token(arena.home, "doomed")
    season = new_season(arena, "revoked", turn_limit=60)
    runner = start_runner(arena, tmp_path / "m", token, "r")
    try:
        wait_for("its claim", lambda: claimed_by(arena, season, "doomed/r"))
        # revoked in the store at once: a command's start took long enough on a busy machine
        # for the game to end first (and be stored, rightly, before the revocation)
        assert revoke_runner_token(arena.store, "doomed")
        assert runner.wait(60) == 1  # its next heartbeat was refused: it stopped
    finally:
        stop(runner)
    said = (tmp_path / "m" / "r.log").read_text()
    assert "refused the runner token" in said and "Traceback" not in said
    assert stored_games(arena, season) == {1: 0}  # nothing of it stored
    with pytest.raises(ArenaError) as refused:
        claim(arena, "r", token)
    assert refused.value.status == 401
    listed = hegemon("runner-token", "list", home=arena.home)
    assert "revoked" in listed.stdout and token not in listed.stdout
    [match] = matches(arena, season)  # the season ends here rather than wait for its lease
    assert arena.store.void_match(match.id, match.worker or "", "test over", max_attempts=1)


def test_runner_and_member_tokens_each_open_only_their_own_routes(arena):
    from hegemon.leaderboard.accounts.tokens import create_token
    from hegemon.leaderboard.accounts.users import add_user

    user = add_user(arena.store, "member", "a long password", "member")
    assert user.id is not None
    _, member_token = create_token(arena.store, user.id, "cli")
    as_member = ArenaClient(arena.url, member_token, print, retry_for=0)
    as_runner = ArenaClient(arena.url, arena.token, print, retry_for=0)
    assert as_member.get("/api/me")  # the member's token works where it should
    for client, path in [
        (as_member, "/api/runner/claim"),
        (as_runner, "/api/me"),
        (as_runner, "/api/me/bots"),
        (as_runner, "/api/games"),  # no member's token: not even public reads
    ]:
        with pytest.raises(ArenaError) as refused:
            if path == "/api/runner/claim":
                client.post(path, {"worker": "x"})
            else:
                client.get(path)
        assert refused.value.status == 401, path
    with pytest.raises(ArenaError) as refused:
        as_runner.post("/api/bots/sneaky/versions", {})
    assert refused.value.status == 401
