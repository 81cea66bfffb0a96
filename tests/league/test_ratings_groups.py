"""Bots that never met, directly or through others, are shown as not comparable: the ratings
module finds the groups, and a real all-time board (two seasons of the same rules between
disjoint pairs of bots) shows them in ``hegemon leaderboard`` and on the web page."""

from __future__ import annotations

import csv
import io
import random
import urllib.request
from pathlib import Path

import pytest

from hegemon.leaderboard.ratings import rate
from hegemon.leaderboard.store import GameOutcome, Store
from tests.helpers.league import (  # noqa: F401 (home: a fixture)
    SeasonSpec,
    create_season,
    hegemon,
    home,
    register_samples,
    saved_id,
)
from tests.helpers.web_server import serving


def test_bots_that_never_met_are_ranked_within_their_own_group() -> None:
    rng = random.Random(3)
    games = [[["a"], ["b"]] if rng.random() < 0.8 else [["b"], ["a"]] for _ in range(40)]
    games += [[["x"], ["y"], ["z"]], [["y"], ["z"], ["x"]]] * 3
    rows = rate(games, bootstrap_samples=300, seed=1)
    by_bot = {r.bot: r for r in rows}
    assert {by_bot[b].group for b in "xyz"} == {1} and {by_bot[b].group for b in "ab"} == {2}
    assert [r.group for r in rows] == [1, 1, 1, 2, 2]  # the bigger group first
    # no probability across the gap: the last row of each group has none
    assert rows[2].p_stronger_than_next is None and rows[4].p_stronger_than_next is None
    assert rows[3].bot == "a" and rows[3].p_stronger_than_next is not None
    assert rows[3].p_stronger_than_next > 0.9
    # the same for the Elo method: groups come from the games, not the fit
    elo = rate(games, method="elo")
    assert [r.group for r in elo] == [1, 1, 1, 2, 2]


def test_a_game_between_the_groups_joins_them() -> None:
    games = [[["a"], ["b"]], [["c"], ["d"]]]
    assert {r.group for r in rate(games, bootstrap_samples=50)} == {1, 2}
    assert {r.group for r in rate([*games, [["b"], ["c"]]], bootstrap_samples=50)} == {1}


def finish_all(store: Store, season_id: int, rng: random.Random) -> None:
    """Finish every match of the season with a made-up order (the first seat wins 3 in 4)."""
    while (m := store.claim_match(season_id, "test")) is not None:
        places = [1, 2] if rng.random() < 0.75 else [2, 1]
        outcome = GameOutcome(f"/nowhere/{m.number}.jsonl", places, [], "turn limit", 1.0, 10)
        assert store.finish_match(saved_id(m), "test", outcome)


@pytest.fixture
def two_pools(home: Path) -> Path:
    """Two-player seasons of the same rules, 'east' (planner, continental) and 'west'
    (aggressive, random): the all-time board pools them, but no bot of one met the other."""
    with Store() as store:
        bots = {b.name: b for b in register_samples(store)}
        rng = random.Random(7)
        for name, pair in (
            ("east", ("planner", "continental")),
            ("west", ("aggressive", "random")),
        ):
            spec = SeasonSpec(name=name, games=12, players=2, seed=len(name))
            season = create_season(store, spec, [bots[b] for b in pair])
            finish_all(store, saved_id(season), rng)
    return home


def test_the_board_the_command_and_the_page_show_groups_that_never_met(
    two_pools: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = hegemon("leaderboard", "--csv", home=two_pools)
    assert out.returncode == 0, out.stderr
    rows = list(csv.DictReader(io.StringIO(out.stdout)))
    # groups of equal size: the one whose first bot's name comes first is group 1
    groups = sorted((r["group"], r["bot"]) for r in rows)
    assert groups == [("1", "aggressive"), ("1", "random"), ("2", "continental"), ("2", "planner")]
    assert [r["rank"] for r in rows] == ["1", "2", "1", "2"]  # ranked within each group
    assert [r["p_stronger_than_next"] == "" for r in rows] == [False, True, False, True]

    table = hegemon("leaderboard", home=two_pools)
    assert table.returncode == 0, table.stderr
    assert "not comparable" in table.stdout and "2 groups" in table.stdout

    from hegemon.leaderboard.web.server import make_app

    monkeypatch.setenv("HEGEMON_HOME", str(two_pools))
    monkeypatch.delenv("HEGEMON_DB", raising=False)
    with Store() as store, serving(make_app(store)) as url:
        with urllib.request.urlopen(url + "/", timeout=60) as page:
            html = page.read().decode()
    assert "Not comparable" in html and "2 groups that never met" in html
    shown = [line for line in html.split("<tr") if "data-group=" in line]
    assert len(shown) == 4
