"""The replay viewer of a team game (team-2004): every seat's armies on a shared territory
show ("3+2", a ring in the other seat's colour, every seat in the tooltip), in the full view
and in each seat's view, while a seat's view still shows only its own cards."""

from __future__ import annotations

import random

import pytest

from hegemon.referee import Game, make_rules
from hegemon.referee.policies import random_action
from hegemon.referee.record import Recorder
from tests.helpers.web import Page, browser, territories  # noqa: F401 (browser: a fixture)

SEATS = ["ann", "bob", "cat", "dan"]


def _others(game: Game) -> list[str]:
    """Per territory: the other seats' armies there as the viewer's data-stack ("seat:n,...")."""
    return [
        ",".join(f"{s}:{n}" for s, n in sorted(game.stacks.get(t, {}).items()) if n > 0)
        for t in range(game.board.size)
    ]


@pytest.fixture(scope="module")
def team_game() -> tuple[str, list[list[str]], list[list[tuple[int, int]]]]:
    """A random team-2004 game's record, and the engine's stacks and (owner, armies) after
    each decision (index 0: before the first)."""
    game = Game(make_rules("team-2004", {"turn_limit": 8}), 4, 3)
    recorder = Recorder(game, {"game_id": "team-3", "seats": SEATS})
    rng = random.Random(3)
    stacks, boards = [_others(game)], [list(zip(game.owner, game.armies, strict=True))]
    while not game.over:
        recorder.apply(random_action(game, rng))
        stacks.append(_others(game))
        boards.append(list(zip(game.owner, game.armies, strict=True)))
    assert sum(1 for s in stacks[-1] if s) >= 3, "the game ends with shared territories"
    return recorder.text(), stacks, boards


def test_the_replay_data_carries_the_stacks(team_game):
    from hegemon.referee.viewer.replay import replay_data

    text, stacks, _ = team_game
    data = replay_data(text)
    shown = [list(s) for s in data["initial"]["stacks"]]
    for step, expected in zip(data["steps"], stacks[1:], strict=True):
        for change in step["ch"]:
            assert len(change) == 4
            shown[change[0]] = change[3]
        assert [",".join(f"{s}:{n}" for s, n in o) for o in shown] == expected
    assert data["final"]["stacks"] == shown


def test_a_classic_replay_has_no_stacks():
    from hegemon.referee.viewer.replay import replay_data
    from tests.helpers.web import master_record

    data = replay_data(master_record(1))
    assert "stacks" not in data["initial"] and "stacks" not in data["final"]
    assert all(len(c) == 3 for step in data["steps"] for c in step["ch"])


def test_the_viewer_shows_every_seats_armies_on_a_shared_territory(team_game, browser, tmp_path):
    from hegemon.leaderboard.web import write_replay_html

    text, stacks, boards = team_game
    record = tmp_path / "team.jsonl"
    record.write_text(text, encoding="utf-8")
    out = write_replay_html(str(record), tmp_path / "replay.html")
    shots = tmp_path / "shots"  # the screenshots: a person can look at them
    shots.mkdir()
    tab = Page(browser, shots)
    try:
        page = tab.open(out.as_uri(), "team-replay")
        for seat in (-1, 0, 3):  # the full view and two seats' views
            page.select_option("#rp-seat", str(seat))
            drawn = page.evaluate(
                """(seat) => {
                    const r = window.hegemonReplay, out = [];
                    for (let i = 0; i <= r.steps; i++) {
                        r.go(i);
                        const gs = Array.from(document.querySelectorAll('#rp-map g.territory'));
                        const cards = Array.from(document.querySelectorAll('#rp-seats .cards'));
                        out.push({
                            stack: gs.map(g => g.dataset.stack),
                            board: gs.map(g => [Number(g.dataset.owner),
                                                Number(g.dataset.armies)]),
                            label: gs.map(g => g.querySelector('text.armies').textContent),
                            title: gs.map(g => g.querySelector('title').textContent),
                            others: cards.filter((c, j) => j !== seat)
                                         .map(c => c.textContent),
                        });
                    }
                    return out;
                }""",
                seat,
            )
            assert [d["stack"] for d in drawn] == stacks
            assert [[tuple(b) for b in d["board"]] for d in drawn] == boards
            shared = 0
            for d, board in zip(drawn, boards, strict=True):
                for t, (owner, armies) in enumerate(board):
                    others = [tuple(map(int, o.split(":"))) for o in d["stack"][t].split(",") if o]
                    if not others:
                        continue
                    shared += 1
                    label = "+".join(str(n) for n in [armies] + [n for _, n in others])
                    assert d["label"][t] == label
                    for s, n in [(owner, armies), *others]:
                        assert f"{SEATS[s]}, {n} armies" in d["title"][t]
                if seat >= 0:  # the other seats' hands stay hidden
                    assert all(c.endswith(" cards") for c in d["others"]), d["others"]
            assert shared > 0
        page.keyboard.press("End")
        page.screenshot(path=str(shots / "team-replay-end.png"))
        assert territories(page) == boards[-1]
        assert tab.errors == []
    finally:
        tab.close()
