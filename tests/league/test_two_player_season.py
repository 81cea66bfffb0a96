"""A season of each two-player preset between the sample bots, as real bot processes through
``hegemon season run``: every pairing in both colours (tests/league/test_schedule.py checks the
schedule), every game played once, no fault, every record verifies, and the leaderboard
rates the two-player games."""

from __future__ import annotations

import csv
import io

import pytest

from tests.helpers.league import SeasonSpec, board_csv, run_and_replay
from tests.helpers.two_player import PRESETS

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("preset", PRESETS)
def test_a_season_of_each_two_player_preset(preset, tmp_path, monkeypatch):
    spec = SeasonSpec(name=preset, games=4, players=2, turn_limit=8, seed=12, preset=preset)
    for name, text, verdict in run_and_replay(tmp_path, spec, monkeypatch):
        assert verdict.game is not None and verdict.game.rules.preset == preset
        assert len(verdict.game.places or ()) == 2
        assert '"forfeit"' not in text and '"type":"fault"' not in text, name
    table = board_csv(tmp_path, spec.name)
    rows = list(csv.DictReader(io.StringIO(table)))
    assert len(rows) == 4 and sum(int(r["games"]) for r in rows) == 2 * spec.games, table
    print(f"\n{preset}\n{table}")
