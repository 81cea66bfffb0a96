"""Hidden information in the mission and capital presets (issue 11): what a seat receives never
holds another seat's mission or uncaptured capital, hand, the deck or the seed.

The check is indistinguishability: at every step of a game, another game is made that differs
only in what ``seat`` must not know (the other seats' secret missions and capitals, the other
hands, the deck order, the seed). The Decide request ``seat`` would get — every field, every
string and number, serialised — must be byte-identical in both.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from hegemon.referee import Game, make_rules
from hegemon.referee.events import CapitalChosen, MissionShown, redact
from hegemon.referee.view import view_for
from hegemon.referee.wire import codec
from hegemon.sdk import Bot, play_local
from tests.helpers.game import aggressive_action, mission_deck, pending, request, scrambled

PRESETS = ["mission-2000", "mission-2004", "capital-2000"]


def numbers(message) -> set[int]:
    """Every integer anywhere in a protobuf message."""
    found: set[int] = set()
    for _field, value in message.ListFields():
        values = value if isinstance(value, Sequence) and not isinstance(value, str) else [value]
        for v in values:
            if hasattr(v, "ListFields"):
                found |= numbers(v)
            elif isinstance(v, int):
                found.add(int(v))
    return found


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("seed", [3, 2**62 + 12345])
def test_a_seat_learns_nothing_secret(preset, seed):
    game = Game(make_rules(preset, {"turn_limit": 25}), 4, seed)
    policy, rng = random.Random(seed), random.Random(seed + 1)
    events_for: dict[int, list] = {s: list(game.opening_events) for s in range(4)}
    steps = 0
    while not game.over:
        if steps % 7 == 0:
            for seat in range(4):
                assert request(game, seat) == request(scrambled(game, seat, rng), seat)
        d = pending(game)
        message = codec.view_to_proto(view_for(game, d.player), events_for[d.player])
        if seed > 2**32:
            assert seed not in numbers(message)
        assert list(message.view.missions) == game.players[d.player].missions
        assert message.view.capital == game.players[d.player].capital
        for info in message.view.seats:
            if info.seat != d.player:
                assert info.capital == game.public_capital(info.seat)
        events_for[d.player] = []
        events = game.apply(aggressive_action(game, policy))
        for s in range(4):
            events_for[s] += [redact(e, s) for e in events]
        for e in events:
            if type(e) is MissionShown and e.completed:
                assert e.mission in game.declared[e.player] or game.over
        steps += 1
    assert steps > 50


@pytest.mark.parametrize("preset", PRESETS)
def test_the_mission_texts_sent_at_the_start_are_the_public_deck(preset):
    game = Game(make_rules(preset), 4, 1)
    first = codec.start_game_request("g", 0, ["a"] * 4, game.rules, game.board, 100, 0)
    second = codec.start_game_request("g", 1, ["a"] * 4, game.rules, game.board, 100, 0)
    deck = mission_deck(game)
    assert len(first.missions) == (len(deck.missions) if deck else 0)
    assert first.missions == second.missions  # the same for every seat: nothing held in it


class Recorder(Bot):
    """The SDK's default bot, keeping every event it is sent."""

    def __init__(self) -> None:
        self.seen: list = []

    def decide(self, view, decision):
        self.seen.append((view.seat, view.events))
        return super().decide(view, decision)


@pytest.mark.parametrize("protocol", [False, True])
def test_the_arbiter_hides_other_seats_capitals(protocol):
    # the path a real bot is told through (the arbiter, the codec): another seat's capital
    # choice arrives as -1
    bots = [Recorder() for _ in range(4)]
    result = play_local(
        bots, "capital-2000", seed=5, options={"turn_limit": 3}, protocol=protocol, strict=True
    )
    assert result.places and result.game is not None
    chosen = []
    for bot in bots:
        for seat, events in bot.seen:
            for e in events:
                if type(e) is CapitalChosen:
                    chosen.append(e)
                    expected = result.game.players[e.player].capital if e.player == seat else -1
                    assert e.territory == expected
    assert len(chosen) >= 4
