"""Records, logs and notes where every page can read them (issue 36 item 1): two runners with
homes of their own ("two machines") play one season on one database; their local record folders
are then taken away, as another machine's disk is out of reach, and a web server on a third
home serves every game's replay, record, logs and notes from the database alone — on a real
PostgreSQL (tests.helpers.league.pg_server) and on a SQLite file (the default)."""

from __future__ import annotations

import contextlib
import secrets
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from hegemon.leaderboard.registry import add_bot
from hegemon.leaderboard.store import Store
from tests.bots.noter import SECRET
from tests.helpers.league import (  # noqa: F401
    SeasonSpec,
    create_season,
    hegemon,
    pg_server,
    pg_url,
    register_samples,
    saved_id,
    start_hegemon,
    using_home,
)
from tests.helpers.web_server import running_web

pytestmark = [pytest.mark.slow]

BOTS = Path(__file__).resolve().parent.parent / "bots"
MACHINES = ("machine-1", "machine-2")
ADMIN, PASSWORD = "ada", "a long admin password"


@dataclass(frozen=True)
class Played:
    """A season played by two machines, their record folders taken away (kept here)."""

    db: str
    season: str
    season_id: int
    games: int
    web_home: Path
    taken: dict[str, Path]  # machine → its records folder, moved out of its home


def play_on_two_machines(db: str, tmp_path: Path) -> Played:
    """Register three sample bots and the noter (who writes notes on every decision), create
    a short season and play it with one runner per machine home; then take their records."""
    homes = {m: tmp_path / m for m in (*MACHINES, "web")}
    for folder in homes.values():
        folder.mkdir()
    spec = SeasonSpec(name=f"shared-{secrets.token_hex(3)}", games=6, turn_limit=6, seed=36)
    with using_home(homes["machine-1"]), Store(db) as store:
        bots = register_samples(store, ("random", "aggressive", "continental"))
        bots.append(add_bot(store, "noter", str(BOTS / "noter.py"), check=False).bot)
        season_id = saved_id(create_season(store, spec, bots))
    runners = {
        m: start_hegemon(
            "season",
            "run",
            spec.name,
            "--quiet",
            "--db",
            db,
            "--worker",
            m,
            home=homes[m],
            log=tmp_path / f"{m}.log",
        )
        for m in MACHINES
    }
    try:
        for m, runner in runners.items():
            assert runner.wait(timeout=400) == 0, (tmp_path / f"{m}.log").read_text()
    finally:
        for runner in runners.values():
            if runner.poll() is None:
                runner.kill()
                runner.wait()
    taken = {}
    for m in MACHINES:  # the other machines' disks are out of the web server's reach
        taken[m] = tmp_path / "taken" / m
        shutil.move(homes[m] / "records", taken[m])
    added = hegemon(
        "user",
        "add",
        ADMIN,
        "--admin",
        "--password-stdin",
        "--db",
        db,
        home=homes["web"],
        stdin=PASSWORD + "\n",
    )
    assert added.returncode == 0, added.stdout + added.stderr
    return Played(db, spec.name, season_id, spec.games, homes["web"], taken)


@contextlib.contextmanager
def serving(played: Played) -> Iterator[tuple[httpx.Client, httpx.Client]]:
    """A web server on the third home over the database: (an admin's client, a visitor's)."""
    log = played.web_home.parent / "web.log"
    with running_web(played.web_home, log, HEGEMON_DB=played.db) as url:
        with (
            httpx.Client(base_url=url, timeout=60) as admin,
            httpx.Client(base_url=url, timeout=60) as visitor,
        ):
            answer = admin.post("/api/tokens", json={"name": ADMIN, "password": PASSWORD})
            assert answer.status_code == 201, answer.text
            admin.headers["Authorization"] = f"Bearer {answer.json()['token']}"
            yield admin, visitor


def local_copy(played: Played, number: int) -> Path:
    """The record of match ``number`` on the machine that played it."""
    found = [
        path
        for path in (played.taken[m] / played.season / f"{number}.jsonl" for m in MACHINES)
        if path.is_file()
    ]
    assert len(found) == 1, f"game {number}: records on {len(found)} machines"
    return found[0]


def check_served(played: Played) -> None:
    """Every game's record (byte for byte), replay, notes and logs come from the web server on
    the third home; logs and notes for the admin only."""
    with serving(played) as (admin, visitor):
        listed = admin.get("/api/games", params={"season": played.season}).json()["games"]
        assert len(listed) == played.games
        for game in listed:
            gid, number = game["id"], game["number"]
            assert game["rounds"], f"game {gid}: its rounds are read from the stored record"
            record = local_copy(played, number)
            served = admin.get(f"/api/games/{gid}/record")
            assert served.status_code == 200, served.text
            assert served.content == record.read_bytes()
            page = visitor.get(f"/game/{gid}")
            assert page.status_code == 200 and "replay" in page.text.lower()
            noter = game["seats"].index("noter@v1")
            # the noter's notes (lines of its record): the admin sees them, a visitor not
            assert SECRET in str(admin.get(f"/api/games/{gid}").json()["replay"])
            assert SECRET not in visitor.get(f"/api/games/{gid}").text
            for seat in range(len(game["seats"])):
                kept = record.with_suffix(".logs") / f"seat-{seat}.log"
                assert kept.is_file(), f"game {gid}: the runner kept no log of seat {seat}"
                log = admin.get(f"/api/games/{gid}/logs/{seat}")
                assert log.status_code == 200, log.text
                assert log.text.startswith(kept.read_text(encoding="utf-8", errors="replace"))
                assert visitor.get(f"/api/games/{gid}/logs/{seat}").status_code == 401
            assert visitor.get(f"/api/games/{gid}/logs/{noter}").status_code == 401
    with Store(played.db) as store:
        workers = {str(g.worker).split("/")[0] for _, g in store.games(played.season_id)}
    assert workers == set(MACHINES), "both machines must have played"
    assert not (played.web_home / "records").exists()


@pytest.mark.postgres
def test_games_two_machines_played_on_postgresql_are_served_by_a_third(pg_url, tmp_path):
    check_served(play_on_two_machines(pg_url, tmp_path))


def test_games_two_runners_played_on_a_sqlite_file_are_served_without_their_folders(tmp_path):
    check_served(play_on_two_machines(str(tmp_path / "arena.db"), tmp_path))
