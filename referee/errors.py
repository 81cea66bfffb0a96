"""The engine's refusals (an action, a game set-up), in a module of their own so that the
edition parts (:mod:`hegemon.referee.editions.contract`) can raise them without importing the
game."""

from __future__ import annotations


class IllegalAction(ValueError):
    """An action the pending decision does not allow; ``reason`` says why. Nothing changed."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class GameSetupError(ValueError):
    """A game that cannot be set up as asked (e.g. a player count the rule set does not allow)."""
