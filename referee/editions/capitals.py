"""Capital Risk (docs/rules.md §3, seed 001 "Erobring av hovedsteder"): how many capitals win, what
capturing a capital does to the board, and the part (:class:`CapitalsPart`) playing it in a game.

>>> capitals_needed(4)
3
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from ..actions import Capital
from ..board import Board
from ..decisions import Decision, Kind, Phase
from ..errors import IllegalAction
from ..events import CapitalChosen, CapitalConquered
from .contract import Edition, Handler

if TYPE_CHECKING:
    from ..game import Game

# seed 001: "Antall spillere 2-3 4-5 6 / Antall hovedsteder 2 3 4"
_NEEDED = {2: 2, 3: 2, 4: 3, 5: 3, 6: 4}


def capitals_needed(players: int) -> int:
    """Capitals a player must hold to win, its own original capital included."""
    return _NEEDED[players]


def capitals_held(owner: Sequence[int], capitals: Sequence[int], seat: int) -> int:
    """How many of the chosen ``capitals`` (one territory per seat, -1: none) ``seat`` holds."""
    return sum(1 for c in capitals if c >= 0 and owner[c] == seat)


def has_won(owner: Sequence[int], capitals: Sequence[int], seat: int, players: int) -> bool:
    """``seat`` holds its own original capital and enough capitals in all for ``players``
    players (seed 001: "En spiller kan ikke vinne om han ikke fremdeles sitter med sin
    opprinnelige hovedstad"); a two-player game's neutral colours are no players and have no
    capital."""
    own = capitals[seat]
    return (
        own >= 0
        and owner[own] == seat
        and capitals_held(owner, capitals, seat) >= capitals_needed(players)
    )


def replaced_on_capture(
    board: Board, owner: Sequence[int], capital: int, loser: int
) -> tuple[int, ...]:
    """The territories whose armies are taken off when ``loser``'s ``capital`` falls: every
    other territory ``loser`` holds on the capital's continent (each then gets one army of the
    conqueror, from reserve; seed 001)."""
    continent = board.continents[board.territories[capital].continent]
    return tuple(t for t in continent.territories if t != capital and owner[t] == loser)


@dataclass(slots=True)
class CapitalsPart(Edition):
    """Capital Risk in play: which capitals are public, and the capitals' territory cards."""

    known: list[bool]  # per seat: its capital is public (it was captured)
    set_aside: list[int]  # the capitals' cards, face down for the whole game (seed 001)

    @classmethod
    def create(cls, game: Game) -> CapitalsPart | None:
        return cls([False] * len(game.players), []) if game.rules.capitals == "on" else None

    def copy(self) -> CapitalsPart:
        return CapitalsPart(list(self.known), list(self.set_aside))

    def before_play(self, game: Game) -> bool:
        """After the set-up, each player in turn secretly picks an own territory as capital
        (seed 001); then play begins."""
        n = len(game.players)
        for step in range(n):
            player = game.players[(game.first_player + step) % n]
            if player.active and player.capital < 0:
                own = tuple(game.holdings.own_territories(game, player.seat))
                game.ask(Decision(Kind.CAPITAL, player.seat, territories=own), Phase.CAPITALS)
                return True
        return False

    def on_capital(self, game: Game, action: Capital, dry: bool) -> None:
        d = game.expect(Kind.CAPITAL, "capital")
        t = game.territory(action.territory, "capital:")
        if t not in d.territories:
            raise IllegalAction(f"capital: {game.board.name_of(t)} is not yours")
        if dry:
            return
        game.players[d.player].capital = t
        # seed 001: "De plasserer det RISK-kortet som representerer dette området foran seg -
        # med billedsiden ned": the capital's card leaves the deck
        if t in game.deck:
            game.deck.remove(t)
            self.set_aside.append(t)
        game.emit(CapitalChosen(d.player, t))
        game.ask_before_play()

    handlers: ClassVar[dict[type, Handler]] = {Capital: on_capital}

    def after_conquest(self, game: Game, attacker: int, defender: int, target: int) -> None:
        """``attacker`` took ``defender``'s capital (seed 001): the loser announces it and
        hands over every card; its armies on that continent are taken off, and each such
        territory gets one army of the conqueror from reserve (new armies, none from the
        board)."""
        if game.players[defender].capital != target or self.known[defender]:
            return  # announced at its first capture; later it is a captured capital like any
        self.known[defender] = True
        victim = game.players[defender]
        taken = victim.cards
        game.players[attacker].cards.extend(taken)
        victim.cards = []
        replaced = replaced_on_capture(game.board, game.owner, target, defender)
        removed = sum(game.armies[t] for t in replaced)
        for t in replaced:
            game.take(attacker, t, 1)
        game.emit(CapitalConquered(attacker, defender, target, len(taken), replaced, removed))

    def check_end(self, game: Game) -> None:
        """The player whose turn it is wins holding enough capitals, its own included."""
        if game.rules.missions == "2000":
            return  # the mission is the 2000 edition's objective then (checked first)
        seat = game.turn_holder()
        if seat < 0:
            return
        capitals = [p.capital for p in game.players]
        if has_won(game.owner, capitals, seat, game.player_count):
            game.finish("capitals", winner=seat)
