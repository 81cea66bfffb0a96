"""The Node.js sample bot plays both seats of every two-player preset legally, over real gRPC:
it places for the neutrals, defends them, and declines bribes and ally moves."""

from __future__ import annotations

import collections

import pytest

from hegemon.referee import Game, IllegalAction, make_rules
from hegemon.referee.view import view_for
from hegemon.referee.wire import bot_pb2_grpc, codec
from tests.helpers.node import node_bot  # noqa: F401  (the fixture: the running Node bot)
from tests.helpers.two_player import PRESETS, decision


@pytest.mark.parametrize("preset", PRESETS)
def test_the_node_bot_plays_every_two_player_preset_legally(node_bot, preset):
    channel, proc = node_bot
    stub = bot_pb2_grpc.BotStub(channel)
    rules = make_rules(preset, {"turn_limit": 20})
    game = Game(rules, 2, seed=31)
    ids = [f"node-{preset}-seat{s}" for s in range(2)]
    names = ["node-a", "node-b"] + ["neutral"] * (len(game.players) - 2)
    for seat in range(2):
        request = codec.start_game_request(
            ids[seat], seat, names, rules, game.board, decision_ms=5000, time_bank_ms=60_000
        )
        stub.StartGame(request, timeout=10)
    since = [list(game.opening_events) for _ in range(2)]
    kinds: collections.Counter[str] = collections.Counter()
    while not game.over:
        d = decision(game)
        seat = d.player
        decide = codec.view_to_proto(
            view_for(game, seat), since[seat], game_id=ids[seat], bank_ms=60_000, deadline_ms=5000
        )
        since[seat] = []
        action = codec.action_from_proto(stub.Decide(decide, timeout=10), game_id=ids[seat])
        try:
            caused = game.apply(action)
        except IllegalAction as exc:
            pytest.fail(f"the Node bot answered {d} with the illegal {action}: {exc.reason}")
        kinds[d.kind.value] += 1
        for events in since:
            events.extend(caused)
    assert proc.poll() is None, "the Node bot died during the game"
    for seat in range(2):
        stub.EndGame(codec.end_game_request(ids[seat], game.places, "test over"), timeout=10)
    assert sorted(game.places or ()) in ([1, 2], [1, 1])
    assert kinds["place_neutral"] > 0  # every preset's set-up places neutral armies
    if preset == "two-player-2000":
        assert kinds["place_neutral"] > 14  # the set-up's and the reinforcements' share
