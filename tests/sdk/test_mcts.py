"""The mcts sample bot: a real bot process over gRPC plays every preset without a fault, and
its search stays within the decision's deadline and the time bank."""

from __future__ import annotations

import dataclasses

import pytest
from typer.testing import CliRunner

from hegemon.leaderboard.cli import app as APP
from hegemon.referee import Game, make_rules
from hegemon.referee.rules import PRESETS
from hegemon.referee.view import View, view_for
from hegemon.sample_bots.mcts import MctsBot
from hegemon.sdk import BotView
from tests.cli.test_cli_every_preset import fewest_players, rows

runner = CliRunner()


@pytest.mark.parametrize("preset", list(PRESETS))
def test_mcts_plays_every_preset_without_a_fault(preset, tmp_path, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    monkeypatch.setenv("HEGEMON_MCTS_SECONDS", "0.02")  # short searches: the bot, not its depth
    players, _ = fewest_players(preset)
    seats = ["mcts", "planner", "mcts", "planner", "mcts"][:players]
    bots = [arg for bot in seats for arg in ("--bot", bot)]
    played = runner.invoke(APP, ["play", "--rules", preset, *bots, "--set", "turn_limit=3", "-q"])
    assert played.exit_code == 0, played.output
    table = rows(played.output.partition("game over")[2])
    mcts = [row for row in table if row[1].startswith("mcts")]
    assert len(mcts) == seats.count("mcts"), played.output
    assert all(row[-1] == "0" for row in mcts), played.output  # the faults column


def _view(deadline_ms: int, time_bank_ms: int) -> BotView:
    """A view of a set-up position with the request's clock."""
    view = view_for(Game(make_rules("classic"), 3, seed=1), 0)
    fields = {f.name: getattr(view, f.name) for f in dataclasses.fields(View)}
    return BotView(**fields, deadline_ms=deadline_ms, time_bank_ms=time_bank_ms)


@pytest.mark.parametrize(
    ("deadline_ms", "bank_ms", "most"),
    [(2000, 60_000, 0.8), (100, 0, 0.04), (2000, 0, 0.8), (500, 1000, 0.2)],
)
def test_a_search_never_takes_more_than_a_share_of_its_deadline(deadline_ms, bank_ms, most):
    bot = MctsBot()
    bot.budget = 10.0  # as long as the clock allows
    assert bot.seconds(_view(deadline_ms, bank_ms)) <= most + 1e-9
