"""Shared helpers of the two-player tests (tests/test_two_player_*.py): games of the
``two-player-*`` presets, set up with default actions, and positions built by hand."""

from __future__ import annotations

from hegemon.referee import Game, Pass, make_rules
from hegemon.referee.decisions import Decision, Kind

PRESETS = (
    "two-player-2000",
    "two-player-classic",
    "two-player-2004-passive",
    "two-player-2004-active",
)
PASS_KINDS = (Kind.TRADE, Kind.ATTACK, Kind.FORTIFY, Kind.BRIBE, Kind.FORTIFY_ALLY)


def new_game(preset: str, seed: int = 0, **options) -> Game:
    """A two-player game of ``preset``, set-up pending."""
    return Game(make_rules(preset, options), 2, seed)


def set_up(preset: str, seed: int = 0, **options) -> Game:
    """A two-player game whose set-up was played with default actions: play is pending."""
    game = new_game(preset, seed, **options)
    while game.round == 0:
        game.apply(game.default_action())
    return game


def arrange(game: Game, owner, armies) -> None:
    """Overwrite the board (every seat's territory count too, neutral colours included)."""
    game.owner[:] = list(owner)
    game.armies[:] = list(armies)
    game.territory_count[:] = [game.owner.count(s) for s in range(len(game.players))]


def decision(game: Game) -> Decision:
    assert game.pending is not None, "the game is over"
    return game.pending


def advance_to(game: Game, kind: Kind, seat: int | None = None) -> list:
    """Answer with Pass (or the default) until ``kind`` is pending (for ``seat``); the events."""
    events: list = []
    for _ in range(10_000):
        d = decision(game)
        if d.kind is kind and (seat is None or d.player == seat):
            return events
        events += game.apply(
            Pass() if d.kind in PASS_KINDS and not d.forced else game.default_action()
        )
    raise AssertionError(f"{kind} never came")


def neighbours_of(game: Game, t: int) -> tuple[int, ...]:
    return game.board.neighbours[t]
