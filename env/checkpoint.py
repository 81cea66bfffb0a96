"""A training run's checkpoint: the network, the optimiser's moments and the run's counters, in
one ``.npz`` file that is also a policy file (:meth:`hegemon.sdk.network.Network.load` reads
it and ignores the rest).

A run resumes from it exactly where the checkpoint was written: the next update's number, the
games and steps played, the time spent, the best evaluation so far and the past checkpoints in
its opponent pool. (The imitation buffer is not kept: it refills from the next games.)
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from hegemon.sdk.network import Floats, Network, PolicyFileError

from .gradient import Adam, parameters

__all__ = ["RunState", "load_checkpoint", "save_checkpoint", "save_policy"]


@dataclass
class RunState:
    """The counters of a training run."""

    updates: int = 0
    games: int = 0
    steps: int = 0
    seconds: float = 0.0  # wall time
    cpu_seconds: float = 0.0
    best: float | None = None  # the best evaluation's score
    best_update: int = 0
    evaluation: float | None = None  # the latest evaluation's score
    pool: list[str] = field(default_factory=list)  # past checkpoints' files, in the run's folder


def save_checkpoint(path: Path, network: Network, optimiser: Adam, state: RunState) -> Path:
    """Write ``network``, ``optimiser`` and ``state`` to ``path`` (written beside it, then
    renamed: a run stopped while writing keeps its previous checkpoint)."""
    arrays = network.arrays()
    for i, (first, second) in enumerate(zip(optimiser.first, optimiser.second, strict=True)):
        arrays[f"adam_first{i}"], arrays[f"adam_second{i}"] = first, second
    arrays["adam_steps"] = np.array(optimiser.steps)
    arrays["run_state"] = np.array(json.dumps(asdict(state), sort_keys=True))
    partial = path.with_name(path.name + ".part")
    with partial.open("wb") as f:
        np.savez(f, **arrays)
    partial.replace(path)
    return path


def load_checkpoint(path: Path, rate: float) -> tuple[Network, Adam, RunState]:
    """The network, an optimiser of learning rate ``rate`` with the saved moments, and the
    counters of the checkpoint at ``path``; raises :class:`PolicyFileError` (one line)."""
    network = Network.load(path)
    with np.load(path, allow_pickle=False) as data:
        if "run_state" not in data.files:
            raise PolicyFileError(f"{path}: a policy file, not a training checkpoint")
        state = RunState(**json.loads(str(data["run_state"])))
        optimiser = Adam(parameters(network), rate)
        moments: list[Floats] = []
        for i in range(len(optimiser.params)):
            moments += [data[f"adam_first{i}"], data[f"adam_second{i}"]]
        optimiser.first = [m.astype(np.float64) for m in moments[0::2]]
        optimiser.second = [m.astype(np.float64) for m in moments[1::2]]
        optimiser.steps = int(data["adam_steps"])
    return network, optimiser, state


def save_policy(network: Network, path: Path) -> Path:
    """Write ``network`` as a policy file of float32 arrays: half the size of
    :meth:`Network.save`'s, and the same play (the loader computes in float64; a weight rounded
    to float32 moves a logit by about 1e-7 of its size)."""
    arrays = {
        name: array.astype(np.float32) if array.dtype == np.float64 else array
        for name, array in network.arrays().items()
    }
    with path.open("wb") as f:
        np.savez(f, **arrays)
    return path
