"""Imitation's data: the teacher's answers as the encoder's steps, each row's observation and
mask those of the step, the label legal by the mask, and the steps rebuilding the answer."""

from __future__ import annotations

import numpy as np
import pytest

from hegemon.env.imitation import Apprentice, labelled_steps, teacher_steps
from hegemon.env.records import canonical
from hegemon.env.train import TrainConfig, play_game
from hegemon.referee import actions as act
from hegemon.referee import make_rules
from hegemon.referee.decisions import Decision, Kind
from hegemon.referee.encoding import Partial, layout_of, to_action
from hegemon.referee.game import Game
from hegemon.referee.view import View
from hegemon.sample_bots.planner import PlannerBot
from hegemon.sdk import BotView, play_local
from hegemon.sdk.network import Network

RULES = make_rules("classic", {"turn_limit": 4})


class Watching(Apprentice):
    """An apprentice that also keeps every decision it saw with the teacher's answer."""

    def __init__(self, network: Network) -> None:
        super().__init__(network, PlannerBot(), np.random.default_rng(1), lead=1.0)
        self.seen: list[tuple[View, Decision, act.Action]] = []

    def decide(self, view: BotView, decision: Decision) -> act.Action:
        answer = super().decide(view, decision)  # lead 1: the teacher's answer
        self.seen.append((view, decision, answer))
        return answer


@pytest.fixture(scope="module")
def watched() -> Watching:
    layout = layout_of(Game(RULES, 4, seed=0).board)
    network = Network.initial(layout.features, layout.actions, (8,), np.random.default_rng(0))
    apprentice = Watching(network)
    play_local([apprentice, PlannerBot(), apprentice, PlannerBot()], RULES, 9)
    return apprentice


def test_every_label_is_legal_by_its_mask_and_shaped_as_the_layout(watched):
    layout = layout_of(Game(RULES, 4, seed=0).board)
    rows = [row for seat in (0, 2) for row in watched.labels[seat]]
    assert len(rows) >= len(watched.seen)  # every decision labelled, some in several steps
    for observation, mask, label in rows:
        assert observation.shape == (layout.features,) and observation.dtype == np.float32
        assert mask.shape == (layout.actions,) and mask[label]


def test_the_labelled_steps_rebuild_the_teachers_answer(watched):
    kinds = set()
    for view, decision, answer in watched.seen:
        partial, done = Partial(), None
        for _, _, label in labelled_steps(view, decision, answer):
            done = to_action(label, view, decision, partial)
        # (the encoder merges and sorts a placement's pairs; an amount may be the nearest one)
        assert done == canonical(answer) or isinstance(answer, act.Occupy | act.Fortify)
        kinds.add(decision.kind)
    assert {Kind.PLACE, Kind.ATTACK, Kind.CLAIM} <= kinds


def test_an_amount_no_bucket_gives_is_labelled_as_the_nearest_one(watched):
    view, decision, _ = next(
        (v, d, a) for v, d, a in watched.seen if d.kind is Kind.OCCUPY and d.maximum >= 12
    )
    for wanted in range(decision.minimum, decision.maximum + 1):
        partial = Partial()
        steps = teacher_steps(view, decision, act.Occupy(wanted))
        assert steps is not None
        given = to_action(steps[-1], view, decision, partial)
        assert isinstance(given, act.Occupy)
        # no amount the encoder gives is nearer to the one wanted
        others = {
            to_action(int(i), view, decision, Partial())
            for i in np.flatnonzero(np.asarray(labelled_steps(view, decision, given)[0][1]))
        }
        nearest = min(abs(o.armies - wanted) for o in others if isinstance(o, act.Occupy))
        assert abs(given.armies - wanted) == nearest


def test_a_training_game_gives_labels_with_their_seats_outcomes():
    config = TrainConfig(RULES, 4, "random", seed=3, hidden=(8,), teacher="planner", imitation=1)
    layout = layout_of(Game(RULES, 4, seed=0).board)
    network = Network.initial(layout.features, layout.actions, (8,), np.random.default_rng(0))
    game = play_game(network, config, 0, lead=1.0)
    labels = game.labels
    assert len(labels) > 0 and len(game.steps) == 0  # the teacher played every decision
    assert labels.observations.shape == (len(labels), layout.features)
    assert labels.masks.shape == (len(labels), layout.actions)
    assert labels.masks[np.arange(len(labels)), labels.actions].all()
    assert set(np.unique(labels.returns)) <= set(game.outcomes)


def test_the_imitation_gradient_is_its_loss_gradient():
    from hegemon.env.gradient import imitation_gradients, parameters
    from tests.env.test_train import small_batch
    from tests.env.test_train_head import assert_is_gradient, imitation_loss

    network, batch = small_batch(np.random.default_rng(3))
    grads, cross_entropy, _ = imitation_gradients(network, batch)
    assert cross_entropy > 0
    assert_is_gradient(parameters(network), grads, lambda: imitation_loss(network, batch))
