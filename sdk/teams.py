"""Team-game helpers for a bot (preset ``team-2004``, rules option ``teams``; docs/rules.md §4).

In a team game a territory may hold armies of several team-mates: the view's ``owner[t]`` is
the seat *controlling* it (the most armies; -1 on a tie), ``armies[t]`` that seat's armies and
``stacks`` everyone else's. These helpers read that for you; on a game without teams they
answer as for a classic game (every seat its own team of one), so a bot may call them always.
In a team game the map helpers of :mod:`hegemon.sdk.helpers` that compare ``owner`` with a seat
(``enemy_neighbours``, ``threat``, ``interior_territories``, ``continent_holdings``) count a
team-mate's territory as another's; :func:`is_enemy_territory` tells the other team's apart.
The legal options (``attack_options``, ``fortify_options``, ``own_territories``,
``border_territories``, ``bounds``, ``legal_actions``) follow the team rules already.

>>> from hegemon.referee import Game, make_rules
>>> from hegemon.referee.view import view_for
>>> view = view_for(Game(make_rules("team-2004"), players=4, seed=1), 0)
>>> is_team_game(view), team_mates(view)
(True, [2])
"""

from __future__ import annotations

from hegemon.referee.editions import teams as teamlib
from hegemon.referee.view import View

__all__ = [
    "armies_of",
    "controlled_territories",
    "friendly_reach",
    "is_enemy_territory",
    "is_team_game",
    "is_team_mate",
    "presence",
    "team_armies",
    "team_mates",
    "team_territories",
]


def _seat(view: View, seat: int | None) -> int:
    return view.seat if seat is None else seat


def is_team_game(view: View) -> bool:
    """Whether the view's rule set is a team game."""
    return teamlib.on(view.rules)


def is_team_mate(view: View, other: int, seat: int | None = None) -> bool:
    """Whether ``other`` plays on ``seat``'s team (a seat is its own team-mate; without teams
    only itself)."""
    seat = _seat(view, seat)
    if not is_team_game(view):
        return other == seat
    return other >= 0 and teamlib.team_of(other) == teamlib.team_of(seat)


def team_mates(view: View, seat: int | None = None) -> list[int]:
    """``seat``'s team-mates still playing, itself excluded (ascending)."""
    seat = _seat(view, seat)
    return [
        s.seat
        for s in view.seats
        if s.seat != seat
        and is_team_mate(view, s.seat, seat)
        and not (s.eliminated or s.forfeited or s.neutral)
    ]


def presence(view: View) -> list[dict[int, int]]:
    """Per territory: every seat with armies there and how many."""
    return teamlib.holdings(view)


def armies_of(view: View, territory: int, seat: int | None = None) -> int:
    """The armies ``seat`` has on ``territory`` (0 if none)."""
    return presence(view)[territory].get(_seat(view, seat), 0)


def team_armies(view: View, territory: int) -> int:
    """All the armies on ``territory``, whoever's (a team defends with all of them)."""
    return sum(presence(view)[territory].values())


def is_enemy_territory(view: View, territory: int, seat: int | None = None) -> bool:
    """Whether ``territory`` holds armies of a seat not on ``seat``'s team (one you may
    attack, if it borders armies of yours)."""
    seat = _seat(view, seat)
    held = presence(view)[territory]
    return bool(held) and not any(is_team_mate(view, s, seat) for s in held)


def controlled_territories(view: View, seat: int | None = None) -> list[int]:
    """The territories ``seat`` controls (what reinforcements count)."""
    seat = _seat(view, seat)
    return [t for t, p in enumerate(view.owner) if p == seat]


def team_territories(view: View, seat: int | None = None) -> list[int]:
    """The territories holding armies of ``seat``'s team: team-friendly ground."""
    seat = _seat(view, seat)
    return [
        t for t, held in enumerate(presence(view)) if any(is_team_mate(view, s, seat) for s in held)
    ]


def friendly_reach(view: View, source: int, seat: int | None = None) -> list[int]:
    """The territories ``seat`` may fortify into from ``source`` along team-friendly ground
    (``source`` excluded): the targets of a "connected" fortify move."""
    seat = _seat(view, seat)
    friendly = set(team_territories(view, seat))
    teams = [0 if t in friendly else -1 for t in range(view.board.size)]
    return teamlib.friendly_reach(view.board, teams, 0, source)
