"""The sample bots play the mission presets to the end, in-process through
:func:`hegemon.sdk.play_local`, never answering illegally (strict); and the SDK's mission
helpers agree with the referee."""

from __future__ import annotations

import random

import pytest

from hegemon.referee import Game, make_rules
from hegemon.referee.view import view_for
from hegemon.sample_bots.minimal import Minimal
from hegemon.sample_bots.planner import PlannerBot
from hegemon.sdk import play_local
from hegemon.sdk.helpers import mission_progress, mission_targets
from tests.helpers.game import aggressive_action, mission_deck, mission_done, pending
from tests.helpers.sample_bots import BOTS, ORDER, line_up

NEW_PRESETS = ("mission-2000", "mission-2004", "capital-2000")


@pytest.mark.parametrize("preset", NEW_PRESETS)
def test_sample_bots_play_to_the_end_legally(preset):
    for rotation in range(2):
        _names, bots = line_up(ORDER, rotation)
        result = play_local(bots, preset, seed=200 + rotation, strict=True, protocol=rotation == 0)
        assert result.places and not result.faults
        assert result.reason in ("mission", "missions", "capitals", "conquest")
    for players, seed in ((3, 7), (6, 9)):
        names = [ORDER[(seed + i) % 4] for i in range(players)]
        result = play_local([BOTS[n]() for n in names], preset, seed=seed, strict=True)
        assert result.places and not result.faults
    result = play_local(
        [Minimal(), PlannerBot(), Minimal()],
        preset,
        seed=11,
        options={"turn_limit": 30},
        strict=True,
    )
    assert result.places and not result.faults


@pytest.mark.parametrize("preset", NEW_PRESETS[:2])
def test_mission_helpers_agree_with_the_referee(preset):
    game = Game(make_rules(preset, {"turn_limit": 30}), 4, 5)
    rng = random.Random(5)
    checked = 0
    deck = mission_deck(game)
    assert deck is not None, "a mission preset has a mission deck"
    while not game.over:
        seat = pending(game).player
        view = view_for(game, seat)
        progress = mission_progress(view)
        assert [p.mission for p in progress] == game.players[seat].missions
        for p in progress:
            # done by the helper's reading exactly when the referee says so (or declared)
            referee = mission_done(game, seat, p.mission) or p.mission in game.declared[seat]
            assert p.done == referee or deck.missions[p.mission].conquests
            assert p.done == (p.remaining == 0)
        targets = mission_targets(view)
        assert all(game.owner[t] != seat for t in targets)
        checked += 1
        game.apply(aggressive_action(game, rng))
    assert checked > 50
    assert mission_progress(view_for(Game(make_rules("classic"), 4, 1), 0)) == []
