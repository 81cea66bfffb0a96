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

Dependencies: the SDK uses the wire (:mod:`hegemon.referee.wire`: the generated protocol code and
its codec) and the pure rules engine, never the referee's match runner.

Each public name is imported below once, as ``name as name`` (an explicit re-export, which type
checkers honour): that list is the SDK's public API. ``__all__`` is derived from it, for
``from hegemon.sdk import *`` and for the API reference (pdoc lists what ``__all__`` names).
"""

from types import ModuleType as _ModuleType

from hegemon.referee.actions import (
    Action as Action,
    Attack as Attack,
    Bribe as Bribe,
    BuildCentre as BuildCentre,
    Capital as Capital,
    Claim as Claim,
    Defend as Defend,
    Fortify as Fortify,
    FortifyAlly as FortifyAlly,
    Occupy as Occupy,
    Pass as Pass,
    Place as Place,
    PlaceNeutral as PlaceNeutral,
    ReinforceAlly as ReinforceAlly,
    Trade as Trade,
)
from hegemon.referee.cards import (
    set_value as set_value,
)
from hegemon.referee.decisions import (
    Decision as Decision,
    Kind as Kind,
)
from hegemon.referee.formulas import (
    territory_reinforcements as territory_reinforcements,
)
from hegemon.referee.orders import (
    Blitz as Blitz,
    DefendPolicy as DefendPolicy,
    OccupyPolicy as OccupyPolicy,
    OccupyShare as OccupyShare,
    Policies as Policies,
    occupy_share as occupy_share,
)

from .bot import (
    Bot as Bot,
)
from .context import (
    BotView as BotView,
    GameContext as GameContext,
    UnknownGame as UnknownGame,
    make_view as make_view,
)
from .helpers import (
    BattleOdds as BattleOdds,
    Bounds as Bounds,
    CaptureEffect as CaptureEffect,
    Holding as Holding,
    Progress as Progress,
    attack_dice as attack_dice,
    attack_odds as attack_odds,
    attack_options as attack_options,
    battle_odds as battle_odds,
    border_territories as border_territories,
    bounds as bounds,
    capital_capture as capital_capture,
    capitals_to_win as capitals_to_win,
    conquest_probability as conquest_probability,
    continent_holdings as continent_holdings,
    defence_dice as defence_dice,
    distances as distances,
    enemy_neighbours as enemy_neighbours,
    fortify_options as fortify_options,
    interior_territories as interior_territories,
    known_capitals as known_capitals,
    legal_actions as legal_actions,
    mission_progress as mission_progress,
    mission_targets as mission_targets,
    neighbours as neighbours,
    own_territories as own_territories,
    owned_continents as owned_continents,
    reinforcements as reinforcements,
    threat as threat,
    trade_options as trade_options,
)
from .local import (
    LocalFault as LocalFault,
    LocalGame as LocalGame,
    play_local as play_local,
)
from .master import (
    least_attack_dice as least_attack_dice,
    points as points,
    points_race as points_race,
    points_to_win as points_to_win,
    quadrant_holdings as quadrant_holdings,
)
from .neutrals import (
    allies as allies,
    ally_attack_options as ally_attack_options,
    bribe_choice as bribe_choice,
    is_neutral as is_neutral,
    neutral_seats as neutral_seats,
    opponents as opponents,
)
from .policy import (
    PolicyBot as PolicyBot,
)
from .policy_file import (
    PolicyFileError as PolicyFileError,
)
from .server import (
    BotServicer as BotServicer,
    run as run,
    serve as serve,
)
from .teams import (
    armies_of as armies_of,
    controlled_territories as controlled_territories,
    friendly_reach as friendly_reach,
    is_enemy_territory as is_enemy_territory,
    is_team_game as is_team_game,
    is_team_mate as is_team_mate,
    presence as presence,
    team_armies as team_armies,
    team_mates as team_mates,
    team_territories as team_territories,
)

__all__ = [
    name
    for name, value in globals().items()
    if not name.startswith("_") and not isinstance(value, _ModuleType)
]
