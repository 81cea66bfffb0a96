"""The environments' rewards: a finishing place's reward and the shaping by territory share."""

from __future__ import annotations

from hegemon.referee.game import Game

REWARDS = ("win", "place", "share")
"""The reward schemes: ``win`` (+1 first, -1 otherwise), ``place`` (+1 first down to -1 last,
evenly), ``share`` (``place`` plus every step's change of the seat's territory share)."""


def final_reward(mode: str, place: int, players: int) -> float:
    """The reward of finishing in ``place`` (1 = first) of ``players`` under ``mode``.

    >>> [final_reward("place", p, 3) for p in (1, 2, 3)]
    [1.0, 0.0, -1.0]
    >>> [final_reward("win", p, 3) for p in (1, 2, 3)]
    [1.0, -1.0, -1.0]
    """
    if mode == "win":
        return 1.0 if place == 1 else -1.0
    return 1.0 - 2.0 * (place - 1) / max(players - 1, 1)


def territory_shares(game: Game) -> list[float]:
    """Each seat's share of the territories (neutral colours' seats included)."""
    size = game.board.size
    return [count / size for count in game.territory_count]
