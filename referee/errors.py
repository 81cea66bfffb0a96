"""The engine's refusal of an action, in a module of its own so that the rule modules the game
delegates to (:mod:`hegemon.referee.neutrals`, :mod:`hegemon.referee.alliances`) can raise it
without importing the game."""

from __future__ import annotations


class IllegalAction(ValueError):
    """An action the pending decision does not allow; ``reason`` says why. Nothing changed."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason
