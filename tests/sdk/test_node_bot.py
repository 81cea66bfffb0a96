"""The Node.js sample bot (sample_bots/node/): a bot in another language, over real gRPC.

Starts `node bot.js --address unix:...` as a real process, talks to it with the generated Python
stubs, and has it play every seat of a real engine game to the end: every answer must be legal.
"""

from __future__ import annotations

import collections

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from hegemon.referee import Game, IllegalAction, make_rules
from hegemon.referee.view import view_for
from hegemon.referee.wire import PROTOCOL_VERSION, bot_pb2_grpc, codec
from hegemon.referee.wire import bot_pb2 as pb
from tests.helpers.game import pending
from tests.helpers.node import BOT_DIR, NODE, node_bot  # noqa: F401  (node_bot: a fixture)

pytestmark = pytest.mark.skipif(NODE is None, reason="node (Node.js) is not installed")


def test_health_and_hello(node_bot):
    channel, _ = node_bot
    health = health_pb2_grpc.HealthStub(channel)
    assert (
        health.Check(health_pb2.HealthCheckRequest(), timeout=5).status
        == health_pb2.HealthCheckResponse.SERVING
    )
    hello = bot_pb2_grpc.BotStub(channel).Hello(codec.hello_request("test"), timeout=5)
    assert hello.name == "node-sample" and hello.version
    assert hello.protocol_version == PROTOCOL_VERSION


def test_decide_for_an_unknown_game_is_refused(node_bot):
    channel, _ = node_bot
    game = Game(make_rules("classic"), 3, seed=1)
    request = codec.view_to_proto(view_for(game, pending(game).player), game_id="never-started")
    with pytest.raises(grpc.RpcError) as info:
        bot_pb2_grpc.BotStub(channel).Decide(request, timeout=5)
    assert info.value.code() == grpc.StatusCode.FAILED_PRECONDITION


@pytest.mark.parametrize(
    "preset, seed",
    [
        ("classic", 11),
        ("classic", 12),
        # issue 11: the editions with a secret objective
        ("mission-2000", 15),
        ("mission-2004", 14),
        ("capital-2000", 16),
        # issue 13: Risiko! Master on its composed world
        ("risiko-master-base", 17),
        ("risiko-master-expert", 18),
        ("risiko-master-master", 19),
    ],
)
def test_plays_every_seat_of_a_real_game_legally(node_bot, preset, seed):
    channel, proc = node_bot
    stub = bot_pb2_grpc.BotStub(channel)
    rules = make_rules(preset, {"turn_limit": 30})
    game = Game(rules, 3, seed=seed)
    names = ["node-a", "node-b", "node-c"]
    ids = [f"node-{seed}-seat{s}" for s in range(3)]
    for seat in range(3):
        request = codec.start_game_request(
            ids[seat], seat, names, rules, game.board, decision_ms=5000, time_bank_ms=60_000
        )
        assert isinstance(stub.StartGame(request, timeout=10), pb.StartGameReply)

    since = [list(game.opening_events) for _ in range(3)]
    kinds: collections.Counter[str] = collections.Counter()
    for _ in range(50_000):
        if game.over:
            break
        decision = pending(game)
        seat = decision.player
        decide = codec.view_to_proto(
            view_for(game, seat), since[seat], game_id=ids[seat], bank_ms=60_000, deadline_ms=5000
        )
        since[seat] = []
        reply = stub.Decide(decide, timeout=10)
        action = codec.action_from_proto(reply, game_id=ids[seat])
        try:
            caused = game.apply(action)
        except IllegalAction as exc:
            pytest.fail(f"the Node bot answered {decision} with the illegal {action}: {exc.reason}")
        kinds[decision.kind.value] += 1
        for events in since:
            events.extend(caused)
    assert game.over, "the game did not end"
    assert game.places is not None
    print(f"seed {seed}: {sum(kinds.values())} decisions {dict(kinds)}, places {game.places}")
    assert proc.poll() is None, "the Node bot died during the game"
    for seat in range(3):
        end = codec.end_game_request(ids[seat], game.places, "test over")
        assert isinstance(stub.EndGame(end, timeout=10), pb.EndGameReply)
    assert min(game.places) == 1 and all(1 <= p <= 3 for p in game.places)
    expected = ["place", "attack", "occupy"]
    expected += ["defend"] if rules.defender_dice == "choice" else []
    expected += ["claim"] if rules.setup in ("claim", "quadrants") else []
    expected += ["capital"] if rules.capitals == "on" else []
    for kind in expected:
        assert kinds[kind] > 0, f"no {kind} decision was played: {dict(kinds)}"
