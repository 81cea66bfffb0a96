"""What a person sees in the replay viewer beyond the board (issue 23 item 6), in headless
Chromium: the teams of a team game, Risiko! Master's points and production centres, the attack
being made (source → target, the dice), and a link to any decision (``#d=N``) on a real
``hegemon web``."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from hegemon.leaderboard.store import Store
from hegemon.referee import Game, make_rules
from hegemon.referee.actions import action_from_list
from hegemon.referee.editions.master import victory_threshold
from hegemon.referee.formulas import score
from hegemon.referee.policies import random_action
from hegemon.referee.record import Recorder, game_from_record, parse, replay
from tests.helpers.web import (  # noqa: F401 (browser, tab: fixtures)
    Page,
    browser,
    master_record,
    play_record,
    tab,
    territories,
)
from tests.helpers.web_server import served_seasons

SEATS = ["ann", "bob", "cat", "dan"]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Store]]:
    with served_seasons(tmp_path_factory.mktemp("viewer-home"), {"league": 3}) as site:
        yield site


def open_file(tab: Page, text: str, shot: str) -> Any:
    """The viewer of the record ``text``, written to a file and opened from disk in ``tab``."""
    from hegemon.leaderboard.web import write_replay_html

    record = tab.shots / f"{shot}.jsonl"
    record.write_text(text, encoding="utf-8")
    return tab.open(write_replay_html(str(record), tab.shots / f"{shot}.html").as_uri(), shot)


def board_after(text: str, decisions: int) -> list[tuple[int, int]]:
    """(owner, armies) of each territory after the record's first ``decisions`` actions."""
    lines = parse(text)
    game = game_from_record(lines)
    for line in [x for x in lines if x["type"] == "action"][:decisions]:
        game.apply(action_from_list(line["action"]))
    return list(zip(game.owner, game.armies, strict=True))


# ---------------------------------------------------------------------------------- #d=N
def test_a_link_to_a_decision_opens_the_replay_there_and_stepping_updates_it(
    server, tab, browser, tmp_path
):
    url, store = server
    season = store.season_by_name("league")
    assert season is not None and season.id is not None
    _, game = store.games(season.id)[0]
    text = Path(game.record_path).read_text(encoding="utf-8")
    steps = sum(1 for line in parse(text) if line["type"] == "action")
    middle = steps // 2
    page = tab.open(f"{url}/game/{game.id}#d={middle}", "linked")
    assert page.locator("#rp-pos").inner_text().startswith(f"decision {middle} / {steps}")
    assert territories(page) == board_after(text, middle)
    assert page.locator("#rp-link").inner_text() == f"link to decision {middle}"
    page.keyboard.press("ArrowRight")
    page.wait_for_function(f"location.hash === '#d={middle + 1}'")
    page.click("#rp-last")
    page.wait_for_function(f"location.hash === '#d={steps}'")
    assert territories(page) == board_after(text, steps)
    # the address as it is now, pasted into a fresh tab, shows the same moment
    other = Page(browser, tmp_path)
    try:
        again = other.open(page.url, "pasted")
        assert again.locator("#rp-pos").inner_text().startswith(f"decision {steps} / ")
        # and a new fragment in the same tab moves there
        again.evaluate("location.hash = '#d=3'")
        again.wait_for_function("document.getElementById('rp-pos').textContent"
                                ".startsWith('decision 3 /')")  # fmt: skip
        assert territories(again) == board_after(text, 3)
    finally:
        other.close()
    assert tab.errors == []


# ---------------------------------------------------------------------------------- attack
def test_the_attack_being_made_is_drawn_with_its_dice(tab):
    text = play_record(11, SEATS, turn_limit=4)
    lines = [x for x in parse(text) if x["type"] == "action"]
    at, battle = next(
        (i + 1, e) for i, line in enumerate(lines) for e in line["events"] if e["event"] == "battle"
    )
    names = [t.name for t in game_from_record(parse(text)).board.territories]
    page = open_file(tab, text, "attack")
    assert not page.locator("#rp-attack").is_visible()  # the set-up: no attack
    page.evaluate(f"window.hegemonReplay.go({at})")
    box = page.locator("#rp-attack")
    assert box.is_visible()
    said = box.inner_text()
    assert f"{names[battle['source']]} → {names[battle['target']]}" in said
    assert said.startswith(f"{SEATS[battle['attacker']]} attacks {SEATS[battle['defender']]}")
    faces = "⚀⚁⚂⚃⚄⚅"
    attack = "".join(faces[d - 1] for d in battle["attack_dice"])
    defence = "".join(faces[d - 1] for d in battle["defend_dice"])
    assert f"{attack} vs {defence}" in said
    assert page.locator("#rp-map line.attack").is_visible()
    marked = page.eval_on_selector_all(
        "#rp-map g.territory.source, #rp-map g.territory.target",
        "gs => gs.map(g => g.querySelector('text.name').textContent)",
    )
    assert sorted(marked) == sorted([names[battle["source"]], names[battle["target"]]])
    page.evaluate("window.hegemonReplay.go(0)")
    assert not page.locator("#rp-map line.attack").is_visible()
    assert tab.errors == []


# ---------------------------------------------------------------------------------- teams
def test_a_team_games_replay_shows_who_plays_with_whom(tab):
    game = Game(make_rules("team-2004", {"turn_limit": 4}), 4, 5)
    recorder = Recorder(game, {"game_id": "team-5", "seats": SEATS})
    rng = random.Random(5)
    while not game.over:
        recorder.apply(random_action(game, rng))
    page = open_file(tab, recorder.text(), "teams")
    assert page.locator("#rp-rules").inner_text() == ("team A (ann + cat) vs team B (bob + dan)")
    rows = page.eval_on_selector_all(
        "#rp-seats tr.team-row, #rp-seats tr.seat-row",
        "rs => rs.map(r => [r.className, r.cells[0].textContent.trim(),"
        " r.querySelector('.dot') ? getComputedStyle(r.querySelector('.dot')).backgroundColor"
        " : ''])",
    )
    assert [(kind, name) for kind, name, _ in rows] == [
        ("team-row", "team A: ann + cat"),
        ("seat-row", "ann"),
        ("seat-row", "cat"),
        ("team-row", "team B: bob + dan"),
        ("seat-row", "bob"),
        ("seat-row", "dan"),
    ]
    colours = {name: rgb(colour) for kind, name, colour in rows if kind == "seat-row"}
    assert len(set(colours.values())) == 4  # every seat its own colour
    # allies share a family of colours: warm for team A, cool for team B
    assert all(r > b for r, _, b in (colours["ann"], colours["cat"]))
    assert all(b > r for r, _, b in (colours["bob"], colours["dan"]))
    assert tab.errors == []


def rgb(css: str) -> tuple[int, int, int]:
    """``rgb(214, 39, 40)`` as numbers."""
    r, g, b = (int(x) for x in css[css.index("(") + 1 : css.index(")")].split(",")[:3])
    return r, g, b


# ---------------------------------------------------------------------------------- Master
def test_a_master_replay_shows_points_quadrants_and_production_centres(tab):
    text = next(t for t in map(master_record, range(1, 40)) if centres_built(t))
    verdict = replay(text)
    assert verdict.ok and verdict.game is not None
    final = verdict.game
    board = final.board
    page = open_file(tab, text, "master")
    threshold = victory_threshold(board.total_value())
    assert (
        f"wins with {threshold} points and 2 whole quadrants"
        in page.locator("#rp-rules").inner_text()
    )
    page.keyboard.press("End")
    shown = page.eval_on_selector_all(
        "#rp-seats tr.seat-row",
        "rs => rs.map(r => [r.querySelector('.points').textContent,"
        " r.querySelector('.quadrants').textContent, r.querySelector('.centres').textContent])",
    )
    from hegemon.referee.formulas import continents_held

    assert shown == [
        [
            str(score(board, final.owner, seat, "values")),
            str(len(continents_held(board, final.owner, seat))),
            str(sum(1 for t in final.centres if final.owner[t] == seat)),
        ]
        for seat in range(final.player_count)
    ]
    assert final.centres
    with_centre = page.eval_on_selector_all(
        "#rp-map g.territory",
        "gs => gs.filter(g => getComputedStyle(g.querySelector('rect.centre')).display"
        " !== 'none').map(g => g.querySelector('text.name').textContent)",
    )
    assert sorted(with_centre) == sorted(board.territories[t].name for t in final.centres)
    assert territories(page) == list(zip(final.owner, final.armies, strict=True))
    page.keyboard.press("Home")  # before any centre is built: none drawn
    assert page.locator("#rp-map rect.centre:visible").count() == 0
    assert tab.errors == []


def centres_built(text: str) -> bool:
    return any(
        e["event"] == "centre_built" for line in parse(text) for e in line.get("events") or []
    )
