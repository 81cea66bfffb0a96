"""``hegemon leaderboard``, ``season status``, ``season run`` on bad input, and ``hegemon demo``:
run as real subprocesses against real SQLite files."""

from __future__ import annotations

import csv
import io
import json
import random

import pytest

from hegemon.leaderboard.boards import crosstable, load_games
from hegemon.leaderboard.store import GameOutcome, Store
from tests.helpers.league import (  # noqa: F401
    SeasonSpec,
    create_season,
    free_port,
    hegemon,
    home,
    one_line_error,
    register_samples,
    saved_id,
)


def stored_results(store: Store, season, order: list[int] | None = None, seed: int = 0) -> None:
    """Store made-up finishing orders for every match (strength: planner > continental >
    aggressive > random, with noise), finishing the matches in ``order`` (match numbers)."""
    matches = []
    while (m := store.claim_match(season.id, "test")) is not None:
        matches.append(m)
    by_number = {m.number: m for m in matches}
    bots = {b.id: b.name for b in store.season_bots(season.id)}
    skill = {"planner": 3.0, "continental": 2.0, "aggressive": 1.0, "random": 0.0}
    for number in order or sorted(by_number):
        m = by_number[number]
        rng = random.Random(f"{seed}:{m.number}")
        score = [skill[bots[b]] + rng.gauss(0, 1.5) for b in m.seats]
        ranking = sorted(range(len(score)), key=lambda i: -score[i])
        places = [0] * len(score)
        for place, seat in enumerate(ranking, 1):
            places[seat] = place
        faults = (
            [{"seat": ranking[-1], "bot": "x", "kind": "timeout", "detail": "late", "decision": 3}]
            if m.number % 7 == 0
            else []
        )
        assert store.finish_match(
            saved_id(m),
            "test",
            GameOutcome(f"/nowhere/{m.number}.jsonl", places, faults, "turn limit", 1.0, 10),
        )


@pytest.fixture
def played(home):
    """A season 'league' with 24 stored (made-up) results, and an empty season 'fresh'."""
    with Store() as store:
        bots = register_samples(store)
        league = create_season(store, SeasonSpec(name="league", games=24, seed=42), bots)
        create_season(store, SeasonSpec(name="fresh", games=5, seed=43), bots)
        stored_results(store, league)
    return home


def parse_csv(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


# ---------------------------------------------------------------------------------- reports
@pytest.mark.slow
def test_leaderboard_table_csv_json_and_crosstable(played):
    table = hegemon("leaderboard", "league", home=played)
    assert table.returncode == 0, table.stderr
    for name in ("planner", "continental", "aggressive", "random", "95% interval"):
        assert name in table.stdout
    rows = parse_csv(hegemon("leaderboard", "league", "--csv", home=played).stdout)
    assert next(r["bot"] for r in rows) == "planner" and rows[-1]["bot"] == "random"
    assert [int(r["rank"]) for r in rows] == [1, 2, 3, 4]
    for r in rows:
        assert float(r["low"]) <= float(r["rating"]) <= float(r["high"])
        assert float(r["mean_place"]) >= 1 and float(r["mean_place"]) <= 4
    assert sum(int(r["games"]) for r in rows) == 24 * 4
    assert sum(int(r["wins"]) for r in rows) == 24
    assert sum(int(r["faults"]) for r in rows) == 3  # matches 7, 14, 21
    assert rows[-1]["p_stronger_than_next"] == ""
    assert all(0 <= float(r["p_stronger_than_next"]) <= 1 for r in rows[:-1])
    # The bootstrap is seeded from the season: the same output every time.
    again = hegemon("leaderboard", "league", "--csv", home=played).stdout
    assert parse_csv(again) == rows

    out = hegemon("leaderboard", "league", "--json", "--crosstable", home=played)
    data = json.loads(out.stdout)
    assert data["season"] == "league" and data["games"] == 24 and data["method"] == "pl"
    assert [r["bot"] for r in data["rows"]] == [r["bot"] for r in rows]
    cells = {(c["row"], c["column"]): c for c in data["crosstable"]}
    for (a, b), cell in cells.items():
        other = cells[(b, a)]
        assert cell["games"] == other["games"] and cell["ahead"] + other["ahead"] == cell["games"]
    cross = hegemon("leaderboard", "league", "--crosstable", home=played)
    assert cross.returncode == 0 and "finished ahead" in cross.stdout

    out = hegemon("leaderboard", "league", "--csv", "--method", "elo", home=played)
    elo = parse_csv(out.stdout)
    assert {r["bot"] for r in elo} == {r["bot"] for r in rows}
    assert all(r["low"] == "" and r["high"] == "" for r in elo)

    # No season: the all-time board per rule set.
    all_time = hegemon("leaderboard", "--csv", home=played)
    assert all_time.returncode == 0
    board = parse_csv(all_time.stdout)
    assert {r["rule_set"] for r in board} == {"classic"} and len(board) == 4
    status = hegemon("season", "status", "league", home=played)
    assert status.returncode == 0 and "24 of 24 done" in status.stdout
    assert "planner" in status.stdout


def test_standings_do_not_depend_on_the_order_games_finished(home):
    with Store() as store:
        bots = register_samples(store)
        a = create_season(store, SeasonSpec(name="in-order", games=30, seed=7), bots)
        b = create_season(store, SeasonSpec(name="shuffled", games=30, seed=7), bots)
        stored_results(store, a)
        order = list(range(1, 31))
        random.Random(1).shuffle(order)
        stored_results(store, b, order)
    for extra in ([], ["--crosstable"], ["--method", "elo"]):
        first = hegemon("leaderboard", "in-order", "--csv", *extra, home=home)
        second = hegemon("leaderboard", "shuffled", "--csv", *extra, home=home)
        assert first.returncode == 0 and first.stdout == second.stdout and first.stdout


def test_crosstable_counts_ties_as_half(home):
    from hegemon.leaderboard.boards import PlayedGame

    games = [PlayedGame(1, 1, (1, 2, 3), (1, 1, 3), ()), PlayedGame(1, 2, (1, 2, 3), (3, 1, 2), ())]
    cross = crosstable(games)
    assert cross[(1, 2)] == (0.5, 2) and cross[(2, 1)] == (1.5, 2)
    assert cross[(1, 3)] == (1.0, 2) and cross[(3, 1)] == (1.0, 2)


def test_empty_board_says_there_are_no_results_yet(played):
    out = hegemon("leaderboard", "fresh", home=played)
    assert out.returncode == 0 and "no results yet" in out.stdout
    as_csv = hegemon("leaderboard", "fresh", "--csv", home=played)
    assert as_csv.returncode == 0 and as_csv.stdout.splitlines() == [as_csv.stdout.strip()]
    assert as_csv.stdout.startswith("rank,bot,version,rating")
    as_json = hegemon("leaderboard", "fresh", "--json", home=played)
    assert as_json.returncode == 0 and json.loads(as_json.stdout)["rows"] == []
    status = hegemon("season", "status", "fresh", home=played)
    assert status.returncode == 0 and "0 of 5 done" in status.stdout
    assert "no results yet" in status.stdout


def test_no_database_yet(home):
    out = hegemon("leaderboard", home=home)
    assert out.returncode == 0 and "no results yet" in out.stdout
    assert not (home / "arena.db").exists()  # looking created nothing
    assert "no season named 'x'" in one_line_error(hegemon("leaderboard", "x", home=home))


# ---------------------------------------------------------------------------------- bad input
@pytest.mark.parametrize(
    "command", [("leaderboard", "nope"), ("season", "status", "nope"), ("season", "run", "nope")]
)
def test_unknown_season(played, command):
    line = one_line_error(hegemon(*command, home=played))
    assert "no season named 'nope'" in line and "league" in line  # names the seasons there are


@pytest.mark.parametrize("command", [("leaderboard",), ("season", "run", "league")])
def test_database_that_cannot_connect(home, command):
    url = f"postgresql://nobody@127.0.0.1:{free_port()}/hegemon"
    line = one_line_error(hegemon(*command, "--db", url, home=home))
    assert "127.0.0.1" in line and ("connect" in line.lower() or "refused" in line.lower())
    bad = one_line_error(hegemon(*command, "--db", "mysql://x@y/z", home=home))
    assert "unsupported database" in bad


@pytest.mark.parametrize(
    "command",
    [("leaderboard", "league"), ("season", "status", "league"), ("season", "run", "league")],
)
def test_corrupt_database_file(home, command):
    db = home / "arena.db"
    garbage = b"this is not a database, whatever its name says\n" * 200
    db.write_bytes(garbage)
    line = one_line_error(hegemon(*command, home=home))
    assert str(db) in line or "arena.db" in line
    assert "not a database" in line or "malformed" in line or "corrupt" in line
    assert db.read_bytes() == garbage  # nothing lost, nothing overwritten


@pytest.mark.parametrize(
    "args, message",
    [
        (("season", "run", "league", "--concurrency", "0"), "--concurrency"),
        (("season", "run", "league", "--stale-after", "0"), "--stale-after"),
        (("leaderboard", "league", "--method", "glicko"), "--method"),
        (("leaderboard", "league", "--csv", "--json"), "not both"),
    ],
)
def test_bad_options(played, args, message):
    assert message in one_line_error(hegemon(*args, home=played))


def test_results_survive_a_failed_command(played):
    before = hegemon("leaderboard", "league", "--csv", home=played).stdout
    one_line_error(hegemon("season", "run", "nope", home=played))
    one_line_error(hegemon("leaderboard", "league", "--method", "x", home=played))
    assert hegemon("leaderboard", "league", "--csv", home=played).stdout == before
    with Store(played / "arena.db") as store:
        assert len(load_games(store, saved_id(store.season_by_name("league")))) == 24


# ---------------------------------------------------------------------------------- demo
@pytest.mark.slow
def test_demo_runs_end_to_end_and_again(home):
    first = hegemon("demo", "--games", "4", home=home, timeout=300)
    assert first.returncode == 0, first.stdout + first.stderr
    out = first.stdout
    for name in ("random", "aggressive", "continental", "planner"):
        assert f"registered: {name}@v1" in out
        assert name in out.split("demo-1 finished", 1)[1]
    assert "season demo-1 finished: 4 games" in out
    assert str(home / "arena.db") in out and str(home / "records" / "demo-1") in out
    assert len(list((home / "records" / "demo-1").glob("*.jsonl"))) == 4
    # the tour ends by saying how to see it all in a browser, and where an arena starts
    assert "hegemon web" in out and "http://127.0.0.1:8000/" in out and "hegemon arena" in out
    second = hegemon("demo", "--games", "2", "--turn-limit", "3", home=home, timeout=300)
    assert second.returncode == 0, second.stdout + second.stderr
    assert "already registered: planner@v1" in second.stdout
    assert "season demo-2 finished: 2 games" in second.stdout
    board = hegemon("leaderboard", "--csv", home=home)
    assert sum(int(r["games"]) for r in parse_csv(board.stdout)) == 6 * 4
