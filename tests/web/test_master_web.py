"""The replay viewer draws a composed Risiko! Master world from its layout (issue 13): each
territory at its capital's place on its tile, each tile in its cell of the world."""

from __future__ import annotations

from hegemon.referee.compose import parse_spec
from hegemon.referee.record import replay
from hegemon.referee.tiles import tile
from hegemon.referee.viewer.layout import HEIGHT, MARGIN, WIDTH
from tests.helpers.web import WORLD, Page, browser, master_record, territories  # noqa: F401 (browser: a fixture)


def test_the_map_is_drawn_tile_by_tile_from_the_layout():
    from hegemon.referee.viewer.replay import replay_data

    data = replay_data(master_record(1))["map"]
    assert data["name"] == WORLD
    rows = parse_spec(WORLD).rows
    cell_w, cell_h = (WIDTH - 2 * MARGIN) / len(rows[0]), (HEIGHT - 2 * MARGIN) / len(rows)
    cell = {
        t.name: (r, c)
        for r, row in enumerate(rows)
        for c, n in enumerate(row)
        for t in tile(n).territories
    }
    for t in data["territories"]:
        r, c = cell[t["name"]]
        assert MARGIN + c * cell_w < t["x"] < MARGIN + (c + 1) * cell_w
        assert MARGIN + r * cell_h < t["y"] < MARGIN + (r + 1) * cell_h
    assert [c["name"] for c in data["continents"]] == [n for row in rows for n in row]


def test_a_master_replay_plays_in_the_browser(browser, tmp_path):
    from hegemon.leaderboard.web import write_replay_html

    text = master_record(2)
    path = tmp_path / "game.jsonl"
    path.write_text(text, encoding="utf-8")
    out = write_replay_html(str(path), tmp_path / "replay.html")
    verdict = replay(text)
    assert verdict.ok and verdict.game is not None
    shots = tmp_path / "shots"  # the screenshot: a person can look at it
    shots.mkdir()
    tab = Page(browser, shots)
    try:
        page = tab.open(out.as_uri(), "master-replay")
        page.click("#rp-last")
        assert territories(page) == list(zip(verdict.game.owner, verdict.game.armies, strict=True))
        assert tab.errors == []
    finally:
        tab.close()


def test_master_hands_show_the_cards_of_the_44_not_territories():
    """Seed 003's "carte speciali" show figures and tanks, not territories: the replay's hands
    and its drawn-card events name them so (``cavalry (+1)``, ``wild card``)."""
    from hegemon.referee.viewer.replay import replay_data

    text = master_record(2)
    data = replay_data(text)
    game = replay(text).game
    assert game is not None
    board = game.board
    labels = {board.card_label(c) for c in range(board.card_count)}
    assert labels == {
        *(f"{f}{x}" for f in ("infantry", "cavalry", "artillery") for x in ("", " (+1)", " (+2)")),
        "wild card",
    }
    held = {label for step in data["steps"] if "h" in step for h in step["h"] for label in h}
    assert held and held <= labels
    names = {t["name"] for t in data["map"]["territories"]}
    drawn = [e["t"] for step in data["steps"] for e in step["ev"] if e["k"] == "card_drawn"]
    assert drawn and not any(name in text for text in drawn for name in names)
