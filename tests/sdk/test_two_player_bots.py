"""Every sample bot plays every two-player preset legally, in both seats (in-process through
the protocol codec, strict: the first refused answer fails the test)."""

from __future__ import annotations

import pytest

from hegemon.sample_bots.aggressive import AggressiveBot
from hegemon.sample_bots.continental import ContinentalBot
from hegemon.sample_bots.minimal import Minimal
from hegemon.sample_bots.planner import PlannerBot
from hegemon.sample_bots.random import RandomBot
from hegemon.sdk import play_local
from tests.helpers.two_player import PRESETS

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


@pytest.mark.parametrize("preset", ["two-player-2000", "two-player-2004-active"])
def test_the_progress_table_and_the_text_replay_show_the_neutrals(preset):
    """`hegemon play` and `hegemon replay` list a neutral colour's seat as "neutral", with no
    place and no faults (it has no bot)."""
    import io

    from rich.console import Console

    from hegemon.leaderboard.cli.progress import show_replay, standings

    result = play_local([RandomBot(), Minimal()], preset, seed=4, options={"turn_limit": 3})
    assert result.game is not None
    out = io.StringIO()
    console = Console(file=out, width=120)
    console.print(standings(result.game, ["random", "minimal"], "final", faults=[0, 0]))
    show_replay(result.record, console)
    text = out.getvalue()
    neutrals = len(result.game.players) - 2
    assert text.count("neutral") >= 2 * neutrals
