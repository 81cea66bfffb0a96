"""The referee's memory grows with a game only as its record does (issue 32): a seat eliminated
is never asked again, so nothing more is queued for it for the rest of the game."""

from __future__ import annotations

import trio

from hegemon.referee.arbiter import Arbiter
from hegemon.referee.events import TurnStarted
from hegemon.referee.game import Game
from hegemon.referee.rules import make_rules
from hegemon.sample_bots.aggressive import AggressiveBot
from hegemon.sdk.local import UNTIMED, InProcessBot


def test_nothing_is_queued_for_a_seat_once_it_is_eliminated() -> None:
    game = Game(make_rules("classic", {"turn_limit": 200}), 4, 2)
    shared: dict = {}
    seats = [
        InProcessBot(
            AggressiveBot(), s, protocol=False, strict=False, decision_ms=1000, shared=shared
        )
        for s in range(4)
    ]
    result = trio.run(Arbiter(game, seats, "queues", UNTIMED).play)
    out = [s for s in range(4) if game.players[s].eliminated]
    assert result.reason == "conquest" and len(out) == 3  # two were out before the end
    for seat in out:  # what it was not yet told when it fell (its last turn at most), no more
        unseen = result.seats[seat].unseen
        rounds = {event.round for event in unseen if isinstance(event, TurnStarted)}
        assert max(rounds, default=0) - min(rounds, default=0) <= 1, (seat, len(unseen))
