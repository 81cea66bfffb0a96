"""Risiko! Master for bots: hidden information per preset, the SDK helpers (values, quadrants,
the points race), and every sample bot playing each preset legally (seed 003; docs/rules.md §7)."""

from __future__ import annotations

import importlib
import random

import pytest

from hegemon.referee import Game, make_rules
from hegemon.referee.events import redact
from hegemon.referee.view import view_for
from hegemon.referee.wire import codec
from hegemon.sample_bots.mcts import MctsBot
from hegemon.sample_bots.minimal import Minimal
from hegemon.sample_bots.names import NAMES
from hegemon.sdk import (
    play_local,
    points,
    points_race,
    points_to_win,
    quadrant_holdings,
    reinforcements,
)
from tests.helpers.game import aggressive_action, pending, request, scrambled

PRESETS = ["risiko-master-base", "risiko-master-expert", "risiko-master-master"]


@pytest.mark.parametrize("preset", PRESETS)
def test_a_seat_learns_nothing_secret(preset):
    """What a seat is sent is byte-identical whatever the other hands, the deck and the seed."""
    game = Game(make_rules(preset, {"turn_limit": 20}), 4, 2**62 + 99)
    policy, rng = random.Random(3), random.Random(4)
    events_for: dict[int, list] = {s: list(game.opening_events) for s in range(4)}
    steps = 0
    while not game.over:
        if steps % 5 == 0:
            for seat in range(4):
                assert request(game, seat) == request(scrambled(game, seat, rng), seat)
        d = pending(game)
        message = codec.view_to_proto(view_for(game, d.player), events_for[d.player])
        assert list(message.view.hand) == game.players[d.player].cards
        assert list(message.view.centres) == game.centres
        events_for[d.player] = []
        events = game.apply(aggressive_action(game, policy))
        for s in range(4):
            events_for[s] += [redact(e, s) for e in events]
        steps += 1
    assert steps > 50


def test_points_helpers():
    """Seed 003, Expert "VITTORIA": values, quadrants and the threshold, as a bot sees them."""
    game = Game(make_rules("risiko-master-expert"), 4, 1)
    while game.round == 0:
        game.apply(game.default_action())
    view = view_for(game, game.current)
    assert points_to_win(view) == 88
    board = view.board
    assert points(view) == sum(
        board.territories[t].value for t in range(board.size) if view.owner[t] == view.seat
    )
    race = points_race(view)
    assert sorted(s.seat for s in race) == [0, 1, 2, 3]
    assert [s.score for s in race] == sorted((s.score for s in race), reverse=True)
    assert all(s.short == max(0, 88 - s.score) and not s.won for s in race)
    holdings = quadrant_holdings(view)
    assert sum(q.total for q in holdings) == 175
    assert sum(q.held_value for q in holdings) == points(view)
    base = Game(make_rules("risiko-master-base"), 4, 1)
    assert points_to_win(view_for(base, 0)) == 30  # half of 60 territories


def _bots():
    found = []
    for name in NAMES:
        module = importlib.import_module(f"hegemon.sample_bots.{name}")
        cls = next(
            getattr(module, n)
            for n in dir(module)
            if n.endswith("Bot") and n != "Bot" and getattr(module, n).__module__ == module.__name__
        )
        bot = cls()
        if isinstance(bot, MctsBot):  # its legality, not its search depth, is tested here
            bot.budget = 0.02
        found.append(bot)
    return [*found, Minimal()]


@pytest.mark.parametrize("preset", PRESETS)
def test_every_sample_bot_plays_legally(preset):
    """strict: any refused or late answer fails the game; through the protocol codec."""
    bots = _bots()
    for first in range(len(bots)):
        seats = [bots[(first + i) % len(bots)] for i in range(4)]
        game = play_local(
            seats, preset, seed=first, options={"turn_limit": 15}, strict=True, protocol=True
        )
        assert game.places is not None and not game.faults


@pytest.mark.parametrize("preset", PRESETS)
def test_the_sdk_reinforcements_are_the_referees(preset):
    """A bot's arithmetic is the referee's: territories, quadrants and (Master) centres."""
    game = Game(make_rules(preset), 4, 7)
    while game.round == 0:
        game.apply(game.default_action())
    game.centres[:] = [t for t in range(game.board.size) if game.owner[t] == 2][:2]
    for seat in range(4):
        assert reinforcements(view_for(game, seat)) == sum(game.reinforcements(seat))


def test_a_composed_board_crosses_the_protocol_whole():
    """Territory values and the 44 cards of Risiko! Master's own deck, with their extra armies
    and no territory shown, reach the bot (Board, Card.extra_armies, Card.territory -1)."""
    board = Game(make_rules("risiko-master-master"), 4, 1).board
    message = codec.board_to_proto(board)
    assert any(card.extra_armies for card in message.cards)
    assert len(message.cards) == 44 and message.wild_cards == 2
    assert {card.territory for card in message.cards} == {-1}
    assert sum(t.value for t in message.territories) == 175
    assert codec.board_from_proto(message) == board
