"""Battle odds under Risiko! Master rules: three defender dice, and the Expert rule that the
attacker never rolls fewer dice than the defender."""

from __future__ import annotations

from fractions import Fraction

import pytest

from hegemon.referee import Attack, Defend, Occupy, legal
from hegemon.referee.decisions import Kind
from hegemon.referee.game import Game
from hegemon.referee.rules import make_rules
from hegemon.referee.view import view_for
from hegemon.sdk import GameContext, attack_odds, battle_odds, conquest_probability, make_view
from hegemon.sdk.odds import DiceRule, dice_rule, roll_outcomes
from tests.helpers.game import arrange, pending, setup_done

# docs/map-data.md §4, the Risiko! rows: (attacker losses, defender losses) -> rolls of 6^(a+3)
MAPDATA_3_DEFENDERS = {
    1: {(0, 1): 225, (1, 0): 1071},
    2: {(0, 2): 979, (1, 1): 1981, (2, 0): 4816},
    3: {(0, 3): 6420, (1, 2): 10017, (2, 1): 12348, (3, 0): 17871},
}
P21 = Fraction(15, 36)  # 2 armies (one die) against 1
P31 = Fraction(125, 216) + Fraction(91, 216) * P21


@pytest.mark.parametrize("attack", [1, 2, 3])
def test_one_roll_against_three_dice_matches_mapdata(attack):
    total = 6 ** (attack + 3)
    expected = {k: Fraction(n, total) for k, n in MAPDATA_3_DEFENDERS[attack].items()}
    assert {(a, d): p for a, d, p in roll_outcomes(attack, 3, True)} == expected
    assert sum(expected.values()) == 1


def test_the_presets_dice_rules():
    assert dice_rule(make_rules("classic")) == DiceRule(2, 2, False) == dice_rule(2)
    assert dice_rule(make_rules("classic-2000")) == DiceRule(3, 2, False) == dice_rule(3)
    assert dice_rule(make_rules("risiko-master-base")) == DiceRule(2, 3, False)
    for preset in ("risiko-master-expert", "risiko-master-master"):
        assert dice_rule(make_rules(preset)) == DiceRule(2, 3, True)


def test_master_odds_hand_checked():
    base, expert = make_rules("risiko-master-base"), make_rules("risiko-master-expert")
    # a defender with 1 or 2 armies rolls as in the classic game
    for a, d in ((2, 1), (3, 1), (4, 1), (2, 2), (5, 2)):
        assert conquest_probability(a, d, base, exact=True) == conquest_probability(
            a, d, exact=True
        )
    # 2 vs 3 (Base): one die against three wins 225/1296, then 2 vs 2 as in the classic game
    assert (
        conquest_probability(2, 3, base, exact=True)
        == Fraction(225, 1296) * Fraction(55, 216) * P21
    )
    # Expert: one die may not attack two defenders, two dice may not attack three
    assert conquest_probability(2, 2, expert, exact=True) == 0
    assert conquest_probability(3, 3, expert) == 0.0
    # 4 vs 3 (Expert), three dice against three: (0,3) wins; (1,2) leaves 3 vs 1; (2,1)
    # leaves 2 vs 2, which may not attack; (3,0) ends it
    p43 = Fraction(6420, 46656) + Fraction(10017, 46656) * P31
    assert conquest_probability(4, 3, expert, exact=True) == p43
    # under Base rules 2 vs 2 fights on (one die against two)
    p43_base = p43 + Fraction(12348, 46656) * Fraction(55, 216) * P21
    assert conquest_probability(4, 3, base, exact=True) == p43_base
    assert abs(conquest_probability(4, 3, base) - float(p43_base)) < 1e-12
    # the third die makes defending stronger; the Expert rule, attacking weaker
    assert conquest_probability(12, 8) > conquest_probability(12, 8, base)
    assert conquest_probability(12, 8, base) > conquest_probability(12, 8, expert)
    odds = battle_odds(12, 8, expert)
    assert 0 < odds.conquer < 1 and 1 <= odds.attackers <= 12 and 0 <= odds.defenders <= 8
    assert 0.99 < conquest_probability(1000, 50, expert) <= 1.0


def _fight(game: Game, src: int, dst: int, attackers: int, defenders: int) -> bool:
    """One attack fought to the finish through Game.apply, the most dice on both sides while
    the rules allow it; True if ``dst`` fell."""
    owner = list(game.owner)
    armies = list(game.armies)
    armies[src], armies[dst] = attackers, defenders
    arrange(game, owner, armies)
    attacker = owner[src]
    while True:
        decision = pending(game)
        assert decision.kind is Kind.ATTACK and decision.player == attacker
        options = [m for s, t, m in legal.attacks(game, attacker) if (s, t) == (src, dst)]
        if not options:
            return False
        game.apply(Attack(src, dst, options[0]))
        if pending(game).kind is Kind.DEFEND:
            game.apply(Defend(pending(game).maximum))
        if game.owner[dst] == attacker:
            owner[dst] = (attacker + 1) % game.player_count
            if pending(game).kind is Kind.OCCUPY:
                game.apply(Occupy(pending(game).minimum))
            arrange(game, owner, game.armies)
            return True


@pytest.mark.parametrize(
    "preset,a,d", [("risiko-master-expert", 7, 4), ("risiko-master-base", 6, 4)]
)
def test_conquest_odds_match_the_engines_own_dice(preset, a, d):
    game = setup_done(preset, seed=a * 100 + d)
    while pending(game).kind is not Kind.ATTACK:
        game.apply(game.default_action())
    me = pending(game).player
    board = game.board
    src = next(t for t in range(board.size) if len(board.neighbours[t]) >= 2)
    dst = board.neighbours[src][0]
    owner = [(me + 2) % 4] * board.size  # a third seat holds the rest: no one is eliminated
    owner[src], owner[dst] = me, (me + 1) % 4
    # the defender keeps other territories: its last one may not fall before round 5 (Expert)
    for t in board.neighbours[src][1:]:
        owner[t] = (me + 1) % 4
    # a second front keeps the attacker's turn going after a conquest
    far = next(t for t in range(board.size) if {t, *board.neighbours[t]}.isdisjoint({src, dst}))
    owner[far], owner[board.neighbours[far][0]] = me, (me + 1) % 4
    armies = [5] * board.size
    armies[far] = 1000
    arrange(game, owner, armies)
    trials = 3000
    wins = sum(_fight(game, src, dst, a, d) for _ in range(trials))
    expected = conquest_probability(a, d, game.rules)
    assert abs(wins / trials - expected) < 0.03
    # the classic odds would be clearly off
    assert abs(conquest_probability(a, d) - expected) > 0.1


def test_attack_odds_read_the_views_rules():
    game = setup_done("risiko-master-expert", seed=3)
    seat = pending(game).player
    ctx = GameContext("g", seat, ("a", "b", "c", "d"), game.rules, game.board)
    view = make_view(view_for(game, seat), ctx)
    src = next(t for t, p in enumerate(view.owner) if p == seat)
    dst = next(t for t, p in enumerate(view.owner) if p != seat)
    got = attack_odds(view, src, dst, extra=4)
    assert got == battle_odds(view.armies[src] + 4, view.armies[dst], game.rules)
    assert got == battle_odds(view.armies[src] + 4, view.armies[dst], DiceRule(2, 3, True))
