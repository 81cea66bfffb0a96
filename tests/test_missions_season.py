"""A season of each issue-11 preset between the sample bots, as real bot processes through
``hegemon season run``: every game played once, no fault, every record verifies."""

from __future__ import annotations

import pytest
from test_season_run import check_played_once, prepare

from hegemon.referee.record import replay
from league_fixtures import SeasonSpec, hegemon

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("preset", ["mission-2000", "mission-2004", "capital-2000"])
def test_a_season_of_each_preset(preset, tmp_path, monkeypatch):
    spec = SeasonSpec(name=preset, games=4, players=4, turn_limit=15, seed=11, preset=preset)
    prepare(tmp_path, spec, monkeypatch)
    out = hegemon("season", "run", spec.name, "--concurrency", "2", "--quiet", home=tmp_path)
    assert out.returncode == 0, out.stdout + out.stderr
    check_played_once(tmp_path, spec)
    for path in sorted((tmp_path / "records" / spec.name).glob("*.jsonl")):
        text = path.read_text()
        verdict = replay(text)
        assert verdict.ok, f"{path.name}: {verdict.message}"
        assert verdict.game is not None
        assert verdict.game.rules.preset == preset
        assert '"forfeit"' not in text, f"{path.name}: a bot was forfeited"
