"""A season of each issue-11 preset between the sample bots, as real bot processes through
``hegemon season run``: every game played once, no fault, every record verifies."""

from __future__ import annotations

import pytest

from tests.helpers.league import season_of_preset

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("preset", ["mission-2000", "mission-2004", "capital-2000"])
def test_a_season_of_each_preset(preset, tmp_path, monkeypatch):
    season_of_preset(preset, tmp_path, monkeypatch)
