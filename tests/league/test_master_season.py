"""A season of each Risiko! Master preset between the sample bots, as real bot processes through
``hegemon season create`` and ``season run``: every game played, no fault, every record
verifies and names its composed world (the map is part of the rule set, so of the record).
The Master season plays on a world drawn by `hegemon map compose`, not the default one."""

from __future__ import annotations

import json

import pytest

from hegemon.referee.compose import EXAMPLE, draw_layout
from hegemon.referee.record import replay
from tests.helpers.league import SeasonSpec, hegemon, prepare

pytestmark = pytest.mark.slow

GAMES = 2


@pytest.mark.parametrize(
    "preset, world",
    [
        ("risiko-master-base", EXAMPLE),
        ("risiko-master-expert", EXAMPLE),
        ("risiko-master-master", draw_layout(7, 4).spec),
    ],
)
def test_a_season_of_each_master_preset(preset, world, tmp_path, monkeypatch):
    prepare(tmp_path, SeasonSpec(name="unused", games=1, turn_limit=1), monkeypatch)
    out = hegemon(
        "season", "create", preset, "--rules", preset, "--set", f"map={world}",
        "--set", "turn_limit=12", "--players", "4", "--games", str(GAMES),
        "--bots", "random,aggressive,continental,planner", "--seed", "5",
        home=tmp_path,
    )  # fmt: skip
    assert out.returncode == 0, out.stdout + out.stderr
    out = hegemon("season", "run", preset, "--concurrency", "2", "--quiet", home=tmp_path)
    assert out.returncode == 0, out.stdout + out.stderr
    records = sorted((tmp_path / "records" / preset).glob("*.jsonl"))
    assert len(records) == GAMES
    for path in records:
        text = path.read_text()
        assert json.loads(text.splitlines()[0])["rules"]["map"] == world
        verdict = replay(text)
        assert verdict.ok, f"{path.name}: {verdict.message}"
        assert verdict.game is not None and verdict.game.rules.preset == preset
        assert '"forfeit"' not in text, f"{path.name}: a bot was forfeited"
