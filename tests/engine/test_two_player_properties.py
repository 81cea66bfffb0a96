"""Property tests of the two-player presets: random legal play from any seed keeps the
invariants of docs/rules.md §5, every listed answer is accepted, and the game replays identically
from its record."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hegemon.referee import Game, IllegalAction, Kind, make_rules
from hegemon.referee.editions.alliances import BRIBE_LIMIT
from hegemon.referee.editions.neutrals import ARMIES
from hegemon.referee.events import AllegianceChanged, CardDrawn, Conquered, TurnStarted
from hegemon.referee.record import Recorder, replay
from tests.helpers.two_player import PRESETS

NEUTRAL_KINDS = {Kind.PLACE_NEUTRAL, Kind.BRIBE, Kind.REINFORCE_ALLY, Kind.FORTIFY_ALLY}


def check_invariants(game: Game) -> None:
    """What holds after every action of a two-player game."""
    seats = len(game.players)
    assert game.player_count == 2
    assert game.territory_count == [game.owner.count(s) for s in range(seats)]
    for t, owner in enumerate(game.owner):
        if game.round:
            assert 0 <= owner < seats and game.armies[t] >= (
                0 if game.pending and game.pending.kind is Kind.OCCUPY else 1
            )
    for p in game.players[2:]:
        assert p.neutral and not p.forfeited and not p.active
        assert p.ally_of in (-1, 0, 1)
        assert len(p.cards) <= BRIBE_LIMIT
        if game.rules.two_player != "2004_active":
            assert p.ally_of == -1 and not p.cards
    if game.pending is not None:
        assert game.pending.player in (0, 1)  # a neutral never decides
        if game.pending.kind in NEUTRAL_KINDS - {Kind.PLACE_NEUTRAL}:
            assert game.rules.two_player == "2004_active"
    cards = [c for p in game.players for c in p.cards] + game.deck + game.discard
    assert sorted(cards) == list(range(game.board.card_count))  # no card lost or doubled


def play(preset: str, seed: int, picks: random.Random, steps: int) -> Recorder:
    game = Game(make_rules(preset, {"turn_limit": 6}), 2, seed)
    recorder = Recorder(game)
    check_invariants(game)
    armies = sum(ARMIES[game.rules.two_player][1]) + 2 * ARMIES[game.rules.two_player][0]
    for _ in range(steps):
        if game.over:
            break
        options = game.legal_actions()
        assert options, game.pending
        for action in options[:20]:
            game.check(action)  # every listed answer is legal
        action = options[picks.randrange(len(options))]
        turn = game.current
        events = recorder.apply(action)
        check_invariants(game)
        if game.round == 0:
            assert sum(game.armies) <= armies
        for e in events:
            if type(e) is TurnStarted:
                assert e.player in (0, 1)
            if type(e) is CardDrawn:
                assert e.player == turn
            if type(e) is AllegianceChanged:
                assert game.rules.two_player == "2004_active"
            if type(e) is Conquered and e.player >= 2:  # an ally's conquest
                assert game.players[e.player].neutral
    if game.over:
        assert game.places is not None and sorted(game.places) in ([1, 2], [1, 1])
    return recorder


@pytest.mark.parametrize("preset", PRESETS)
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**64), picks=st.randoms(use_true_random=False))
def test_random_legal_play_keeps_the_invariants_and_replays(preset, seed, picks):
    recorder = play(preset, seed, picks, steps=900)
    verdict = replay(recorder.text())
    assert verdict.ok, verdict.message


@pytest.mark.parametrize("preset", PRESETS)
def test_a_refused_answer_changes_nothing(preset):
    """Answers of the wrong kind or out of bounds are refused and leave the game as it was."""
    from hegemon.referee import Bribe, FortifyAlly, PlaceNeutral, ReinforceAlly

    rng = random.Random(5)
    game = Game(make_rules(preset, {"turn_limit": 4}), 2, 5)
    for _ in range(600):
        if game.over:
            break
        before = (list(game.owner), list(game.armies), [list(p.cards) for p in game.players])
        pending = game.pending
        for wrong in (
            PlaceNeutral(((0, 99),)),
            Bribe(0, (0,)),
            ReinforceAlly(((0, 1),)),
            FortifyAlly(0, 1, 1),
        ):
            try:
                game.apply(wrong)
            except IllegalAction:
                pass
            else:  # accepted: then it was a legal answer; the test goes on from there
                break
            assert (
                list(game.owner),
                list(game.armies),
                [list(p.cards) for p in game.players],
            ) == before
            assert game.pending == pending
        else:
            options = game.legal_actions()
            game.apply(options[rng.randrange(len(options))])
