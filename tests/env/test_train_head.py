"""The territory head: one score per territory from weights shared by every territory, read from
its own columns, its continent's and its neighbours'; its gradient is its loss's (finite
differences); a network with it is saved and loaded as format 2, while a flat network — and a
file written before the head existed — still loads and plays."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from hegemon.env.gradient import Batch, gradients, imitation_gradients, parameters
from hegemon.env.train import TrainConfig, train
from hegemon.referee import make_rules
from hegemon.sample_bots.random import RandomBot
from hegemon.sdk import PolicyBot, play_local
from hegemon.sdk.network import FORMAT, FORMAT_HEAD, Network, PolicyFileError, masked_softmax
from hegemon.sdk.territory_head import CONTINENT_COLUMNS, TERRITORY_COLUMNS, TerritoryHead
from tests.env.test_train import loss as policy_loss

# a map of four territories in a row (0-1-2-3), continents {0, 1} and {2, 3}
ADJACENCY = np.array([[0, 1, 0, 0], [1, 0, 1, 0], [0, 1, 0, 1], [0, 0, 1, 0]], float)
CONTINENTS = np.array([[1, 0], [1, 0], [0, 1], [0, 1]], float)
FEATURES = 4 * TERRITORY_COLUMNS + 2 * CONTINENT_COLUMNS + 3
ACTIONS = 1 + 4 + 2  # pass, a territory each, two other actions


def small_network(rng: np.random.Generator) -> Network:
    """A network with a head on the four-territory map, every weight random (none near 0)."""
    network = Network.initial(FEATURES, ACTIONS, (5,), rng)
    network.head = TerritoryHead.initial(ADJACENCY, CONTINENTS, 5, edges=3, hidden=4, rng=rng)
    for array in parameters(network):
        array[...] = rng.normal(0.0, 0.5, array.shape)
    return network


def small_batch(rng: np.random.Generator) -> Batch:
    masks = rng.random((9, ACTIONS)) < 0.6
    masks[:, :3] = True  # passing and two territories always legal
    actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
    return Batch(rng.random((9, FEATURES)) * 2, masks, actions, rng.normal(size=9))


def reference_scores(network: Network, observation: np.ndarray) -> list[float]:
    """The head's scores as its documentation says, territory by territory."""
    head = network.head
    assert head is not None
    context = network.hidden(observation)[-1]
    rows = observation[: 4 * TERRITORY_COLUMNS].reshape(4, TERRITORY_COLUMNS)
    continents = observation[4 * TERRITORY_COLUMNS :][: 2 * CONTINENT_COLUMNS].reshape(2, -1)
    x = [np.concatenate([rows[t], continents[0 if t < 2 else 1]]) for t in range(4)]
    scores = []
    for t in range(4):
        neighbours = [u for u in range(4) if abs(u - t) == 1]
        edges = [
            np.tanh(x[t] @ head.edge_own + x[u] @ head.edge_other + head.edge_b) for u in neighbours
        ]
        near = np.mean(edges, axis=0)
        z = np.tanh(x[t] @ head.own + near @ head.near + context @ head.context + head.b)
        scores.append(float(z @ head.out[:, 0]))
    return scores


def test_the_head_scores_each_territory_from_its_own_its_continents_and_its_neighbours_columns():
    network = small_network(np.random.default_rng(2))
    observation = np.random.default_rng(3).random(FEATURES)
    flat = network.hidden(observation)[-1] @ network.weights[-1][0] + network.weights[-1][1]
    logits = network.logits(observation)
    # the head's scores are added to the flat logits of the actions that pick a territory
    assert np.allclose(logits[1:5] - flat[1:5], reference_scores(network, observation))
    assert np.array_equal(logits[[0, 5, 6]], flat[[0, 5, 6]])
    # rows at once give each row's own logits
    both = network.logits(np.stack([observation, observation[::-1].copy()]))
    assert np.allclose(both[0], logits)
    assert np.allclose(both[1], network.logits(observation[::-1].copy()))


def test_the_same_weights_score_every_territory():
    # the map mirrored (0-1-2-3 read as 3-2-1-0) with the observation mirrored: the scores
    # are the mirror's, as no weight belongs to one territory
    network = small_network(np.random.default_rng(4))
    network.weights[-1][0][:, 1:5] = 0.0  # (the flat head's own per-territory weights)
    network.weights[-1][1][1:5] = 0.0
    for w, _ in network.weights[:-1]:  # (and a context that reads no territory column)
        w[: 4 * TERRITORY_COLUMNS + 2 * CONTINENT_COLUMNS] = 0.0
    observation = np.random.default_rng(5).random(FEATURES)
    mirrored = observation.copy()
    rows = observation[: 4 * TERRITORY_COLUMNS].reshape(4, -1)
    mirrored[: 4 * TERRITORY_COLUMNS] = rows[::-1].ravel()
    at = 4 * TERRITORY_COLUMNS
    mirrored[at : at + 2 * CONTINENT_COLUMNS] = (
        observation[at : at + 2 * CONTINENT_COLUMNS].reshape(2, -1)[::-1].ravel()
    )
    assert np.allclose(network.logits(mirrored)[1:5], network.logits(observation)[1:5][::-1])
    assert not np.allclose(network.logits(observation)[1:5], network.logits(observation)[1])


def imitation_loss(network: Network, batch: Batch) -> float:
    """Behaviour cloning's loss (:func:`imitation_gradients`' doc)."""
    p = masked_softmax(network.logits(batch.observations), batch.masks)
    values = (network.hidden(batch.observations)[-1] @ network.value[0] + network.value[1])[:, 0]
    chosen = p[np.arange(len(batch)), batch.actions]
    return float(-np.log(chosen).mean() + 0.5 * np.mean((values - batch.returns) ** 2))


@pytest.mark.parametrize("kind", ["policy gradient", "imitation"])
def test_the_gradient_with_a_head_is_the_loss_gradient(kind):
    rng = np.random.default_rng(6)
    network, batch = small_network(rng), small_batch(rng)
    if kind == "imitation":
        grads, _, _ = imitation_gradients(network, batch)

        def loss() -> float:
            return imitation_loss(network, batch)
    else:
        values = network.hidden(batch.observations)[-1] @ network.value[0] + network.value[1]
        advantage = batch.returns - values[:, 0]
        advantage = (advantage - advantage.mean()) / (advantage.std() + 1e-8)
        grads, _ = gradients(network, batch)

        def loss() -> float:
            return policy_loss(network, batch, advantage)

    arrays = parameters(network)
    assert len(arrays) == len(grads) == 2 * 2 + 2 + 8  # two layers, the value, the head's 8
    assert_is_gradient(arrays, grads, loss)


def assert_is_gradient(
    arrays: list[np.ndarray], grads: list[np.ndarray], loss: Callable[[], float]
) -> None:
    """Each of ``grads`` is ``loss``'s derivative by its array (central finite differences)."""
    for array, grad in zip(arrays, grads, strict=True):
        assert grad.shape == array.shape
        for index in np.ndindex(array.shape):
            old = array[index]
            array[index] = old + 1e-6
            up = loss()
            array[index] = old - 1e-6
            down = loss()
            array[index] = old
            assert abs((up - down) / 2e-6 - grad[index]) < 1e-6


def test_a_network_with_a_head_is_saved_and_loaded_as_it_was(tmp_path):
    network = small_network(np.random.default_rng(7))
    loaded = Network.load(network.save(tmp_path / "p.npz"))
    assert loaded.meta["format"] == FORMAT_HEAD and loaded.head is not None
    observation = np.random.default_rng(8).random(FEATURES)
    assert np.array_equal(loaded.logits(observation), network.logits(observation))


def test_a_file_of_the_first_format_still_loads_and_plays(tmp_path):
    # written as trainers wrote policies before the head existed: w0, b0, …, value, meta
    from hegemon.referee.encoding import layout_of
    from hegemon.referee.game import Game

    layout = layout_of(Game(make_rules("two-player-classic"), 2, seed=0).board)
    rng = np.random.default_rng(9)
    arrays: dict[str, Any] = {
        "w0": rng.normal(0, 0.1, (layout.features, 8)).astype(np.float32),
        "b0": np.zeros(8, np.float32),
        "w1": rng.normal(0, 0.1, (8, layout.actions)).astype(np.float32),
        "b1": np.zeros(layout.actions, np.float32),
        "value_w": np.zeros((8, 1), np.float32),
        "value_b": np.zeros(1, np.float32),
        "meta": np.array(json.dumps({"format": "hegemon-policy/1", "games": 3})),
    }
    np.savez(tmp_path / "old.npz", **arrays)
    old = Network.load(tmp_path / "old.npz")
    assert old.head is None and old.meta["games"] == 3
    assert Network.load(old.save(tmp_path / "again.npz")).meta["format"] == FORMAT
    result = play_local(
        [PolicyBot(old), RandomBot()],
        "two-player-classic",
        seed=3,
        options={"turn_limit": 3},
        strict=True,  # the first illegal answer raises
    )
    assert sorted(result.places) == [1, 2]


def test_a_head_that_does_not_fit_is_one_line(tmp_path):
    arrays = small_network(np.random.default_rng(10)).arrays()
    arrays["territory_near"] = np.zeros((5, 4))
    np.savez(tmp_path / "bad.npz", **arrays)
    with pytest.raises(
        PolicyFileError, match=r"territory_near is \(5, 4\), the head needs \(3, 4\)"
    ):
        Network.load(tmp_path / "bad.npz")
    arrays.pop("territory_near")
    np.savez(tmp_path / "missing.npz", **arrays)
    with pytest.raises(PolicyFileError, match="the array territory_near is missing"):
        Network.load(tmp_path / "missing.npz")


def test_a_run_with_a_head_trains_it_and_its_policy_plays_legally(tmp_path):
    rules = make_rules("two-player-classic", {"turn_limit": 3})
    config = TrainConfig(
        rules,
        2,
        "random",
        seed=1,
        games=2,
        batch=1,
        hidden=(8,),
        head=4,
        teacher="planner",
        imitation=1,
        minibatches=4,
        minibatch=32,
    )
    begun = train(replace_games(config, 0)).network
    trained = train(config).network
    assert trained.head is not None and begun.head is not None
    moved = [
        not np.array_equal(a, b)
        for a, b in zip(trained.head.parameters(), begun.head.parameters(), strict=True)
    ]
    assert all(moved)
    saved = Network.load(trained.save(tmp_path / "policy.npz"))
    result = play_local([PolicyBot(saved), RandomBot()], rules, seed=4, strict=True, protocol=True)
    assert sorted(result.places) == [1, 2] and not result.faults


def replace_games(config: TrainConfig, games: int) -> TrainConfig:
    from dataclasses import replace

    return replace(config, games=games)


def test_the_head_reads_each_territorys_own_columns_of_the_encoding():
    # the columns it takes per territory and per continent are the encoding's: a territory's
    # owner and armies, its continent's bonus, where the observation puts them
    from hegemon.referee.encoding import MAX_SEATS, encode
    from hegemon.referee.game import Game
    from hegemon.referee.view import view_for

    game = Game(make_rules("two-player-classic"), 2, seed=3)
    head = TerritoryHead.for_board(game.board, 4)
    view = view_for(game, 0)
    x = head.inputs(encode(view, view.pending)[None, :].astype(np.float64))[0]
    assert x.shape == (game.board.size, TERRITORY_COLUMNS + CONTINENT_COLUMNS)
    for t, territory in enumerate(game.board.territories):
        owner = view.owner[t]
        assert x[t, owner if owner >= 0 else MAX_SEATS] == 1.0  # seat 0 observes: 0 is its own
        assert x[t, MAX_SEATS + 1] == pytest.approx(view.armies[t] / 10)
        bonus = game.board.continents[territory.continent].bonus
        assert x[t, TERRITORY_COLUMNS] == pytest.approx(bonus / 10)
