"""Editions own their board rules: the engine's own modules (``game``, ``legal``, ``checks``,
``view``) name no edition, and a rule set's board rules (where armies sit, what limits an
attack) are chosen once and read alike from a game and from a seat's view of it."""

import ast
import random
from pathlib import Path

import pytest

from hegemon.referee import Game, make_rules
from hegemon.referee.editions.alliances import AlliedHoldings
from hegemon.referee.editions.master import MasterLimits
from hegemon.referee.editions.parts import board_rules
from hegemon.referee.editions.teams import TeamHoldings
from hegemon.referee.holdings import AttackLimits, Holdings
from hegemon.referee.policies import random_action
from hegemon.referee.view import view_for

REFEREE = Path(__file__).resolve().parent.parent.parent / "referee"
ENGINE_MODULES = ("game", "legal", "checks", "view")
EDITION_MODULES = {"teams", "neutrals", "capitals", "master", "missions", "alliances"}
#: The names through which the engine used to branch on an edition: its modules (and the
#: aliases they were imported under), its parts, its board rules, and the rule-set options that
#: switch an edition's board on.
EDITION_NAMES = {
    *EDITION_MODULES,
    *(f"{m.rstrip('s')}lib" for m in EDITION_MODULES),
    "TeamsPart",
    "NeutralsPart",
    "CapitalsPart",
    "MasterPart",
    "MissionsPart",
    "AlliancesPart",
    "TeamHoldings",
    "AlliedHoldings",
    "MasterLimits",
}
EDITION_OPTIONS = {"teams", "two_player", "capitals"}


def edition_names(source: str) -> list[str]:
    """Where ``source``'s code (not its comments or docstrings) names an edition: an import of
    an edition module, a name bound to one or to its part or board rules, a read of an option
    that switches an edition on."""
    found: list[tuple[int, str]] = []
    tree = ast.parse(source)
    # a parameter is the caller's value (a view's own ``missions`` field), not an edition
    parameters = {node.arg for node in ast.walk(tree) if isinstance(node, ast.arg)}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            module = (node.module or "").split(".")
            imported = {*module, *(alias.name for alias in node.names)}
            hit = sorted(imported & (EDITION_MODULES | EDITION_NAMES))
        elif isinstance(node, ast.Import):
            hit = sorted({p for a in node.names for p in a.name.split(".")} & EDITION_MODULES)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            hit = [node.id] if node.id in EDITION_NAMES - parameters else []
        elif isinstance(node, ast.Attribute):
            hit = [node.attr] if node.attr in EDITION_OPTIONS else []
        else:
            continue
        found.extend((node.lineno, name) for name in hit)
    return [f"line {line}: {name}" for line, name in sorted(found)]


def test_the_scan_finds_an_edition_name():
    source = (
        "from . import teams as teamlib\n"
        "from .editions.master import least_attack_dice\n"
        "x = teamlib.on(rules)\n"
        "y = game.part(MasterPart)\n"
        "if rules.two_player == 'classic': pass\n"
        "# teams, master: a comment names them freely\n"
    )
    assert edition_names(source) == [
        "line 1: teams",
        "line 2: master",
        "line 3: teamlib",
        "line 4: MasterPart",
        "line 5: two_player",
    ]
    assert edition_names("from .editions.parts import board_rules\nme.missions\n") == []
    assert edition_names("def view(missions):\n    return missions\n") == []


@pytest.mark.parametrize("module", ENGINE_MODULES)
def test_the_engine_names_no_edition(module):
    source = (REFEREE / f"{module}.py").read_text(encoding="utf-8")
    assert edition_names(source) == []


# preset -> (players, holdings, limits)
CHOSEN = {
    "classic": (4, Holdings, AttackLimits),
    "team-2004": (4, TeamHoldings, AttackLimits),
    "two-player-2004-active": (2, AlliedHoldings, AttackLimits),
    "two-player-2000": (2, Holdings, AttackLimits),
    "risiko-master-master": (4, Holdings, MasterLimits),
}


@pytest.mark.parametrize("preset", sorted(CHOSEN))
def test_a_rule_set_chooses_its_board_rules_once_for_its_games_and_views(preset):
    players, holdings, limits = CHOSEN[preset]
    game = Game(make_rules(preset), players, seed=5)
    assert type(game.holdings) is holdings and type(game.limits) is limits
    again = Game(make_rules(preset), players, seed=6)  # an equal rule set, made anew
    assert again.holdings is game.holdings and again.limits is game.limits
    chosen = board_rules(view_for(game, 0).rules)
    assert chosen.holdings is game.holdings and chosen.limits is game.limits


@pytest.mark.parametrize("preset", ["team-2004", "two-player-2004-active", "risiko-master-master"])
def test_a_view_lists_the_options_the_game_accepts(preset):
    """What a bot lists from its view (through the board rules) is what the referee accepts:
    every answer listed from the view is legal in the game, at every decision of a game."""
    from hegemon.referee import legal

    players = CHOSEN[preset][0]
    game = Game(make_rules(preset, {"turn_limit": 8}), players, seed=11)
    rng = random.Random(11)
    while not game.over:
        d = game.pending
        assert d is not None
        view = view_for(game, d.player)
        listed = list(legal.actions(view, d, game.players[d.player].cards))
        assert listed, f"no answer listed at {d}"
        for action in listed[:40]:
            assert game.is_legal(action), f"{action} listed from the view, refused by the game"
        game.apply(random_action(game, rng))
