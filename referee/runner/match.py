"""Playing one game between connected bots: the referee's core over gRPC links.

The rules (deadlines, time bank, strikes, forfeits, what each seat is told) are those of
:class:`hegemon.referee.arbiter.Arbiter`; this module only adds what the match runner knows:
which sandbox the bots ran in and which clock timed them, for the record's header (games in
the referee's own process, :func:`hegemon.sdk.play_local`, have neither: their records stay as
they were).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..arbiter import Arbiter, GameResult, SeatState, cpu_meter
from ..bottext import printable
from ..game import Game
from ..timecontrol import TimeControl
from .link import BotLink

__all__ = ["GameResult", "Referee", "SeatState", "clock_of", "printable", "sandbox_of"]


class Referee(Arbiter):
    """Runs one game: ``await Referee(game, links, game_id, time_control).play()``."""

    def __init__(
        self,
        game: Game,
        links: Sequence[BotLink],
        game_id: str,
        time_control: TimeControl,
        seat_names: Sequence[str] | None = None,
        on_progress: Callable[[Any], Any] | None = None,
    ):
        super().__init__(
            game,
            links,
            game_id,
            time_control,
            seat_names,
            header={"sandbox": sandbox_of(links), "clock": clock_of(links, time_control)},
            on_progress=on_progress,
        )


def sandbox_of(links: Sequence[BotLink]) -> str:
    """The weakest sandbox a local bot of this game ran in: ``rlimits`` (bubblewrap missing:
    no isolation) or ``bubblewrap``; ``remote`` when the referee started none of the bots."""
    kinds = {link.sandbox for link in links} - {"remote", "none"}
    if not kinds:
        return "remote"
    return "rlimits" if "rlimits" in kinds else "bubblewrap"


def clock_of(links: Sequence[BotLink], time_control: TimeControl) -> str | list[str]:
    """The clock that timed the game's decisions: ``cpu`` (each bot's own CPU time) or
    ``wall``; one per seat when they differ (a remote bot is always on the wall clock)."""
    clocks = ["wall" if cpu_meter(time_control, link) is None else "cpu" for link in links]
    return clocks[0] if len(set(clocks)) == 1 else clocks
