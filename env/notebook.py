"""What a notebook shows of an environment's game: the replay viewer once the game is over."""

from __future__ import annotations

import html

from hegemon.referee.game import Game
from hegemon.referee.record import Recorder

from .text import render_text


def record_text(game: Game, names: list[str]) -> str:
    """The record (``hegemon-record/1``) of ``game``, made by replaying its actions on a fresh
    game of the same rules and seed (the environments keep no recorder: it would slow every
    step)."""
    replay = Game(game.rules, game.player_count, game.seed)
    recorder = Recorder(replay, {"seats": names, "map": replay.board.name})
    for action in game.history:
        recorder.apply(action)
    return recorder.text()


def game_html(game: Game, names: list[str]) -> str:
    """A finished game: the replay viewer (``hegemon replay --html``'s page) in an iframe; a
    game still running: its public board as text (its record would reveal the seed)."""
    if not game.over:
        return f"<pre>{html.escape(render_text(game))}</pre>"
    from hegemon.referee.viewer import replay_html

    page = replay_html(record_text(game, names), f"{game.rules.preset} seed {game.seed}")
    return (
        f'<iframe srcdoc="{html.escape(page, quote=True)}" '
        'style="width:100%;height:720px;border:0" title="hegemon replay"></iframe>'
    )
