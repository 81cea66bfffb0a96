"""The policy-gradient step for a :class:`hegemon.sdk.network.Network`, in numpy: REINFORCE with
a learned baseline (the network's value head), an entropy bonus, and Adam.

For steps with observations ``X``, legal-action masks ``M``, the actions taken ``a`` and their
returns ``G``, the loss is ``mean(-A · log π(a|x)) - β · mean(H(π(·|x))) + c · mean((V(x) - G)²)``
with the advantage ``A = G - V(x)`` (normalised over the batch, not differentiated). The policy
is a softmax over the legal actions only, so an illegal action never gets probability and no
gradient.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from hegemon.sdk.network import Floats, Mask, Network, masked_softmax
from hegemon.sdk.territory_head import FIRST, HeadCache, TerritoryHead, linear


@dataclass(frozen=True)
class Batch:
    """The steps of one update, as arrays of one row per step."""

    observations: Floats
    masks: Mask
    actions: np.ndarray
    returns: Floats

    def __len__(self) -> int:
        return int(self.actions.size)


@dataclass(frozen=True)
class StepStats:
    """What one update measured (before it changed the network)."""

    entropy: float
    value_error: float


def parameters(network: Network) -> list[Floats]:
    """Every trainable array of ``network`` (updated in place by :class:`Adam`): the flat
    layers, the value head, then the territory head's, if it has one."""
    flat = [a for layer in network.weights for a in layer] + list(network.value)
    return flat + (network.head.parameters() if network.head is not None else [])


def gradients(
    network: Network, batch: Batch, entropy: float = 0.01, value: float = 0.5
) -> tuple[list[Floats], StepStats]:
    """The loss's gradient for every array of :func:`parameters`, and the batch's stats."""
    n = len(batch)
    layers, p, values, chosen, cache = _forward(network, batch)
    advantage = batch.returns - values
    advantage = (advantage - advantage.mean()) / (advantage.std() + 1e-8)

    log_p = np.log(np.where(p > 0, p, 1.0))
    h = -(p * log_p).sum(axis=1)
    d_logits = (-advantage[:, None] * (chosen - p) + entropy * p * (log_p + h[:, None])) / n
    d_values = (2.0 * value / n) * (values - batch.returns)[:, None]

    stats = StepStats(float(h.mean()), float(np.mean((values - batch.returns) ** 2)))
    return backward(network, layers, d_logits, d_values, cache), stats


def imitation_gradients(
    network: Network, batch: Batch, value: float = 0.5
) -> tuple[list[Floats], float, float]:
    """The gradient of behaviour cloning's loss, ``mean(-log π(a|x)) + c · mean((V(x) - G)²)``
    (``batch.actions``: the teacher's steps; ``batch.returns``: the outcomes), for every array
    of :func:`parameters`; with the loss's first term and the share of steps where the
    policy's likeliest action is the teacher's."""
    n = len(batch)
    layers, p, values, chosen, cache = _forward(network, batch)
    rows = np.arange(n)
    d_logits = (p - chosen) / n
    d_values = (2.0 * value / n) * (values - batch.returns)[:, None]
    cross_entropy = float(-np.log(np.maximum(p[rows, batch.actions], 1e-12)).mean())
    agreement = float((p.argmax(axis=1) == batch.actions).mean())
    return backward(network, layers, d_logits, d_values, cache), cross_entropy, agreement


def _forward(
    network: Network, batch: Batch
) -> tuple[list[Floats], Floats, Floats, Floats, HeadCache | None]:
    """The batch's layers, policy, values, the one-hot rows of its actions, and the territory
    head's intermediate values."""
    layers, logits, cache = network.forward(batch.observations)
    top = layers[-1]
    p = masked_softmax(logits, batch.masks)
    values = (top @ network.value[0] + network.value[1])[:, 0]
    chosen = np.zeros_like(p)
    chosen[np.arange(len(batch)), batch.actions] = 1.0
    return layers, p, values, chosen, cache


def backward(
    network: Network,
    layers: list[Floats],
    d_logits: Floats,
    d_values: Floats,
    cache: HeadCache | None = None,
) -> list[Floats]:
    """Back-propagate the loss's gradient at the logits and at the value head through the
    network (``layers``: :meth:`Network.hidden` of the batch; ``cache``: what the territory
    head computed, when it has one), for every array of :func:`parameters`."""
    top = layers[-1]
    w_out = network.weights[-1][0]
    grads: list[Floats] = [top.T @ d_values, d_values.sum(axis=0)]  # the value head
    d_top = d_logits @ w_out.T + d_values @ network.value[0].T
    head: list[Floats] = []
    if network.head is not None:
        assert cache is not None
        size = network.head.territories
        head, d_context = head_backward(network.head, top, cache, d_logits[:, FIRST : FIRST + size])
        d_top = d_top + d_context
    grads[:0] = [top.T @ d_logits, d_logits.sum(axis=0)]
    for i in range(len(network.weights) - 2, -1, -1):
        d_pre = d_top * (1.0 - layers[i + 1] ** 2)
        grads[:0] = [layers[i].T @ d_pre, d_pre.sum(axis=0)]
        d_top = d_pre @ network.weights[i][0].T
    return grads + head


def head_backward(
    head: TerritoryHead, context: Floats, cache: HeadCache, d_scores: Floats
) -> tuple[list[Floats], Floats]:
    """The gradient of the territory head's arrays (in :meth:`TerritoryHead.parameters`'
    order) from the loss's gradient at its ``scores`` (rows × territories), and the gradient
    at its ``context`` (the flat network's last hidden layer)."""
    x, e, near, z = cache
    width, edges, hidden = x.shape[2], e.shape[2], z.shape[2]
    d_out = np.einsum("nt,nth->h", d_scores, z)[:, None]
    d_pre = d_scores[..., None] * head.out[:, 0] * (1.0 - z**2)  # (n, T, H)
    rows = d_pre.reshape(-1, hidden)
    flat_x = x.reshape(-1, width)
    d_own = flat_x.T @ rows
    d_near = near.reshape(-1, edges).T @ rows
    d_by_row = d_pre.sum(axis=1)
    d_context_w = context.T @ d_by_row
    d_b = rows.sum(axis=0)
    d_context = d_by_row @ head.context.T
    # back through the mean over neighbours and the edge units
    d_mean = linear(d_pre, head.near.T) / head.degree
    d_edge = d_mean[:, head.to] * (1.0 - e**2)  # (n, borders, E)
    d_to = head.border_sums(d_edge, "to").reshape(-1, edges)
    d_from = head.border_sums(d_edge, "frm").reshape(-1, edges)
    grads = [
        flat_x.T @ d_to,
        flat_x.T @ d_from,
        d_edge.sum(axis=(0, 1)),
        d_own,
        d_near,
        d_context_w,
        d_b,
        d_out,
    ]
    return grads, d_context


class Adam:
    """The Adam optimiser over a fixed list of arrays (updated in place)."""

    def __init__(
        self,
        params: list[Floats],
        rate: float = 3e-3,
        betas: tuple[float, float] = (0.9, 0.999),
        clip: float = 1.0,
    ):
        self.params = params
        self.rate = rate
        self.betas = betas
        self.clip = clip
        self.first = [np.zeros_like(p) for p in params]
        self.second = [np.zeros_like(p) for p in params]
        self.steps = 0

    def step(self, grads: list[Floats]) -> None:
        """Move every parameter against its gradient (the whole gradient's norm clipped to
        :attr:`clip`)."""
        norm = float(np.sqrt(sum(float((g**2).sum()) for g in grads)))
        scale = min(1.0, self.clip / (norm + 1e-12))
        self.steps += 1
        b1, b2 = self.betas
        for i, grad in enumerate(grads):
            g = grad * scale
            self.first[i] = b1 * self.first[i] + (1 - b1) * g
            self.second[i] = b2 * self.second[i] + (1 - b2) * g * g
            m_hat = self.first[i] / (1 - b1**self.steps)
            v_hat = self.second[i] / (1 - b2**self.steps)
            self.params[i] -= self.rate * m_hat / (np.sqrt(v_hat) + 1e-8)
