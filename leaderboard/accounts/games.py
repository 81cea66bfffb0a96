"""An admin's action on the results: voiding a finished game (a game played wrongly: the wrong
bot version, a broken machine). Its result leaves every board; its record stays on disk."""

from __future__ import annotations

from hegemon.leaderboard.store import VOID, GameRow, MatchRow, Store

from . import AccountError


def void_game(store: Store, game_id: int, by: str, reason: str = "") -> MatchRow:
    """Void the finished game ``game_id``: its result is removed (the boards are refitted
    without it) and its match marked void, saying who voided it and why."""
    with store.session(write=True) as s:
        game = s.get(GameRow, game_id)
        if game is None:
            raise AccountError(f"no such game: {game_id}")
        match = s.get(MatchRow, game.match_id)
        assert match is not None  # a game's match is a foreign key
        s.delete(game)
        match.status = VOID
        match.last_error = f"voided by {by}" + (f": {reason[:1000]}" if reason else "")
        s.add(match)
        return match
