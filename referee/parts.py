"""Which edition parts a game plays with (:mod:`hegemon.referee.edition`), in the order the
engine calls their hooks."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .actions import Bribe, BuildCentre, Capital, FortifyAlly, PlaceNeutral, ReinforceAlly
from .alliances import AlliancesPart
from .capitals import CapitalsPart
from .decisions import Kind
from .edition import Edition
from .master import MasterPart
from .missions import MissionsPart
from .neutrals import NeutralsPart
from .teams import TeamsPart

if TYPE_CHECKING:
    from .game import Game

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
