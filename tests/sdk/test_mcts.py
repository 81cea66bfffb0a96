"""The mcts sample bot: it plays every preset without a fault, its search stays within the
decision's deadline and the time bank, overrules planner only on clear evidence, and plays the
same game the same way."""

from __future__ import annotations

import dataclasses

import pytest
from typer.testing import CliRunner

from hegemon.leaderboard.cli import app as APP
from hegemon.referee import Game, make_rules
from hegemon.referee.actions import Claim, Place, PlaceNeutral
from hegemon.referee.rules import PRESETS
from hegemon.referee.view import View, view_for
from hegemon.sample_bots.mcts import MctsBot
from hegemon.sample_bots.planner import PlannerBot
from hegemon.sdk import BotView, play_local
from tests.cli.test_cli_every_preset import fewest_players, rows

runner = CliRunner()


@pytest.mark.parametrize("preset", list(PRESETS))
def test_mcts_plays_every_preset_without_a_fault(preset, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # the records it writes go there, not into the checkout
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


def _view(deadline_ms: int = 0, time_bank_ms: int = 0, rules="classic", players=3) -> BotView:
    """A view of a set-up position with the request's clock."""
    view = view_for(Game(make_rules(rules), players, seed=1), 0)
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


def test_a_search_overrules_planner_only_on_clear_evidence():
    bot = MctsBot()
    margin, z = bot.gate(_view(players=4))
    planned = [0.0, 0.5, 0.0, 1.0, 0.0, 0.5]
    better = [5.0, 6.0, 5.5, 6.5, 5.0, 6.0]  # +5.5 on every sample
    assert bot.clearly_better(better, planned, z, margin)
    assert not bot.clearly_better([0.2, 0.7, 0.2, 1.2, 0.2, 0.7], planned, 0.0, margin)  # +0.2
    noisy = [30.0, -20.0, 30.0, -20.0, 30.0, -20.0]  # +5 on average, but noise
    assert bot.clearly_better(noisy, planned, 0.0, margin)  # enough for the screen...
    assert not bot.clearly_better(noisy, planned, z, margin)  # ... never to overrule
    assert not bot.clearly_better([9.0], [0.0], 0.0, margin)  # one sample proves nothing


def test_against_several_enemies_smaller_evidence_overrules_planner_than_in_a_duel():
    """4.0's gate: in a 4-player game a candidate 0.8 armies better at 1.2 standard errors
    overrules planner (3.0 kept planner's answer: in classic it overruled about 4 searches in
    105 and played almost as planner); in a duel the gate stays 3.0's, under which the
    two-player SPRT accepted H1."""
    bot = MctsBot()
    planned = [0.0] * 8
    modest = [0.8 + d for d in (2.0, -2.0, 1.5, -1.5, 2.0, -2.0, 1.5, -1.5)]  # +0.8, SE ~0.6
    for rules, players, overrules in (
        ("classic", 4, True),
        ("classic", 3, True),
        ("two-player-classic", 2, False),
    ):
        margin, z = bot.gate(_view(rules=rules, players=players))
        assert bot.clearly_better(modest, planned, z, margin) == overrules, (rules, players)


def _actions(bots) -> list:
    return play_local(bots, "two-player-classic", seed=5, options={"turn_limit": 4}).actions


def _mcts(**gate) -> MctsBot:
    bot = MctsBot()
    bot.budget = 60.0  # the safety stop out of the way: the counts alone bound the search
    for name, value in gate.items():
        setattr(bot, name, value)
    return bot


def test_mcts_plays_the_same_game_the_same_way():
    """Its work is a count and its chance the game's seeded generator: the same game replays
    move for move (however busy the machine)."""
    assert _actions([_mcts(), PlannerBot()]) == _actions([_mcts(), PlannerBot()])


def test_the_search_changes_planners_play_where_its_rollouts_say_so():
    """With the gate open (any mean gain overrules planner), the searched answers differ from
    planner's and stay legal: what keeps planner's answer otherwise is the gate alone."""
    game = play_local(
        [_mcts(duel_margin=0.0, duel_z=0.0), PlannerBot()],
        "two-player-classic",
        seed=5,
        options={"turn_limit": 4},
    )
    assert not game.faults
    assert game.actions != _actions([PlannerBot(), PlannerBot()])


def _setup_places(game) -> list:
    """Seat 0's placements before its first attack or stop: the set-up's armies."""
    places = []
    for seat, action in game.actions:
        if seat != 0 or type(action) in (Claim, PlaceNeutral):
            continue
        if type(action) is not Place:
            break
        places.append(action)
    return places


def _setup_game(rules: str, players: int, **gate):
    bots = [_mcts(samples=2, confirm=2, **gate), PlannerBot()] * (players // 2)
    return play_local(bots, rules, seed=5, options={"turn_limit": 1})


@pytest.mark.parametrize(
    ("rules", "players", "duel"), [("two-player-classic", 2, True), ("classic", 4, False)]
)
def test_mcts_places_a_duels_set_up_by_planners_position_score(rules, players, duel):
    """In a duel its set-up armies go where planner's position score puts them (a turn's
    placement plans), not where continental's staging rule does: two-player-classic is decided
    within a few rounds, and this is most of what mcts 3.0 gains on planner there. Against
    several enemies (where it measured worse) the set-up stays continental's."""
    game = _setup_game(rules, players)
    staged = _setup_game(rules, players, plan_setup=False)
    assert not game.faults
    planned, continental = _setup_places(game), _setup_places(staged)
    assert len(planned) == len(continental) > 1
    assert (planned != continental) == duel
