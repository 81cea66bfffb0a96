"""The public position: what both a game and a seat's view hold, so rules read either alike."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from .board import Board
from .rules import RuleSet


class Position(Protocol):
    """The public position: what both a game and a seat's view hold."""

    @property
    def board(self) -> Board: ...
    @property
    def rules(self) -> RuleSet: ...
    @property
    def owner(self) -> Sequence[int]: ...
    @property
    def armies(self) -> Sequence[int]: ...
    @property
    def round(self) -> int: ...
