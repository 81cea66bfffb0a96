"""The territory head of a policy :class:`hegemon.sdk.network.Network`: one score per territory
from the same small weights applied to every territory.

A flat network must learn a separate detector for each territory of the map from the whole
observation; this head learns "a strong border facing a weak neighbour" once. For each
territory ``t`` it reads ``t``'s own columns of the observation (owner, armies, marks, its part
in the decision) with its continent's (bonus, shares held), and for each neighbour ``u`` an
edge unit ``tanh(x_t·A + x_u·B + a)``; the mean of the edge units over ``t``'s neighbours, ``t``'s
own columns and the flat network's last hidden layer (what decision and which step it is) make
its hidden units ``z_t = tanh(x_t·P + mean_u(e_tu)·Q + h·R + p)``, and its score is ``z_t·v``.
The score is added to the flat head's logit of the action that picks ``t`` (index ``1 + t``),
so the flat head still scores every other action (passing, amounts, card sets, seats).

The map's borders and continents are part of the head (arrays ``adjacency`` and
``continents``, fixed, not trained): a head is made for one map, as the whole network is.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    from hegemon.referee.board import Board

__all__ = ["CONTINENT_COLUMNS", "FIRST", "TERRITORY_COLUMNS", "HeadCache", "TerritoryHead"]

Floats = npt.NDArray[np.float64]

TERRITORY_COLUMNS = 20
"""The observation's numbers per territory (``hegemon.referee.encoding``'s layout: the
territories' rows come first, then the continents')."""
CONTINENT_COLUMNS = 4
"""The observation's numbers per continent."""
FIRST = 1
"""The action index that picks territory 0 (``Layout.territory(0)``)."""

TRAINED = ("edge_own", "edge_other", "edge_b", "own", "near", "context", "b", "out")
"""The head's trained arrays, in the order of :meth:`TerritoryHead.parameters`."""
FIXED = ("adjacency", "continents")
"""The map's arrays the head keeps."""

HeadCache = tuple[Floats, Floats, Floats, Floats]
"""What :meth:`TerritoryHead.scores` computed on the way (inputs, edge units, their means,
hidden units), for the gradient."""


@dataclass
class TerritoryHead:
    """The weights of the territory head and the map they are for (see the module's doc)."""

    adjacency: Floats  # (T, T): 1 where two territories border
    continents: Floats  # (T, C): each territory's continent, one-hot
    edge_own: Floats  # A (F, E)
    edge_other: Floats  # B (F, E)
    edge_b: Floats  # a (E,)
    own: Floats  # P (F, H)
    near: Floats  # Q (E, H)
    context: Floats  # R (K, H): K the flat network's last hidden width
    b: Floats  # p (H,)
    out: Floats  # v (H, 1)
    # derived from adjacency: the directed borders (t, u), each territory's number of them
    to: npt.NDArray[np.intp] = field(init=False, repr=False)
    frm: npt.NDArray[np.intp] = field(init=False, repr=False)
    degree: Floats = field(init=False, repr=False)  # (T, 1), at least 1
    _ends: dict[str, Floats] = field(init=False, repr=False)  # (T, borders): 1 at each end

    def __post_init__(self) -> None:
        for name in (*FIXED, *TRAINED):
            setattr(self, name, np.asarray(getattr(self, name), np.float64))
        self.to, self.frm = np.nonzero(self.adjacency)
        self.degree = np.maximum(np.bincount(self.to, minlength=self.territories), 1.0)[:, None]
        eye = np.eye(self.territories)
        self._ends = {"to": eye[:, self.to], "frm": eye[:, self.frm]}

    def border_sums(self, values: Floats, by: str) -> Floats:
        """``values`` of every border (rows × borders × units) summed per territory at the
        border's end ``by`` (``"to"``: the territory scored, ``"frm"``: its neighbour)."""
        n, borders, units = values.shape
        # one matrix product (quicker here than numpy's reduceat or add.at)
        by_border = values.transpose(1, 0, 2).reshape(borders, n * units)
        result: Floats = (self._ends[by] @ by_border).reshape(-1, n, units).transpose(1, 0, 2)
        return result

    @classmethod
    def initial(
        cls,
        adjacency: Floats,
        continents: Floats,
        context: int,
        edges: int = 32,
        hidden: int = 32,
        rng: np.random.Generator | None = None,
    ) -> TerritoryHead:
        """A fresh head for the map of ``adjacency`` and ``continents``, reading a flat
        network's last hidden layer of width ``context``; its scores start near 0."""
        rng = rng if rng is not None else np.random.default_rng(0)
        width = TERRITORY_COLUMNS + CONTINENT_COLUMNS

        def normal(n_in: int, n_out: int) -> Floats:
            return rng.normal(0.0, 1.0 / np.sqrt(n_in), (n_in, n_out))

        return cls(
            adjacency,
            continents,
            edge_own=normal(width, edges),
            edge_other=normal(width, edges),
            edge_b=np.zeros(edges),
            own=normal(width, hidden),
            near=normal(edges, hidden),
            context=normal(context, hidden),
            b=np.zeros(hidden),
            out=rng.normal(0.0, 0.01, (hidden, 1)),
        )

    @classmethod
    def for_board(
        cls,
        board: Board,
        context: int,
        edges: int = 32,
        hidden: int = 32,
        rng: np.random.Generator | None = None,
    ) -> TerritoryHead:
        """A fresh head (:meth:`initial`) for ``board``'s borders and continents."""
        size = board.size
        adjacency = np.zeros((size, size))
        for t, neighbours in enumerate(board.neighbours):
            adjacency[t, list(neighbours)] = 1.0
        continents = np.zeros((size, len(board.continents)))
        continents[np.arange(size), [t.continent for t in board.territories]] = 1.0
        return cls.initial(adjacency, continents, context, edges, hidden, rng)

    @property
    def territories(self) -> int:
        return int(self.adjacency.shape[0])

    def parameters(self) -> list[Floats]:
        """The trained arrays (an optimiser updates them in place)."""
        return [getattr(self, name) for name in TRAINED]

    def arrays(self) -> dict[str, Floats]:
        """Every array of the head by name (fixed and trained)."""
        return {name: getattr(self, name) for name in (*FIXED, *TRAINED)}

    def inputs(self, observations: Floats) -> Floats:
        """Each territory's own columns and its continent's: (rows, T, F)."""
        n, size = observations.shape[0], self.territories
        at = size * TERRITORY_COLUMNS
        own = observations[:, :at].reshape(n, size, TERRITORY_COLUMNS)
        count = self.continents.shape[1]
        conts = observations[:, at : at + count * CONTINENT_COLUMNS]
        result: Floats = np.concatenate(
            [own, self.continents @ conts.reshape(n, count, CONTINENT_COLUMNS)], axis=2
        )
        return result

    def scores(self, observations: Floats, context: Floats) -> tuple[Floats, HeadCache]:
        """One score per territory for each row of ``observations`` (2-D), given the flat
        network's last hidden layer ``context``; and what the gradient needs."""
        x = self.inputs(observations)
        e = np.tanh(
            linear(x, self.edge_own)[:, self.to]
            + linear(x, self.edge_other)[:, self.frm]
            + self.edge_b
        )
        near = self.border_sums(e, "to") / self.degree
        own = linear(x, self.own) + linear(near, self.near)
        z = np.tanh(own + (context @ self.context)[:, None, :] + self.b)
        result: Floats = linear(z, self.out)[..., 0]
        return result, (x, e, near, z)

    @classmethod
    def from_arrays(cls, arrays: dict[str, Any], context: int) -> TerritoryHead:
        """The head of a file's arrays (already checked as finite float arrays of the right
        number of dimensions); raises ValueError with one line when the shapes do not fit."""
        head = cls(**{name: arrays[name] for name in (*FIXED, *TRAINED)})
        size = head.territories
        width = TERRITORY_COLUMNS + CONTINENT_COLUMNS
        edges, hidden = head.edge_own.shape[1], head.own.shape[1]
        expected = {
            "adjacency": (size, size),
            "continents": (size, head.continents.shape[1]),
            "edge_own": (width, edges),
            "edge_other": (width, edges),
            "edge_b": (edges,),
            "own": (width, hidden),
            "near": (edges, hidden),
            "context": (context, hidden),
            "b": (hidden,),
            "out": (hidden, 1),
        }
        for name, shape in expected.items():
            if getattr(head, name).shape != shape:
                raise ValueError(
                    f"territory_{name} is {getattr(head, name).shape}, the head needs {shape}"
                )
        return head


def linear(x: Floats, w: Floats) -> Floats:
    """``x @ w`` for rows × territories × units, as one matrix product (numpy would make one
    for each row)."""
    n, size, width = x.shape
    result: Floats = (x.reshape(n * size, width) @ w).reshape(n, size, w.shape[1])
    return result
