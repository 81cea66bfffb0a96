"""The rating charts as a person sees them on a real ``hegemon web`` (issue 23 item 6): one
rating system per chart, named on it; ticks at round numbers; a bot with a single game shown
as a dot rather than an invisible zero-length line."""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator
from typing import Any

import pytest

from hegemon.leaderboard.store import Store
from tests.helpers.web import browser, tab  # noqa: F401 (fixtures)
from tests.helpers.web_server import served_seasons


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Store]]:
    """Seasons 'one' (a single game: every bot has played once) and 'league' (12 games)."""
    with served_seasons(tmp_path_factory.mktemp("charts-home"), {"one": 1, "league": 12}) as site:
        yield site


def ticks(page: Any, axis: str) -> list[float]:
    return [float(t) for t in page.locator(f"figure.chart text.tick-{axis}").all_text_contents()]


def assert_round(values: list[float]) -> float:
    """``values`` step evenly by 1, 2 or 5 times a power of ten, each a multiple of the step;
    returns the step."""
    assert len(values) >= 2, values
    step = values[1] - values[0]
    assert all(math.isclose(b - a, step) for a, b in itertools.pairwise(values))
    mantissa = step / 10 ** math.floor(math.log10(step))
    assert any(math.isclose(mantissa, m) for m in (1, 2, 5)), values
    assert all(math.isclose(v / step, round(v / step)) for v in values), values
    return step


def test_a_bot_with_one_game_is_a_visible_dot(server, tab):
    url, _ = server
    series = tab.page.request.get(f"{url}/api/seasons/one/history").json()
    page = tab.open(f"{url}/season/one", "one-game-chart")
    assert all(len(s["points"]) == 1 for s in series["series"])
    chart = page.locator("figure.chart svg")
    assert chart.locator("polyline").count() == 0  # one game: no line to draw
    dots = chart.locator("circle")
    assert dots.count() == len(series["series"]) == 4
    for i, s in enumerate(series["series"]):
        dot = dots.nth(i)
        assert dot.is_visible()
        box = dot.bounding_box()
        assert box is not None and box["width"] >= 4 and box["height"] >= 4
        game, rating = s["points"][0]
        assert dot.locator("title").text_content() == (
            f"{s['bot']}: {rating:.0f} after game {game}"
        )
    legend = chart.locator("text.legend").all_text_contents()
    assert legend == [s["bot"] for s in series["series"]]
    assert tab.errors == []


def test_the_ticks_are_round_numbers_covering_the_ratings(server, tab):
    url, _ = server
    history = tab.page.request.get(f"{url}/api/seasons/league/history").json()
    ratings = [y for s in history["series"] for _, y in s["points"]]
    games = [x for s in history["series"] for x, _ in s["points"]]
    page = tab.open(f"{url}/season/league", "league-chart")
    ys = ticks(page, "y")
    assert_round(ys)
    assert ys[0] <= min(ratings) and max(ratings) <= ys[-1]
    assert 3 <= len(ys) <= 12
    xs = ticks(page, "x")
    assert assert_round(xs) >= 1  # whole games
    assert xs[0] == 0 and max(games) <= xs[-1]
    assert page.locator("figure.chart polyline").count() == len(history["series"])
    assert tab.errors == []


def test_each_chart_names_its_rating_system(server, tab):
    url, store = server
    page = tab.open(f"{url}/season/league", "league-labels")
    # the board ranks by its Plackett–Luce fit; the chart is the running Elo, and says so
    caption = page.locator("figure.chart figcaption").inner_text()
    assert caption == "incremental Elo (not the board's Plackett–Luce rating) after each game"
    assert page.locator("figure.chart svg").get_attribute("aria-label") == caption
    assert page.locator("figure.chart text.axis-label").all_text_contents() == [
        "game",
        "rating",
    ]
    bot = store.bots()[0]
    page = tab.open(f"{url}/bot/{bot.id}", "bot-chart")
    assert page.locator("figure.chart figcaption").inner_text() == (
        "incremental Elo (one line per season and version) after each game"
    )
    # one line per season and version of the bot
    assert page.locator("figure.chart text.legend").all_text_contents() == [
        f"{season} · {bot.name}@v{bot.version}" for season in ("one", "league")
    ]
    assert tab.errors == []
