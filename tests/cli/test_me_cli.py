"""The member's command line against a real ``hegemon web`` and a real ``hegemon login``:
``hegemon me`` (my bots, their states, standings, last games and faults), ``hegemon games
--mine`` and ``hegemon logs GAME --arena`` — two members and an admin, each shown only their own
bots and their own seats' logs (an admin's logs: every seat, as the site gives them)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from hegemon.leaderboard.accounts.users import add_user
from hegemon.leaderboard.store import BotRow, Store
from hegemon.referee.runner.botlog import logs_dir, seat_log
from tests.helpers.league import (
    SeasonSpec,
    create_season,
    env_for,
    hegemon,
    one_line_error,
    register_samples,
)
from tests.helpers.web import play_matches
from tests.helpers.web_server import cli_logins, running_web

PASSWORD = "a long enough password"
USERS = {"mel": "member", "dora": "member", "ada": "admin"}
REFUSAL = "the check game crashed: [bold]ImportError[/bold]"  # markup stays text


@dataclass
class Arena:
    home: Path
    url: str
    bots: dict[str, str]  # user -> the name of the bot they own
    seats: dict[str, set[tuple[int, int]]]  # user -> (game id, seat) of their bot's seats
    faulty: int  # a game where mel's bot faulted
    configs: dict[str, Path]  # user -> XDG_CONFIG_HOME (signed in there)


def log_line(user: str | None) -> str:
    return f"LOG-OF-{user or 'NOBODY'}"


@pytest.fixture(scope="module")
def arena(tmp_path_factory) -> Iterator[Arena]:
    """A season of 10 stored 3-player games of the four sample bots: mel owns the bot that
    faulted in a game (and a refused later version), dora and the admin ada one bot each, the
    fourth is the organiser's; each seat's log names its owner. ``hegemon web`` over it, each
    user signed in with ``hegemon login`` in their own config folder."""
    home = tmp_path_factory.mktemp("me-home")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("HEGEMON_HOME", str(home))
        mp.delenv("HEGEMON_DB", raising=False)
        with Store() as store:
            spec = SeasonSpec(name="league", games=10, players=3, seed=11)
            season = create_season(store, spec, register_samples(store))
            play_matches(store, season, home / "records", "league")
            assert season.id is not None
            played = store.games(season.id)
            faulty_match, faulty_game = next((m, g) for m, g in played if g.faults)
            faulted = faulty_match.seats[faulty_game.faults[0]["seat"]]
            others = [b.id for b in store.bots() if b.id != faulted]
            owned = dict(zip(USERS, [faulted, *others[:2]], strict=True))
            owner_of: dict[int, str] = {}
            names: dict[str, str] = {}
            rows = {user: add_user(store, user, PASSWORD, role) for user, role in USERS.items()}
            with store.session(write=True) as s:
                for user in USERS:
                    bot = s.get(BotRow, owned[user])
                    assert bot is not None and bot.id is not None
                    bot.owner_id = rows[user].id
                    s.add(bot)
                    owner_of[bot.id] = user
                    names[user] = bot.name
                mel_bot = s.get(BotRow, owned["mel"])
                assert mel_bot is not None
                refused = BotRow(
                    name=mel_bot.name,
                    version=mel_bot.version + 1,
                    command=mel_bot.command,
                    content_hash="0" * 64,
                    language=mel_bot.language,
                    owner_id=mel_bot.owner_id,
                    state="refused",
                    reason=REFUSAL,
                )
                s.add(refused)
            seats: dict[str, set[tuple[int, int]]] = {user: set() for user in USERS}
            for match, game in played:
                assert game.id is not None
                for seat, seated in enumerate(match.seats):
                    owner = owner_of.get(seated)
                    if owner is not None:
                        seats[owner].add((game.id, seat))
                    log = seat_log(logs_dir(Path(game.record_path)), seat)
                    log.parent.mkdir(parents=True, exist_ok=True)
                    log.write_text(log_line(owner), encoding="utf-8")
            assert faulty_game.id is not None
    with running_web(home, home / "web.log") as url:
        configs = cli_logins(home, url, dict.fromkeys(USERS, PASSWORD))
        yield Arena(home, url, names, seats, faulty_game.id, configs)


def run(arena: Arena, user: str, *args: str):
    config = arena.configs.get(user, arena.home / "nobody-signed-in")
    return hegemon(*args, env=env_for(arena.home, XDG_CONFIG_HOME=str(config)))


def me(arena: Arena, user: str) -> dict:
    done = run(arena, user, "me", "--json")
    assert done.returncode == 0, done.stdout + done.stderr
    return json.loads(done.stdout)


@pytest.mark.parametrize("user", list(USERS))
def test_each_user_sees_only_their_own_bots(arena, user):
    data = me(arena, user)
    assert data["user"] == user and data["role"] == USERS[user]
    assert [b["name"] for b in data["bots"]] == [arena.bots[user]]  # an admin: theirs only
    bot = data["bots"][0]
    [standing] = bot["standings"]
    assert standing["season"] == "league" and standing["rank"] >= 1
    assert standing["games"] == len(arena.seats[user])
    played = {game for game, _ in arena.seats[user]}
    assert bot["last_games"] and {g["id"] for g in bot["last_games"]} <= played
    for game in bot["last_games"]:
        assert (game["id"], game["seat"]) in arena.seats[user]
        stored = httpx.get(f"{arena.url}/api/games/{game['id']}", timeout=60).json()
        assert game["place"] == stored["places"][game["seat"]]  # the place the game gave it
        assert game["players"] == len(stored["places"])


def test_me_shows_states_reasons_and_grouped_faults(arena):
    [bot] = me(arena, "mel")["bots"]
    newest, first = bot["versions"]  # newest first
    assert (newest["state"], newest["reason"]) == ("refused", REFUSAL)
    assert first["state"] == "active" and first["reason"] is None
    [crash] = bot["faults"]
    assert crash["kind"] == "crash" and crash["count"] >= 1
    assert crash["last_game"] >= arena.faulty
    assert me(arena, "dora")["bots"][0]["faults"] == []  # the crashes were mel's bot's
    table = run(arena, "mel", "me")
    assert table.returncode == 0, table.stderr
    for text in (newest["label"], "refused", REFUSAL, "league", "crash", f"{crash['count']}"):
        assert text in table.stdout
    assert arena.bots["dora"] not in table.stdout


def listed(arena: Arena, user: str, *args: str) -> list[dict]:
    done = run(arena, user, "games", "--json", "--limit", "100", *args)
    assert done.returncode == 0, done.stdout + done.stderr
    return json.loads(done.stdout)


@pytest.mark.parametrize("user", list(USERS))
def test_games_mine_lists_exactly_the_games_my_bot_sat_in(arena, user):
    mine = listed(arena, user, "--mine")
    assert {g["id"] for g in mine} == {game for game, _ in arena.seats[user]}
    assert len(listed(arena, user, "--arena")) == 10  # without --mine: every game, as before


def test_games_mine_needs_a_sign_in(arena):
    assert "not signed in" in one_line_error(run(arena, "nobody", "games", "--mine"))
    import httpx

    answer = httpx.get(f"{arena.url}/api/games", params={"mine": "1"})
    assert answer.status_code == 401 and "sign in" in answer.json()["error"]


def test_logs_from_the_arena_are_my_seats_only(arena):
    game, seat = min(arena.seats["mel"])
    done = run(arena, "mel", "logs", str(game), "--arena")
    assert done.returncode == 0, done.stdout + done.stderr
    assert log_line("mel") in done.stdout
    assert all(log_line(u) not in done.stdout for u in (None, "dora", "ada"))
    others = sorted({0, 1, 2} - {s for g, s in arena.seats["mel"] if g == game})
    assert f"not yours: seats {', '.join(map(str, others))}" in done.stdout
    # signed in, a number that is no file here is the arena's game: the same logs
    assert run(arena, "mel", "logs", str(game)).stdout == done.stdout
    only = run(arena, "mel", "logs", str(game), "--arena", "--seat", str(seat))
    head, *rest = only.stdout.splitlines()
    assert head.startswith(f"== seat {seat} {arena.bots['mel']}") and head.endswith("(yours)")
    assert rest == [log_line("mel")] and "not yours" not in only.stdout


def test_an_admin_reads_every_seat(arena):
    game, _ = min(arena.seats["mel"])
    done = run(arena, "ada", "logs", str(game), "--arena")
    assert done.returncode == 0, done.stdout + done.stderr
    assert log_line("mel") in done.stdout and "not yours" not in done.stdout


@pytest.mark.parametrize(
    ("user", "args", "message"),
    [
        ("nobody", ("me",), "hegemon me: you are not signed in"),
        ("nobody", ("logs", "1", "--arena"), "you are not signed in"),
        ("mel", ("logs", "999999", "--arena"), "has no game 999999"),
        ("mel", ("logs", "1", "--arena", "--seat", "9"), "has no seat 9"),
        ("mel", ("logs", "not-a-number", "--arena"), "give the game's number"),
    ],
)
def test_bad_requests_are_one_line(arena, user, args, message):
    assert message in one_line_error(run(arena, user, *args))


def test_a_seat_not_mine_is_refused_in_one_line(arena):
    game, _ = min(arena.seats["mel"])
    theirs = min({0, 1, 2} - {s for g, s in arena.seats["mel"] if g == game})
    error = one_line_error(run(arena, "mel", "logs", str(game), "--arena", "--seat", str(theirs)))
    assert f"seat {theirs} of game {game} is not yours" in error
    dora_only = next(g for g, _ in arena.seats["dora"] if g not in dict(arena.seats["mel"]))
    error = one_line_error(run(arena, "mel", "logs", str(dora_only), "--arena"))
    assert "none of game" in error and "is yours" in error


def test_a_token_the_arena_does_not_take_is_one_line(arena, tmp_path):
    stored = json.loads((arena.configs["mel"] / "hegemon" / "credentials.json").read_text())
    forged = tmp_path / "hegemon" / "credentials.json"
    forged.parent.mkdir()
    forged.write_text(json.dumps({**stored, "token": "hgm_not-a-token"}))
    env = env_for(arena.home, XDG_CONFIG_HOME=str(tmp_path))
    for args in (("me",), ("games", "--mine")):
        assert "did not take your token" in one_line_error(hegemon(*args, env=env))
