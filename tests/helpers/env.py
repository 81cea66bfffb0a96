"""Policies and loops the learning environments' tests share: random and greedy masked steps."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from hegemon.referee.encoding import PASS, Layout


def players_of(preset: str) -> int:
    """The smallest player count ``preset`` is played with."""
    if preset.startswith("two-player"):
        return 2
    return 4 if preset == "team-2004" else 3


def random_choice(rng: np.random.Generator) -> Callable[[np.ndarray], int]:
    """A policy that picks uniformly among the legal indices of a mask."""
    return lambda mask: int(rng.choice(np.flatnonzero(mask)))


def greedy_choice(layout: Layout, rng: np.random.Generator) -> Callable[[np.ndarray], int]:
    """A policy whose games end by conquest: never pass when something else is legal, always
    the largest amount, otherwise a random legal index."""

    def choose(mask: np.ndarray) -> int:
        legal = np.flatnonzero(mask)
        if len(legal) > 1 and mask[PASS]:
            legal = legal[1:]
        amounts = legal[(legal >= layout.amount_base) & (legal < layout.set_base)]
        return int(amounts[-1]) if len(amounts) else int(rng.choice(legal))

    return choose


def play_aec(env, choose: Callable[[np.ndarray], int], max_iter: int = 100_000) -> dict:
    """Play a reset AEC ``env`` with ``choose(mask)``; each agent's (total reward, terminated,
    truncated) when it left. Fails on an answer the engine refused."""
    outcome = {}
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter(max_iter=max_iter):
        obs, reward, terminated, truncated, info = env.last()
        assert "refused" not in info, info
        totals[agent] += reward
        if terminated or truncated:
            outcome[agent] = (totals[agent], terminated, truncated)
            env.step(None)
        else:
            env.step(choose(obs["action_mask"]))
    return outcome


def steps_for(action, view, decision) -> list[int]:
    """The atomic steps (indices) that answer ``decision`` with ``action``, found by trying
    every legal index (and, for a compound answer, every legal next index, to three steps);
    fails if none do."""
    import copy

    from hegemon.referee.encoding import Partial, action_mask, to_action

    def search(partial: Partial, depth: int) -> list[int] | None:
        for index in np.flatnonzero(action_mask(view, decision, partial)):
            trial = copy.deepcopy(partial)
            answer = to_action(int(index), view, decision, trial)
            if answer == action:
                return [int(index)]
            if answer is None and depth > 1:
                rest = search(trial, depth - 1)
                if rest is not None:
                    return [int(index), *rest]
        return None

    found = search(Partial(), 3)
    assert found is not None, f"no steps answer {decision.kind.value} with {action}"
    return found
