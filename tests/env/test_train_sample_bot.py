"""The trained sample bot: stored with its policy files (a ladder seats it from its own copy),
small, and playing legally through the protocol codec in the rule sets it was trained for (and
on another map, as its teacher)."""

from __future__ import annotations

import pytest

from hegemon.leaderboard.registry.sources import find_source
from hegemon.sample_bots.trained import TrainedBot
from hegemon.sdk import play_local

POLICIES = ("sample_bots/trained.npz", "sample_bots/trained-two-player.npz")


def test_a_registered_trained_bot_carries_its_policy_files():
    source = find_source("trained")
    assert set(POLICIES) <= set(source.files)
    assert "sample_bots/planner.py" in source.files  # its fallback on another map
    sizes = [source.files[p].stat().st_size for p in POLICIES]
    assert all(size < 2_000_000 for size in sizes), sizes  # a few MB at most, both together


@pytest.mark.parametrize(
    ("preset", "players"),
    [("classic", 4), ("two-player-classic", 2), ("risiko-master-base", 4)],  # (another map)
)
def test_the_trained_bot_plays_legally(preset, players):
    bots = [TrainedBot() for _ in range(players)]
    game = play_local(bots, preset, seed=2, options={"turn_limit": 6}, strict=True, protocol=True)
    assert game.places is not None and not game.faults
