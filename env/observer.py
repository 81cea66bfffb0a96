"""One seat's observation kept up to date between steps, instead of encoded afresh each time.

A learning environment observes after every atomic step, and most steps change little: a
step of a compound answer changes nothing in the game, an attack changes two territories. A
:class:`SeatObserver` keeps the seat's view (:func:`hegemon.referee.view.view_for`, the
referee's redaction) until an action is applied or the seat's own secrets change, and its
observation vector, of which each observation rewrites only the parts whose part of the view
changed — so that it always equals ``encode(view_for(game, seat), decision, partial)`` (the
tests compare the two after random play on every kind of edition).
"""

from __future__ import annotations

from itertools import compress
from operator import ne

import numpy as np

from hegemon.referee.board import Board
from hegemon.referee.decisions import Decision
from hegemon.referee.encoding import Partial, Sections
from hegemon.referee.game import Game
from hegemon.referee.view import SeatInfo, View, public_seats, view_for


class PublicSeats:
    """Every seat's public facts in ``game`` (:func:`public_seats`), read again only after an
    action was applied (they change only so); the observers of one game share them."""

    def __init__(self, game: Game):
        self.game = game
        self.step: tuple[int, bool] | None = None  # the game's step they are of
        self.seats: tuple[SeatInfo, ...] = ()

    def now(self) -> tuple[tuple[int, bool], tuple[SeatInfo, ...]]:
        """(the game's step, the facts then)."""
        game = self.game
        step = (len(game.history), game.over)
        if step != self.step:
            self.step = step
            self.seats = public_seats(game)
        return step, self.seats


class ViewEncoder:
    """The observation of ``seat``'s successive views of ``board``: each :meth:`observe`
    rewrites only what differs from the view observed last, so that it always equals
    ``encode(view, decision, partial)``."""

    def __init__(self, board: Board, seat: int):
        self.seat = seat
        self._sections = Sections(board)
        self._written: View | None = None  # the view the observation shows
        self._seats: tuple[SeatInfo, ...] = ()
        self._marks: tuple[tuple[int, ...], list[int], tuple[object, ...]] | None = None
        self._counters: tuple[int, int, int] | None = None
        self._hand: tuple[int, ...] | None = None
        self._missions: tuple[int, ...] | None = None

    def observe(
        self, view: View, decision: Decision | None, partial: Partial | None = None
    ) -> np.ndarray:
        """The observation of ``view`` facing ``decision`` at ``partial``'s step (a new
        array)."""
        if view.seat != self.seat:  # (the observation is relative to the seat)
            raise ValueError(f"seat {self.seat}'s encoder was given seat {view.seat}'s view")
        out = self._sections
        if view is not self._written:
            self._rewrite(view, self._written)
            self._written = view
        out.decision(decision, partial)
        return out.out.copy()

    def _rewrite(self, view: View, before: View | None) -> None:
        """Rewrite what differs between ``view`` and the view written ``before``."""
        out, me = self._sections, self.seat
        if before is None:
            out.board(range(len(view.owner)), view.owner, view.armies, me, len(view.seats))
        elif view.owner != before.owner or view.armies != before.armies:
            rows = _differing(view.armies, before.armies)
            if view.owner != before.owner:  # (a conquest may leave the armies' number as it was)
                rows = sorted({*rows, *_differing(view.owner, before.owner)})
            owner, armies = view.owner, view.armies
            out.board(
                rows, [owner[t] for t in rows], [armies[t] for t in rows], me, len(view.seats)
            )
        if view.seats is not self._seats:  # (seat_rows leaves the seats that are as they were)
            out.seat_rows(view.seats, me, self._seats)
            self._seats = view.seats
        marks = (view.centres, [info.capital for info in view.seats], view.stacks)
        if marks != self._marks:  # centres, known capitals, team stacks: rarely
            self._marks = marks
            out.marks(view.centres, view.seats, me, view.stacks)
        counters = (view.trade_count, view.next_trade_value, view.round)
        if counters != self._counters:
            self._counters = counters
            out.state(*counters, view.rules.preset)
        if view.hand != self._hand:
            self._hand = view.hand
            out.hand(view.hand, view.rules.card_values)
        if view.missions != self._missions:
            self._missions = view.missions
            out.missions(view.missions)
        if before is None or view.capital != before.capital:
            out.capital(before.capital if before is not None else -1, view.capital)


class SeatObserver:
    """The view and the observation of ``game`` for ``seat``; see the module's doc.
    ``public``: the facts shared with the game's other observers (by default its own)."""

    def __init__(self, game: Game, seat: int, public: PublicSeats | None = None):
        self.game = game
        self.seat = seat
        self._public = public if public is not None else PublicSeats(game)
        self._view: tuple[tuple[object, ...], View] | None = None
        self._encoder = ViewEncoder(game.board, seat)

    def view(self) -> View:
        """The seat's view now: ``view_for(game, seat)``, made again only when an action was
        applied or the seat's own secrets changed since the last."""
        step, seats = self._public.now()
        player = self.game.players[self.seat]
        if self._view is not None:
            (was_step, cards, missions, capital), view = self._view
            if (
                was_step == step
                and cards == player.cards
                and missions == player.missions
                and capital == player.capital
            ):
                return view
        view = view_for(self.game, self.seat, seats)
        self._view = ((step, list(player.cards), list(player.missions), player.capital), view)
        return view

    def observe(
        self, decision: Decision | None, partial: Partial | None = None, view: View | None = None
    ) -> np.ndarray:
        """The seat's observation facing ``decision`` at ``partial``'s step (a new array);
        ``view``: :meth:`view`'s answer just now, if at hand."""
        return self._encoder.observe(view if view is not None else self.view(), decision, partial)


def _differing(new: tuple[int, ...], old: tuple[int, ...]) -> list[int]:
    """The indices at which ``new`` and ``old`` (as long) differ."""
    return list(compress(range(len(new)), map(ne, new, old)))  # (no Python loop: a third)
