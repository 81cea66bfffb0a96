"""The Python SDK: the Bot base class and its defaults, the gRPC server (real processes), the
helpers (legal options, map queries, exact battle odds) and local play."""

from __future__ import annotations

import ast
import random
import signal
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import grpc
import pytest
import trio

from hegemon.referee import (
    Attack,
    Capital,
    Claim,
    Defend,
    Fortify,
    Game,
    Kind,
    Occupy,
    Pass,
    Place,
    make_rules,
)
from hegemon.referee.dice import compare, roll
from hegemon.referee.view import view_for
from hegemon.referee.wire import bot_pb2_grpc, codec
from hegemon.sdk import (
    Bot,
    BotView,
    GameContext,
    attack_options,
    battle_odds,
    border_territories,
    bounds,
    conquest_probability,
    continent_holdings,
    enemy_neighbours,
    interior_territories,
    legal_actions,
    make_view,
    neighbours,
    own_territories,
    owned_continents,
    play_local,
    reinforcements,
    threat,
)
from hegemon.sdk.odds import roll_outcomes
from hegemon.sdk.server import BotServicer, CallError
from tests.helpers.processes import ROOT, start_bot, stop_bot

PRESETS = ("classic", "classic-2004", "classic-2000")


# ---------------------------------------------------------------------- real bot processes


def play_over_grpc(address: str, seed: int, seats: int = 3, game_id: str = "g1") -> Game:
    """A whole game refereed by the match runner (the referee's core over gRPC), every seat
    answered by the bot serving at ``address``; any fault (an illegal or malformed answer,
    a reply for another game) fails the test."""
    from hegemon.referee.runner.link import BotLink
    from hegemon.referee.runner.match import Referee
    from hegemon.referee.runner.process import BotCommand
    from hegemon.referee.timecontrol import TimeControl

    time_control = TimeControl(decision=10, bank=600)

    async def referee():
        link = BotLink(BotCommand("minimal", (), remote=address), time_control)
        assert await link.open(), link.startup_error
        try:
            game = Game(make_rules("classic", {"turn_limit": 40}), seats, seed)
            return await Referee(game, [link] * seats, game_id, time_control).play()
        finally:
            await link.close()

    result = trio.run(referee)
    assert result.faults == []
    return result.game


def test_minimal_bot_as_a_process_answers_hello_and_plays_a_whole_game_legally(tmp_path):
    proc, channel, address = start_bot(tmp_path, ["-m", "hegemon.sample_bots.minimal"])
    try:
        stub = bot_pb2_grpc.BotStub(channel)
        hello = stub.Hello(codec.hello_request("test"), timeout=10)
        assert hello.name == "minimal" and hello.protocol_version == codec.PROTOCOL_VERSION
        game = play_over_grpc(address, seed=3)
        assert game.over and game.places is not None and sorted(game.places)[0] == 1
        # a process serves several games in turn
        assert play_over_grpc(address, seed=4, game_id="g2").over
    finally:
        assert stop_bot(proc, channel) == 0  # SIGTERM: a clean exit


def test_address_from_the_environment_and_clean_exit_on_sigint(tmp_path):
    proc, channel, address = start_bot(
        tmp_path, ["-m", "hegemon.sample_bots.minimal"], via_env=True
    )
    channel.close()
    proc.send_signal(signal.SIGINT)
    assert proc.wait(timeout=15) == 0
    assert not Path(address[len("unix:") :]).exists()  # the socket is cleaned up


BROKEN_BOT = """
from hegemon.sdk import Bot, run

class Broken(Bot):
    name = "broken"
    version = "9.9"
    author = "tests"
    rule_sets = ("classic",)

    def attack(self, view, decision):
        raise RuntimeError("boom in attack")

    def fortify(self, view, decision):
        return "not an action"

if __name__ == "__main__":
    run(Broken())
"""


def test_a_bot_exception_is_a_grpc_error_for_that_call_and_the_server_lives_on(tmp_path):
    (tmp_path / "broken.py").write_text(BROKEN_BOT)
    proc, channel, _ = start_bot(tmp_path, [str(tmp_path / "broken.py")])
    try:
        stub = bot_pb2_grpc.BotStub(channel)
        hello = stub.Hello(codec.hello_request(), timeout=10)
        assert (hello.name, hello.version, hello.author, list(hello.rule_sets)) == (
            "broken",
            "9.9",
            "tests",
            ["classic"],
        )
        game = Game(make_rules("classic"), 3, 5)
        # an unsupported rule set is refused at StartGame
        other = Game(make_rules("classic-2004"), 3, 5)
        with pytest.raises(grpc.RpcError) as refused:
            stub.StartGame(
                codec.start_game_request(
                    "x", 0, ["a", "b", "c"], other.rules, other.board, 2000, 0
                ),
                timeout=10,
            )
        assert refused.value.code() == grpc.StatusCode.FAILED_PRECONDITION
        # Decide for a game never started
        assert game.pending is not None
        request = codec.view_to_proto(view_for(game, game.pending.player), game_id="nope")
        with pytest.raises(grpc.RpcError) as unknown:
            stub.Decide(request, timeout=10)
        assert unknown.value.code() == grpc.StatusCode.FAILED_PRECONDITION
        for seat in range(3):
            stub.StartGame(
                codec.start_game_request(
                    "g", seat, ["a", "b", "c"], game.rules, game.board, 2000, 0
                ),
                timeout=10,
            )
        failures = 0
        while not game.over and game.round < 3:
            assert game.pending is not None
            seat = game.pending.player
            request = codec.view_to_proto(view_for(game, seat), game_id="g")
            try:
                action = codec.action_from_proto(stub.Decide(request, timeout=10).action)
            except grpc.RpcError as exc:
                assert game.pending.kind in (Kind.ATTACK, Kind.FORTIFY)
                assert exc.code() == grpc.StatusCode.INTERNAL
                assert "boom in attack" in exc.details() or "not an action" in exc.details()
                failures += 1
                action = game.default_action()
            game.apply(action)
        assert failures >= 3
        assert stub.Hello(codec.hello_request(), timeout=10).name == "broken"  # still serving
        stub.EndGame(codec.end_game_request("g", None, "abandoned: test"), timeout=10)
    finally:
        assert stop_bot(proc, channel) == 0
    assert "boom in attack" in (tmp_path / "bot.log").read_text()  # the traceback is logged


# ---------------------------------------------------------------------- the servicer in-process
def test_servicer_keeps_games_and_seats_apart():
    bot = Bot()
    servicer = BotServicer(bot)
    rules = make_rules("classic")
    games = {gid: Game(rules, 3, seed) for gid, seed in (("a", 1), ("b", 2))}
    for gid, game in games.items():
        for seat in range(3):
            servicer.StartGame(
                codec.start_game_request(gid, seat, ["x", "y", "z"], rules, game.board, 1500, 0),
                None,
            )
    assert len(bot.games()) == 6
    ctx = bot.game("a", 1)
    assert (ctx.game_id, ctx.seat, ctx.seat_names, ctx.decision_ms) == (
        "a",
        1,
        ("x", "y", "z"),
        1500,
    )
    assert bot.game("a", 1).board is bot.game("b", 2).board  # one decoded map, shared
    with pytest.raises(KeyError):
        bot.game("a")  # several seats of one game: name the seat
    for _ in range(20):  # interleave the two games
        for gid, game in games.items():
            assert game.pending is not None
            request = codec.view_to_proto(view_for(game, game.pending.player), game_id=gid)
            reply = servicer.Decide(request, None)
            assert reply.game_id == gid
            game.apply(codec.action_from_proto(reply, gid))
    servicer.EndGame(codec.end_game_request("a", (1, 2, 3), "test"), None)
    assert [c.game_id for c in bot.games()] == ["b", "b", "b"]
    assert games["a"].pending is not None
    with pytest.raises(CallError) as err:
        servicer.Decide(
            codec.view_to_proto(view_for(games["a"], games["a"].pending.player), game_id="a"), None
        )
    assert err.value.code == grpc.StatusCode.FAILED_PRECONDITION


def test_view_carries_events_since_the_last_decision_and_the_error():
    seen: list[BotView] = []

    class Spy(Bot):
        def decide(self, view, decision):
            seen.append(view)
            return super().decide(view, decision)

    result = play_local(
        [Spy(), Bot(), Bot()], "classic", seed=2, options={"turn_limit": 3}, strict=True
    )
    assert result.places
    first = seen[0]
    assert first.events and type(first.events[0]).__name__ == "FirstPlayer"
    assert all(isinstance(v, BotView) and v.context is not None for v in seen)
    assert {v.seat for v in seen} == {0}
    # every event of the game reached seat 0 exactly once (redacted), in order
    total = sum(len(v.events) for v in seen)
    assert total > 50
    assert all(v.error == "" for v in seen)

    class Wrong(Bot):
        def claim(self, view, decision):
            return Claim(-1) if not view.error else Claim(decision.territories[0])

    errors: list[str] = []

    class Watch(Wrong):
        def decide(self, view, decision):
            if view.error:
                errors.append(view.error)
            return super().decide(view, decision)

    result = play_local([Watch(), Bot(), Bot()], "classic", seed=2, options={"turn_limit": 2})
    assert result.faults and result.faults[0][0] == 0
    assert errors and "territory" in errors[0]


def test_context_rng_is_seeded_from_the_game_and_seat():
    rules = make_rules("classic")
    board = Game(rules, 3, 0).board
    a = GameContext("game-7", 2, ("a", "b", "c"), rules, board)
    b = GameContext("game-7", 2, ("a", "b", "c"), rules, board)
    c = GameContext("game-7", 1, ("a", "b", "c"), rules, board)
    draws = [x.rng.random() for x in (a, b, c)]
    assert draws[0] == draws[1] != draws[2]


# ---------------------------------------------------------------------- the Bot's defaults
@pytest.mark.parametrize("preset", PRESETS)
def test_default_bot_plays_legal_games(preset):
    for seed in range(3):
        result = play_local([Bot()] * 4, preset, seed=seed, options={"turn_limit": 25}, strict=True)
        assert result.places and not result.faults


def test_defaults_are_the_safe_ones():
    game = Game(make_rules("classic"), 3, 1)
    bot = Bot()
    assert game.pending is not None
    ctx = GameContext("g", game.pending.player, ("a", "b", "c"), game.rules, game.board)
    view = make_view(view_for(game, game.pending.player), ctx)
    assert bot.answer(view) == Claim(game.pending.territories[0])
    while game.round == 0:
        game.apply(game.default_action())
    assert game.pending is not None
    seat = game.pending.player
    ctx = GameContext("g", seat, ("a", "b", "c"), game.rules, game.board)
    view = make_view(view_for(game, seat), ctx)
    action = bot.answer(view)
    assert isinstance(action, Place) and len(action.placements) == 1
    ((t, n),) = action.placements
    assert n == game.pending.armies and t in border_territories(view)
    game.apply(action)
    if game.pending.kind is Kind.ATTACK:
        assert bot.answer(make_view(view_for(game, seat), ctx)) == Pass()
    from hegemon.referee.decisions import Decision

    assert bot.defend(view, Decision(Kind.DEFEND, seat, maximum=2)) == Defend(2)
    assert bot.occupy(view, Decision(Kind.OCCUPY, seat, minimum=3, maximum=9)) == Occupy(3)
    assert bot.fortify(view, Decision(Kind.FORTIFY, seat)) == Pass()
    assert bot.trade(view, Decision(Kind.TRADE, seat)) == Pass()
    own = tuple(own_territories(view))
    chosen = bot.decide(view, Decision(Kind.CAPITAL, seat, territories=own))
    assert type(chosen) is Capital and chosen.territory in own
    assert bot.decide(view, Decision(Kind.BRIBE, seat, maximum=1, seats=(2,))) == Pass()
    assert bot.decide(view, Decision(Kind.BUILD_CENTRE, seat)) == Pass()  # no centre


def test_decide_alone_can_be_overridden():
    class OnlyDecide(Bot):
        def decide(self, view, decision):
            if decision.kind is Kind.ATTACK:
                s, t, most = attack_options(view)[0]
                return Attack(s, t, most) if view.armies[s] > 4 else Pass()
            return super().decide(view, decision)

    result = play_local(
        [OnlyDecide(), Bot(), Bot()], "classic", seed=9, options={"turn_limit": 10}, strict=True
    )
    assert any(isinstance(a, Attack) for seat, a in result.actions if seat == 0)


# ---------------------------------------------------------------------- helpers
def test_battle_odds_hand_checked():
    # one die against one: the attacker wins the roll with 15 of 36
    assert {(a, d): p for a, d, p in roll_outcomes(1, 1, True)} == {
        (1, 0): Fraction(21, 36),
        (0, 1): Fraction(15, 36),
    }
    assert conquest_probability(2, 1, exact=True) == Fraction(15, 36)
    # 3 vs 1: two dice against one win the roll 125/216; if not, 2 vs 1 remains
    p21 = Fraction(15, 36)
    p31 = Fraction(125, 216) + Fraction(91, 216) * p21
    assert conquest_probability(3, 1, exact=True) == p31
    # 4 vs 1: three dice against one win 855/1296; else 3 vs 1
    assert conquest_probability(4, 1, exact=True) == Fraction(855, 1296) + Fraction(441, 1296) * p31
    # 2 vs 2: one die against two: lose 161/216, win 55/216 -> 2 vs 1
    assert conquest_probability(2, 2, exact=True) == Fraction(55, 216) * p21
    # classic-2000: a defender with 2 armies rolls one die (defender_two_dice_from=3)
    assert conquest_probability(2, 2, 3, exact=True) == p21 * p21
    assert conquest_probability(1, 1) == 0.0 and conquest_probability(5, 0) == 1.0
    assert abs(conquest_probability(3, 1) - float(p31)) < 1e-12
    odds = battle_odds(10, 3)
    assert 0 < odds.conquer < 1 and 1 <= odds.attackers <= 10 and 0 <= odds.defenders <= 3
    assert conquest_probability(30, 5) > conquest_probability(10, 5) > conquest_probability(6, 5)
    assert 0.99 < conquest_probability(1000, 50) <= 1.0  # very large stacks stay cheap


def _simulate(a: int, d: int, two: int, rng: random.Random) -> bool:
    while a >= 2 and d > 0:
        lost_a, lost_d = compare(roll(rng, min(3, a - 1)), roll(rng, 2 if d >= two else 1))
        a, d = a - lost_a, d - lost_d
    return d == 0


@pytest.mark.parametrize("a,d,two", [(3, 2, 2), (5, 3, 2), (8, 6, 2), (4, 4, 3), (12, 10, 2)])
def test_battle_odds_match_monte_carlo(a, d, two):
    rng = random.Random(f"{a}-{d}-{two}")
    trials = 6000
    wins = sum(_simulate(a, d, two, rng) for _ in range(trials))
    assert abs(wins / trials - conquest_probability(a, d, two)) < 0.025


def test_helpers_on_a_real_position():
    game = Game(make_rules("classic"), 4, 11)
    while game.round == 0:
        game.apply(game.default_action())
    assert game.pending is not None
    seat = game.pending.player
    ctx = GameContext("g", seat, ("a", "b", "c", "d"), game.rules, game.board)
    view = make_view(view_for(game, seat), ctx)
    board = game.board
    mine = own_territories(view)
    assert mine == [t for t in range(board.size) if game.owner[t] == seat]
    for t in mine:
        assert neighbours(view, t) == board.neighbours[t] == neighbours(board, t)
        assert enemy_neighbours(view, t) == [
            n for n in board.neighbours[t] if game.owner[n] != seat
        ]
    assert set(border_territories(view)) | set(interior_territories(view)) == set(mine)
    assert not set(border_territories(view)) & set(interior_territories(view))
    holdings = continent_holdings(view)
    assert [h.continent for h in holdings] == list(range(len(board.continents)))
    assert sum(h.held for h in holdings) == len(mine)
    assert owned_continents(view) == [h.continent for h in holdings if h.owned]
    assert reinforcements(view) == sum(game.reinforcements(seat))
    for t in border_territories(view):
        assert threat(view, t) == sum(game.armies[n] - 1 for n in enemy_neighbours(view, t))
    b = bounds(view)
    assert b.minimum == b.maximum == game.pending.armies and list(b.territories) == mine
    with pytest.raises(ValueError):
        legal_actions(view)  # PLACE is answered with numbers


@pytest.mark.parametrize("preset", PRESETS)
def test_legal_actions_are_exactly_legal(preset):
    """Every listed option applies cleanly (on a copy); passing is listed only where allowed."""
    rng = random.Random(preset)
    game = Game(make_rules(preset), 4, 21)
    checked = {Kind.CLAIM: 0, Kind.ATTACK: 0, Kind.FORTIFY: 0, Kind.TRADE: 0}
    while not game.over and game.round < 30:
        d = game.pending
        assert d is not None
        ctx = GameContext("g", d.player, ("a",) * 4, game.rules, game.board)
        view = make_view(view_for(game, d.player), ctx)
        if d.kind in checked:
            options = legal_actions(view)
            assert options
            assert (Pass() in options) == (
                d.kind in (Kind.ATTACK, Kind.FORTIFY, Kind.TRADE) and not d.forced
            )
            sample = options if len(options) < 40 else rng.sample(options, 40)
            for action in sample:
                game.clone().apply(action)
            checked[d.kind] += 1
            if d.kind is Kind.ATTACK:
                most = {(s, t): m for s, t, m in attack_options(view)}
                attacks = [a for a in options if isinstance(a, Attack)]
                assert len(attacks) == sum(most.values())
            action = rng.choice(options)
            if isinstance(action, Fortify):
                action = Fortify(action.source, action.target, rng.randint(1, action.armies))
            if d.kind is Kind.ATTACK and rng.random() < 0.3:
                action = Pass()
        else:
            b = bounds(view)
            if d.kind is Kind.PLACE:
                action = Place(((rng.choice(b.territories), b.minimum),))
            elif d.kind is Kind.OCCUPY:
                action = Occupy(rng.randint(b.minimum, b.maximum))
            else:
                action = Defend(rng.randint(b.minimum, b.maximum))
        game.apply(action)
    assert checked[Kind.ATTACK] and checked[Kind.FORTIFY]
    assert bool(checked[Kind.CLAIM]) == (game.rules.setup == "claim")


# ---------------------------------------------------------------------- local play, layering
def test_local_play_through_the_protocol_matches_direct_play():
    from hegemon.sample_bots.continental import ContinentalBot
    from hegemon.sample_bots.random import RandomBot

    direct = play_local(
        [ContinentalBot(), RandomBot(), ContinentalBot()],
        "classic",
        seed=5,
        options={"turn_limit": 12},
        strict=True,
    )
    wired = play_local(
        [ContinentalBot(), RandomBot(), ContinentalBot()],
        "classic",
        seed=5,
        options={"turn_limit": 12},
        strict=True,
        protocol=True,
    )
    assert direct.actions == wired.actions and direct.places == wired.places


def test_local_play_replaces_a_failing_answer_with_the_default():
    class Crashy(Bot):
        def place(self, view, decision):
            raise ValueError("oops")

    result = play_local([Crashy(), Bot(), Bot()], "classic", seed=1, options={"turn_limit": 2})
    assert result.faults and all(seat == 0 and "oops" in why for seat, why in result.faults)
    with pytest.raises(Exception, match="oops"):
        play_local(
            [Crashy(), Bot(), Bot()], "classic", seed=1, options={"turn_limit": 2}, strict=True
        )


def test_sdk_and_sample_bots_never_import_the_match_runner():
    code = (
        "import sys, hegemon.sdk, hegemon.sdk.server, hegemon.sdk.local, "
        "hegemon.sample_bots.planner, hegemon.sample_bots.random, hegemon.sample_bots.aggressive, "
        "hegemon.sample_bots.continental, hegemon.sample_bots.minimal; "
        "print([m for m in sys.modules if m.startswith('hegemon.referee.runner')])"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"
    for path in [*(ROOT / "sdk").glob("*.py"), *(ROOT / "sample_bots").glob("*.py")]:
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                names = [node.module or ""] + [f"{node.module}.{a.name}" for a in node.names]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            else:
                continue
            assert not any(
                n.startswith(("hegemon.referee.runner", "hegemon.leaderboard")) for n in names
            ), f"{path.name} imports {names}"


def test_minimal_bot_is_under_thirty_lines():
    lines = (ROOT / "sample_bots" / "minimal.py").read_text().splitlines()
    assert len(lines) < 30
