"""The example trainer: its gradient is the loss's (checked against finite differences), a run is
reproducible from its seed, and its learning curve is a PNG."""

from __future__ import annotations

import numpy as np

from hegemon.env.curve import draw_curve
from hegemon.env.gradient import Adam, Batch, gradients, parameters
from hegemon.env.train import TrainConfig, learner_seats, train
from hegemon.referee import make_rules
from hegemon.sdk.network import Network, masked_softmax


def small_batch(rng: np.random.Generator) -> tuple[Network, Batch]:
    network = Network.initial(7, 5, (6, 4), rng)
    for w, b in [*network.weights, network.value]:
        w[:] = rng.normal(0.0, 0.5, w.shape)
        b[:] = rng.normal(0.0, 0.1, b.shape)
    masks = rng.random((9, 5)) < 0.6
    masks[:, 0] = True  # passing is always legal
    actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
    return network, Batch(rng.normal(size=(9, 7)), masks, actions, rng.normal(size=9))


def loss(network: Network, batch: Batch, advantage: np.ndarray) -> float:
    """The loss the gradient is of, the advantage held fixed (REINFORCE does not
    differentiate it)."""
    top = network.hidden(batch.observations)[-1]
    p = masked_softmax(network.logits(batch.observations), batch.masks)  # (a head's too)
    values = (top @ network.value[0] + network.value[1])[:, 0]
    log_p = np.log(np.where(p > 0, p, 1.0))
    entropy = -(p * log_p).sum(axis=1)
    chosen = log_p[np.arange(len(batch)), batch.actions]
    return float(
        np.mean(-advantage * chosen)
        - 0.01 * entropy.mean()
        + 0.5 * np.mean((values - batch.returns) ** 2)
    )


def test_the_gradient_is_the_loss_gradient():
    network, batch = small_batch(np.random.default_rng(3))
    top = network.hidden(batch.observations)[-1]
    values = (top @ network.value[0] + network.value[1])[:, 0]
    advantage = batch.returns - values
    advantage = (advantage - advantage.mean()) / (advantage.std() + 1e-8)
    grads, _ = gradients(network, batch)
    for array, grad in zip(parameters(network), grads, strict=True):
        assert grad.shape == array.shape
        for index in np.ndindex(array.shape):
            old = array[index]
            array[index] = old + 1e-6
            up = loss(network, batch, advantage)
            array[index] = old - 1e-6
            down = loss(network, batch, advantage)
            array[index] = old
            assert abs((up - down) / 2e-6 - grad[index]) < 1e-6


def test_an_update_makes_a_rewarded_action_likelier():
    network, batch = small_batch(np.random.default_rng(4))
    rewarded = Batch(batch.observations, batch.masks, np.zeros(9, dtype=np.int64), np.ones(9))
    mixed = Batch(
        np.concatenate([rewarded.observations, batch.observations]),
        np.concatenate([rewarded.masks, batch.masks]),
        np.concatenate([rewarded.actions, batch.actions]),
        np.concatenate([rewarded.returns, -np.ones(9)]),
    )
    before = network.probabilities(batch.observations, batch.masks)[:, 0].mean()
    optimiser = Adam(parameters(network), rate=0.01)
    for _ in range(20):
        optimiser.step(gradients(network, mixed)[0])
    assert network.probabilities(batch.observations, batch.masks)[:, 0].mean() > before


def test_the_learner_takes_every_other_seat_in_turn():
    assert learner_seats(4, 0) == (0, 2) and learner_seats(4, 1) == (1, 3)
    assert learner_seats(2, 0) == (0,) and learner_seats(3, 1) == (1,)


def test_a_run_is_reproducible_from_its_seed(tmp_path):
    config = TrainConfig(
        make_rules("classic", {"turn_limit": 2}), 3, "random", seed=11, games=2, batch=1
    )
    first, second = train(config), train(config)
    assert len(first.curve) == 2 and first.curve[-1].games == 2
    paths = [first.network.save(tmp_path / "a.npz"), second.network.save(tmp_path / "b.npz")]
    assert paths[0].read_bytes() == paths[1].read_bytes()
    other = train(TrainConfig(config.rules, 3, "random", seed=12, games=1, batch=1))
    assert not np.array_equal(other.network.weights[0][0], first.network.weights[0][0])


def test_the_learning_curve_is_a_png(tmp_path):
    path = draw_curve(
        {"won": [(4, 0.25), (8, 0.5), (12, 1.0)], "place": [(4, 0.1), (8, 0.9), (12, 0.7)]},
        tmp_path / "curve.png",
        "a title",
        "games",
        y_range=(0.0, 1.0),
    )
    from PIL import Image

    with Image.open(path) as image:
        assert image.format == "PNG" and image.size[0] > 100
        colours = {c for _, c in image.getcolors(1 << 16) or []}
    assert (31, 119, 180) in colours and (214, 39, 40) in colours  # both series drawn
