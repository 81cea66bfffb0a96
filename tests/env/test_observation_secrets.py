"""An observation is the seat's own view only: two games that differ only in another seat's
secrets (its cards, missions, capital, a neutral's bribe cards, the deck) look the same."""

from __future__ import annotations

import numpy as np
import pytest

from hegemon.env import HegemonAEC, aec
from hegemon.referee.encoding import layout_of
from tests.helpers.env import greedy_choice


def played(preset: str, players: int, until) -> HegemonAEC:
    """An AEC environment of ``preset`` played greedily until ``until(game)`` holds."""
    env = aec(preset, players)
    env.reset(seed=4)
    choose = greedy_choice(layout_of(env.game.board), np.random.default_rng(4))
    for _ in env.agent_iter(max_iter=50_000):
        if until(env.game):
            return env
        obs, *_ = env.last()
        env.step(choose(obs["action_mask"]))
    raise AssertionError(f"{preset}: the state sought never came")


def swap_cards(game, seat: int) -> None:
    """Give ``seat`` other cards from the deck (as many as it held), the deck the rest."""
    held = game.players[seat].cards
    fresh = [c for c in game.deck if c not in held][: len(held)]
    game.deck = [c for c in game.deck if c not in fresh] + held
    game.players[seat].cards = fresh


def other_mission(game, seat: int) -> None:
    held = game.players[seat].missions
    game.players[seat].missions = [(m + 1) % 14 for m in held]


def other_capital(game, seat: int) -> None:
    player = game.players[seat]
    own = [t for t, p in enumerate(game.owner) if p == seat and t != player.capital]
    player.capital = own[0]


def observations(env, agent: str) -> dict[str, np.ndarray]:
    return {k: v.copy() for k, v in env.observe(agent).items()}


@pytest.mark.parametrize(
    ("preset", "players", "until", "secret", "seat"),
    [
        ("classic", 3, lambda g: len(g.players[1].cards) >= 2, swap_cards, 1),
        ("mission-2000", 3, lambda g: g.round >= 1, other_mission, 1),
        (
            "capital-2000",
            3,
            lambda g: g.round >= 1 and g.public_capital(1) < 0 and g.players[1].capital >= 0,
            other_capital,
            1,
        ),
        # the bribes a neutral (seat 2 on) was given are its face-down cards
        ("two-player-2004-active", 2, lambda g: len(g.players[2].cards) >= 1, swap_cards, 2),
    ],
    ids=["cards+deck", "missions", "capital", "bribes"],
)
def test_another_seats_secrets_never_reach_the_observation(preset, players, until, secret, seat):
    env = played(preset, players, until)
    observer = "seat_0"
    before = observations(env, observer)
    own_before = observations(env, f"seat_{seat}") if seat < players else None
    secret(env.game, seat)
    after = observations(env, observer)
    for key in before:
        assert np.array_equal(before[key], after[key]), key
    if own_before is not None:  # the change is real: the seat itself sees it
        assert not np.array_equal(
            own_before["observation"], observations(env, f"seat_{seat}")["observation"]
        )
