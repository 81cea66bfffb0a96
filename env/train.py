"""An example trainer: masked policy gradient on a small numpy network, minutes on a CPU.

The learner plays whole games against opponent bots by the referee's own loop
(:func:`hegemon.sdk.play_local`): it takes every other seat (seat 0, 2, … in one game, 1, 3, … in
the next, as ``hegemon bench`` seats two versions), and answers each decision step by step
through :mod:`hegemon.referee.encoding` — the very steps :class:`hegemon.sdk.PolicyBot` takes when
the saved policy plays in the arena. After every ``batch`` games one REINFORCE update
(:mod:`hegemon.env.gradient`) moves the network.

**Rewards.** A seat's return is its finishing place, from +1 (winner) to -1 (last), plus
``shaping`` times the share of the map it gained from each step to the end of the game
(potential-based shaping by territory share: it speeds learning without changing which
policies are best).

**Reproducible.** Every game's seed and every sampled action come from ``seed``: the same
seed, rules, opponents and number of games give the same policy file, byte for byte. A time
budget (``minutes``) stops after the update that crosses it, so how many games that is depends
on the machine.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

import numpy as np

from hegemon.referee.actions import Action
from hegemon.referee.decisions import Decision
from hegemon.referee.encoding import answer, layout_of
from hegemon.referee.limits import bounded
from hegemon.referee.rules import RuleSet
from hegemon.sdk import Bot, BotView, play_local
from hegemon.sdk.network import Floats, Mask, Network

from .gradient import Adam, Batch, gradients, parameters

__all__ = [
    "GameSteps",
    "Learner",
    "Progress",
    "TrainConfig",
    "Training",
    "learner_seats",
    "play_game",
    "train",
]


@dataclass(frozen=True)
class TrainConfig:
    """What to train and how (the defaults learn to beat ``random`` in a few minutes)."""

    rules: RuleSet
    players: int
    opponent: str = "random"  # a sample bot's name, or a Python bot's file or folder
    seed: int = 0
    games: int | None = None  # stop after this many games …
    minutes: float | None = None  # … or after the update that crosses this time
    batch: int = 8  # games per update
    workers: int = 1  # processes playing the games of a batch
    hidden: tuple[int, ...] = (64,)
    rate: float = 3e-3
    entropy: float = 0.01
    shaping: float = 1.0
    max_decisions: int = 50_000  # a game ends there (ranked as at its round limit)
    meta: dict[str, Any] = field(default_factory=dict)  # written into the policy file


@dataclass(frozen=True)
class Progress:
    """One update: the games played so far and the learner's results in this batch."""

    games: int
    wins: float  # the batch's games won by a learner seat, as a fraction
    score: float  # the learner seats' mean return (place, -1 to +1)
    share: float  # the learner seats' mean share of the map at the end of their games
    entropy: float
    steps: int  # steps in the batch
    seconds: float  # since training started


@dataclass
class Training:
    """A finished training run: the network and its learning curve."""

    network: Network
    curve: list[Progress]
    seconds: float = 0.0  # wall time
    cpu_seconds: float = 0.0  # CPU time, the workers' included


def learner_seats(players: int, game: int) -> tuple[int, ...]:
    """The learner's seats in game ``game``: every other seat, starting at 0 or 1 in turn."""
    return tuple(range(game % 2, players, 2))


class Learner(Bot):
    """Plays the network, sampling every step, and keeps each seat's steps for the update."""

    name = "learner"

    def __init__(self, network: Network, rng: np.random.Generator):
        self.network = network
        self.rng = rng
        self.steps: dict[int, list[tuple[Floats, Mask, int, float]]] = {}

    def decide(self, view: BotView, decision: Decision) -> Action:
        mine = self.steps.setdefault(view.seat, [])
        share = _share(view.owner, view.seat)

        def choose(observation: Floats, mask: Mask) -> int:
            index = self.network.choose(observation, mask, float(self.rng.random()))
            mine.append((observation, mask, index, share))
            return index

        return answer(view, decision, choose)


def _share(owner: Sequence[int], seat: int) -> float:
    return sum(1 for o in owner if o == seat) / len(owner)


def place_score(place: int, players: int) -> float:
    """A finishing place as a return: +1 for the winner down to -1 for the last."""
    return 1.0 - 2.0 * (place - 1) / max(1, players - 1)


@dataclass(frozen=True)
class GameSteps:
    """The learner's steps of one game, with their returns, and how its seats finished."""

    steps: Batch
    won: bool
    outcomes: tuple[float, ...]
    shares: tuple[float, ...]  # each learner seat's share of the map at the end


def play_game(network: Network, config: TrainConfig, game: int) -> GameSteps:
    """Play game number ``game`` of the run (its seed and the learner's draws come from
    ``(config.seed, game)`` alone, so the worker that plays it does not matter)."""
    rng = np.random.default_rng([config.seed, game])
    learner = Learner(network, rng)
    seats = learner_seats(config.players, game)
    opponent = _opponent(config.opponent)
    bots = [learner if s in seats else opponent() for s in range(config.players)]
    seed = int(rng.integers(2**63))
    # every game ends: rules without a round limit get the default one (referee.limits)
    result = play_local(bots, bounded(config.rules), seed, decision_limit=config.max_decisions)
    assert result.game is not None
    rows: list[tuple[Floats, Mask, int, float]] = []
    outcomes = [place_score(result.places[seat], config.players) for seat in seats]
    finals = [_share(result.game.owner, seat) for seat in seats]
    for seat, outcome, final in zip(seats, outcomes, finals, strict=True):
        rows += [
            (obs, mask, a, outcome + config.shaping * (final - share))
            for obs, mask, a, share in learner.steps.get(seat, [])
        ]
    won = any(result.places[s] == 1 for s in seats)
    return GameSteps(_stack(rows), won, tuple(outcomes), tuple(finals))


def _opponent(spec: str) -> Callable[[], Bot]:
    from hegemon.sample_bots.local import python_bot

    factory = python_bot(spec)
    if factory is None:
        raise ValueError(f"{spec}: not a sample bot's name nor a Python bot's file or folder")
    return cast(Callable[[], Bot], factory)


def train(config: TrainConfig, report: Callable[[Progress], Any] | None = None) -> Training:
    """Train a fresh network by ``config``; ``report`` is called after every update."""
    from concurrent.futures import ProcessPoolExecutor
    from contextlib import ExitStack
    from multiprocessing import get_context

    from hegemon.referee.game import Game

    _opponent(config.opponent)  # a bad name fails here, before any game
    layout = layout_of(Game(config.rules, config.players, seed=0).board)
    network = Network.initial(
        layout.features,
        layout.actions,
        config.hidden,
        np.random.default_rng(config.seed),
        meta=dict(config.meta),
    )
    optimiser = Adam(parameters(network), config.rate)
    curve: list[Progress] = []
    start, cpu, games = time.monotonic(), cpu_seconds(), 0
    with ExitStack() as stack:
        play: Callable[..., Any] = map
        if config.workers > 1:
            pool = ProcessPoolExecutor(config.workers, mp_context=get_context("spawn"))
            play = stack.enter_context(pool).map
        while not _done(config, games, start):
            numbers = range(games, games + config.batch)
            played = list(
                play(play_game, [network] * config.batch, [config] * config.batch, numbers)
            )
            games += config.batch
            batch = _join([g.steps for g in played])
            grads, stats = gradients(network, batch, config.entropy)
            optimiser.step(grads)
            progress = Progress(
                games,
                sum(g.won for g in played) / len(played),
                float(np.mean([o for g in played for o in g.outcomes])),
                float(np.mean([f for g in played for f in g.shares])),
                stats.entropy,
                len(batch),
                time.monotonic() - start,
            )
            curve.append(progress)
            if report is not None:
                report(progress)
    network.meta.update(games=games)
    return Training(network, curve, time.monotonic() - start, cpu_seconds() - cpu)


def cpu_seconds() -> float:
    """The CPU time used by this process and by its children that ended (the workers, once
    their pool closed)."""
    import resource

    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def _done(config: TrainConfig, games: int, start: float) -> bool:
    if config.games is not None and games >= config.games:
        return True
    return config.minutes is not None and time.monotonic() - start >= 60 * config.minutes


def _stack(steps: list[tuple[Floats, Mask, int, float]]) -> Batch:
    features = steps[0][0].size if steps else 0
    return Batch(
        np.stack([s[0] for s in steps]).astype(np.float32) if steps else np.zeros((0, features)),
        np.stack([s[1] for s in steps]).astype(np.int8) if steps else np.zeros((0, 0), np.int8),
        np.array([s[2] for s in steps], dtype=np.int64),
        np.array([s[3] for s in steps], dtype=np.float64),
    )


def _join(batches: Sequence[Batch]) -> Batch:
    full = [b for b in batches if len(b)]
    return Batch(
        np.concatenate([b.observations for b in full]).astype(np.float64),
        np.concatenate([b.masks for b in full]).astype(bool),
        np.concatenate([b.actions for b in full]),
        np.concatenate([b.returns for b in full]),
    )
