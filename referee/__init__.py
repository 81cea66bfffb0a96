"""hegemon's referee: the pure rules engine (this package's top level); in
:mod:`hegemon.referee.wire`, the bot protocol's generated code and codec, which the referee and
the SDK both speak; in :mod:`hegemon.referee.runner`, the match runner that plays bots over gRPC.

The rules engine does no I/O and imports nothing from the rest of hegemon.
"""

# First, before any engine module is imported: a checkout's compiled engine (mypyc) is used only
# if it is in place before the first of its modules loads, so that a process never mixes compiled
# and pure copies, and only when built from exactly these sources (hegemon.referee.native; an
# installed wheel carries its compiled modules beside the sources and needs none of it). So the
# imports below follow a statement:
# ruff: noqa: E402
from . import native

native.install()

from .actions import (
    Action,
    ActionFormatError,
    Attack,
    Bribe,
    Capital,
    Claim,
    Defend,
    Forfeit,
    Fortify,
    FortifyAlly,
    Occupy,
    Pass,
    Place,
    PlaceNeutral,
    PlayerAction,
    ReinforceAlly,
    Trade,
    action_from_list,
    action_to_list,
    player_action_from_list,
)
from .board import Board, MapError, builtin_map, load_map, parse_map
from .decisions import Decision, Kind, Phase
from .events import Event, redact
from .game import Game, GameSetupError, IllegalAction
from .rules import PRESETS, RulesError, RuleSet, make_rules

__all__ = [
    "PRESETS",
    "Action",
    "ActionFormatError",
    "Attack",
    "Board",
    "Bribe",
    "Capital",
    "Claim",
    "Decision",
    "Defend",
    "Event",
    "Forfeit",
    "Fortify",
    "FortifyAlly",
    "Game",
    "GameSetupError",
    "IllegalAction",
    "Kind",
    "MapError",
    "Occupy",
    "Pass",
    "Phase",
    "Place",
    "PlaceNeutral",
    "PlayerAction",
    "ReinforceAlly",
    "RuleSet",
    "RulesError",
    "Trade",
    "action_from_list",
    "action_to_list",
    "builtin_map",
    "load_map",
    "make_rules",
    "parse_map",
    "player_action_from_list",
    "redact",
]
