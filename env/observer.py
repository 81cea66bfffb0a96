"""One seat's observation kept up to date between steps, instead of encoded afresh each time.

A learning environment observes after every atomic step, and most steps change little: a
step of a compound answer changes nothing in the game, an attack changes two territories. A
:class:`SeatObserver` keeps the seat's view (:func:`hegemon.referee.view.view_for`, the
referee's redaction) until an action is applied or the seat's own secrets change, and its
observation vector, of which each observation rewrites only the parts whose part of the view
changed — so that it always equals ``encode(view_for(game, seat), decision, partial)`` (the
tests compare the two after random play on every kind of edition). They are compiled with the
engine, with the encoding (:mod:`hegemon.referee.observation`), and named here.
"""

from __future__ import annotations

from hegemon.referee.observation import PublicSeats, SeatObserver, ViewEncoder

__all__ = ["PublicSeats", "SeatObserver", "ViewEncoder"]
