"""A season of each issue-11 preset between the sample bots, as real bot processes through
``hegemon season run``: every game played once, no fault, every record verifies."""

from __future__ import annotations

import pytest
from test_season_run import run_and_replay

from league_fixtures import SeasonSpec

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("preset", ["mission-2000", "mission-2004", "capital-2000"])
def test_a_season_of_each_preset(preset, tmp_path, monkeypatch):
    spec = SeasonSpec(name=preset, games=4, players=4, turn_limit=15, seed=11, preset=preset)
    for name, text, verdict in run_and_replay(tmp_path, spec, monkeypatch):
        assert verdict.game is not None
        assert verdict.game.rules.preset == preset
        assert '"forfeit"' not in text, f"{name}: a bot was forfeited"
