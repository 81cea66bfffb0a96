"""The clock of a game: deadlines, the time bank with its increment, and the strike limit.

This is the one home of the time-control defaults; the CLI, the season settings and the SDK's
local play read them from :class:`TimeControl`. Pure data, no I/O: the referee's core
(:mod:`hegemon.referee.arbiter`) does the timing.

The rules, as :mod:`hegemon.referee.arbiter` applies them to every seat:

* **Start-up.** A bot process has ``startup`` seconds from its start to an answered Hello.
* **StartGame** must be answered within ``start_game`` seconds, **EndGame** is given
  ``end_game`` seconds (its answer is not waited for longer). Neither is charged to the bank:
  a failed StartGame is a ``startup`` fault; a late EndGame costs the bot nothing but the news.
* **Decisions.** Each Decide has ``min(decision, bank)`` seconds. All the time a seat spends
  on its decisions, wholly, is taken from its ``bank`` (like a chess clock), and every answer
  in time earns ``increment`` seconds back (Fischer increment: ``60+0.1`` is a bank of 60 s
  and 0.1 s more per answered decision). A late answer gets the default action and a strike;
  an empty bank forfeits the seat (``timeout``).
* **The clock** (``clock``). ``cpu`` (the default): a decision's time is the CPU time the bot's
  own processes used for it, all of them together — what the bot did, not what the machine
  was busy with; the referee's encoding, transport and thawing never count. A bot that blocks
  or sleeps is stopped by a backstop on its idle time (:meth:`TimeControl.backstop`: a few
  times the deadline of wall time in which it neither computed nor waited for a CPU), and
  that answer is late. Waiting for a CPU on a busy machine is never the bot's fault, up to an
  outer bound that only a machine overloaded many times over reaches
  (:meth:`TimeControl.wall_cap`). ``wall``: a decision's time is the wall time from the
  request to its answer, all included. Only bots whose processes the referee runs can be
  measured in CPU time; any other (a remote bot, a bot in the referee's own process) is on
  the wall clock whatever ``clock`` says.
* **Strikes.** A late, illegal or malformed answer is a strike; strike number
  ``max_strikes + 1`` forfeits the seat.

:meth:`TimeControl.max_seat_wall_time` is the most one seat can add to a game's wall time.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields
from typing import Any

CLOCKS = ("cpu", "wall")
"""What a decision's time is (see the module docstring): the bot's CPU time, or wall time."""
BACKSTOP = 3.0
"""On the CPU clock, a decision's idle time may be this many deadlines (and 1 s more)."""
WALL_CAP = 4.0
"""On the CPU clock, a decision's wall time may be this many backstops, however busy the
machine (a bot would have had less than a twelfth of a core)."""

SETTLE_SECONDS = 0.5
"""How long the referee waits, once per game at most, to see a bot whose connection broke
exit (so that its crash names the exit status). The seat is forfeited right after."""


@dataclass(frozen=True)
class TimeControl:
    """Deadlines (seconds) and the fault limit of every seat of a game."""

    startup: float = 10.0  # from process start to an answered Hello
    decision: float = 2.0  # one decision, at most (and never more than the bank left)
    bank: float = 60.0  # all of one seat's decisions in one game, before increments
    increment: float = 0.0  # added to the bank after every decision answered in time
    max_strikes: int = 5  # late/illegal/malformed answers tolerated; one more forfeits
    start_game: float = 10.0  # a StartGame answer
    end_game: float = 2.0  # an EndGame answer (not charged; the game is over)
    clock: str = "cpu"  # what a decision's time is: "cpu" (the bot's own) or "wall"

    def __post_init__(self) -> None:
        if self.clock not in CLOCKS:
            choices = ", ".join(CLOCKS)
            raise ValueError(f"TimeControl.clock must be one of {choices}, not {self.clock!r}")
        for f in fields(TimeControl):
            if f.name == "clock":
                continue
            value = getattr(self, f.name)
            if isinstance(value, bool) or not isinstance(value, int | float) or math.isnan(value):
                raise ValueError(f"TimeControl.{f.name} must be a number, not {value!r}")
            if value < 0 or (value == 0 and f.name not in ("increment", "max_strikes")):
                raise ValueError(f"TimeControl.{f.name} must be positive, not {value!r}")

    @classmethod
    def parse(cls, text: str, **others: Any) -> TimeControl:
        """The time control of a ``--time BANK[+INCREMENT]`` argument, in seconds:
        ``"60+0.1"`` is a 60 s bank and 0.1 s more per answered decision; ``"90"`` has no
        increment. ``others`` sets the remaining fields (e.g. ``decision=2``).

        >>> TimeControl.parse("60+0.1").increment
        0.1
        """
        bank, plus, increment = text.strip().partition("+")
        try:
            values = {"bank": float(bank), "increment": float(increment) if plus else 0.0}
        except ValueError:
            raise ValueError(
                f"bad time control {text!r}: give BANK or BANK+INCREMENT in seconds, e.g. 60+0.1"
            ) from None
        if not all(math.isfinite(v) for v in values.values()):
            raise ValueError(f"bad time control {text!r}: the numbers must be finite")
        return cls(**{**others, **values})

    def __str__(self) -> str:
        """The ``--time`` form: ``60+0.1`` (or ``60`` without increment)."""
        return f"{self.bank:g}" + (f"+{self.increment:g}" if self.increment else "")

    def backstop(self, deadline: float) -> float:
        """On the CPU clock, the idle time after which a decision with ``deadline`` seconds of
        CPU time is late all the same (a bot that sleeps or blocks): wall time in which the
        bot neither computed nor waited for a CPU (see
        :mod:`hegemon.referee.runner.sandbox.waits`), so a busy machine makes no bot late.

        >>> TimeControl().backstop(2.0)
        7.0
        """
        return BACKSTOP * deadline + 1.0

    def wall_cap(self, deadline: float) -> float:
        """On the CPU clock, the wall time after which a decision with ``deadline`` seconds of
        CPU time is late whatever the cause: the referee's last resort, reached only on a
        machine overloaded many times over.

        >>> TimeControl().wall_cap(2.0)
        28.0
        """
        return WALL_CAP * self.backstop(deadline)

    def max_seat_wall_time(self, decisions: int) -> float:
        """The most one seat can add to the wall time of a game in which it is asked
        ``decisions`` times: its start-up, StartGame and EndGame deadlines, one wait to see a
        broken bot exit, and its decisions: on the wall clock each at most ``decision`` seconds
        and all of them together at most the bank plus one increment per decision; on the CPU
        clock each at most its :meth:`wall_cap` (a bot that sleeps spends no CPU time, so its
        bank does not bound its wall time).

        >>> TimeControl(bank=60, increment=0.1, decision=2, clock="wall").max_seat_wall_time(20_000)
        2082.5
        >>> TimeControl(bank=60, increment=0.1, decision=2).max_seat_wall_time(10)  # the CPU clock
        302.5
        """
        if decisions < 0:
            raise ValueError("decisions must be zero or more")
        per_decision = self.wall_cap(self.decision) if self.clock == "cpu" else self.decision
        thinking = decisions * per_decision
        if self.clock == "wall":
            thinking = min(thinking, self.bank + decisions * self.increment)
        return self.startup + self.start_game + self.end_game + SETTLE_SECONDS + thinking
