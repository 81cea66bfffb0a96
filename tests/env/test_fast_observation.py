"""The environments' fast path (observations kept between steps, options cached within a
decision) gives, at every step of random masked play on every preset, exactly the observation
and mask the full encoder gives from the referee's own redaction (``encode(view_for(...))``),
and the AEC environment the same bytes as before the fast path was made faster (the digests
below).

To remake the digests after a change of the observation on purpose::

    python -m tests.env.test_fast_observation
"""

from __future__ import annotations

import hashlib

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hegemon.env import HegemonAEC, aec, single
from hegemon.referee.encoding import action_mask, encode
from hegemon.referee.rules import PRESETS
from hegemon.referee.view import view_for
from tests.helpers.env import players_of


def most_players(preset: str) -> int:
    """The largest player count ``preset`` is played with."""
    return 2 if preset.startswith("two-player") else 6


def full_encoding(env: HegemonAEC, agent: str) -> tuple[np.ndarray, np.ndarray]:
    """``agent``'s observation and mask encoded afresh from ``view_for``: the reference."""
    view = view_for(env.game, env.possible_agents.index(agent))
    partial = env.partial if view.pending is not None else None
    return encode(view, view.pending, partial), action_mask(view, view.pending, partial)


def assert_same(got: dict[str, np.ndarray], agent: str, env: HegemonAEC, where: str) -> None:
    observation, mask = full_encoding(env, agent)
    for name, want in (("observation", observation), ("action_mask", mask)):
        assert got[name].dtype == want.dtype, f"{where}: {agent}'s {name} dtype"
        assert got[name].tobytes() == want.tobytes(), f"{where}: {agent}'s {name} differs"


def play(env: HegemonAEC, rng: np.random.Generator, max_iter: int, check_others: float) -> int:
    """Play ``env`` (reset) with uniformly random masked actions, comparing the acting agent's
    observation with the reference at every step and, with probability ``check_others`` per
    step, another agent's (which then sees several steps' changes at once); the steps played."""
    steps = 0
    for agent in env.agent_iter(max_iter=max_iter):
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        assert_same(obs, agent, env, f"step {steps}")
        if rng.random() < check_others:
            other = env.possible_agents[int(rng.integers(len(env.possible_agents)))]
            assert_same(env.observe(other), other, env, f"step {steps} (observed by another)")
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.integers(len(legal))]))
        steps += 1
    return steps


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    preset=st.sampled_from(list(PRESETS)),
    seed=st.integers(0, 2**31 - 1),
    more_players=st.integers(0, 4),
    check_others=st.sampled_from([0.0, 0.3, 1.0]),
)
def test_every_step_observes_what_the_full_encoder_gives(preset, seed, more_players, check_others):
    players = min(players_of(preset) + more_players, most_players(preset))
    env = aec(preset, players, options={"turn_limit": 5})
    env.reset(seed=seed)
    assert play(env, np.random.default_rng(seed), 1_500, check_others) > 0


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(preset=st.sampled_from(list(PRESETS)), seed=st.integers(0, 2**31 - 1))
def test_the_single_seat_environment_observes_what_the_full_encoder_gives(preset, seed):
    players = players_of(preset)
    env = single(preset, ["random"] * (players - 1), options={"turn_limit": 4})
    rng = np.random.default_rng(seed)
    try:
        obs, _ = env.reset(seed=seed)
        for step in range(600):
            view = view_for(env.game, env.seat)
            partial = env._partial  # (the environment's own progress: the reference's input)
            for name, want in (
                ("observation", encode(view, view.pending, partial)),
                ("action_mask", action_mask(view, view.pending, partial)),
            ):
                assert obs[name].tobytes() == want.tobytes(), f"step {step}: {name} differs"
            legal = np.flatnonzero(obs["action_mask"])
            obs, _, terminated, truncated, _ = env.step(int(legal[rng.integers(len(legal))]))
            if terminated or truncated:
                break
    finally:
        env.close()


def observation_digest(preset: str, seed: int = 7, max_iter: int = 3_000) -> str:
    """The sha256 of every observation and mask (the acting agent's, and every third step
    another's) of one random masked game of ``preset``."""
    env = aec(preset, players_of(preset), options={"turn_limit": 5})
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    digest = hashlib.sha256()
    for step, _agent in enumerate(env.agent_iter(max_iter=max_iter)):
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        digest.update(obs["observation"].tobytes() + obs["action_mask"].tobytes())
        if step % 3 == 0:
            other = env.observe(env.possible_agents[step % len(env.possible_agents)])
            digest.update(other["observation"].tobytes() + other["action_mask"].tobytes())
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.integers(len(legal))]))
    return digest.hexdigest()


DIGESTS: dict[str, str] = {
    "classic": "cceea39557eb4c607452fd9c3f6b1d4fb8045dfe17767937d32225e51d286466",
    "classic-2004": "1b89274bf424b4fd827c7220ad04d592948dcaec2dd1d4ee4c0fc76eb2eb0894",
    "classic-2000": "3261a0cb1fe631f7f17a4801436953083004fabcaef7ba940a1830d004275170",
    "mission-2000": "f095a85032ca6cc03b3e971fd39a43b7139065cd4102209408cf9bfcedce3053",
    "capital-2000": "6e7819eb4a2748b32b71cbc73b99ab0253ee7d682997d532447afb3459ed48a6",
    "mission-2004": "a1eb3a01310afcce549fe1288f700a68e3ccfc1b2160e692bee8a74264982b21",
    "team-2004": "c1ca0c23966070be1d8e2cd88bbc711fcff6b8c76b132f85773ff284e6ea90fa",
    "two-player-2000": "08aa9c3020561308af279a68b0fb7a4c1bf2e2f3ad1e9fb196ee210dbd1c81ac",
    "two-player-capital-2000": "a9fecd7bf5cf01299fb1a939837116fc21df4ff5f5a509e0086baa729514690c",
    "two-player-classic": "ca80204e26567452f320a2f9c5d7130250bf594aefc2aa4e0fa20fc986b7e62e",
    "two-player-2004-passive": "d2c6df617ceaabc8e42111312e9b9eb314c531cd06aeb6b7f96b5df45b9aa0b2",
    "two-player-2004-active": "279360e55af2abe13dc31f30aa7bf0141b24ae16238fb92b8e60a2d7381475e6",
    "risiko-master-base": "c11cee131dd116b8260de5c512ab0fb5fe9da077801f37837890f08cec6c8941",
    "risiko-master-expert": "7e482107cd774f11a70df667afdb886b7e837cef47eed18c7a867d9df1b015ea",
    "risiko-master-master": "7bcf23a9eb5f60809bf4939d52e660630d202f975094d3ae83256055c63859b2",
}


def test_the_digests_cover_every_preset():
    assert set(DIGESTS) == set(PRESETS)


@pytest.mark.parametrize("preset", list(PRESETS))
def test_observations_are_byte_identical_to_the_recorded_ones(preset):
    assert observation_digest(preset) == DIGESTS[preset], (
        f"{preset}: the observations changed; if on purpose, remake the digests (see the "
        "module's doc)"
    )


if __name__ == "__main__":
    for name in PRESETS:
        print(f'    "{name}": "{observation_digest(name)}",')
