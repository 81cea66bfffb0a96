"""The encoder on its own: a bot that answers only through it (masked random steps) plays whole
games of every preset through the referee's loop with no answer refused, and the amounts."""

from __future__ import annotations

import random

import numpy as np
import pytest

from hegemon.referee import Game, make_rules
from hegemon.referee.encoding import (
    BUCKETS,
    Partial,
    action_mask,
    amount,
    answer,
    encode,
    layout_of,
)
from hegemon.referee.rules import PRESETS
from hegemon.referee.view import view_for
from hegemon.sdk import Bot, play_local
from tests.helpers.env import players_of


class EncodedBot(Bot):
    """Answers every decision through the encoder: each step a random legal index, from the
    game's seeded rng (so the game replays). The SDK's BotView is a View, so it encodes as is."""

    name = "encoded"

    def answer(self, view):
        rng = view.context.rng
        return answer(view, view.pending, lambda obs, mask: rng.choice(np.flatnonzero(mask)))


@pytest.mark.parametrize("preset", list(PRESETS))
def test_a_bot_on_the_encoder_plays_every_preset_without_a_refused_answer(preset):
    players = players_of(preset)
    result = play_local(
        [EncodedBot() for _ in range(players)],
        preset,
        seed=8,
        options={"turn_limit": 4},
        strict=True,  # any refused or failed answer raises
    )
    assert sorted(result.places)[0] == 1


def test_observations_have_the_layouts_size_and_bounds():
    game = Game(make_rules("risiko-master-master"), 4, seed=2)
    assert game.pending is not None
    view = view_for(game, game.pending.player)
    layout = layout_of(game.board)
    obs = encode(view, view.pending)
    mask = action_mask(view, view.pending)
    assert obs.shape == (layout.features,) and obs.dtype == np.float32
    assert mask.shape == (layout.actions,) and mask.any()
    assert (obs >= 0).all()
    assert not action_mask(view, None).any(), "nothing is legal without a decision"


def test_the_layouts_indices_take_a_policys_numpy_integers_and_give_plain_ones():
    layout = layout_of(Game(make_rules("classic"), 3, seed=1).board)
    for index in (layout.territory, layout.amount, layout.card_set, layout.seat, layout.card):
        got = index(np.int64(2))  # (the compiled encoding checks its arguments' types)
        assert got == index(2) and type(got) is int, index


def test_every_bucket_is_within_its_bounds():
    rng = random.Random(0)
    for _ in range(500):
        least = rng.randint(0, 20)
        most = rng.randint(least, 40)
        for b in range(len(BUCKETS)):
            n = amount(b, least, most)
            assert n == -1 or least <= n <= most
        assert amount(BUCKETS.index(("all", 0, 1.0)), least, most) == most


def test_placing_takes_a_territory_then_an_amount():
    game = Game(make_rules("classic"), 3, seed=1)
    while game.pending is None or game.pending.kind.value != "place" or game.pending.armies < 3:
        game.apply(game.default_action())
    view = view_for(game, game.pending.player)
    layout, decision, partial = layout_of(game.board), view.pending, Partial()
    assert decision is not None
    from hegemon.referee.encoding import to_action

    first = int(np.flatnonzero(action_mask(view, decision, partial))[0])
    assert to_action(first, view, decision, partial) is None and partial.step == "amount"
    done = to_action(layout.amount(BUCKETS.index(("all", 0, 1.0))), view, decision, partial)
    assert done is not None and game.is_legal(done)
