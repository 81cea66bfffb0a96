"""A small feed-forward policy network in numpy, and its file format.

A :class:`Network` maps an observation (a flat float vector) through tanh hidden layers to one
logit per action of a fixed discrete action space, plus a value estimate (the trainer's
baseline; playing ignores it). :meth:`Network.probabilities` is the softmax over the legal
actions only (the action mask); :meth:`Network.choose` takes the likeliest legal action, or
samples one when given a random generator.

**The file** (``.npz``, numpy's zip of arrays, read with ``allow_pickle=False`` so that loading
runs no code): the arrays ``w0, b0, w1, b1, …`` (the layers, the last being the logits),
``value_w, value_b`` (the value head, on the last hidden layer) and ``meta``, a JSON text with
``format`` (:data:`FORMAT`) and whatever the trainer recorded (rules, players, opponent, seed,
games played). A network with a territory head (:mod:`hegemon.sdk.territory_head`: one score per
territory from weights shared by every territory, added to the flat logits that pick a
territory) also holds its arrays, named ``territory_…``, and its format is :data:`FORMAT_HEAD`;
a file of either format loads. :func:`Network.load` checks every array's shape and type and
raises :class:`PolicyFileError` with one line saying what is wrong.
"""

from __future__ import annotations

import itertools
import json
import zipfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from .policy_file import PolicyFileError
from .territory_head import (
    CONTINENT_COLUMNS,
    FIRST,
    FIXED,
    TERRITORY_COLUMNS,
    TRAINED,
    HeadCache,
    TerritoryHead,
)

__all__ = ["FORMAT", "FORMAT_HEAD", "Network", "PolicyFileError", "masked_softmax", "sample"]

FORMAT = "hegemon-policy/1"
"""The ``format`` a policy file's ``meta`` names: a flat network."""
FORMAT_HEAD = "hegemon-policy/2"
"""The ``format`` of a network with a territory head."""
_HEAD_PREFIX = "territory_"

Floats = npt.NDArray[np.float64]
Mask = npt.NDArray[Any]
"""Legal actions: true (or 1) where legal."""


class Network:
    """Weights of a tanh multi-layer perceptron with a policy head and a value head, and
    optionally a territory head."""

    def __init__(
        self,
        weights: Sequence[tuple[Floats, Floats]],
        value: tuple[Floats, Floats],
        meta: dict[str, Any] | None = None,
        head: TerritoryHead | None = None,
    ):
        self.weights = [(np.asarray(w, np.float64), np.asarray(b, np.float64)) for w, b in weights]
        self.value = (np.asarray(value[0], np.float64), np.asarray(value[1], np.float64))
        self.meta: dict[str, Any] = dict(meta or {})
        self.head = head

    @classmethod
    def initial(
        cls,
        observations: int,
        actions: int,
        hidden: Sequence[int] = (64,),
        rng: np.random.Generator | None = None,
        meta: dict[str, Any] | None = None,
    ) -> Network:
        """A fresh network: scaled normal weights, the output layer small (a near-uniform
        first policy)."""
        rng = rng if rng is not None else np.random.default_rng(0)
        sizes = [observations, *hidden, actions]
        weights = []
        for i, (n_in, n_out) in enumerate(itertools.pairwise(sizes)):
            scale = 0.01 if i == len(sizes) - 2 else 1.0 / np.sqrt(n_in)
            weights.append((rng.normal(0.0, scale, (n_in, n_out)), np.zeros(n_out)))
        value = (np.zeros((sizes[-2], 1)), np.zeros(1))
        return cls(weights, value, meta)

    @property
    def observations(self) -> int:
        """The length of the observation vector it reads."""
        return int(self.weights[0][0].shape[0])

    @property
    def actions(self) -> int:
        """The size of the action space it scores."""
        return int(self.weights[-1][0].shape[1])

    # ---------------------------------------------------------------------------- playing
    def hidden(self, observation: Floats) -> list[Floats]:
        """The activations of every hidden layer (rows: observations), the input first."""
        layers = [np.asarray(observation, np.float64)]
        for w, b in self.weights[:-1]:
            layers.append(np.tanh(layers[-1] @ w + b))
        return layers

    def forward(self, observations: Floats) -> tuple[list[Floats], Floats, HeadCache | None]:
        """For rows of ``observations`` (2-D): :meth:`hidden`'s layers, the logits, and what
        the territory head computed on the way (None without one)."""
        layers = self.hidden(observations)
        w, b = self.weights[-1]
        logits: Floats = layers[-1] @ w + b
        if self.head is None:
            return layers, logits, None
        scores, cache = self.head.scores(layers[0], layers[-1])
        logits[:, FIRST : FIRST + self.head.territories] += scores
        return layers, logits, cache

    def logits(self, observation: Floats) -> Floats:
        """One score per action (a row of them for each row of a 2-D ``observation``)."""
        observation = np.asarray(observation, np.float64)
        result = self.forward(np.atleast_2d(observation))[1]
        return result if observation.ndim > 1 else result[0]

    def probabilities(self, observation: Floats, mask: Mask) -> Floats:
        """The policy: a softmax over the legal actions (``mask``), zero elsewhere."""
        return masked_softmax(self.logits(observation), mask)

    def choose(self, observation: Floats, mask: Mask, draw: float | None = None) -> int:
        """The likeliest legal action; or, given ``draw`` (uniform in [0, 1)), the action
        sampled from the policy with it (so any random source will do)."""
        if draw is None:
            scores = np.where(mask, self.logits(observation), -np.inf)
            return int(np.argmax(scores))
        return sample(self.probabilities(observation, mask), draw)

    # ---------------------------------------------------------------------------- the file
    def arrays(self) -> dict[str, Any]:
        """Every array of the file, by name."""
        arrays: dict[str, Any] = {}
        for i, (w, b) in enumerate(self.weights):
            arrays[f"w{i}"], arrays[f"b{i}"] = w, b
        arrays["value_w"], arrays["value_b"] = self.value
        if self.head is not None:
            for name, array in self.head.arrays().items():
                arrays[_HEAD_PREFIX + name] = array
        form = FORMAT if self.head is None else FORMAT_HEAD
        arrays["meta"] = np.array(json.dumps({**self.meta, "format": form}, sort_keys=True))
        return arrays

    def save(self, path: str | Path) -> Path:
        """Write the network to ``path`` (``.npz``); returns the path written."""
        path = Path(path)
        with path.open("wb") as f:
            np.savez(f, **self.arrays())
        return path

    @classmethod
    def load(cls, path: str | Path) -> Network:
        """Read a network written by :meth:`save`; raises :class:`PolicyFileError`."""
        path = Path(path)
        if not path.is_file():
            what = "a folder" if path.is_dir() else "no such file"
            raise PolicyFileError(f"{path}: {what}, not a policy file")
        if not zipfile.is_zipfile(path):
            raise PolicyFileError(f"{path}: not a policy file (not a numpy .npz archive)")
        try:
            with np.load(path, allow_pickle=False) as data:
                arrays = {name: data[name] for name in data.files}
        except (OSError, ValueError, EOFError, zipfile.BadZipFile) as exc:
            raise PolicyFileError(f"{path}: not a policy file (.npz): {_first_line(exc)}") from None
        try:
            return cls._from_arrays(arrays)
        except PolicyFileError as exc:
            raise PolicyFileError(f"{path}: {exc}") from None

    @classmethod
    def _from_arrays(cls, arrays: dict[str, Any]) -> Network:
        meta = _meta(arrays.get("meta"))
        weights: list[tuple[Floats, Floats]] = []
        while f"w{len(weights)}" in arrays:
            i = len(weights)
            w, b = _matrix(arrays, f"w{i}"), _vector(arrays, f"b{i}")
            if weights and w.shape[0] != weights[-1][0].shape[1]:
                raise PolicyFileError(
                    f"w{i} takes {w.shape[0]} inputs, the layer before gives "
                    f"{weights[-1][0].shape[1]}"
                )
            if b.shape[0] != w.shape[1]:
                raise PolicyFileError(f"b{i} has {b.shape[0]} numbers, w{i} gives {w.shape[1]}")
            weights.append((w, b))
        if len(weights) < 2:
            raise PolicyFileError("no network in it (needs the arrays w0, b0, w1, b1, …)")
        value = (_matrix(arrays, "value_w"), _vector(arrays, "value_b"))
        if value[0].shape != (weights[-1][0].shape[0], 1) or value[1].shape != (1,):
            raise PolicyFileError("value_w or value_b does not fit the last hidden layer")
        head = _head(arrays, weights) if meta["format"] == FORMAT_HEAD else None
        return cls(weights, value, meta, head)


def masked_softmax(logits: Floats, mask: Mask) -> Floats:
    """Softmax of ``logits`` over the entries where ``mask`` is true (rows if 2-D)."""
    scores = np.where(mask, logits, -np.inf)
    top = scores.max(axis=-1, keepdims=True)
    e = np.where(mask, np.exp(scores - top), 0.0)
    result: Floats = e / e.sum(axis=-1, keepdims=True)
    return result


def sample(probabilities: Floats, draw: float) -> int:
    """The index that ``draw`` (uniform in [0, 1)) picks from ``probabilities``: never one of
    probability 0."""
    cumulative = np.cumsum(probabilities)
    index = min(
        int(np.searchsorted(cumulative, draw * cumulative[-1], side="right")),
        probabilities.size - 1,
    )
    while probabilities[index] == 0.0:  # only where rounding put the draw past the last one
        index -= 1
    return index


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def _meta(value: Any) -> dict[str, Any]:
    if value is None:
        raise PolicyFileError("no meta (not written by a hegemon trainer)")
    try:
        meta = json.loads(str(value))
    except ValueError:
        raise PolicyFileError("its meta is not JSON") from None
    if not isinstance(meta, dict) or meta.get("format") not in (FORMAT, FORMAT_HEAD):
        found = meta.get("format") if isinstance(meta, dict) else None
        raise PolicyFileError(f"format {found!r}, this hegemon reads {FORMAT!r} or {FORMAT_HEAD!r}")
    return meta


def _head(arrays: dict[str, Any], weights: list[tuple[Floats, Floats]]) -> TerritoryHead:
    """The territory head of a file's arrays."""
    checked = {
        name: _checked(arrays, _HEAD_PREFIX + name, 1 if name.endswith("b") else 2)
        for name in (*FIXED, *TRAINED)
    }
    try:
        head = TerritoryHead.from_arrays(checked, weights[-1][0].shape[0])
    except ValueError as exc:
        raise PolicyFileError(str(exc)) from None
    size, count = head.territories, head.continents.shape[1]
    if weights[-1][0].shape[1] < FIRST + size:
        raise PolicyFileError(f"territory_adjacency: {size} territories, more than the actions")
    if weights[0][0].shape[0] < size * TERRITORY_COLUMNS + count * CONTINENT_COLUMNS:
        raise PolicyFileError(f"territory_adjacency: {size} territories, more than it observes")
    return head


def _checked(arrays: dict[str, Any], name: str, dims: int) -> Floats:
    if name not in arrays:
        raise PolicyFileError(f"the array {name} is missing")
    array = arrays[name]
    if array.ndim != dims or not np.issubdtype(array.dtype, np.floating):
        raise PolicyFileError(f"{name} is not a {dims}-D array of floats")
    if not np.all(np.isfinite(array)):
        raise PolicyFileError(f"{name} holds a NaN or an infinity")
    checked: Floats = array.astype(np.float64)
    return checked


def _matrix(arrays: dict[str, Any], name: str) -> Floats:
    return _checked(arrays, name, 2)


def _vector(arrays: dict[str, Any], name: str) -> Floats:
    return _checked(arrays, name, 1)
