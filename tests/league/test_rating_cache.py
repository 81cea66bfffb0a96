"""The stored fit (hegemon.leaderboard.boards.stored): read while no game was added, refitted
when one was, always the board a fresh fit gives — on a real SQLite store."""

from __future__ import annotations

import random

import pytest
from sqlmodel import select

from hegemon.leaderboard import boards
from hegemon.leaderboard.boards import stored
from hegemon.leaderboard.boards.model import season_board_seed
from hegemon.leaderboard.ratings import PROVISIONAL_GAMES, incremental_elo
from hegemon.leaderboard.seasons.schedule import make_schedule
from hegemon.leaderboard.store import GameOutcome, RatingFitRow, SeasonRow, Store
from hegemon.leaderboard.store.rating_fits import fit_key, load_part, part_key
from tests.helpers.league import pg_server, pg_url, saved_id  # noqa: F401  (fixtures)

GAMES = 24


@pytest.fixture
def store(tmp_path):
    with Store(tmp_path / "arena.db") as s:
        yield s


def new_season(store: Store, name: str, turn_limit: int = 60) -> SeasonRow:
    ids = [
        saved_id(b)
        for b in store.bots()
        or [store.add_bot(f"bot{i}", ["python", "b.py"], f"{i:064x}", "python") for i in range(5)]
    ]
    season = SeasonRow(name=name, preset="classic", options={"turn_limit": turn_limit}, players=3,
                    games=GAMES, startup_time=10, decision_time=2, time_bank=60, max_strikes=5,
                    seed=(1 << 100) + 12345)  # fmt: skip
    return store.create_season(season, ids, make_schedule(ids, 3, GAMES, seed=3))


def play(store: Store, season: SeasonRow, count: int, rng: random.Random) -> None:
    """``count`` matches played to a random finishing order (a fault now and then)."""
    for _ in range(count):
        match = store.claim_match(saved_id(season), "w")
        assert match is not None
        places = rng.sample(range(1, 4), 3)
        fault = [{"seat": 0, "bot": "x", "kind": "timeout", "detail": "", "decision": 1}]
        outcome = GameOutcome("", places, fault if rng.random() < 0.3 else [], "conquest")
        assert store.finish_match(saved_id(match), "w", outcome)


def fits(store: Store) -> list[tuple[str, int, object]]:
    """The stored boards (not the parts kept beside them: running counts, the Elo chart)."""
    with store.session() as s:
        rows = s.exec(select(RatingFitRow)).all()
    return [(f.key, f.games, f.computed_at) for f in rows if "rows" in f.data]


def same(a: boards.Leaderboard, b: boards.Leaderboard) -> None:
    assert (a.title, a.preset, a.method, a.season, a.games, a.seed) == (
        b.title, b.preset, b.method, b.season, b.games, b.seed
    )  # fmt: skip
    assert a.rows == b.rows
    assert a.cross == b.cross


def test_a_stored_fit_is_read_until_a_game_is_added(store: Store) -> None:
    rng = random.Random(1)
    season = new_season(store, "s")
    play(store, season, 10, rng)
    first = boards.board(store, season, with_crosstable=True)
    same(first, boards.board(store, season, with_crosstable=True, cached=False))
    stored = fits(store)
    assert [games for _, games, _ in stored] == [10]

    again = boards.board(store, season, with_crosstable=True)
    same(again, first)
    assert fits(store) == stored  # read, not refitted

    play(store, season, 1, rng)
    refit = boards.board(store, season, with_crosstable=True)
    same(refit, boards.board(store, season, with_crosstable=True, cached=False))
    assert refit.games == 11
    assert [games for _, games, _ in fits(store)] == [11]


def test_a_fit_without_crosstable_is_refitted_when_one_is_wanted(store: Store) -> None:
    season = new_season(store, "s")
    play(store, season, 6, random.Random(2))
    plain = boards.board(store, season)
    assert plain.cross is None
    crossed = boards.board(store, season, with_crosstable=True)
    same(crossed, boards.board(store, season, with_crosstable=True, cached=False))
    assert boards.board(store, season).rows == plain.rows


def test_all_time_boards_match_a_fresh_fit_and_elo_is_kept_apart(store: Store) -> None:
    rng = random.Random(3)
    one, two = new_season(store, "one"), new_season(store, "two", turn_limit=0)
    play(store, one, 7, rng)
    play(store, two, 5, rng)
    for method in ("pl", "elo"):
        cached = boards.all_time_boards(store, method)
        fresh = boards.all_time_boards(store, method, cached=False)
        assert len(cached) == len(fresh) == 1
        for a, b in zip(cached, fresh, strict=True):
            same(a, b)
        same(boards.all_time_boards(store, method)[0], fresh[0])
    assert len(fits(store)) == 2  # one per method


def test_provisional_below_the_stated_number_of_games(store: Store) -> None:
    season = new_season(store, "s")
    rng = random.Random(4)
    play(store, season, 8, rng)  # 24 seats among 5 bots: every bot under 10 games
    early = boards.board_dict(boards.board(store, season))
    assert early["rows"] and all(r["provisional"] for r in early["rows"])
    assert all(r["games"] < PROVISIONAL_GAMES for r in early["rows"])
    play(store, season, GAMES - 8, rng)  # 72 seats: every bot has at least 10
    late = boards.board_dict(boards.board(store, season))
    assert [r["provisional"] for r in late["rows"]] == [
        r["games"] < PROVISIONAL_GAMES for r in late["rows"]
    ]
    assert not any(r["provisional"] for r in late["rows"])


def test_an_empty_season_gives_an_empty_board(store: Store) -> None:
    season = new_season(store, "s")
    board = boards.board(store, season)
    assert board.rows == [] and board.games == 0


def stored_state(store: Store, season: SeasonRow) -> dict:
    key = fit_key(
        {"seasons": [saved_id(season)], "method": "pl", "seed": season_board_seed(season)}
    )
    part = load_part(store, key, "state")
    assert part is not None
    return part[1]


def full_history(store: Store, season: SeasonRow) -> dict[str, list[float]]:
    """The incremental Elo of every game of the season, recounted, by bot label."""
    labels = {b.id: b.label for b in store.season_bots(saved_id(season))}
    games = boards.load_games(store, saved_id(season))
    orders = [boards.model.finishing_order([labels[b] for b in g.seats], g.places) for g in games]
    return incremental_elo(orders).history


def test_a_refit_counts_only_the_games_added_since_the_stored_fit(store: Store) -> None:
    rng = random.Random(5)
    season = new_season(store, "s")
    play(store, season, 6, rng)
    boards.board(store, season)
    state = stored_state(store, season)
    assert state["games"] == 6 and sum(state["patterns"].values()) == 6

    play(store, season, 3, rng)
    refit = boards.board(store, season, with_crosstable=True)
    same(refit, boards.board(store, season, with_crosstable=True, cached=False))
    assert stored_state(store, season)["games"] == 9

    # the stored counts are what the refit starts from: a count planted in them (as if an
    # earlier game had been counted) shows in the next board, so the old games were not read
    state = stored_state(store, season)
    planted = next(iter(state["patterns"]))
    state["patterns"][planted] += 1
    key = fit_key(
        {"seasons": [saved_id(season)], "method": "pl", "seed": season_board_seed(season)}
    )
    with store.session(write=True) as s:
        row = s.exec(select(RatingFitRow).where(RatingFitRow.key == part_key(key, "state"))).one()
        row.data = state
        s.add(row)
    play(store, season, 1, rng)
    board = boards.board(store, season)
    assert sum(r.games for r in board.rows) == 10 * 3 + len(planted.replace("|", ",").split(","))


def test_the_elo_chart_is_kept_with_the_fit_and_recounted_when_games_finish_out_of_order(
    store: Store,
) -> None:
    rng = random.Random(6)
    season = new_season(store, "s")
    play(store, season, 5, rng)
    chart = boards.history(store, season)
    assert chart["games"] == 5

    def check(chart: dict) -> None:
        expected = full_history(store, season)
        assert {s["bot"] for s in chart["series"]} == set(expected)
        for s in chart["series"]:
            assert [r for _, r in s["points"]] == pytest.approx(expected[s["bot"]], abs=0.051)
            assert len({x for x, _ in s["points"]}) == len(s["points"])

    check(chart)
    play(store, season, 2, rng)  # in schedule order: the chart continues
    check(boards.history(store, season))
    # two matches claimed, the later one finished (and charted) first: when the earlier one
    # comes in, the Elo is counted again in schedule order
    first, second = (store.claim_match(saved_id(season), "w") for _ in range(2))
    for match in (second, first):
        assert match is not None
        outcome = GameOutcome("", rng.sample(range(1, 4), 3), [], "conquest")
        assert store.finish_match(saved_id(match), "w", outcome)
        chart = boards.history(store, season)
    assert chart["games"] == 9
    check(chart)
    same(
        boards.board(store, season, with_crosstable=True),
        boards.board(store, season, with_crosstable=True, cached=False),
    )


def test_the_page_chart_is_the_full_chart_thinned(store: Store, monkeypatch) -> None:
    season = new_season(store, "s")
    play(store, season, 12, random.Random(7))
    monkeypatch.setattr(stored, "CHART_POINTS", 4)
    full = boards.history(store, season)
    chart = boards.history(store, season, full=False)
    assert chart["games"] == full["games"] == 12
    assert chart["series"] == [
        {"bot": s["bot"], "points": boards.thin(s["points"], 4)} for s in full["series"]
    ]
    assert any(len(s["points"]) > 5 for s in full["series"])
    assert all(len(s["points"]) <= 5 for s in chart["series"])


@pytest.mark.postgres
def test_stored_counts_on_postgresql(pg_url: str) -> None:
    # the JSON columns are read as text there too, and the schema check passes on reopening
    rng = random.Random(8)
    with Store(pg_url) as store:
        season = new_season(store, "s")
        play(store, season, 6, rng)
        boards.board(store, season)
        play(store, season, 3, rng)
    with Store(pg_url) as store:
        reopened = store.season_by_name("s")
        assert reopened is not None
        season = reopened
        same(
            boards.board(store, season, with_crosstable=True),
            boards.board(store, season, with_crosstable=True, cached=False),
        )
        assert stored_state(store, season)["games"] == 9
        chart = boards.history(store, season)
        expected = full_history(store, season)
        for s in chart["series"]:
            assert [r for _, r in s["points"]] == pytest.approx(expected[s["bot"]], abs=0.051)
