"""The Python SDK for hegemon bots.

Subclass :class:`Bot`, override the decisions you care about — ``claim``, ``place``,
``trade``, ``attack``, ``defend``, ``occupy``, ``fortify`` (each gets the seat's
:class:`BotView` and the pending decision and returns an action) — or ``decide`` alone, and
call :func:`run`::

    from hegemon.sdk import Bot, Pass, run

    class Lazy(Bot):
        name = "lazy"

    run(Lazy())      # serves on --address / $HEGEMON_BOT_ADDRESS until SIGTERM

Every decision has a safe legal default (first offered territory, all armies on one border
territory, trade only when forced, stop attacking, most defence dice, occupy the minimum, skip
fortify). :mod:`hegemon.sdk.helpers` lists legal options and answers map questions and battle odds;
:func:`play_local` plays a game between Python bots in-process, without gRPC.

Dependencies: the SDK uses the generated protocol code and the pure rules engine, never the
referee's match runner.
"""

from __future__ import annotations

from collections.abc import Sequence
from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    # What type checkers and editors see; at run time the same names are imported lazily from
    # _SOURCES below (tests/test_exports.py checks that the two lists agree).
    from hegemon.referee.actions import (
        Action,
        Attack,
        Bribe,
        BuildCentre,
        Capital,
        Claim,
        Defend,
        Fortify,
        FortifyAlly,
        Occupy,
        Pass,
        Place,
        PlaceNeutral,
        ReinforceAlly,
        Trade,
    )
    from hegemon.referee.decisions import Decision, Kind
    from hegemon.referee.orders import Blitz, DefendPolicy, OccupyPolicy, OccupyShare, Policies
    from hegemon.sdk.bot import Bot
    from hegemon.sdk.context import BotView, GameContext, UnknownGame, make_view
    from hegemon.sdk.helpers import (
        BattleOdds,
        Bounds,
        CaptureEffect,
        Holding,
        Progress,
        attack_dice,
        attack_odds,
        attack_options,
        battle_odds,
        border_territories,
        bounds,
        capital_capture,
        capitals_to_win,
        conquest_probability,
        continent_holdings,
        defence_dice,
        distances,
        enemy_neighbours,
        fortify_options,
        interior_territories,
        known_capitals,
        legal_actions,
        mission_progress,
        mission_targets,
        neighbours,
        own_territories,
        owned_continents,
        reinforcements,
        threat,
        trade_options,
    )
    from hegemon.sdk.local import LocalFault, LocalGame, play_local
    from hegemon.sdk.master import (
        least_attack_dice,
        points,
        points_race,
        points_to_win,
        quadrant_holdings,
    )
    from hegemon.sdk.neutrals import (
        allies,
        ally_attack_options,
        bribe_choice,
        is_neutral,
        neutral_seats,
        opponents,
    )
    from hegemon.sdk.server import BotServicer, serve
    from hegemon.sdk.teams import (
        armies_of,
        controlled_territories,
        friendly_reach,
        is_enemy_territory,
        is_team_game,
        is_team_mate,
        presence,
        team_armies,
        team_mates,
        team_territories,
    )

# Names are imported on first use (PEP 562), so that importing the generated protocol code
# (``hegemon.referee.wire``) — as the referee does — never loads the SDK's bot-side logic.
_SOURCES = {
    "hegemon.referee.actions": (
        "Action",
        "Attack",
        "Bribe",
        "BuildCentre",
        "Capital",
        "Claim",
        "Defend",
        "Fortify",
        "FortifyAlly",
        "Occupy",
        "Pass",
        "Place",
        "PlaceNeutral",
        "ReinforceAlly",
        "Trade",
    ),
    "hegemon.referee.decisions": ("Decision", "Kind"),
    "hegemon.referee.orders": (
        "Blitz",
        "DefendPolicy",
        "OccupyPolicy",
        "OccupyShare",
        "Policies",
    ),
    "hegemon.sdk.bot": ("Bot",),
    "hegemon.sdk.context": ("BotView", "GameContext", "UnknownGame", "make_view"),
    "hegemon.sdk.helpers": (
        "BattleOdds",
        "Bounds",
        "CaptureEffect",
        "Holding",
        "Progress",
        "attack_dice",
        "attack_odds",
        "attack_options",
        "battle_odds",
        "border_territories",
        "bounds",
        "capital_capture",
        "capitals_to_win",
        "conquest_probability",
        "continent_holdings",
        "defence_dice",
        "distances",
        "enemy_neighbours",
        "fortify_options",
        "interior_territories",
        "known_capitals",
        "legal_actions",
        "mission_progress",
        "mission_targets",
        "neighbours",
        "own_territories",
        "owned_continents",
        "reinforcements",
        "threat",
        "trade_options",
    ),
    "hegemon.sdk.local": ("LocalFault", "LocalGame", "play_local"),
    "hegemon.sdk.neutrals": (
        "allies",
        "ally_attack_options",
        "bribe_choice",
        "is_neutral",
        "neutral_seats",
        "opponents",
    ),
    "hegemon.sdk.master": (
        "least_attack_dice",
        "points",
        "points_race",
        "points_to_win",
        "quadrant_holdings",
    ),
    "hegemon.sdk.server": ("BotServicer", "serve"),
    "hegemon.sdk.teams": (
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
    ),
}
_WHERE = {name: module for module, names in _SOURCES.items() for name in names}


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


def run(bot: Bot, argv: Sequence[str] | None = None) -> None:
    """Serve ``bot`` over gRPC until SIGTERM/SIGINT (see :func:`hegemon.sdk.server.run`)."""
    from .server import run as _run

    _run(bot, argv)


__all__ = [
    "Action",
    "Attack",
    "BattleOdds",
    "Blitz",
    "Bot",
    "BotServicer",
    "BotView",
    "Bounds",
    "Bribe",
    "BuildCentre",
    "Capital",
    "CaptureEffect",
    "Claim",
    "Decision",
    "Defend",
    "DefendPolicy",
    "Fortify",
    "FortifyAlly",
    "GameContext",
    "Holding",
    "Kind",
    "LocalFault",
    "LocalGame",
    "Occupy",
    "OccupyPolicy",
    "OccupyShare",
    "Pass",
    "Place",
    "PlaceNeutral",
    "Policies",
    "Progress",
    "ReinforceAlly",
    "Trade",
    "UnknownGame",
    "allies",
    "ally_attack_options",
    "armies_of",
    "attack_dice",
    "attack_odds",
    "attack_options",
    "battle_odds",
    "border_territories",
    "bounds",
    "bribe_choice",
    "capital_capture",
    "capitals_to_win",
    "conquest_probability",
    "continent_holdings",
    "controlled_territories",
    "defence_dice",
    "distances",
    "enemy_neighbours",
    "fortify_options",
    "friendly_reach",
    "interior_territories",
    "is_enemy_territory",
    "is_neutral",
    "is_team_game",
    "is_team_mate",
    "known_capitals",
    "least_attack_dice",
    "legal_actions",
    "make_view",
    "mission_progress",
    "mission_targets",
    "neighbours",
    "neutral_seats",
    "opponents",
    "own_territories",
    "owned_continents",
    "play_local",
    "points",
    "points_race",
    "points_to_win",
    "presence",
    "quadrant_holdings",
    "reinforcements",
    "run",
    "serve",
    "team_armies",
    "team_mates",
    "team_territories",
    "threat",
    "trade_options",
]
