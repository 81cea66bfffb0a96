"""Orders (referee/orders.py): blitz attacks and standing policies save round trips, and a game
played with them is byte for byte the game played by asking every decision."""

from __future__ import annotations

import pytest
import trio

from hegemon.referee import Attack, Decision, Defend, Game, Kind, Occupy, make_rules
from hegemon.referee.orders import (
    Blitz,
    DefendPolicy,
    OccupyPolicy,
    Policies,
    automatic,
    blitz_attack,
)
from hegemon.referee.runner.bots import resolve
from hegemon.referee.runner.link import TimeControl
from hegemon.referee.runner.session import link_pool, play_game
from hegemon.referee.view import view_for
from hegemon.sample_bots.aggressive import AggressiveBot
from hegemon.sample_bots.continental import ContinentalBot
from hegemon.sample_bots.planner import PlannerBot
from hegemon.sample_bots.random import RandomBot
from hegemon.sdk import Bot, play_local
from hegemon.sdk.context import GameContext, make_view
from hegemon.sdk.press import press
from hegemon.sdk.protocol import codec

RULES = make_rules("classic", {"turn_limit": 12})
MOST = Policies(defend=DefendPolicy.MOST)


# ------------------------------------------------------------------ the pure rule
def test_blitz_rolls_until_the_source_is_down_to_until():
    order = Blitz(0, 1, 3, until=3)
    owner = [0, 1]
    assert blitz_attack(order, 0, owner, [6, 4]) == Attack(0, 1, 3)
    assert blitz_attack(order, 0, owner, [4, 4]) == Attack(0, 1, 3)
    assert blitz_attack(order, 0, owner, [3, 4]) is None  # down to `until`
    low = Blitz(0, 1, 3, until=0)  # below 1 means 1
    assert blitz_attack(low, 0, owner, [3, 1]) == Attack(0, 1, 2)  # fewer dice as armies fall
    assert blitz_attack(low, 0, owner, [2, 1]) == Attack(0, 1, 1)
    assert blitz_attack(low, 0, [0, 0], [5, 3]) is None  # the target fell
    assert blitz_attack(low, 0, [1, 1], [5, 3]) is None  # the source was lost
    box = Blitz(0, 1, 3, until=2, until_target=4)
    assert blitz_attack(box, 0, owner, [6, 5]) == Attack(0, 1, 3)
    assert blitz_attack(box, 0, owner, [6, 4]) is None  # the target down to `until_target`


def test_policies_answer_only_what_they_cover():
    owner, armies = [0, 1], [7, 0]
    defend = Decision(Kind.DEFEND, 1, maximum=2, source=0, target=1, attack_dice=3)
    occupy = Decision(Kind.OCCUPY, 0, minimum=3, maximum=6, source=0, target=1)
    attack = Decision(Kind.ATTACK, 0)
    assert automatic(defend, None, MOST, owner, armies) == Defend(2)
    assert automatic(defend, None, Policies(), owner, armies) is None
    assert automatic(occupy, None, MOST, owner, armies) is None  # no occupy policy: ask
    assert automatic(occupy, None, Policies(occupy=OccupyPolicy.ALL), owner, armies) == Occupy(6)
    assert automatic(occupy, None, Policies(occupy=OccupyPolicy.MIN), owner, armies) == Occupy(3)
    keep = Policies(occupy=OccupyPolicy.KEEP, keep=2)
    assert automatic(occupy, None, keep, owner, armies) == Occupy(5)
    keep_most = Policies(DefendPolicy.ASK, OccupyPolicy.KEEP, 6)
    assert automatic(occupy, None, keep_most, owner, armies) == Occupy(3)  # at least the minimum
    assert automatic(attack, None, MOST, owner, [7, 2]) is None  # no blitz: ask
    for kind in (Kind.TRADE, Kind.PLACE, Kind.FORTIFY, Kind.CLAIM):  # never covered
        decision = Decision(kind, 0, armies=3, forced=True)
        assert automatic(decision, Blitz(0, 1, 3), MOST, owner, [7, 2]) is None


def test_policies_and_blitz_cross_the_protocol():
    policies = Policies(DefendPolicy.MOST, OccupyPolicy.KEEP, 3)
    assert codec.policies_from_proto(codec.policies_to_proto(policies)) == policies
    blitz = Blitz(4, 5, 3, until=2, until_target=7)
    assert codec.answer_from_proto(codec.decide_reply("g", blitz), "g") == blitz
    assert codec.action_from_proto(codec.decide_reply("g", blitz), "g") == blitz.first
    plain = codec.action_from_proto(codec.decide_reply("g", Attack(4, 5, 3)), "g")
    assert plain == Attack(4, 5, 3)


# ------------------------------------------------------------------ the same game
BOTS = [RandomBot, AggressiveBot, ContinentalBot, PlannerBot]


@pytest.mark.parametrize("protocol", [False, True])
def test_orders_play_the_very_same_game_with_fewer_decisions(protocol):
    seats = [cls() for cls in BOTS]
    with_orders = play_local(seats, RULES, seed=11, protocol=protocol)
    seats = [cls() for cls in BOTS]
    asked_all = play_local(seats, RULES, seed=11, protocol=protocol, orders=False)
    assert with_orders.record == asked_all.record  # byte-equal: the same dice and events
    assert with_orders.actions == asked_all.actions
    assert sum(with_orders.decisions) < 0.75 * sum(asked_all.decisions)
    assert with_orders.decisions[0] == asked_all.decisions[0]  # random gives no orders


class Blitzer(Bot):
    """Blitzes its strongest attack down to 3 armies; occupies with all and defends with the most
    dice by policy. Notes every decision it is asked that one of its orders covered."""

    name = "blitzer"
    policies = Policies(DefendPolicy.MOST, OccupyPolicy.ALL)

    def __init__(self) -> None:
        self.covered: list[str] = []
        self.blitzes = 0

    def attack(self, view, decision):
        order = view.context.memory.pop("blitz", None)
        if order is not None and blitz_attack(order, view.seat, view.owner, view.armies):
            self.covered.append(f"attack {order} asked with {view.armies[order.source]} left")
        options = [
            (view.armies[s] - view.armies[t], -s, -t, s, t)
            for s in range(view.board.size)
            if view.owner[s] == view.seat and view.armies[s] > 3
            for t in view.board.neighbours[s]
            if view.owner[t] != view.seat
        ]
        if not options:
            return super().attack(view, decision)
        *_, s, t = max(options)
        view.context.memory["blitz"] = order = Blitz(s, t, 3, until=3)
        self.blitzes += 1
        return order

    def defend(self, view, decision):
        self.covered.append("defend")
        return super().defend(view, decision)

    def occupy(self, view, decision):
        self.covered.append("occupy")
        return super().occupy(view, decision)


def test_orders_answer_what_they_cover_and_stop_where_the_bot_must_decide():
    bots = [Blitzer(), Blitzer(), Blitzer()]
    game = play_local(bots, RULES, seed=5, strict=True)
    kinds = [action.tag for _, action in game.actions]
    assert kinds.count("defend") > 10 and kinds.count("occupy") > 5
    assert all(bot.blitzes > 3 for bot in bots)
    assert [bot.covered for bot in bots] == [[], [], []]
    assert kinds.count("attack") > sum(bot.blitzes for bot in bots)  # rolls it did not answer


def test_press_asks_the_bot_about_the_boards_a_blitz_may_reach():
    game = Game(RULES, 3, seed=2)
    while game.pending is not None and game.pending.kind is not Kind.ATTACK:
        game.apply(game.default_action())
    bot = AggressiveBot()

    context = GameContext("g", game.current, ("a", "b", "c"), game.rules, game.board)
    view = make_view(view_for(game, game.current), context)
    decision = view.pending
    assert decision is not None
    first = AggressiveBot.decide(bot, view, decision)
    assert isinstance(first, Attack), "seed 2: the aggressive bot attacks at its first chance"
    seen = []

    def decide(board, d):
        seen.append((board.armies[first.source], board.armies[first.target]))
        return Attack(first.source, first.target, min(first.dice, board.armies[first.source] - 1))

    pressed = press(decide, view, decision, first)
    assert isinstance(pressed, Blitz) or view.armies[first.source] < 3
    assert (view.armies[first.source], view.armies[first.target]) not in seen


# ------------------------------------------------------------------ over real gRPC
def test_real_bots_with_orders_and_view_deltas_play_the_local_game():
    """Sample bots as real processes (orders, view deltas) play the very game play_local plays:
    the referee applies their orders and their SDK rebuilds every delta view exactly."""
    names = ["aggressive", "continental", "aggressive"]
    commands = [resolve(n) for n in names]

    async def real() -> str:
        async with link_pool(TimeControl(decision=10, bank=300)) as pool:
            result = await play_game(pool, commands, RULES, seed=3, game_id="same")
            assert result.automatic > 0
            assert all(link.view_deltas for link in pool._all)
            return result.record

    record = trio.run(real)
    local = play_local(
        [AggressiveBot(), ContinentalBot(), AggressiveBot()], RULES, seed=3, game_id="same"
    )
    assert record.splitlines()[1:] == local.record.splitlines()[1:]  # the header says where


def test_the_sdk_server_opts_in_to_deltas_and_sends_its_policies():
    from hegemon.sdk.protocol import bot_pb2 as pb
    from hegemon.sdk.server import BotServicer

    servicer = BotServicer(AggressiveBot())
    assert servicer.Hello(pb.HelloRequest(), None).view_deltas
    board = Game(RULES, 3, seed=1).board
    request = codec.start_game_request("g", 0, ("a", "b", "c"), RULES, board, 1000, 10_000)
    reply = servicer.StartGame(request, None)
    assert codec.policies_from_proto(reply.policies) == AggressiveBot.policies
    assert not BotServicer(RandomBot()).StartGame(request, None).HasField("policies")
