"""The forward model (hegemon.sdk.forward): a game sampled from a seat's view shows that seat
exactly what the view shows, plays on legally on every preset, and tells nothing about the
hidden cards beyond what the counts and trades imply."""

from __future__ import annotations

import random

import pytest

from hegemon.referee import Game, make_rules
from hegemon.referee.decisions import Kind
from hegemon.referee.events import redact
from hegemon.referee.policies import attack_happy_action, random_action
from hegemon.referee.rules import PRESETS
from hegemon.referee.view import view_for
from hegemon.sample_bots.planner import PlannerBot
from hegemon.sdk import GameContext, make_view, play_local
from hegemon.sdk.forward import SAMPLED_KINDS, CannotSample, knowledge, sample_game
from tests.helpers.env import players_of

#: What a view shows (the hand as a set: a team's shared hand has no order).
PUBLIC = (
    "owner",
    "armies",
    "seats",
    "trade_count",
    "round",
    "current",
    "pending",
    "missions",
    "capital",
    "centres",
    "stacks",
)


class Sampling(PlannerBot):
    """Planner, sampling at each of its own turn decisions and checking the sample."""

    def __init__(self) -> None:
        self.checked: dict[str, int] = {}
        self.problems: list[str] = []

    def decide(self, view, decision):
        if decision.kind in SAMPLED_KINDS and view.round >= 1:
            rng = random.Random(len(self.problems) + view.context.decisions)
            game = sample_game(view, rng)
            seen = view_for(game, view.seat)
            for name in PUBLIC:
                if getattr(seen, name) != getattr(view, name):
                    self.problems.append(f"{decision.kind.value}: {name} differs")
            if sorted(seen.hand) != sorted(view.hand):
                self.problems.append(f"{decision.kind.value}: the hand differs")
            while game.pending is not None and game.current == view.seat:
                game.apply(random_action(game, rng))  # plays on legally to the turn's end
            self.checked[decision.kind.value] = self.checked.get(decision.kind.value, 0) + 1
        return super().decide(view, decision)


@pytest.mark.parametrize("preset", list(PRESETS))
def test_a_sample_shows_the_seat_its_own_view_and_plays_on(preset):
    players = players_of(preset)
    sampling = Sampling()
    bots = [sampling, *(PlannerBot() for _ in range(players - 1))]
    play_local(bots, preset, seed=5, options={"turn_limit": 5})
    assert sampling.problems == []
    assert sampling.checked.get("attack", 0) > 0, sampling.checked
    assert sampling.checked.get("place", 0) > 0, sampling.checked


def test_no_sample_outside_the_seats_own_turn():
    game = Game(make_rules("classic"), 3, seed=1)
    context = GameContext("g", 0, ("a", "b", "c"), game.rules, game.board)
    view = make_view(view_for(game, 0), context, game.opening_events)
    with pytest.raises(CannotSample):
        sample_game(view, random.Random(0))  # set-up


def _follow(seed: int, seat: int = 0):
    """Play attack-happy classic 4-player games, yielding (game, seat's view) at each of the
    seat's attack decisions; the seat hears only its redacted events, as from the referee."""
    game = Game(make_rules("classic"), 4, seed=seed)
    context = GameContext(f"g{seed}", seat, ("a", "b", "c", "d"), game.rules, game.board)
    heard = [redact(e, seat) for e in game.opening_events]
    rng = random.Random(seed)
    while game.pending is not None and game.round < 40:
        d = game.pending
        if d.player == seat:
            view = make_view(view_for(game, seat), context, heard)
            heard = []
            if d.kind is Kind.ATTACK and game.round >= 1:
                yield game, view
        heard += [redact(e, seat) for e in game.apply(attack_happy_action(game, rng))]


def test_samples_guess_others_cards_no_better_than_chance():
    """Each sampled card of another seat is right as often as a card drawn at random from
    those the seat has not seen — and the true hands are always among the possible samples."""
    hits = draws = 0
    expected = 0.0
    positions = 0
    for seed in (1, 2):
        for game, view in _follow(seed):
            # the cards the seat has seen go: its hand, and the discard (every card in it was
            # shown in a trade since the last reshuffle; no seat forfeits in these games)
            unseen = set(range(game.board.card_count)) - set(view.hand) - set(game.discard)
            assert set(knowledge(view).discard) == set(game.discard)
            rng = random.Random(positions)
            positions += 1
            for other in game.players:
                if other.seat == view.seat or not other.cards:
                    continue
                truth = set(other.cards)
                assert truth <= unseen  # the truth is a possible sample: nothing ruled out
                for _ in range(20):
                    sampled = sample_game(view, rng).players[other.seat].cards
                    assert len(sampled) == len(truth) and set(sampled) <= unseen
                    hits += len(truth & set(sampled))
                    draws += len(sampled)
                    expected += len(truth) * len(truth) / len(unseen)
    assert draws > 1000
    # a binomial count: within 4 standard deviations of chance (a leak would be far above)
    sd = (expected * (1 - expected / draws)) ** 0.5
    assert abs(hits - expected) < 4 * sd, (hits, expected, draws)


def test_a_samples_deck_and_hands_hold_every_card_once():
    for game, view in _follow(3):
        sample = sample_game(view, random.Random(0))
        cards = [c for p in sample.players for c in p.cards] + sample.deck + sample.discard
        assert sorted(cards) == list(range(game.board.card_count))
        assert sample.players[view.seat].cards == list(view.hand)
        assert sample.seed != game.seed  # fresh chance, never the game's
