"""The trainer: imitation of a strong bot, then self-play policy gradient against a pool, with
evaluation, the best checkpoint kept and resume — a small numpy network, on a CPU.

The learner plays whole games by the referee's own loop (:func:`hegemon.sdk.play_local`),
taking every other seat (seat 0, 2, … in one game, 1, 3, … in the next, as ``hegemon bench``
seats two versions), and answers each decision step by step through
:mod:`hegemon.referee.encoding` — the very steps :class:`hegemon.sdk.PolicyBot` takes when the
saved policy plays in the arena. Its opponents in each game are drawn from a **pool**: the
sample bots named in ``pool`` and, once ``snapshot_every`` updates have passed, its own past
checkpoints (self-play). One update follows every ``batch`` games:

- **Imitation** (the first ``imitation`` updates, when a ``teacher`` is named): the teacher
  (e.g. ``planner``) labels every decision of the learner's seats with its own answer, in
  the encoder's steps (:mod:`hegemon.env.imitation`); the labelled steps go to a buffer and
  the network is fitted to them (cross-entropy, :func:`~hegemon.env.gradient.imitation_gradients`).
  The teacher plays its own answers at first, then hands over to the policy (``lead`` falls
  from 1 to 0 over the first half of these updates): DAgger, so the policy also learns the
  positions its own mistakes lead to.
- **Policy gradient** (after them): REINFORCE with a learned baseline on the policy's own
  sampled steps (:func:`~hegemon.env.gradient.gradients`; a seat's return is its finishing
  place, +1 to -1, plus ``shaping`` times the share of the map it gained to the end), plus
  ``teacher_weight`` times the imitation loss on the buffer, which keeps the policy near
  the teacher's play while the gradient moves it.

**Evaluation** every ``evaluate_every`` updates: ``evaluation_pairs`` pairs of games against
``evaluate_against``, the policy playing its likeliest action (:mod:`hegemon.env.evaluation`);
each is a row of ``evaluations.csv`` in ``out``. The best-scoring network is kept as
``best.npz``, and the run's result is that network, never a later, weaker one. ``out`` also
holds ``checkpoint.npz`` (written after every update; :func:`train` with ``resume`` continues
from it) and the past checkpoints of the pool.

**Reproducible.** Every game's seed, every sampled step and every minibatch come from ``seed``
and the game's or update's number: with ``games`` the same configuration gives the same policy
file, whatever ``workers``. A time budget (``minutes``) stops after the update that crosses it.
"""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import ExitStack
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, cast

import numpy as np

from hegemon.referee.limits import bounded
from hegemon.referee.parent import on_parent_gone
from hegemon.referee.rules import RuleSet
from hegemon.sdk import Bot, PolicyBot, play_local
from hegemon.sdk.network import Floats, Mask, Network
from hegemon.sdk.territory_head import TerritoryHead

from .checkpoint import RunState, load_checkpoint, save_checkpoint
from .evaluation import Evaluation, append_row, pair_score
from .gradient import Adam, Batch, gradients, imitation_gradients, parameters
from .imitation import Apprentice

__all__ = [
    "GameSteps",
    "Progress",
    "TrainConfig",
    "Training",
    "keep_best",
    "learner_seats",
    "play_game",
    "train",
]

BEST, CHECKPOINT, EVALUATIONS = "best.npz", "checkpoint.npz", "evaluations.csv"
"""The files a run writes in its ``out`` folder."""


@dataclass(frozen=True)
class TrainConfig:
    """What to train and how (the defaults: policy gradient against ``random``, no teacher)."""

    rules: RuleSet
    players: int
    opponent: str = "random"  # a sample bot's name, or a Python bot's file or folder
    seed: int = 0
    games: int | None = None  # stop after this many games …
    minutes: float | None = None  # … or after the update that crosses this time
    batch: int = 8  # games per update
    workers: int = 1  # processes playing the games of a batch
    hidden: tuple[int, ...] = (64,)
    head: int = 0  # units of the territory head's layers (0: a flat network, no such head)
    rate: float = 3e-3
    entropy: float = 0.01
    shaping: float = 1.0
    max_decisions: int = 50_000  # a game ends there (ranked as at its round limit)
    meta: dict[str, Any] = field(default_factory=dict)  # written into the policy file
    pool: tuple[str, ...] = ()  # sample bots met in training (empty: ``opponent``)
    teacher: str | None = None  # a bot whose answers the learner imitates
    imitation: int = 0  # updates of imitation before the policy gradient
    teacher_weight: float = 1.0  # the imitation loss's weight during the policy gradient
    minibatches: int = 256  # imitation: minibatches per update …
    minibatch: int = 256  # … of this many labelled steps …
    buffer: int = 60_000  # … drawn from the latest this many
    snapshot_every: int = 0  # a past checkpoint joins the pool every N updates (0: never)
    snapshots: int = 4  # the latest this many past checkpoints stay in the pool
    self_play: float = 0.5  # the share of opponents drawn from past checkpoints, when any
    evaluate_every: int = 0  # evaluate every K updates (0: never)
    evaluation_pairs: int = 8
    evaluate_against: str = "aggressive"
    out: Path | None = None  # the run's folder: checkpoints and evaluations.csv
    resume: bool = False  # continue from out/checkpoint.npz
    start: Path | None = None  # begin from this policy file's network (a warm start)


@dataclass(frozen=True)
class Progress:
    """Where a run is: after a game (``update`` not yet made) or after an update."""

    games: int
    updates: int
    steps: int  # the learner's steps so far (labelled or played)
    seconds: float  # wall time since the run started (resumed runs: in total)
    wins: float  # the latest batch's games won by a learner seat, as a fraction
    score: float  # the latest batch's mean return of the learner's seats (place, -1 to +1)
    agreement: float | None  # the share of the teacher's steps the policy would take (None:
    # no teacher)
    evaluation: float | None  # the latest evaluation's score (0 to 1)
    best: float | None

    @property
    def steps_per_second(self) -> float:
        return self.steps / self.seconds if self.seconds > 0 else 0.0

    def line(self, against: str = "") -> str:
        """One line for a terminal: games, updates, steps per second, latest evaluation."""
        text = (
            f"games {self.games} · updates {self.updates} · "
            f"{self.steps_per_second:,.0f} steps/s · won {self.wins:.0%}"
        )
        if self.agreement is not None:
            text += f" · teacher agreement {self.agreement:.0%}"
        if self.evaluation is None:
            return f"{text} · not evaluated yet"
        assert self.best is not None
        versus = f" vs {against}" if against else ""
        return f"{text} · evaluation{versus} {self.evaluation:.3f} (best {self.best:.3f})"


@dataclass
class Training:
    """A finished training run: the kept (best evaluated) network and what the run did."""

    network: Network
    curve: list[Progress]  # one per update
    evaluations: list[Evaluation] = field(default_factory=list)
    seconds: float = 0.0  # wall time
    cpu_seconds: float = 0.0  # CPU time, the workers' included


def learner_seats(players: int, game: int) -> tuple[int, ...]:
    """The learner's seats in game ``game``: every other seat, starting at 0 or 1 in turn."""
    return tuple(range(game % 2, players, 2))


def place_score(place: int, players: int) -> float:
    """A finishing place as a return: +1 for the winner down to -1 for the last."""
    return 1.0 - 2.0 * (place - 1) / max(1, players - 1)


@dataclass(frozen=True)
class GameSteps:
    """One game's learning rows: the policy's own steps with their returns (policy gradient),
    the teacher's labelled steps with the seat's outcome (imitation), and how it ended."""

    steps: Batch
    labels: Batch
    won: bool
    outcomes: tuple[float, ...]
    cpu: float  # the CPU seconds the game took in its process


def play_game(
    network: Network,
    config: TrainConfig,
    game: int,
    lead: float = 0.0,
    past: Sequence[Network] = (),
) -> GameSteps:
    """Play game number ``game`` of the run (its seed, its opponents and the learner's draws
    come from ``(config.seed, game)`` alone, so the worker that plays it does not matter).
    ``lead``: the chance the teacher plays its own answer; ``past``: past checkpoints that may
    take the other seats."""
    cpu = time.process_time()
    rng = np.random.default_rng([config.seed, game])
    teacher = _bot(config.teacher)() if config.teacher else None
    sample = not _imitating(config, game)  # imitation: the policy's likeliest action
    learner = Apprentice(network, teacher, rng, lead, sample=sample)
    seats = learner_seats(config.players, game)
    bots: list[Bot] = []
    for s in range(config.players):
        if s in seats:
            bots.append(learner)
        elif past and float(rng.random()) < config.self_play:
            bots.append(PolicyBot(past[int(rng.integers(len(past)))]))
        else:
            names = config.pool or (config.opponent,)
            bots.append(_bot(names[int(rng.integers(len(names)))])())
    seed = int(rng.integers(2**63))
    # every game ends: rules without a round limit get the default one (referee.limits)
    result = play_local(bots, bounded(config.rules), seed, decision_limit=config.max_decisions)
    assert result.game is not None
    outcomes = [place_score(result.places[seat], config.players) for seat in seats]
    finals = [_share(result.game.owner, seat) for seat in seats]
    rows: list[tuple[Floats, Mask, int, float]] = []
    labels: list[tuple[Floats, Mask, int, float]] = []
    for seat, outcome, final in zip(seats, outcomes, finals, strict=True):
        rows += [
            (obs, mask, a, outcome + config.shaping * (final - share))
            for obs, mask, a, share in learner.steps.get(seat, [])
        ]
        labels += [(*row, outcome) for row in learner.labels.get(seat, [])]
    won = any(result.places[s] == 1 for s in seats)
    cpu = time.process_time() - cpu
    return GameSteps(_stack(rows), _stack(labels), won, tuple(outcomes), cpu)


def _imitating(config: TrainConfig, game: int) -> bool:
    return config.teacher is not None and game // config.batch < config.imitation


def _share(owner: Sequence[int], seat: int) -> float:
    return sum(1 for o in owner if o == seat) / len(owner)


def _bot(spec: str) -> Callable[[], Bot]:
    from hegemon.sample_bots.local import python_bot

    factory = python_bot(spec)
    if factory is None:
        raise ValueError(f"{spec}: not a sample bot's name nor a Python bot's file or folder")
    return cast(Callable[[], Bot], factory)


class _Buffer:
    """The latest ``size`` labelled steps (a ring)."""

    def __init__(self, size: int):
        self.size = size
        self.rows: list[Batch] = []

    def add(self, batch: Batch) -> None:
        if len(batch):
            self.rows.append(batch)
        while self.rows and sum(len(b) for b in self.rows) - len(self.rows[0]) >= self.size:
            self.rows.pop(0)

    def draw(self, rng: np.random.Generator, n: int) -> Batch | None:
        if not self.rows:
            return None
        joined = self.joined()
        picked = rng.integers(len(joined), size=min(n, len(joined)))
        return Batch(
            joined.observations[picked].astype(np.float64),
            joined.masks[picked],
            joined.actions[picked],
            joined.returns[picked],
        )

    def joined(self) -> Batch:
        if len(self.rows) > 1:
            self.rows = [_join(self.rows, np.float32)]
        return self.rows[0]


def train(config: TrainConfig, report: Callable[[Progress], Any] | None = None) -> Training:
    """Train by ``config`` (from scratch, or from ``out/checkpoint.npz`` with ``resume``);
    ``report`` is called after every game and every update. The result's network is the best
    evaluated one when the run evaluated, else the last."""
    from multiprocessing import get_context

    _check(config)
    network, optimiser, state = _start(config)
    buffer = _Buffer(config.buffer)
    curve: list[Progress] = []
    evaluations: list[Evaluation] = []
    past = [Network.load(config.out / name) for name in state.pool] if config.out else []
    clock = _Clock(state, away=config.workers > 1)
    agreement = 0.0 if config.teacher else None
    last = Progress(
        state.games,
        state.updates,
        state.steps,
        0.0,
        0.0,
        0.0,
        agreement,
        state.evaluation,
        state.best,
    )
    with ExitStack() as stack:
        play: Callable[..., Any] = map
        if config.workers > 1:
            pool = ProcessPoolExecutor(
                config.workers,
                mp_context=get_context("spawn"),
                initializer=_leave_with,
                initargs=(os.getpid(),),
            )
            play = stack.enter_context(pool).map
        while not _done(config, state.games, clock.start):
            played: list[GameSteps] = []
            for game in _play_batch(play, network, config, state, past):
                played.append(game)
                clock.played(game.cpu)
                state.games += 1
                state.steps += len(game.steps) + len(game.labels)
                last = replace(last, games=state.games, steps=state.steps, seconds=clock.wall())
                if report is not None:
                    report(last)
            for game in played:
                buffer.add(game.labels)
            agreed = _update(network, optimiser, config, state.updates, played, buffer)
            state.updates += 1
            last = replace(
                last,
                updates=state.updates,
                seconds=clock.wall(),
                wins=sum(g.won for g in played) / len(played),
                score=float(np.mean([o for g in played for o in g.outcomes])),
                agreement=agreed if config.teacher else None,
            )
            if config.snapshot_every and config.out and state.updates % config.snapshot_every == 0:
                past = _snapshot(config, network, state, past)
            if config.evaluate_every and state.updates % config.evaluate_every == 0:
                clock.stamp(state)
                evaluations.append(_evaluate(config, network, optimiser, state, play, clock))
                last = replace(last, evaluation=state.evaluation, best=state.best)
            elif config.out is not None:  # (an evaluation writes it too)
                clock.stamp(state)
                save_checkpoint(config.out / CHECKPOINT, network, optimiser, state)
            curve.append(last)
            if report is not None:
                report(last)
    clock.stamp(state)
    network.meta.update(games=state.games)
    if config.out is not None:
        save_checkpoint(config.out / CHECKPOINT, network, optimiser, state)
        if state.best is not None:
            network = Network.load(config.out / BEST)
    return Training(network, curve, evaluations, state.seconds, state.cpu_seconds)


def _leave_with(trainer: int) -> None:
    """A game-playing worker ends with the trainer that started it: killed (SIGTERM, SIGKILL),
    the trainer cannot shut its pool down, and its workers would wait for games for ever."""
    on_parent_gone(trainer, lambda: os._exit(1))


def _play_batch(
    play: Callable[..., Any],
    network: Network,
    config: TrainConfig,
    state: RunState,
    past: Sequence[Network],
) -> Any:
    """The next update's games (an iterator of :class:`GameSteps`, in order, as they end)."""
    n, lead = config.batch, _lead(config, state.updates)
    numbers = range(state.games, state.games + n)
    return play(play_game, [network] * n, [config] * n, numbers, [lead] * n, [past] * n)


def _check(config: TrainConfig) -> None:
    """Fail before any game on a bad bot name or a run that cannot keep what it needs."""
    for name in {
        config.opponent,
        *config.pool,
        config.evaluate_against,
        config.teacher or "random",
    }:
        _bot(name)
    if (config.evaluate_every or config.snapshot_every or config.resume) and config.out is None:
        raise ValueError("evaluation, snapshots and resume need a folder for the run (out)")


def _start(config: TrainConfig) -> tuple[Network, Adam, RunState]:
    """A fresh network (or the ``start`` policy's), or the checkpoint to resume."""
    from hegemon.referee.encoding import layout_of
    from hegemon.referee.game import Game

    if config.out is not None:
        config.out.mkdir(parents=True, exist_ok=True)
        if config.resume and (config.out / CHECKPOINT).exists():
            return load_checkpoint(config.out / CHECKPOINT, config.rate)
        for name in (CHECKPOINT, BEST, EVALUATIONS):  # a new run: not an earlier run's files
            (config.out / name).unlink(missing_ok=True)
        shutil.rmtree(config.out / "pool", ignore_errors=True)
    board = Game(config.rules, config.players, seed=0).board
    layout = layout_of(board)
    rng = np.random.default_rng(config.seed)
    if config.start is not None:
        network = Network.load(config.start)
        if (network.observations, network.actions) != (layout.features, layout.actions):
            raise ValueError(f"{config.start}: a policy for another map")
        network.meta = {**config.meta, "start": config.start.name}
    else:
        network = Network.initial(
            layout.features, layout.actions, config.hidden, rng, meta=dict(config.meta)
        )
    if config.head and network.head is None:  # (a warm start's own head is kept)
        context = network.weights[-1][0].shape[0]
        network.head = TerritoryHead.for_board(board, context, config.head, config.head, rng)
    return network, Adam(parameters(network), config.rate), RunState()


def _lead(config: TrainConfig, update: int) -> float:
    """The chance the teacher plays its own answer: 1, falling to 0 over the first half of
    the imitation updates (then the policy plays and the teacher only labels)."""
    if config.teacher is None or update >= config.imitation:
        return 0.0
    return max(0.0, 1.0 - 2.0 * update / max(1, config.imitation))


def _update(
    network: Network,
    optimiser: Adam,
    config: TrainConfig,
    update: int,
    played: Sequence[GameSteps],
    buffer: _Buffer,
) -> float:
    """One update of the network; returns the share of sampled labels it agreed with."""
    rng = np.random.default_rng([config.seed, update, 1])
    agreement: list[float] = []
    if config.teacher is not None and update < config.imitation:
        for _ in range(config.minibatches):
            labels = buffer.draw(rng, config.minibatch)
            if labels is None:
                break
            grads, _, agreed = imitation_gradients(network, labels)
            optimiser.step(grads)
            agreement.append(agreed)
        return float(np.mean(agreement)) if agreement else 0.0
    batch = _join([g.steps for g in played], np.float64)
    if not len(batch):
        return 0.0
    grads, _ = gradients(network, batch, config.entropy)
    labels = buffer.draw(rng, config.minibatch) if config.teacher is not None else None
    if labels is not None and config.teacher_weight > 0:
        taught, _, agreed = imitation_gradients(network, labels)
        grads = [g + config.teacher_weight * t for g, t in zip(grads, taught, strict=True)]
        agreement.append(agreed)
    optimiser.step(grads)
    return float(np.mean(agreement)) if agreement else 0.0


def _snapshot(
    config: TrainConfig, network: Network, state: RunState, past: list[Network]
) -> list[Network]:
    """Save the network as a past checkpoint of the pool (the latest ``snapshots`` stay)."""
    assert config.out is not None
    (config.out / "pool").mkdir(exist_ok=True)
    name = f"pool/update-{state.updates}.npz"
    network.save(config.out / name)
    state.pool = [*state.pool, name][-config.snapshots :]
    return [*past, Network.load(config.out / name)][-config.snapshots :]


def _evaluate(
    config: TrainConfig,
    network: Network,
    optimiser: Adam,
    state: RunState,
    play: Callable[..., Any],
    clock: _Clock,
) -> Evaluation:
    """Evaluate, keep the network if it is the best so far, write the CSV row and the
    checkpoint."""
    assert config.out is not None
    n = config.evaluation_pairs
    opponent = _bot(config.evaluate_against)
    scores = list(
        play(
            pair_score,
            [network] * n,
            [opponent] * n,
            [config.rules] * n,
            [config.players] * n,
            [config.seed] * n,
            range(n),
            [config.max_decisions] * n,
        )
    )
    for _, cpu in scores:
        clock.played(cpu)
    score = float(np.mean([score for score, _ in scores]))
    keep_best(config.out / BEST, network, score, state)
    evaluation = Evaluation(
        state.updates,
        state.games,
        state.steps,
        state.cpu_seconds / 60,
        config.evaluate_against,
        2 * n,
        score,
        score if state.best is None else state.best,  # (keep_best has set it)
    )
    append_row(config.out / EVALUATIONS, evaluation)
    save_checkpoint(config.out / CHECKPOINT, network, optimiser, state)
    return evaluation


def keep_best(path: Path, network: Network, score: float, state: RunState) -> bool:
    """Record an evaluation's ``score`` in ``state``; if it beats every earlier one, save
    ``network`` to ``path`` (the run's result) and return True. A tie keeps the earlier."""
    state.evaluation = score
    if state.best is not None and score <= state.best:
        return False
    state.best, state.best_update = score, state.updates
    meta = {**network.meta, "games": state.games}
    Network(network.weights, network.value, meta, network.head).save(path)
    return True


class _Clock:
    """A run's wall and CPU time, a resumed run's earlier time included. The CPU time is this
    process's and, with ``away``, that of every game and evaluation played in a worker (as
    the worker measured it: a pool's workers are counted by the system only once they end)."""

    def __init__(self, state: RunState, away: bool):
        self.start = time.monotonic() - state.seconds
        self.cpu = time.process_time() - state.cpu_seconds
        self.away, self.elsewhere = away, 0.0

    def played(self, cpu: float) -> None:
        """Count the CPU seconds of a game or an evaluation pair."""
        if self.away:
            self.elsewhere += cpu

    def wall(self) -> float:
        return time.monotonic() - self.start

    def stamp(self, state: RunState) -> None:
        """Write the times into ``state``."""
        state.seconds = self.wall()
        state.cpu_seconds = time.process_time() - self.cpu + self.elsewhere


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


def _join(batches: Sequence[Batch], dtype: type = np.float64) -> Batch:
    full = [b for b in batches if len(b)]
    if not full:
        return _stack([])
    return Batch(
        np.concatenate([b.observations for b in full]).astype(dtype),
        np.concatenate([b.masks for b in full]).astype(bool),
        np.concatenate([b.actions for b in full]),
        np.concatenate([b.returns for b in full]),
    )
