"""A view and its seats behave as the frozen dataclasses they are on both engines: compiled
(``view`` is in ``COMPILED``: its classes are mypyc's, with constructors of their own) and pure
Python (``quick_init``'s). The SDK's ``BotView`` subclasses ``View`` in plain Python and reads
its fields through the compiled methods. (tests/engine/test_native.py runs this file again on
the Python sources.)"""

from __future__ import annotations

import copy
import dataclasses
import pickle

import pytest

from hegemon.referee import native
from hegemon.referee.quickinit import compiled
from hegemon.referee.view import SeatInfo, View, public_seats, view_for
from hegemon.sdk.context import BotView, GameContext, make_view
from tests.helpers.game import setup_done


@pytest.fixture(scope="module")
def view() -> View:
    game = setup_done("classic", seed=7)
    assert game.pending is not None
    return view_for(game, game.pending.player)


def bot_view(view: View) -> BotView:
    names = tuple(f"bot {s}" for s in range(len(view.seats)))
    context = GameContext("g-1", view.seat, names, view.rules, view.board, decision_ms=500)
    return make_view(view, context, error="late")


def test_the_view_is_compiled_with_the_engine() -> None:
    assert compiled(View) is compiled(SeatInfo) is native._runs_compiled()


def test_a_view_and_its_seats_are_frozen(view: View) -> None:
    bot = bot_view(view)
    for value, name in ((view, "round"), (view.seats[0], "armies"), (bot, "round")):
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(value, name, 99)
    with pytest.raises(dataclasses.FrozenInstanceError):
        bot.error = "changed"  # type: ignore[misc]


def test_made_again_equal_and_hashed_alike(view: View) -> None:
    game = setup_done("classic", seed=7)
    again = view_for(game, view.seat)
    assert again == view and hash(again) == hash(view)
    assert public_seats(game) == view.seats
    assert dataclasses.replace(view, round=view.round + 1) != view
    moved = dataclasses.replace(view.seats[1], armies=1)
    assert moved.armies == 1 and moved.seat == view.seats[1].seat


def test_copied_and_pickled_whole(view: View) -> None:
    bot = bot_view(view)
    for value in (view, view.seats[2], bot):
        assert copy.copy(value) == value
    for value in (view, view.seats[2], dataclasses.replace(bot, context=None)):
        assert pickle.loads(pickle.dumps(value)) == value
    clone = copy.copy(bot)  # (the SDK's press: one view, its board changed in place)
    object.__setattr__(clone, "armies", (1,) * len(view.armies))
    assert clone.armies != bot.armies and clone.error == "late" and clone.context is bot.context


def test_the_sdk_view_reads_every_field_through_the_engines_methods(view: View) -> None:
    bot = bot_view(view)
    assert isinstance(bot, View)
    assert [getattr(bot, f.name) for f in dataclasses.fields(View)] == [
        getattr(view, f.name) for f in dataclasses.fields(View)
    ]
    assert bot.to_dict() == view.to_dict()  # (View's method, on the subclass's fields)
    assert bot.allies(view.seat) == view.allies(view.seat) == []
    assert bot.decision is view.pending and bot.game_id == "g-1" and bot.deadline_ms == 500


def test_the_fields_are_named_as_slots(view: View) -> None:
    for cls in (View, SeatInfo):
        assert tuple(cls.__slots__) == tuple(f.name for f in dataclasses.fields(cls))
    assert view.to_dict()["seats"][0]["seat"] == view.seats[0].seat
