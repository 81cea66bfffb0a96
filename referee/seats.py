"""A game's seats (docs/rules.md §1): who sits there (:class:`Player`), what the classic set-up
deals them (:func:`deal`), and the places they finish in (:func:`places`).

The functions read and change a :class:`hegemon.referee.game.Game` through its public API only,
as the edition parts do; an edition that deals or ranks otherwise does so in its part's ``deal``
or ``places`` hook instead.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .decisions import Phase, Phases
from .events import Dealt, FirstPlayer
from .formulas import score, starting_armies

if TYPE_CHECKING:
    from .game import Game


@dataclass(slots=True)
class Player:
    """One seat. ``neutral`` seats never take a turn (a neutral colour, or a forfeited bot)."""

    seat: int
    cards: list[int] = field(default_factory=list)
    reserve: int = 0  # set-up armies not yet placed
    eliminated: bool = False
    forfeited: bool = False
    neutral: bool = False
    # The later editions' per-seat facts (docs/rules.md §2–§5), which views show; the rest of an
    # edition's state is its part's (editions/contract.py).
    team: int = -1  # team game: seats of one team share a number
    ally_of: int = -1  # two-player active neutrals: the seat this neutral is allied to
    missions: list[int] = field(default_factory=list)
    capital: int = -1

    @property
    def active(self) -> bool:
        """Still playing: takes turns and can win."""
        return not (self.eliminated or self.forfeited or self.neutral)

    def copy(self) -> Player:
        """An independent copy (for :meth:`Game.clone <hegemon.referee.game.Game.clone>`)."""
        return dataclasses.replace(self, cards=list(self.cards), missions=list(self.missions))


def deal(game: Game) -> tuple[Phase, int]:
    """The classic set-up: each seat's starting armies, the territories dealt one each (the
    ``setup=deal`` option) or none (claimed in turn), who goes first, the shuffled deck. The
    set-up phase to begin and its first seat."""
    n = len(game.players)
    for p in game.players:
        p.reserve = starting_armies(game.rules.setup, game.board.size, n)
    rng = game.rng.setup
    if game.rules.setup == "deal":
        dealer = rng.below(n)
        first = (dealer + 1) % n
        territory_cards = list(range(game.board.size))
        rng.shuffle(territory_cards)
        dealt: list[list[int]] = [[] for _ in range(n)]
        for i, card in enumerate(territory_cards):
            dealt[(first + i) % n].append(card)
        for seat in range(n):
            for t in sorted(dealt[seat]):
                game.take(seat, t, 1)
            game.players[seat].reserve -= len(dealt[seat])
            game.emit(Dealt(seat, tuple(sorted(dealt[seat]))))
        game.first_player = first
        game.emit(FirstPlayer(first, "play"))
        phase = Phases.SETUP_PLACE
    else:
        first = rng.below(n)
        game.emit(FirstPlayer(first, "place"))
        game.first_player = first
        phase = Phases.CLAIM
    game.deck = list(range(game.board.card_count))
    game.rng.deck.shuffle(game.deck)
    return phase, first


def places(game: Game, winner: int) -> tuple[int, ...]:
    """The classic result: ``winner`` (a mission's, -1: none) first, the other players still
    in by territories (the ``victory=values`` option: territory values) then armies, then those
    who left, the last to leave first."""
    active = game.active_players()
    owner, armies, values = game.owner, game.armies, game.rules.victory == "values"
    key = {
        p: (
            score(game.board, owner, p, "values") if values else game.territory_count[p],
            sum(a for t, a in enumerate(armies) if owner[t] == p),
        )
        for p in active
    }
    ranked = sorted(active, key=lambda p: (p == winner, key[p]), reverse=True)
    result = [0] * game.player_count
    for i, p in enumerate(ranked):
        tied = i and key[p] == key[ranked[i - 1]] and ranked[i - 1] != winner
        result[p] = result[ranked[i - 1]] if tied else i + 1
    for i, p in enumerate(reversed(game.out_order)):
        result[p] = len(active) + i + 1
    return tuple(result)
