"""``hegemon games`` and ``hegemon games download``: a local database's games and an arena's, as
its member may see them — a real ``hegemon web``, a real sign-in, real records and logs."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from hegemon.leaderboard.accounts.users import add_user
from hegemon.leaderboard.store import BotRow, Store
from hegemon.referee.runner.botlog import logs_dir, seat_log
from tests.helpers.league import env_for, hegemon, one_line_error
from tests.helpers.web import store_season
from tests.helpers.web_server import running_web

PASSWORD = "mel's own long password"
SECRET = "MEL-ONLY-LOG-LINE"
OTHERS = "SOMEONE-ELSES-LOG-LINE"


@dataclass
class Arena:
    home: Path
    url: str
    label: str  # mel's bot's label (name@vN)
    games: int  # games in the season
    config: Path  # mel's XDG_CONFIG_HOME (signed in there)


@pytest.fixture(scope="module")
def arena(tmp_path_factory) -> Iterator[Arena]:
    """A season of 10 stored games; one sample bot belongs to the member mel, whose seats'
    logs hold SECRET, every other seat's log OTHERS; ``hegemon web`` over it, mel signed in."""
    home = tmp_path_factory.mktemp("games-home")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("HEGEMON_HOME", str(home))
        mp.delenv("HEGEMON_DB", raising=False)
        with Store() as store:
            season = store_season(store, home / "records", "league", games=10, seed=9)
            assert season.id is not None
            mel = add_user(store, "mel", PASSWORD, "member")
            played = store.games(season.id)
            bot_id = played[0][0].seats[0]
            with store.session(write=True) as s:
                bot = s.get(BotRow, bot_id)
                assert bot is not None
                bot.owner_id = mel.id
                label = bot.label
                s.add(bot)
            for match, game in played:
                for seat, seated in enumerate(match.seats):
                    log = seat_log(logs_dir(Path(game.record_path)), seat)
                    log.parent.mkdir(parents=True, exist_ok=True)
                    log.write_text(SECRET if seated == bot_id else OTHERS, encoding="utf-8")
    config = home / "config"
    with running_web(home, home / "web.log") as url:
        signed = hegemon(
            "login", url, "--name", "mel", "--password-stdin",
            env=env_for(home, XDG_CONFIG_HOME=str(config)), stdin=PASSWORD + "\n",
        )  # fmt: skip
        assert signed.returncode == 0, signed.stdout + signed.stderr
        yield Arena(home, url, label, len(played), config)


def games(arena: Arena, *args: str, remote: bool = False):
    env = env_for(arena.home, XDG_CONFIG_HOME=str(arena.config))
    return hegemon(*args, *(("--arena",) if remote else ()), env=env)


def listed(arena: Arena, *args: str, remote: bool = False) -> list[dict]:
    done = games(arena, "games", *args, "--json", remote=remote)
    assert done.returncode == 0, done.stdout + done.stderr
    return json.loads(done.stdout)


@pytest.mark.parametrize("remote", [False, True], ids=["local", "arena"])
def test_the_listing_is_every_game_newest_first_and_filters_hold(arena, remote):
    every = listed(arena, "--limit", "100", remote=remote)
    assert len(every) == arena.games
    ids = [g["id"] for g in every]
    assert ids == sorted(ids, reverse=True)
    mine = listed(arena, "--bot", arena.label.split("@")[0], remote=remote)
    assert mine and all(arena.label in g["seats"] for g in mine)
    won = listed(arena, "--bot", arena.label, "--result", "won", remote=remote)
    assert {g["id"] for g in won} == {
        g["id"] for g in mine if g["places"][g["seats"].index(arena.label)] == 1
    }
    assert listed(arena, "--limit", "3", remote=remote) == every[:3]
    assert listed(arena, "--since", "2999-01-01", remote=remote) == []
    assert listed(arena, "--season", "no-such-season", remote=remote) == []


def test_csv_and_table_say_the_same_games(arena):
    done = games(arena, "games", "--csv", "--limit", "4")
    rows = list(csv.DictReader(io.StringIO(done.stdout)))
    assert [int(r["id"]) for r in rows] == [g["id"] for g in listed(arena, "--limit", "4")]
    table = games(arena, "games", "--limit", "4").stdout
    assert all(f"│ {r['id']} " in table for r in rows)


def test_a_member_downloads_records_and_only_their_own_seats_logs(arena, tmp_path):
    folder = tmp_path / "mine"
    done = games(arena, "games", "download", str(folder), "--limit", "4", remote=True)
    assert done.returncode == 0, done.stdout + done.stderr
    records = sorted(folder.glob("game-*.jsonl"))
    assert len(records) == 4
    for record in records:
        assert json.loads(record.read_text().splitlines()[0])["type"] == "header"
    logs = [p.read_text() for p in folder.glob("game-*.logs/seat-*.log")]
    assert SECRET in logs and OTHERS not in logs  # the site gives mel only mel's seats
    # resumable: a second run keeps what is there and fetches the rest
    again = games(arena, "games", "download", str(folder), "--limit", "6", remote=True)
    assert "2 records downloaded" in again.stdout and "4 already there" in again.stdout
    assert len(list(folder.glob("game-*.jsonl"))) == 6
    assert not list(folder.rglob(".*.part"))


def test_a_download_stops_at_its_byte_budget(arena, tmp_path):
    first = tmp_path / "first"
    assert games(arena, "games", "download", str(first), "--limit", "1").returncode == 0
    budget = sum(p.stat().st_size for p in first.rglob("*") if p.is_file())
    rest = tmp_path / "rest"
    done = games(arena, "games", "download", str(rest), "--max-bytes", str(budget))
    assert done.returncode == 0 and "stopped at --max-bytes" in done.stdout
    assert sum(p.stat().st_size for p in rest.rglob("*") if p.is_file()) == budget
    assert len(list(rest.glob("game-*.jsonl"))) == 1


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--result", "won"), "--result is a result of --bot's seat"),
        (("--bot", "x", "--result", "best"), "--result must be won, lost or a place"),
        (("--since", "yesterday"), "--since must be a date"),
        (("--limit", "0"), "--limit must be at least 1"),
        (("--json", "--csv"), "not both"),
    ],
)
def test_bad_requests_are_one_line(arena, args, message):
    assert message in one_line_error(games(arena, "games", *args))


def test_the_arena_needs_a_sign_in(arena, tmp_path):
    done = hegemon("games", "--arena", env=env_for(arena.home, XDG_CONFIG_HOME=str(tmp_path)))
    assert "not signed in" in one_line_error(done)
