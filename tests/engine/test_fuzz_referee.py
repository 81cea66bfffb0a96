"""Fuzzing the referee's path for a bot's answer: ``codec.action_from_proto`` then
``Game.apply`` (what ``Referee._ask``/``_apply`` do), in-process, at every kind of pending
decision of every preset.

Whatever arrives — an arbitrary ``hegemon.v1.Action``, a ``DecideReply`` for the wrong game,
raw bytes — the referee raises nothing but ``ProtocolError`` or ``IllegalAction``, always says
why (a non-empty reason), and a refused answer changes nothing (owner, armies, hands, deck,
discard, pending decision, dice stream, …).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hegemon.referee import Game, make_rules
from hegemon.referee.decisions import Kind
from hegemon.referee.game import IllegalAction
from hegemon.referee.policies import random_action
from hegemon.referee.wire import bot_pb2 as pb
from hegemon.referee.wire import codec
from tests.helpers.game import PRESET_NAMES, pending, snapshot

GAME_ID = "game-under-fuzz"
ENGINE_KINDS = {
    Kind.CLAIM,
    Kind.PLACE,
    Kind.TRADE,
    Kind.ATTACK,
    Kind.DEFEND,
    Kind.OCCUPY,
    Kind.FORTIFY,
}


def _positions() -> list[Game]:
    """Games paused at every kind of decision, early and late, in every preset."""
    found: dict[tuple[str, Kind], list[Game]] = {}
    rng = random.Random(20240601)
    for preset in PRESET_NAMES:
        for players in (3, 4, 6):
            for seed in range(3):
                game = Game(make_rules(preset, {"turn_limit": 40}), players, seed + 17 * players)
                steps = 0
                while not game.over and steps < 3000:
                    key = (preset, pending(game).kind)
                    keep = found.setdefault(key, [])
                    if len(keep) < 6 and rng.random() < 0.05:
                        keep.append(game.clone())
                    game.apply(random_action(game, rng))
                    steps += 1
    positions = [g for games in found.values() for g in games]
    kinds = {pending(g).kind for g in positions}
    assert kinds >= ENGINE_KINDS, f"no position for {ENGINE_KINDS - kinds}"
    return positions


POSITIONS = _positions()

# ------------------------------------------------------------------------------ strategies
INT32 = st.one_of(
    st.integers(-3, 60),
    st.integers(-(1 << 31), (1 << 31) - 1),
    st.sampled_from([-(1 << 31), (1 << 31) - 1, -1, 0, 1, 2, 3, 41, 42, 43, 44]),
)
SMALL_LISTS = st.integers(0, 8)


@st.composite
def actions(draw) -> pb.Action:
    kind = draw(
        st.sampled_from(
            [
                "claim",
                "place",
                "trade",
                "attack",
                "defend",
                "occupy",
                "fortify",
                "pass_",
                "none",
                "capital",
                "bribe",
                "place_neutral",
                "reinforce_ally",
                "fortify_ally",
                "build_centre",
                "huge_place",
                "huge_trade",
            ]
        )
    )
    action = pb.Action()
    if kind == "claim":
        action.claim.territory = draw(INT32)
    elif kind == "place":
        for _ in range(draw(st.integers(0, 45))):
            action.place.placements.add(territory=draw(INT32), armies=draw(INT32))
        if not action.place.placements:
            action.place.SetInParent()
    elif kind == "huge_place":
        action.place.placements.extend(
            [pb.Placement(territory=draw(INT32), armies=draw(INT32))]
            * draw(st.integers(1000, 5000))
        )
    elif kind == "trade":
        action.trade.cards.extend(draw(st.lists(INT32, max_size=6)))
        if draw(st.booleans()):
            action.trade.bonus_territory = draw(INT32)
        action.trade.SetInParent()
    elif kind == "huge_trade":
        action.trade.cards.extend([draw(INT32)] * draw(st.integers(100, 100_000)))
    elif kind == "attack":
        action.attack.source, action.attack.target, action.attack.dice = (
            draw(INT32),
            draw(INT32),
            draw(INT32),
        )
        action.attack.SetInParent()
    elif kind == "defend":
        action.defend.dice = draw(INT32)
        action.defend.SetInParent()
    elif kind == "occupy":
        action.occupy.armies = draw(INT32)
        action.occupy.SetInParent()
    elif kind == "fortify":
        action.fortify.source, action.fortify.target, action.fortify.armies = (
            draw(INT32),
            draw(INT32),
            draw(INT32),
        )
        for _ in range(draw(st.integers(0, 2)) if draw(st.integers(0, 4)) == 0 else 0):
            action.fortify.more.add(source=draw(INT32), target=draw(INT32), armies=draw(INT32))
        action.fortify.SetInParent()
    elif kind == "pass_":
        action.pass_.SetInParent()
    elif kind != "none":
        getattr(action, kind).SetInParent()
    return action


def replies():
    game_ids = st.one_of(st.just(GAME_ID), st.text(max_size=30), st.just("x" * 10_000))
    return st.builds(
        lambda gid, a, has: (
            pb.DecideReply(game_id=gid, action=a) if has else pb.DecideReply(game_id=gid)
        ),
        game_ids,
        actions(),
        st.booleans(),
    )


@st.composite
def raw_bytes(draw) -> bytes:
    """Random bytes, or a valid reply's bytes with a few of them changed or cut."""
    if draw(st.booleans()):
        return draw(st.binary(max_size=300))
    data = bytearray(draw(replies()).SerializeToString())
    for _ in range(draw(st.integers(0, 4))):
        if data:
            data[draw(st.integers(0, len(data) - 1))] = draw(st.integers(0, 255))
    cut = draw(st.integers(0, len(data)))
    return bytes(data[:cut] if draw(st.booleans()) else data)


# ------------------------------------------------------------------------------ the property
def referee_path(position: int, message) -> None:
    """What the referee does with one answer; fails the test on any other outcome."""
    game = POSITIONS[position % len(POSITIONS)].clone()
    try:
        action = codec.action_from_proto(message, GAME_ID)
    except codec.ProtocolError as exc:
        assert str(exc).strip(), "a protocol error without a reason"
        return
    before = snapshot(game)
    try:
        game.apply(action)
    except IllegalAction as exc:
        assert exc.reason.strip(), "an illegal action refused without a reason"
        assert snapshot(game) == before, f"a refused {action!r} changed the game"
        return
    # accepted: it was legal for the pending seat, and the game moved on consistently
    assert len(game.history) == before[12] + 1  # snapshot()[12] is len(history)


SETTINGS = settings(
    max_examples=600,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@SETTINGS
@given(position=st.integers(0, 10_000), action=actions())
def test_any_action_message(position, action):
    referee_path(position, action)


@SETTINGS
@given(position=st.integers(0, 10_000), reply=replies())
def test_any_decide_reply(position, reply):
    referee_path(position, reply)


@SETTINGS
@given(position=st.integers(0, 10_000), data=raw_bytes())
def test_any_bytes_as_a_decide_reply(position, data):
    referee_path(position, data)


def test_positions_cover_every_engine_decision():
    assert {pending(g).kind for g in POSITIONS} >= ENGINE_KINDS


@pytest.mark.parametrize("count", [2_000, 100_000])
def test_a_place_of_very_many_placements_is_refused_before_they_are_read(count):
    """The codec refuses more placements than any map has territories by their count alone:
    the reason names the count, not anything inside the (here absurd) placements."""
    absurd = pb.Placement(territory=2**31 - 1, armies=-(2**31))
    action = pb.Action(place=pb.Place(placements=[absurd] * count))
    reply = pb.DecideReply(game_id=GAME_ID, action=action)
    with pytest.raises(codec.ProtocolError, match=f"place: {count} placements; at most one"):
        codec.action_from_proto(reply, GAME_ID)


def test_a_reply_for_another_game_is_refused_with_a_short_reason():
    reply = pb.DecideReply(game_id="y" * 1_000_000, action=pb.Action(pass_=pb.Pass()))
    with pytest.raises(codec.ProtocolError) as info:
        codec.action_from_proto(reply, GAME_ID)
    assert len(str(info.value)) < 200
