"""Every sample bot plays every two-player preset legally, in both seats (in-process through
the protocol codec, strict: the first refused answer fails the test)."""

from __future__ import annotations

import pytest
from two_player_helpers import PRESETS

from hegemon.sample_bots.aggressive import AggressiveBot
from hegemon.sample_bots.continental import ContinentalBot
from hegemon.sample_bots.minimal import Minimal
from hegemon.sample_bots.planner import PlannerBot
from hegemon.sample_bots.random import RandomBot
from hegemon.sdk import play_local

BOTS = [RandomBot, AggressiveBot, ContinentalBot, PlannerBot, Minimal]


@pytest.mark.parametrize("preset", PRESETS)
def test_every_sample_bot_plays_every_two_player_preset_legally(preset):
    kinds: set[str] = set()
    for i, first in enumerate(BOTS):
        second = BOTS[(i + 1) % len(BOTS)]
        for seats in ((first, second), (second, first)):
            result = play_local(
                [seats[0](), seats[1]()],
                preset,
                seed=40 + i,
                options={"turn_limit": 6},
                protocol=True,
                strict=True,
            )
            assert not result.faults and sorted(result.places) in ([1, 2], [1, 1])
            assert result.game is not None
            kinds |= {type(a).__name__ for _, a in result.actions}
    assert "PlaceNeutral" in kinds
    if preset == "two-player-2004-active":
        assert "Bribe" in kinds and "ReinforceAlly" in kinds
