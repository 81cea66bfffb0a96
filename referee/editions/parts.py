"""Which edition parts a game plays with (:mod:`hegemon.referee.editions.contract`), in the
order the engine calls their hooks, and which board rules (:mod:`hegemon.referee.holdings`) a
rule set plays on: the only place that tells the editions apart."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from ..actions import Bribe, BuildCentre, Capital, FortifyAlly, PlaceNeutral, ReinforceAlly
from ..board import Board
from ..decisions import Kind
from ..formulas import STARTING_ARMIES
from ..holdings import AttackLimits, Holdings
from ..rules import RuleSet
from . import master, neutrals, teams
from .alliances import AlliancesPart
from .capitals import CapitalsPart
from .contract import Edition
from .master import MasterPart
from .missions import MissionsPart
from .neutrals import NeutralsPart
from .teams import TeamsPart

if TYPE_CHECKING:
    from ..game import Game

#: Every part, in hook order. A part's ``create`` returns None when the rule set does not
#: play it. The order keeps each moment's rules in the order the editions print them (e.g.
#: the points victory is checked before a mission's or the capitals').
PARTS = (NeutralsPart, AlliancesPart, MasterPart, MissionsPart, CapitalsPart, TeamsPart)

#: The decision each part's own action answers, to refuse it in a game without that part.
EDITION_ACTIONS: dict[type, tuple[Kind, str]] = {
    Capital: (Kind.CAPITAL, "capital"),
    BuildCentre: (Kind.BUILD_CENTRE, "build_centre"),
    PlaceNeutral: (Kind.PLACE_NEUTRAL, "place_neutral"),
    Bribe: (Kind.BRIBE, "bribe"),
    ReinforceAlly: (Kind.REINFORCE_ALLY, "reinforce_ally"),
    FortifyAlly: (Kind.FORTIFY_ALLY, "fortify_ally"),
}


def parts_for(game: Game) -> list[Edition]:
    """The parts ``game``'s rule set turns on (none for the classic game)."""
    parts: list[Edition] = []
    for kind in PARTS:
        part = kind.create(game)
        if part is not None:
            parts.append(part)
    return parts


@dataclass(frozen=True, slots=True)
class BoardRules:
    """How a rule set's board works: where armies sit (``holdings``) and what limits an attack
    (``limits``). Stateless; one per rule set."""

    holdings: Holdings
    limits: AttackLimits


CLASSIC = BoardRules(Holdings(), AttackLimits())


@lru_cache(maxsize=64)
def _choose(rules: RuleSet, kinds: tuple[type[Edition], ...]) -> BoardRules:
    holdings = next((h for k in kinds if (h := k.holdings_for(rules)) is not None), None)
    limits = next((x for k in kinds if (x := k.limits_for(rules)) is not None), None)
    if holdings is None and limits is None:
        return CLASSIC
    return BoardRules(holdings or CLASSIC.holdings, limits or CLASSIC.limits)


_last: list[tuple[RuleSet, tuple[type[Edition], ...], BoardRules]] = []


def board_rules(rules: RuleSet) -> BoardRules:
    """The board rules ``rules`` plays on (for a game or any seat's view of it), chosen once
    per rule set by the parts in :data:`PARTS` (:meth:`Edition.holdings_for`,
    :meth:`Edition.limits_for`; the classic ones when none answers)."""
    if _last and _last[0][0] is rules and _last[0][1] is PARTS:  # most ask for the last's
        return _last[0][2]
    chosen = _choose(rules, PARTS)
    _last[:] = [(rules, PARTS, chosen)]
    return chosen


def seating(rules: RuleSet, players: int) -> tuple[int, str]:
    """(the neutral colours' seats, why ``players`` players cannot play ``rules``, or "")."""
    extra = neutrals.neutral_count(rules.two_player)
    if extra and players != neutrals.PLAYERS:
        return extra, f"rule set '{rules.preset}' is for 2 players, not {players}"
    if not extra and players not in STARTING_ARMIES:
        hint = "; for two use two-player-capital-2000" if rules.capitals == "on" else ""
        return extra, f"rule set '{rules.preset}' is for 3 to 6 players, not {players}{hint}"
    if teams.on(rules) and players not in teams.TEAM_PLAYERS:
        return extra, f"rule set '{rules.preset}' is for 4 to 6 players, not {players}"
    return extra, ""


def board_problem(rules: RuleSet, board: Board, players: int) -> str:
    """Why ``players`` players cannot play ``rules`` on ``board`` ("" if they can)."""
    return master.setup_problem(rules, board, players)
