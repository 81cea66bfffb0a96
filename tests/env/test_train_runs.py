"""A training run's own files: the checkpoint it resumes from, the CSV of its evaluations, the
best network kept whatever came after it, and the progress line it prints while it trains."""

from __future__ import annotations

import csv
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from hegemon.env.checkpoint import RunState, load_checkpoint
from hegemon.env.evaluation import COLUMNS, read_rows
from hegemon.env.train import BEST, CHECKPOINT, EVALUATIONS, TrainConfig, keep_best, train
from hegemon.referee import make_rules
from hegemon.sdk.network import Network
from tests.helpers.league import hegemon

SHORT = make_rules("two-player-classic", {"turn_limit": 3})
"""Two-player classic, three rounds: games of a second."""


def config(out: Path, games: int, **changes: object) -> TrainConfig:
    """A few one-game updates of a small network, evaluated after each, each a past
    checkpoint of the pool."""
    base = TrainConfig(
        SHORT,
        2,
        "random",
        seed=5,
        games=games,
        batch=1,
        hidden=(8,),
        snapshot_every=1,
        snapshots=10,
        evaluate_every=1,
        evaluation_pairs=1,
        evaluate_against="random",
        out=out,
    )
    return replace(base, **changes)  # type: ignore[arg-type]


def same(a: Network, b: Network) -> bool:
    return all(
        np.array_equal(x, y)
        for x, y in zip(a.arrays().values(), b.arrays().values(), strict=True)
        if x.dtype != object and x.dtype.kind == "f"
    )


@pytest.fixture(scope="module")
def straight(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A run of four games (four updates) in one go."""
    out = tmp_path_factory.mktemp("straight")
    train(config(out, 4))
    return out


def test_a_resumed_run_ends_as_the_run_that_never_stopped(straight, tmp_path):
    train(config(tmp_path, 2))
    _, optimiser, state = load_checkpoint(tmp_path / CHECKPOINT, 3e-3)
    assert (state.updates, state.games, optimiser.steps) == (2, 2, 2)
    assert state.pool == ["pool/update-1.npz", "pool/update-2.npz"]
    train(config(tmp_path, 4, resume=True))
    resumed, _, state = load_checkpoint(tmp_path / CHECKPOINT, 3e-3)
    unbroken, _, _ = load_checkpoint(straight / CHECKPOINT, 3e-3)
    assert (state.updates, state.games) == (4, 4)
    assert same(resumed, unbroken)
    assert [r.score for r in read_rows(tmp_path / EVALUATIONS)] == [
        r.score for r in read_rows(straight / EVALUATIONS)
    ]


def test_every_evaluation_is_a_row_of_the_csv_file(straight):
    with (straight / EVALUATIONS).open(newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    assert tuple(rows[0]) == COLUMNS
    evaluations = read_rows(straight / EVALUATIONS)
    assert [e.update for e in evaluations] == [1, 2, 3, 4]
    assert [e.games for e in evaluations] == [1, 2, 3, 4]
    assert all(e.played == 2 and e.opponent == "random" for e in evaluations)
    assert all(0.0 <= e.score <= 1.0 for e in evaluations)
    assert [e.best for e in evaluations] == list(
        np.maximum.accumulate([e.score for e in evaluations])
    )


def test_the_run_gives_its_best_evaluated_network(straight):
    evaluations = read_rows(straight / EVALUATIONS)
    best = max(evaluations, key=lambda e: (e.score, -e.update))  # the first of the best
    kept = Network.load(straight / BEST)
    assert same(kept, Network.load(straight / f"pool/update-{best.update}.npz"))


def test_a_worse_evaluation_later_keeps_the_better_network(tmp_path):
    rng = np.random.default_rng(0)
    better, worse = (Network.initial(4, 3, (5,), rng) for _ in range(2))
    state, path = RunState(), tmp_path / BEST
    assert keep_best(path, better, 0.7, state)
    assert not keep_best(path, worse, 0.4, state)
    assert not keep_best(path, worse, 0.7, state)  # a tie keeps the earlier
    assert same(Network.load(path), better) and not same(better, worse)
    assert (state.best, state.evaluation) == (0.7, 0.7)


def test_the_trainer_prints_a_progress_line_from_the_first_game(tmp_path):
    out, run = tmp_path / "learned", tmp_path / "run"
    short = ("--rules", "two-player-classic", "--set", "turn_limit=3", "--players", "2")
    options = ("--games", "2", "--batch", "1", "--hidden", "8", "--teacher", "planner")
    evaluation = ("--imitation", "1", "--evaluate-every", "1", "--pairs", "1")
    done = hegemon("train", *short, *options, *evaluation, "--out", str(out), "--run", str(run))
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    first = next(line for line in lines if line.startswith("games "))
    assert first.startswith("games 1 · updates 0 · ") and "steps/s" in first
    assert "not evaluated yet" in first
    assert any(" · evaluation vs aggressive " in line for line in lines)
    assert "kept the best evaluation" in done.stdout
    assert {p.name for p in out.iterdir()} == {"bot.py", "policy.npz", "learning-curve.png"}
    assert {CHECKPOINT, BEST, EVALUATIONS} <= {p.name for p in run.iterdir()}


def test_a_run_can_start_from_another_runs_policy(straight, tmp_path):
    begun = train(config(tmp_path, 1, start=straight / BEST, evaluate_every=0, snapshot_every=0))
    before = Network.load(straight / BEST)
    assert begun.network.meta["start"] == BEST
    moved = [
        float(np.abs(a - b).max())
        for (a, _), (b, _) in zip(begun.network.weights, before.weights, strict=True)
    ]
    assert max(moved) <= 2 * 3e-3  # one Adam step of the default rate away, not a fresh network


def test_a_policy_for_another_map_cannot_start_a_run(tmp_path):
    other = Network.initial(7, 5, (3,), np.random.default_rng(0)).save(tmp_path / "other.npz")
    short = ("--rules", "two-player-classic", "--set", "turn_limit=3", "--players", "2")
    done = hegemon(
        "train", *short, "--games", "1", "--start", str(other), "--out", str(tmp_path / "x")
    )
    assert done.returncode == 2
    assert done.stderr.strip().endswith("a policy for another map or encoding (--start)")
    assert "Traceback" not in done.stderr


def test_a_new_run_in_a_used_folder_does_not_give_the_old_runs_network(tmp_path):
    train(config(tmp_path, 1))
    assert (tmp_path / BEST).exists()
    again = train(config(tmp_path, 1, seed=6, evaluate_every=0, snapshot_every=0))
    assert not (tmp_path / BEST).exists() and not (tmp_path / EVALUATIONS).exists()
    assert not (tmp_path / "pool").exists()
    _, _, state = load_checkpoint(tmp_path / CHECKPOINT, 3e-3)
    assert (state.games, state.best) == (1, None) and again.network.meta["games"] == 1
