"""The sample bots: runnable as modules, always legal, deterministic, and of clearly different
strength (in-process games through :func:`hegemon.sdk.play_local`, no gRPC)."""

from __future__ import annotations

import hashlib
import itertools
import os
import subprocess
import sys

import pytest

from hegemon.referee.wire import bot_pb2_grpc, codec
from hegemon.sample_bots.minimal import Minimal
from hegemon.sample_bots.planner import PlannerBot
from hegemon.sdk import play_local
from tests.helpers.processes import ROOT, start_bot, stop_bot
from tests.helpers.sample_bots import BOTS, ORDER, line_up

PRESETS = ("classic", "classic-2004", "classic-2000")


@pytest.mark.parametrize("name", [*ORDER, "minimal"])
def test_each_sample_bot_runs_as_a_module(tmp_path, name):
    proc, channel, _ = start_bot(tmp_path, ["-m", f"hegemon.sample_bots.{name}"], name=name)
    try:
        hello = bot_pb2_grpc.BotStub(channel).Hello(codec.hello_request("test"), timeout=10)
        assert hello.name == name and hello.protocol_version == codec.PROTOCOL_VERSION
    finally:
        assert stop_bot(proc, channel) == 0


@pytest.mark.parametrize("preset", PRESETS)
def test_sample_bots_never_answer_illegally(preset):
    """Every sample bot in every seat position, 3 to 6 players; strict: the first refused or
    failed answer fails the test."""
    games = 0
    for rotation in range(4):
        names, bots = line_up(ORDER, rotation)
        result = play_local(
            bots,
            preset,
            seed=100 + rotation,
            options={"turn_limit": 40},
            strict=True,
            protocol=rotation == 0,
        )
        assert result.places and not result.faults
        games += 1
    for players, seed in ((3, 7), (5, 8), (6, 9)):
        names = [ORDER[(seed + i) % 4] for i in range(players)]
        result = play_local(
            [BOTS[n]() for n in names], preset, seed=seed, options={"turn_limit": 30}, strict=True
        )
        assert result.places and not result.faults
        games += 1
    result = play_local(
        [Minimal(), PlannerBot(), Minimal()],
        preset,
        seed=11,
        options={"turn_limit": 30},
        strict=True,
    )
    assert result.places and not result.faults
    assert games == 7


def action_digest(preset: str = "classic", seed: int = 3, turn_limit: int = 15) -> str:
    _names, bots = line_up(ORDER, seed)
    result = play_local(bots, preset, seed=seed, options={"turn_limit": turn_limit}, strict=True)
    return hashlib.sha256(repr(result.actions).encode()).hexdigest()


def test_same_game_same_bots_same_actions():
    for preset in PRESETS:
        assert action_digest(preset) == action_digest(preset)
    # ... also in fresh interpreters with different string hashing
    code = (
        "import sys; sys.path[:0] = [sys.argv[1]]; "
        "from tests.sdk.test_sample_bots import action_digest; print(action_digest())"
    )
    digests = set()
    for hash_seed in ("1", "2"):
        env = dict(os.environ, PYTHONHASHSEED=hash_seed, PYTHONPATH=str(ROOT))
        out = subprocess.run(
            [sys.executable, "-c", code, str(ROOT)],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert out.returncode == 0, out.stderr
        digests.add(out.stdout.strip())
    assert digests == {action_digest()}


# ---------------------------------------------------------------------- strength
SEATINGS = list(itertools.permutations(ORDER))  # all 24: every seat, every neighbour order
GAMES = 2 * len(SEATINGS)


@pytest.fixture(scope="module")
def league():
    """48 four-player classic games (turn limit 60): each seating twice, game g on seed g."""
    places: dict[str, list[int]] = {n: [] for n in ORDER}
    seconds = dict.fromkeys(ORDER, 0.0)
    decisions = dict.fromkeys(ORDER, 0)
    for game in range(GAMES):
        names = SEATINGS[game % len(SEATINGS)]
        result = play_local(
            [BOTS[n]() for n in names],
            "classic",
            seed=game,
            options={"turn_limit": 60},
            strict=True,
        )
        for seat, name in enumerate(names):
            places[name].append(result.places[seat])
            seconds[name] += result.seconds[seat]
            decisions[name] += result.decisions[seat]
    mean = {n: sum(p) / len(p) for n, p in places.items()}
    per_decision = {n: seconds[n] / decisions[n] for n in ORDER}
    return mean, per_decision, places


@pytest.mark.slow
def test_strength_order(league):
    mean, _, places = league
    summary = ", ".join(
        f"{n} {mean[n]:.2f} ({places[n].count(1)} wins)" for n in sorted(mean, key=mean.get)
    )
    assert mean["planner"] < mean["continental"] < mean["aggressive"] < mean["random"], summary
    # the clear gaps: the thinking bots far ahead of random, the planner ahead of them all
    assert mean["continental"] < mean["random"] - 0.5, summary
    assert mean["planner"] < mean["random"] - 1.0, summary
    assert mean["planner"] < mean["aggressive"] - 0.5, summary
    wins = {n: places[n].count(1) for n in ORDER}
    assert wins["planner"] == max(wins.values()) and wins["random"] == min(wins.values()), summary
