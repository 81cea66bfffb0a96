"""hegemon.referee.wire.codec: engine objects <-> protocol messages, and robustness against bad
replies."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hegemon.referee import (
    Attack,
    Bribe,
    Capital,
    Claim,
    Decision,
    Defend,
    Forfeit,
    Fortify,
    FortifyAlly,
    Game,
    IllegalAction,
    Kind,
    Occupy,
    Pass,
    Place,
    PlaceNeutral,
    ReinforceAlly,
    Trade,
    builtin_map,
    make_rules,
)
from hegemon.referee.actions import BuildCentre
from hegemon.referee.events import (
    EVENT_TYPES,
    AllegianceChanged,
    AllyFortified,
    AllyReinforced,
    Battle,
    Bribed,
    CapitalChosen,
    CapitalConquered,
    CardDrawn,
    CentreBuilt,
    Claimed,
    Conquered,
    Dealt,
    DeckReshuffled,
    Eliminated,
    FirstPlayer,
    Forfeited,
    Fortified,
    GameOver,
    MissionShown,
    NeutralPlaced,
    Occupied,
    Placed,
    Reinforced,
    Traded,
    TurnStarted,
    redact,
)
from hegemon.referee.rules import PRESETS
from hegemon.referee.view import view_for
from hegemon.referee.wire import PROTOCOL_VERSION, ProtocolError, codec
from hegemon.referee.wire import bot_pb2 as pb
from tests.helpers.game import pending

ACTIONS = [
    Claim(7),
    Place(((3, 2),)),
    Place(((0, 1), (41, 5), (12, 3))),
    Trade((1, 2, 3)),
    Trade((40, 0, 41), 0),
    Attack(1, 2, 3),
    Defend(2),
    Occupy(4),
    Fortify(5, 6, 1),
    Pass(),
    Capital(9),
    # two-player neutrals and allies (issue 12)
    PlaceNeutral(((4, 1), (30, 1))),
    Bribe(3, (7, 41)),
    ReinforceAlly(((12, 6),)),
    FortifyAlly(12, 13, 2),
    BuildCentre(9),  # Risiko! Master
]

EVENTS = [
    FirstPlayer(2, "place"),
    Dealt(1, (0, 4, 9)),
    Claimed(0, 17),
    Placed(3, ((1, 2), (5, 1))),
    TurnStarted(1, 4),
    Reinforced(1, 3, 7),
    Traded(2, (4, 18, 42), 6, 4, 2),
    Traded(2, (1, 2, 3), 4, -1, 0),
    Battle(0, 1, 4, 5, (6, 3, 1), (5, 5), 1, 1),
    Conquered(0, 1, 4, 5),
    Occupied(0, 4, 5, 3),
    Eliminated(1, 0, 4),
    Fortified(2, 8, 9, 3),
    CardDrawn(2, 13),
    CardDrawn(2, -1),
    DeckReshuffled(30),
    Forfeited(3, "timeout: no answer in 1000 ms"),
    GameOver((2, 1, 3, 4), "turn limit"),
    MissionShown(1, 7, True),
    CapitalChosen(2, 11),
    CapitalConquered(0, 2, 11, 3, (8, 9), 7),
    NeutralPlaced(1, 2, ((4, 1), (6, 3))),
    Bribed(0, 3, 2),
    AllegianceChanged(3, -1, 4),
    AllyReinforced(1, 4, 5, ((20, 5),)),
    AllyReinforced(1, 4, 2, ()),
    AllyFortified(0, 5, ((20, 21, 3),)),
    CentreBuilt(1, 12, 3),
]


def _ints(value):
    """Recursively: every number a plain int and every sequence a tuple (the engine checks)."""
    if isinstance(value, tuple):
        return all(_ints(v) for v in value)
    return type(value) in (int, str, bool)


# ------------------------------------------------------------------ actions
@pytest.mark.parametrize("action", ACTIONS, ids=repr)
def test_action_round_trip(action):
    msg = codec.action_to_proto(action)
    back = codec.action_from_proto(msg)
    assert back == action and type(back) is type(action)
    for name in back.__slots__:
        assert _ints(getattr(back, name)), name
    # through the wire, inside a reply
    data = codec.decide_reply("g1", action).SerializeToString()
    assert codec.action_from_proto(data, game_id="g1") == action
    assert codec.action_from_proto(pb.DecideReply.FromString(data), game_id="g1") == action


def test_every_engine_action_has_a_message():
    oneof = {f.name for f in pb.Action.DESCRIPTOR.oneofs_by_name["kind"].fields}
    assert {"claim", "place", "trade", "attack", "defend", "occupy", "fortify", "pass_"} <= oneof
    assert {
        "capital",
        "bribe",
        "place_neutral",
        "reinforce_ally",
        "fortify_ally",
        "build_centre",
    } <= oneof
    assert "forfeit" not in oneof
    assert {type(a) for a in ACTIONS} == {
        Claim,
        Place,
        Trade,
        Attack,
        Defend,
        Occupy,
        Fortify,
        Pass,
        Capital,
        PlaceNeutral,
        Bribe,
        ReinforceAlly,
        FortifyAlly,
        BuildCentre,
    }


def test_trade_bonus_territory_unset_means_first():
    msg = pb.Action(trade=pb.Trade(cards=[4, 5, 6]))
    assert codec.action_from_proto(msg) == Trade((4, 5, 6), -1)
    assert not codec.action_to_proto(Trade((4, 5, 6))).trade.HasField("bonus_territory")
    msg.trade.bonus_territory = -1
    assert codec.action_from_proto(msg) == Trade((4, 5, 6), -1)
    msg.trade.bonus_territory = 0
    assert codec.action_from_proto(msg) == Trade((4, 5, 6), 0)


def test_forfeit_is_not_a_bot_action():
    with pytest.raises(ProtocolError, match="referee"):
        codec.action_to_proto(Forfeit(1, "crash"))


# ------------------------------------------------------------------ bad replies
BAD_REPLIES = [
    (pb.Action(), "no action"),
    (pb.DecideReply(game_id="g1"), "no action"),
    (pb.DecideReply(game_id="other", action=pb.Action(pass_=pb.Pass())), "game"),
    (b"\xff\xff\xff", "not a hegemon.v1.DecideReply"),
    (pb.Action(trade=pb.Trade(cards=[1, 2])), "three"),
    (pb.Action(trade=pb.Trade(cards=[1, 2, 3, 4])), "three"),
    (
        pb.Action(
            fortify=pb.Fortify(
                source=1, target=2, armies=1, more=[pb.Move(source=3, target=2, armies=1)]
            )
        ),
        "many-into-one",
    ),
    (pb.Action(fortify_ally=pb.FortifyAlly()), "fortify_ally"),
    (pb.HelloReply(name="x"), "hegemon.v1.HelloReply"),
    (None, "NoneType"),
    (42, "int"),
    ("pass", "str"),
    ([1, 2], "list"),
]


@pytest.mark.parametrize("msg,words", BAD_REPLIES, ids=lambda x: repr(x)[:40])
def test_bad_replies_are_protocol_errors(msg, words):
    with pytest.raises(ProtocolError, match=words):
        codec.action_from_proto(msg, game_id="g1")


def test_an_empty_reply_on_the_wire_is_a_protocol_error():
    with pytest.raises(ProtocolError, match="no action"):
        codec.action_from_proto(b"")


def test_a_reply_from_a_newer_bot_with_an_unknown_action_is_a_protocol_error():
    # field 99 of Action, as a newer protocol might add: length-delimited, empty
    data = pb.DecideReply(game_id="g").SerializeToString() + b"\x12\x03\xfa\x06\x00"
    with pytest.raises(ProtocolError, match=r"no action|newer"):
        codec.action_from_proto(data)


@settings(max_examples=400, deadline=None)
@given(st.binary(max_size=64))
def test_any_bytes_give_an_action_or_a_protocol_error(data):
    try:
        action = codec.action_from_proto(data)
    except ProtocolError:
        return
    assert type(action) in (Claim, Place, Trade, Attack, Defend, Occupy, Fortify, Pass)


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=64))
def test_an_engine_never_sees_a_non_protocol_error(data):
    """Whatever a bot sends, the referee sees ProtocolError or an action the engine judges."""
    game = Game(make_rules("classic"), 3, seed=3)
    try:
        action = codec.action_from_proto(data)
    except ProtocolError:
        return
    try:
        game.apply(action)
    except IllegalAction:
        pass


# ------------------------------------------------------------------ decisions
def test_every_decision_kind_has_an_enum_value_and_back():
    values = {v.number for v in pb.DecisionKind.DESCRIPTOR.values} - {0}
    assert len(values) == len(Kind)
    for kind in Kind:
        d = Decision(
            kind,
            2,
            armies=3,
            minimum=1,
            maximum=4,
            source=5,
            target=6,
            attack_dice=2,
            forced=True,
            territories=(1, 2, 9),
        )
        msg = codec.decision_to_proto(d)
        assert pb.DecisionKind.Name(msg.kind) == f"DECISION_KIND_{kind.name}"
        back = codec.decision_from_proto(pb.Decision.FromString(msg.SerializeToString()))
        assert back == d and type(back.territories) is tuple


def test_decision_defaults_round_trip():
    d = Decision(Kind.ATTACK, 1)
    msg = codec.decision_to_proto(d)
    assert (msg.source, msg.target) == (-1, -1)
    assert codec.decision_from_proto(msg) == d


def test_unknown_decision_kind_is_a_protocol_error():
    with pytest.raises(ProtocolError, match="kind"):
        codec.decision_from_proto(pb.Decision())
    with pytest.raises(ProtocolError, match="kind 99"):
        codec.decision_from_proto(pb.Decision(kind=99))  # type: ignore[arg-type]  # no such kind


# ------------------------------------------------------------------ events
@pytest.mark.parametrize("event", EVENTS, ids=repr)
def test_event_round_trip(event):
    msg = pb.Event.FromString(codec.event_to_proto(event).SerializeToString())
    assert msg.WhichOneof("kind") == type(event).tag
    back = codec.event_from_proto(msg)
    assert back == event and type(back) is type(event)
    name: str
    for name in back.__slots__:
        assert _ints(getattr(back, name)), name


def test_every_engine_event_kind_is_covered():
    assert {type(e) for e in EVENTS} == set(EVENT_TYPES.values())


def test_an_empty_event_is_a_protocol_error():
    with pytest.raises(ProtocolError, match="no event"):
        codec.event_from_proto(pb.Event())


# ------------------------------------------------------------------ board and rules
def test_board_round_trip():
    board = builtin_map("classic")
    msg = codec.board_to_proto(board)
    assert len(msg.territories) == 42 and len(msg.cards) == 44 and msg.wild_cards == 2
    assert msg.cards[43].territory == -1 and msg.cards[43].insignia == pb.INSIGNIA_WILD
    assert list(msg.territories[0].neighbours) == list(board.neighbours[0])
    back = codec.board_from_proto(pb.Board.FromString(msg.SerializeToString()))
    assert back == board


def test_bad_boards_are_protocol_errors():
    msg = codec.board_to_proto(builtin_map("classic"))
    bad = pb.Board()
    bad.CopyFrom(msg)
    bad.territories[3].neighbours.append(99)
    with pytest.raises(ProtocolError, match="neighbour 99"):
        codec.board_from_proto(bad)
    bad.CopyFrom(msg)
    bad.territories[0].name = bad.territories[1].name
    with pytest.raises(ProtocolError, match="twice"):
        codec.board_from_proto(bad)
    with pytest.raises(ProtocolError):
        codec.board_from_proto(pb.Board())
    with pytest.raises(ProtocolError):
        codec.board_from_proto(None)  # type: ignore[arg-type]  # no board at all: refused


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_rules_round_trip(preset):
    rules = make_rules(preset, {"turn_limit": 30, "fortify": "connected"})
    msg = codec.rules_to_proto(rules)
    assert msg.preset == preset and msg.options["turn_limit"] == "30"
    assert set(msg.options) == set(rules.options())
    assert codec.rules_from_proto(pb.RuleSet.FromString(msg.SerializeToString())) == rules


def test_bad_rules_are_protocol_errors():
    with pytest.raises(ProtocolError, match="unknown rule set"):
        codec.rules_from_proto(pb.RuleSet(preset="nope"))
    with pytest.raises(ProtocolError, match="unknown option"):
        codec.rules_from_proto(pb.RuleSet(preset="classic", options={"colour": "red"}))
    with pytest.raises(ProtocolError, match="out of range"):
        codec.rules_from_proto(pb.RuleSet(preset="classic", options={"must_trade_at": "99"}))


def test_start_game_request():
    rules = make_rules("classic", {"turn_limit": 30})
    board = builtin_map("classic")
    msg = codec.start_game_request(
        "g7", 1, ["a", "b", "c"], rules, board, decision_ms=1000, time_bank_ms=30_000
    )
    msg = pb.StartGameRequest.FromString(msg.SerializeToString())
    assert (msg.game_id, msg.seat, list(msg.seat_names)) == ("g7", 1, ["a", "b", "c"])
    assert msg.protocol_version == PROTOCOL_VERSION == 1
    assert (msg.time_control.decision_ms, msg.time_control.time_bank_ms) == (1000, 30_000)
    assert codec.rules_from_proto(msg.rules) == rules
    assert codec.board_from_proto(msg.board) == board
    assert codec.hello_request("hegemon 0.1").protocol_version == 1
    end = codec.end_game_request("g7", (2, 1, 3), "turn limit")
    assert (list(end.places), end.reason) == ([2, 1, 3], "turn limit")
    assert list(codec.end_game_request("g7", None, "abandoned").places) == []


# ------------------------------------------------------------------ a real game's view
def _aggressive(game: Game):
    """Attack whenever possible, occupy the most: games with conquests and drawn cards."""
    d = pending(game)
    if d.kind is Kind.ATTACK:
        for t in range(game.board.size):
            if game.owner[t] == d.player and game.armies[t] > 1:
                for n in game.board.neighbours[t]:
                    if game.owner[n] != d.player:
                        return Attack(t, n, min(3, game.armies[t] - 1))
    if d.kind is Kind.OCCUPY:
        return Occupy(d.maximum)
    return game.default_action()


def test_full_view_from_a_real_game():
    rules = make_rules("classic")
    game = Game(rules, 4, seed=1)
    board = codec.board_from_proto(codec.board_to_proto(game.board))
    rules_back = codec.rules_from_proto(codec.rules_to_proto(rules))
    since: list[list] = [list(game.opening_events) for _ in range(4)]
    rng = random.Random(5)
    drawn_seen = False
    steps = 0
    while steps < 3000 and not game.over:
        steps += 1
        seat = pending(game).player
        view = view_for(game, seat)
        request = codec.view_to_proto(
            view, since[seat], error="late", strikes=1, bank_ms=4500, game_id="g1", deadline_ms=800
        )
        request = pb.DecideRequest.FromString(request.SerializeToString())
        assert (
            request.game_id,
            request.error,
            request.strikes,
            request.time_bank_ms,
            request.deadline_ms,
        ) == ("g1", "late", 1, 4500, 800)
        back = codec.view_from_proto(request, rules_back, board)
        assert back == view
        events = [codec.event_from_proto(e) for e in request.events]
        assert events == [redact(e, seat) for e in since[seat]]
        for e in events:
            if type(e) is CardDrawn:
                assert (e.card >= 0) == (e.player == seat)
                drawn_seen = drawn_seen or e.player != seat
        since[seat] = []
        action = _aggressive(game) if rng.random() < 0.9 else game.default_action()
        # the action goes through the wire as a bot would send it
        action = codec.action_from_proto(codec.decide_reply("g1", action).SerializeToString(), "g1")
        caused = game.apply(action)
        for evs in since:
            evs.extend(caused)
    assert drawn_seen, "no card drawn by another seat was seen: the game was too short"
    assert steps > 500


def test_view_size_mismatch_is_a_protocol_error():
    game = Game(make_rules("classic"), 3, seed=2)
    request = codec.view_to_proto(view_for(game, pending(game).player))
    del request.view.owner[-1]
    with pytest.raises(ProtocolError, match="owners"):
        codec.view_from_proto(request, game.rules, game.board)


def test_view_deltas_rebuild_every_view_in_place():
    """A referee that sends each seat only the territories changed since its previous request
    and a bot that applies them to the board it holds see the same views as with full ones."""
    game = Game(make_rules("classic"), 3, seed=4)
    sent: dict[int, tuple] = {}  # the referee's side: what each seat's bot holds
    held: dict[int, tuple[list[int], list[int]]] = {s: ([], []) for s in range(3)}
    sizes = []
    for _ in range(600):
        if game.over:
            break
        seat = pending(game).player
        view = view_for(game, seat)
        request = codec.view_to_proto(view, game_id="g", known=sent.get(seat))
        assert request.delta == (seat in sent)
        sizes.append(len(request.view.changed))
        request = pb.DecideRequest.FromString(request.SerializeToString())
        assert codec.view_from_proto(request, game.rules, game.board, held[seat]) == view
        assert held[seat] == (list(view.owner), list(view.armies))
        sent[seat] = (view.owner, view.armies)
        game.apply(_aggressive(game))
    assert max(sizes) < game.board.size and sum(sizes) < 600 * 6


def test_a_delta_without_an_earlier_view_is_a_protocol_error():
    game = Game(make_rules("classic"), 3, seed=2)
    view = view_for(game, pending(game).player)
    request = codec.view_to_proto(view, known=(view.owner, view.armies))
    with pytest.raises(ProtocolError, match="delta"):
        codec.view_from_proto(request, game.rules, game.board)
    request.view.changed.append(0)  # a territory named without its owner and armies
    with pytest.raises(ProtocolError, match="delta"):
        codec.view_from_proto(request, game.rules, game.board, ([0] * 42, [1] * 42))
