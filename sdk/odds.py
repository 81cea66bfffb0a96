"""Exact battle odds: a Markov chain over the rolls of one attack, memoised.

An attack here means: the attacker keeps rolling from one territory with the most dice it may
(:func:`attack_dice`: ``min(3, armies - 1)``) and the defender with the most it may
(:func:`defence_dice`: two dice once it has ``two_dice_from`` armies, else one; under Risiko!
rules, ``defender_most_dice=3``, one die per army up to three), until the territory falls or
the attacker is down to one army, or, under the Expert rule ``attacker_dice=at_least_defender``,
may no longer roll as many dice as the defender would. These are the engine's own rules
(:mod:`hegemon.referee.formulas`, :func:`hegemon.referee.legal.defence_dice`,
:func:`hegemon.referee.editions.master.least_attack_dice`). Pass the rule set (e.g.
``view.rules``) as the third argument to follow it; a bare integer is just its
``defender_two_dice_from``.

Each roll's outcome probabilities are the exact counts of
:func:`hegemon.referee.dice.outcome_counts`, so the results are exact up to float rounding (or
exact :class:`fractions.Fraction` values with ``exact=True``).

>>> round(conquest_probability(2, 1), 4)       # one die against one: 15/36
0.4167
>>> one_roll, then_2_vs_1 = Fraction(125, 216), Fraction(91, 216) * Fraction(15, 36)
>>> conquest_probability(3, 1, exact=True) == one_roll + then_2_vs_1
True
"""

from __future__ import annotations

import threading
from fractions import Fraction
from functools import cache
from typing import Any, NamedTuple

from hegemon.referee.dice import outcome_counts
from hegemon.referee.formulas import MAX_DEFENCE_DICE, attack_dice, defence_dice
from hegemon.referee.rules import RuleSet

__all__ = [
    "BattleOdds",
    "DiceRule",
    "attack_dice",
    "battle_odds",
    "conquest_probability",
    "defence_dice",
    "dice_rule",
    "roll_outcomes",
]


class DiceRule(NamedTuple):
    """The rule-set options that change a battle's odds."""

    two_dice_from: int = 2  # ``defender_two_dice_from``
    defender_most_dice: int = MAX_DEFENCE_DICE  # 3 under Risiko! rules
    at_least_defender: bool = False  # ``attacker_dice=at_least_defender`` (Master Expert)

    def defence(self, armies: int) -> int:
        """The most dice a defender with ``armies`` armies rolls (as
        :func:`hegemon.referee.legal.defence_dice`)."""
        if self.defender_most_dice > MAX_DEFENCE_DICE:
            return min(self.defender_most_dice, armies)
        return defence_dice(armies, self.two_dice_from)

    def can_attack(self, attackers: int, defenders: int) -> bool:
        """Whether ``attackers`` armies may still attack ``defenders`` (as
        :func:`hegemon.referee.editions.master.least_attack_dice`)."""
        most = attack_dice(attackers)
        if self.at_least_defender:
            return most >= max(1, min(self.defender_most_dice, defenders))
        return most >= 1


Rules = int | RuleSet | DiceRule


def dice_rule(rules: Rules = 2) -> DiceRule:
    """The :class:`DiceRule` of a rule set (or of a bare ``defender_two_dice_from``)."""
    if isinstance(rules, DiceRule):
        return rules
    if isinstance(rules, RuleSet):
        return DiceRule(
            rules.defender_two_dice_from,
            rules.defender_most_dice,
            rules.attacker_dice == "at_least_defender",
        )
    return DiceRule(rules)


class BattleOdds(NamedTuple):
    """The end of an attack fought to the finish (see the module docstring)."""

    conquer: float  # probability the territory falls
    attackers: float  # expected armies left on the attacking territory when it ends
    defenders: float  # expected armies left on the defending territory (0 once conquered)


_Grid = list[list[Any]]  # floats, or Fractions for exact odds
_Data = tuple[int, int, _Grid, _Grid, _Grid]  # sizes, P(conquest), E[attackers], E[defenders]


@cache
def roll_outcomes(
    attack: int, defend: int, exact: bool = False
) -> tuple[tuple[int, int, Any], ...]:
    """One roll of ``attack`` dice against ``defend`` dice: every (attacker losses, defender
    losses, probability)."""
    counts = outcome_counts(attack, defend)
    total = 6 ** (attack + defend)
    return tuple(
        (a, d, Fraction(n, total) if exact else n / total) for (a, d), n in sorted(counts.items())
    )


class _Table:
    """P(conquest), E[attackers left], E[defenders left] for every (a, d) up to a size, grown
    (rebuilt at about twice the size) on demand. ``data`` is replaced in one assignment, so
    readers on other threads always see a consistent table."""

    __slots__ = ("data", "exact", "lock", "rule")

    def __init__(self, rule: DiceRule, exact: bool):
        self.rule, self.exact = rule, exact
        self.data: _Data = (-1, -1, [], [], [])
        self.lock = threading.Lock()

    def ensure(self, a: int, d: int) -> _Data:
        data = self.data
        if a <= data[0] and d <= data[1]:
            return data
        with self.lock:
            data = self.data
            if a > data[0] or d > data[1]:
                data = self.data = self._build(a, d, data[0], data[1])
        return data

    def _build(self, a: int, d: int, a_old: int, d_old: int) -> _Data:
        a_max = a_old if a <= a_old else max(a, min(2 * a_old, LIMIT), 16)
        d_max = d_old if d <= d_old else max(d, min(2 * d_old, LIMIT), 16)
        zero, one = (Fraction(0), Fraction(1)) if self.exact else (0.0, 1.0)
        p = [[zero] * (d_max + 1) for _ in range(a_max + 1)]
        ea = [[zero] * (d_max + 1) for _ in range(a_max + 1)]
        ed = [[zero] * (d_max + 1) for _ in range(a_max + 1)]
        rule = self.rule
        sides = range(1, max(MAX_DEFENCE_DICE, rule.defender_most_dice) + 1)
        rolls = {(x, y): roll_outcomes(x, y, self.exact) for x in (1, 2, 3) for y in sides}
        defence, can_attack = rule.defence, rule.can_attack
        for i in range(a_max + 1):
            pi, eai, edi = p[i], ea[i], ed[i]
            for j in range(d_max + 1):
                if j == 0:
                    pi[j], eai[j], edi[j] = one, i * one, zero
                elif i < 2 or not can_attack(i, j):
                    pi[j], eai[j], edi[j] = zero, i * one, j * one
                else:
                    sp = sea = sed = zero
                    for la, ld, q in rolls[(attack_dice(i), defence(j))]:
                        sp += q * p[i - la][j - ld]
                        sea += q * ea[i - la][j - ld]
                        sed += q * ed[i - la][j - ld]
                    pi[j], eai[j], edi[j] = sp, sea, sed
        return a_max, d_max, p, ea, ed


#: Above this many armies on either side, float odds are read at proportionally scaled-down
#: sizes (the table stays small; such battles are lopsided or rare).
LIMIT = 400
#: Exact (Fraction) odds are offered up to this many armies a side.
EXACT_LIMIT = 100
_TABLES = {
    (DiceRule(two), exact): _Table(DiceRule(two), exact)
    for two in (2, 3)
    for exact in (False, True)
}
_TABLES_LOCK = threading.Lock()


def _scaled(a: int, d: int) -> tuple[int, int, float]:
    if a <= LIMIT and d <= LIMIT:
        return a, d, 1.0
    k = LIMIT / max(a, d)
    return max(2, round(a * k)), max(1, round(d * k)), k


def _table(a: int, d: int, rule: DiceRule, exact: bool) -> _Data:
    table = _TABLES.get((rule, exact))
    if table is None:
        with _TABLES_LOCK:
            table = _TABLES.setdefault((rule, exact), _Table(rule, exact))
    return table.ensure(a, d)


def conquest_probability(
    attackers: int, defenders: int, rules: Rules = 2, *, exact: bool = False
) -> Any:
    """The probability that an attack from a territory holding ``attackers`` armies (one of
    which must stay behind: 2 armies attack with one die) conquers a territory holding
    ``defenders`` armies, both sides always rolling the most dice. ``rules``: the rule set
    (e.g. ``view.rules``), or just its ``defender_two_dice_from``. A float, or a Fraction with
    ``exact=True``."""
    if defenders <= 0:
        return Fraction(1) if exact else 1.0
    if attackers < 2:
        return Fraction(0) if exact else 0.0
    if exact:
        if attackers > EXACT_LIMIT or defenders > EXACT_LIMIT:
            raise ValueError(f"exact odds go up to {EXACT_LIMIT} armies a side")
    elif attackers > LIMIT or defenders > LIMIT:
        attackers, defenders, _ = _scaled(attackers, defenders)
    data = _table(attackers, defenders, dice_rule(rules), exact)
    return data[2][attackers][defenders]


def battle_odds(attackers: int, defenders: int, rules: Rules = 2) -> BattleOdds:
    """:class:`BattleOdds` of an attack fought to the finish (floats); ``rules`` as for
    :func:`conquest_probability`."""
    if defenders <= 0:
        return BattleOdds(1.0, float(attackers), 0.0)
    if attackers < 2:
        return BattleOdds(0.0, float(max(attackers, 0)), float(defenders))
    a, d, k = _scaled(attackers, defenders)
    _, _, p, ea, ed = _table(a, d, dice_rule(rules), False)
    return BattleOdds(p[a][d], ea[a][d] / k, ed[a][d] / k)
