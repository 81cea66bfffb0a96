"""What a person sees on the bot, season and game-list pages, over a real server and real HTTP
(uvicorn on the loopback, httpx): a bot's faults grouped by cause with a count (their details
still only for the owner and the admins), and the games newest first with their date, length
and rounds, in the HTML and in ``/api/games``."""

from __future__ import annotations

import contextlib
import html
import json
import re
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from sqlmodel import select

from hegemon.leaderboard.accounts.users import add_user
from hegemon.leaderboard.store import BotRow, GameOutcome, Store
from hegemon.leaderboard.web.fault_groups import group_faults
from tests.helpers.league import SeasonSpec, create_season, register_samples
from tests.helpers.web import play_record
from tests.helpers.web_server import serving

PASSWORDS = {"ada": "ada administers this arena", "mel": "mel owns the faulty bot"}
TARGET_KINDS = ["timeout", "illegal", "timeout", "memory", "timeout", "illegal"]
SECRET = "SECRET-DETAIL"
GAMES = 12


@dataclass
class Arena:
    url: str
    season: str
    bot_id: int  # mel's bot, the one with most faults
    bot_label: str
    kinds: dict[str, Counter[str]]  # each bot label's faults by kind, as stored
    rounds: dict[int, int]  # each game id's rounds, read from its record here
    durations: dict[int, float]


def record_rounds(text: str) -> int:
    """The last round begun in a record, found by reading every event (the test's own way)."""
    return max(
        e["round"]
        for line in text.splitlines()
        for e in json.loads(line).get("events", [])
        if e.get("event") == "turn_started"
    )


@pytest.fixture(scope="module")
def arena(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Arena]:
    """A season of real in-process games whose stored faults are of several kinds: mel's bot
    times out, plays illegally and breaks its memory ceiling; another bot crashes."""
    from hegemon.leaderboard.web.server import make_app

    home = tmp_path_factory.mktemp("pages-home")
    records = home / "records"
    records.mkdir()
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("HEGEMON_HOME", str(home))
        mp.delenv("HEGEMON_DB", raising=False)
        store = Store()
        bots = register_samples(store)
        target, other = bots[0], bots[1]
        season = create_season(store, SeasonSpec(name="pages", games=GAMES, seed=7), bots)
        assert season.id is not None and target.id is not None
        kinds: dict[str, Counter[str]] = {}
        rounds: dict[int, int] = {}
        durations: dict[int, float] = {}
        labels = {b.id: b.label for b in bots}
        while (match := store.claim_match(season.id, "pages-test")) is not None:
            seats = [labels[b] for b in match.seats]
            text = play_record(match.seed % 2**32, seats, turn_limit=4 + match.number % 5)
            path = records / f"game-{match.number}.jsonl"
            path.write_text(text, encoding="utf-8")
            faults = []
            for bot, kind in (
                (target, TARGET_KINDS[match.number % len(TARGET_KINDS)]),
                (other, "crash" if match.number % 2 else None),
            ):
                if kind is not None and bot.id in match.seats:
                    seat = match.seats.index(bot.id)
                    detail = f"{SECRET} {bot.label} {match.number}"
                    faults.append({"seat": seat, "bot": bot.label, "kind": kind, "detail": detail})
                    kinds.setdefault(bot.label, Counter())[kind] += 1
            result = json.loads(text.splitlines()[-1])
            duration = 30.0 * match.number + 0.25
            outcome = GameOutcome(str(path), result["places"], faults, result["reason"], duration)
            assert match.id is not None and store.finish_match(match.id, "pages-test", outcome)
        for _, game in store.games(season.id):
            assert game.id is not None
            rounds[game.id] = record_rounds(Path(game.record_path).read_text(encoding="utf-8"))
            durations[game.id] = game.duration
        users = {n: add_user(store, n, pw, "admin" if n == "ada" else "member")
                 for n, pw in PASSWORDS.items()}  # fmt: skip
        with store.session(write=True) as s:
            row = s.exec(select(BotRow).where(BotRow.id == target.id)).one()
            row.owner_id = users["mel"].id
            s.add(row)
        assert kinds.get(target.label), "the schedule seats the faulty bot"
        try:
            with serving(make_app(store)) as url:
                yield Arena(url, "pages", target.id, target.label, kinds, rounds, durations)
        finally:
            store.close()


@pytest.fixture
def visitor(arena: Arena) -> Iterator[Callable[[str | None], httpx.Client]]:
    """Opens browsers of their own, each signed in as the name given (None: anonymous)."""
    with contextlib.ExitStack() as open_clients:

        def open_one(name: str | None) -> httpx.Client:
            c = open_clients.enter_context(httpx.Client(base_url=arena.url, timeout=60))
            if name is not None:
                found = re.search(r'name=csrf value="([^"]+)"', c.get("/login").text)
                assert found, "the sign-in page has a CSRF token"
                form = {"name": name, "password": PASSWORDS[name], "csrf": found.group(1)}
                assert c.post("/login", data=form).status_code == 303
            return c

        yield open_one


def text_of(page: str) -> str:
    """What a person reads of an HTML page: its text without tags, entities decoded."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


def shown_groups(counts: Counter[str]) -> str:
    """How a bot's faults read when grouped: "time-out (timeout): 3, illegal action …"."""
    return ", ".join(
        f"{g['cause']} ({g['kind']}): {g['count']}" for g in group_faults(counts.elements())
    )


# ---------------------------------------------------------------------------------- faults
def test_faults_group_by_cause_most_frequent_first():
    groups = group_faults(["illegal", "timeout", "memory", "timeout", "illegal", "timeout"])
    assert [(g["cause"], g["kind"], g["count"]) for g in groups] == [
        ("time-out", "timeout", 3),
        ("illegal action", "illegal", 2),
        ("memory ceiling", "memory", 1),
    ]


@pytest.mark.parametrize("who", [None, "mel", "ada"])
def test_the_bot_page_groups_faults_by_cause_and_hides_details_from_others(arena, visitor, who):
    c = visitor(who)
    expected = arena.kinds[arena.bot_label]
    page = c.get(f"/bot/{arena.bot_id}")
    assert page.status_code == 200
    assert f"Faults {shown_groups(expected)}" in text_of(page.text)
    data = c.get(f"/api/bots/{arena.bot_id}").json()
    assert {g["kind"]: g["count"] for g in data["fault_groups"]} == dict(expected)
    private = who is not None  # mel owns the bot; ada is an admin
    assert (SECRET in page.text) == private
    assert all((f["detail"] is not None) == private for f in data["faults"])


def test_the_season_page_groups_each_bots_faults_by_cause(arena, visitor):
    c = visitor(None)
    page = c.get(f"/season/{arena.season}")
    assert page.status_code == 200
    text = text_of(page.text)
    assert "Faults by cause" in text
    for label, counts in arena.kinds.items():
        assert f"{label} {sum(counts.values())} {shown_groups(counts)}" in text
    assert SECRET not in page.text
    data = c.get(f"/api/seasons/{arena.season}").json()
    shown = {r["bot"]: {g["kind"]: g["count"] for g in r["groups"]} for r in data["fault_groups"]}
    assert shown == {k: dict(v) for k, v in arena.kinds.items()}


# ---------------------------------------------------------------------------------- game list
def test_the_game_list_api_gives_date_length_and_rounds_newest_first(arena, visitor):
    c = visitor(None)
    games = c.get("/api/games").json()["games"]
    assert len(games) == GAMES
    ids = [g["id"] for g in games]
    assert ids == sorted(ids, reverse=True)
    dates = [g["finished_at"] for g in games]
    assert dates == sorted(dates, reverse=True)
    assert {g["id"]: g["rounds"] for g in games} == arena.rounds
    assert {g["id"]: g["duration"] for g in games} == arena.durations
    # the pages still split the list: the next page starts where the first ended
    first = c.get("/api/games?limit=5").json()["games"]
    second = c.get("/api/games?limit=5&offset=5").json()["games"]
    assert [g["id"] for g in first + second] == ids[:10]


def test_the_game_list_page_shows_each_games_date_length_and_rounds(arena, visitor):
    c = visitor(None)
    page = c.get("/games")
    assert page.status_code == 200
    assert "finished (UTC) length rounds result" in text_of(page.text)
    rows = re.findall(
        r'<tr><td class=l><a href="/game/(\d+)">.*?</td><td class=\'l date\'>(.*?)</td>'
        r"<td class=length>(.*?)</td><td class=rounds>(.*?)</td>",
        page.text,
    )
    assert [int(r[0]) for r in rows] == sorted(arena.rounds, reverse=True), "newest first"
    api = {g["id"]: g for g in c.get("/api/games").json()["games"]}
    for game_id, date, _, rounds in rows:
        assert date == api[int(game_id)]["finished_at"][:16].replace("T", " ")
        assert int(rounds) == arena.rounds[int(game_id)]
    # 30 s a game number and a quarter: 30.25 s, 60.25 s, … 360.25 s
    lengths = [r[2] for r in rows]
    assert lengths[-2:] == ["1 min 00 s", "30.2 s"] and lengths[0] == "6 min 00 s"
