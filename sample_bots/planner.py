"""planner: scores every candidate action by the position it leads to (the strongest sample bot).

Design. A position is scored, in "armies" units, as a sum of local terms (see ``Weights``):
each own territory (+; worth more in the last rounds before a turn limit, where territories
decide the places), the armies on it (+), armies idling where no enemy borders (−), its
*exposure* (−: the exact probability that the biggest enemy stack next to it — plus half of
that enemy's next reinforcements — conquers it, times what it would cost, including a whole
continent's bonus), each enemy territory and army (−, more so as fewer enemies are left; a
weak enemy's territories also carry a share of what eliminating it is worth: its cards, all of
it when we could wipe that enemy out this turn), every continent's bonus for its owner (+ own,
− enemy) and progress toward owning a continent (+ bonus × share held²). Because the score is
a sum of local terms, a candidate is scored by its *difference* from the current position
over the few territories it touches, which is cheap.

- Attack: each legal (source, target) is scored by a one-turn lookahead with expected outcomes:
  the exact odds of the battle fought to the end (:func:`hegemon.sdk.battle_odds`: conquest
  probability, expected armies left on both sides) give a "won" position (expected survivors
  moved in) and a "lost" one; gain = P·Δwon + (1−P)·Δlost + P·(card for the turn's first
  conquest + cards and tempo for eliminating a player) + P·(best follow-up attack from the
  conquered territory, same rule, one level deeper). Attacks below even odds are never
  started; the best positive gain is attacked (most dice), else it stops.
- Place: every border territory is tried as the stack for all armies (the gain of the
  placement plus the best attack sequence it opens), and a plan that first covers threatened
  borders of owned continents; the best plan wins.
- Occupy: a few splits (fewest, most, in proportion to the threats, half) scored the same way,
  with the follow-up attack they allow.
- Fortify: every legal move (most armies, and half) scored by the position difference: armies
  go to threatened borders; with ``fortify: adjacent`` and nothing better, interior stacks step
  toward the border.
- Objectives (only when the rules have them; classic play is unchanged): a conquest that
  advances a secret mission or takes a known enemy capital gains ``objective`` armies' worth
  (in the lookahead too); in capital Risk the own capital is garrisoned first and never
  fortified away from, as by :mod:`hegemon.sample_bots.continental`.
- Claim, set-up placement: as :mod:`hegemon.sample_bots.continental`. Trade: the best set, as
  soon as it is worth ``trade_at`` armies (always when forced).

Time: the work per decision is bounded by counts (candidates, lookahead depth, and at most
``max_evaluations`` scored candidates a decision), never by the clock, so the bot plays the same
game however loaded the machine is (a few milliseconds a decision).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from hegemon.sdk import (
    Attack,
    Fortify,
    Occupy,
    Place,
    attack_options,
    battle_odds,
    border_territories,
    conquest_probability,
    fortify_options,
    run,
    territory_reinforcements,
)
from hegemon.sdk.odds import dice_rule

from .continental import ContinentalBot


@dataclass(frozen=True)
class Weights:
    territory: float = 1.0  # an own territory
    army: float = 1.0  # an own army
    idle: float = 0.3  # an own army (beyond the first) where no enemy borders
    exposure: float = 1.5  # times P(lost next turn) x its cost
    exposed_army: float = 0.3  # an army's share of that cost
    enemy_territory: float = 0.4  # (the enemy weights are for three enemies; with fewer
    enemy_army: float = 0.3  # left they grow, up to 3x in a duel: zero-sum)
    bonus: float = 3.0  # per army of an owned continent's bonus
    enemy_bonus: float = 1.2  # per army of an enemy's continent bonus
    progress: float = 1.0  # per army of bonus x (share held)^2
    push: float = 0.5  # share of an enemy's reinforcements counted as next to you
    follow: float = 1.0  # weight of the follow-up attack in the lookahead
    hunt: float = 0.5  # share of an elimination's worth spread over a weak enemy's land
    hunt_below: int = 6  # ... an enemy holding fewer territories than this
    kill: float = 1.0  # ... or the whole worth, for an enemy we can wipe out this turn
    kill_margin: float = 1.2  # armies we need per army (+1 per territory) it has to defend
    final_territory: float = 4.0  # an own territory in the last round before the turn limit
    objective: float = 6.0  # a conquest that advances a mission or takes a known capital


class Position:
    """The view's board as mutable lists, scored by differences (see the module docstring)."""

    def __init__(self, view, w: Weights, reserve: int = 0):
        board = view.board
        limit = view.rules.turn_limit
        if limit and view.round >= limit - 1:  # the end is near: territories decide the places
            w = replace(
                w,
                territory=w.final_territory
                if view.round >= limit
                else (w.territory + w.final_territory) / 2,
            )
        enemies = sum(
            1
            for x in view.seats
            if x.seat != view.seat and not (x.eliminated or x.forfeited or x.neutral)
        )
        if 0 < enemies < 3:
            k = 3 / enemies
            w = replace(
                w,
                enemy_territory=w.enemy_territory * k,
                enemy_army=w.enemy_army * k,
                enemy_bonus=w.enemy_bonus * k,
            )
        self.w = w
        self.me = me = view.seat
        self.owner = list(view.owner)
        self.armies = list(view.armies)
        self.nb = board.neighbours
        self.cont = [t.continent for t in board.territories]
        self.members = [c.territories for c in board.continents]
        self.bonus = [c.bonus for c in board.continents]
        self.two = dice_rule(view.rules)
        players = len(view.seats)
        self.active = [not (s.eliminated or s.forfeited or s.neutral) for s in view.seats]
        counts = [0] * players
        for p in self.owner:
            if p >= 0:
                counts[p] += 1
        self.counts = counts
        bonus = [0] * players
        for c, members in enumerate(self.members):
            first = self.owner[members[0]]
            if first >= 0 and all(self.owner[t] == first for t in members):
                bonus[first] += self.bonus[c]
        self.push = [0] * players
        self.hunt = [0.0] * players  # extra worth of taking a territory from a weak enemy
        card = 1.0 + view.next_trade_value / 3
        for p in range(players):
            if p != me and self.active[p]:
                self.push[p] = round(w.push * (territory_reinforcements(counts[p]) + bonus[p]))
                worth = (4.0 + view.seats[p].cards * card) / max(1, counts[p])
                if self._killable(p, reserve):
                    self.hunt[p] = w.kill * worth
                elif 0 < counts[p] < w.hunt_below:
                    self.hunt[p] = w.hunt * worth

    def _killable(self, p: int, reserve: int) -> bool:
        """Could this seat take every territory of ``p`` this turn (a rough army count)?"""
        owner, armies, me, nb = self.owner, self.armies, self.me, self.nb
        need, strike = 0.0, reserve
        seen = set()
        for t, o in enumerate(owner):
            if o != p:
                continue
            need += self.w.kill_margin * armies[t] + 1
            for n in nb[t]:
                if owner[n] == me and n not in seen:
                    seen.add(n)
                    strike += armies[n] - 1
        return bool(seen) and strike >= need

    # -------------------------------------------------------------- scoring
    def _continent_owned_by_me(self, c: int) -> bool:
        owner, me = self.owner, self.me
        return all(owner[t] == me for t in self.members[c])

    def _local(self, territories, continents) -> float:
        w, owner, armies, me, nb = self.w, self.owner, self.armies, self.me, self.nb
        active, push, two = self.active, self.push, self.two
        total = 0.0
        owned_cache: dict[int, bool] = {}
        for x in territories:
            o = owner[x]
            if o == me:
                a = armies[x]
                total += w.territory + w.army * a
                worst = 0
                frontier = False
                for e in nb[x]:
                    oe = owner[e]
                    if oe != me:
                        frontier = True
                        if oe >= 0 and active[oe]:
                            s = armies[e] + push[oe]
                            worst = max(worst, s)
                if not frontier:
                    total -= w.idle * (a - 1)
                elif worst > 1:
                    c = self.cont[x]
                    full = owned_cache.get(c)
                    if full is None:
                        full = owned_cache[c] = self._continent_owned_by_me(c)
                    cost = (
                        w.territory
                        + w.exposed_army * a
                        + (w.bonus * self.bonus[c] if full else 0.0)
                    )
                    total -= w.exposure * cost * conquest_probability(worst, max(a, 1), two)
            elif o >= 0 and active[o]:
                total -= w.enemy_territory + self.hunt[o] + w.enemy_army * armies[x]
        for c in continents:
            members = self.members[c]
            first = owner[members[0]]
            mine = 0
            same = True
            for t in members:
                if owner[t] == me:
                    mine += 1
                if owner[t] != first:
                    same = False
            b = self.bonus[c]
            if same and first == me:
                total += w.bonus * b
            elif same and first >= 0 and active[first]:
                total -= w.enemy_bonus * b
            share = mine / len(members)
            total += w.progress * b * share * share
        return total

    def _touched(self, changes):
        territories, continents = set(), set()
        for t, _, _ in changes:
            territories.add(t)
            territories.update(self.nb[t])
            continents.add(self.cont[t])
        for c in continents:
            territories.update(self.members[c])
        return territories, continents

    def apply(self, changes):
        """Make ``changes`` ((territory, owner, armies), ...); returns the undo list."""
        owner, armies = self.owner, self.armies
        undo = [(t, owner[t], armies[t]) for t, _, _ in changes]
        for t, o, a in changes:
            owner[t], armies[t] = o, a
        return undo

    def undo(self, undo) -> None:
        owner, armies = self.owner, self.armies
        for t, o, a in reversed(undo):
            owner[t], armies[t] = o, a

    def delta(self, changes) -> float:
        """How much the score changes with ``changes`` applied."""
        territories, continents = self._touched(changes)
        before = self._local(territories, continents)
        undo = self.apply(changes)
        after = self._local(territories, continents)
        self.undo(undo)
        return after - before

    # -------------------------------------------------------------- moves
    def pressure(self, x: int) -> int:
        owner, armies, me, active = self.owner, self.armies, self.me, self.active
        return sum(
            armies[e] for e in self.nb[x] if owner[e] != me and owner[e] >= 0 and active[owner[e]]
        )

    def split(self, s: int, t: int, available: int, minimum: int) -> int:
        """Armies to move from s into t out of ``available`` (those beyond the one that stays)."""
        ps, pt = self.pressure(s), self.pressure(t)
        if ps == 0:
            return available
        if pt == 0:
            return minimum
        return max(minimum, min(available, round(available * pt / (ps + pt))))


class PlannerBot(ContinentalBot):
    name = "planner"
    version = "1.0"
    weights = Weights()
    depth = 2  # attack lookahead: this attack and one follow-up
    trade_at = 4  # trade any set worth this much (continental waits for more)
    min_gain = 0.05
    min_odds = 0.5  # never start an attack below these conquest odds
    max_evaluations = 2000  # scored candidates per decision: bounds the work, deterministically
    # Orders: continental's defence policy (the most dice). Its attacks are not pressed: asking
    # its lookahead about every board a blitz may reach costs more than the round trips saved.
    press_attacks = False

    # -------------------------------------------------------------- shared scoring
    def _start(self, view, reserve: int = 0) -> tuple[Position, dict]:
        ctx = view.context
        card = 0.0 if ctx.conquered_this_turn else 1.0 + view.next_trade_value / 3
        state = {"card": card, "evaluations": 0, "view": view, "goals": self.focused(view)}
        return Position(view, self.weights, reserve), state

    def focused(self, view) -> set[int]:
        """The objectives that single out some attacks: none when every enemy territory next
        to ours is one (a mission counting territories), where a bonus on all would only make
        the bot attack more recklessly."""
        goals = self.objectives(view)
        if goals:
            me, owner, nb = view.seat, view.owner, view.board.neighbours
            front = {n for t in border_territories(view) for n in nb[t] if owner[n] != me}
            if front <= goals:
                goals -= front
        return goals

    def _late(self, state) -> bool:
        """Has this decision used its evaluation budget? (A count, never the clock.)"""
        state["evaluations"] += 1
        return state["evaluations"] > self.max_evaluations

    def _elimination(self, pos: Position, view, t: int) -> float:
        victim = pos.owner[t]
        if victim < 0 or not pos.active[victim] or pos.counts[victim] != 1:
            return 0.0
        return 4.0 + view.seats[victim].cards * (1.0 + view.next_trade_value / 3)

    def attack_gain(self, pos: Position, state, s: int, t: int, depth: int, card: float) -> float:
        """Expected gain of attacking t from s to the end (see the module docstring)."""
        armies, me = pos.armies, pos.me
        a, d = armies[s], armies[t]
        odds = battle_odds(a, d, pos.two)
        p = odds.conquer
        if p < 0.01 or p < self.min_odds:
            return -1e9
        survivors = max(2, round((odds.attackers - (1.0 - p)) / p)) if p > 0 else 2
        survivors = min(survivors, a)
        held = max(1, round(odds.defenders / (1.0 - p))) if p < 1.0 else 1
        lose = [(s, me, 1), (t, pos.owner[t], min(held, d))]
        undo = pos.apply([(t, me, 0)])
        move = pos.split(s, t, survivors - 1, min(3, survivors - 1))
        pos.undo(undo)
        win = [(t, me, move), (s, me, survivors - move)]
        value = pos.delta(win) + card + self._elimination(pos, state["view"], t)
        if t in state["goals"]:
            value += self.weights.objective
        gain = p * value
        gain += (1.0 - p) * pos.delta(lose)
        if depth > 1 and p > 0.2 and not self._late(state):
            undo = pos.apply(win)
            follow = max(
                (
                    self.attack_gain(pos, state, x, n, depth - 1, 0.0)
                    for x in (t,)
                    if armies[x] > 1
                    for n in pos.nb[x]
                    if pos.owner[n] != me
                ),
                default=0.0,
            )
            pos.undo(undo)
            gain += p * self.weights.follow * max(0.0, follow)
        return gain

    def best_attack_from(self, pos, state, sources, card) -> float:
        me = pos.me
        return max(
            (
                self.attack_gain(pos, state, s, n, self.depth, card)
                for s in sources
                if pos.armies[s] > 1
                for n in pos.nb[s]
                if pos.owner[n] != me
            ),
            default=0.0,
        )

    # -------------------------------------------------------------- decisions
    def attack_gains(self, view) -> list[tuple[float, Attack]]:
        """Every attack :func:`~hegemon.sdk.attack_options` lists (most dice) with its expected
        gain (see the module docstring), in that order."""
        pos, state = self._start(view)
        return [
            (self.attack_gain(pos, state, s, t, self.depth, state["card"]), Attack(s, t, most))
            for s, t, most in attack_options(view)
        ]

    def attack(self, view, decision):
        return self.best_attack(self.attack_gains(view), view, decision)

    def best_attack(self, gains: list[tuple[float, Attack]], view, decision):
        """The first attack of ``gains`` with the highest gain above ``min_gain``, else stop
        (or the default attack when stopping is refused)."""
        best, best_gain = None, self.min_gain
        for gain, move in gains:
            if gain > best_gain:
                best, best_gain = move, gain
        if best is not None:
            return best
        return super(ContinentalBot, self).attack(view, decision)

    def place(self, view, decision):
        plans = self.place_plans(view, decision)
        if plans is None:
            return super().place(view, decision)
        return plans[0][1]

    def place_plans(self, view, decision, setup: bool = False) -> list[tuple[float, Place]] | None:
        """Every placement plan with its gain (see the module docstring), planner's choice
        first and the rest best first; None where continental places instead (the set-up
        unless ``setup``, or all of it to a capital). With ``setup`` the set-up's armies are
        scored as the turn's are, as if the attacks they open followed."""
        if view.round == 0 and not setup:  # set-up: one army at a time, no attack follows
            return None
        guard = self.capital_need(view)
        kept, capital = (min(guard[0], decision.armies), guard[1]) if guard else (0, -1)
        if kept == decision.armies:  # all of it to the capital, as continental does
            return None
        pos, state = self._start(view, decision.armies - kept)
        n, me, armies = decision.armies - kept, view.seat, view.armies
        borders = border_territories(view)
        plans: list[tuple[float, tuple]] = []
        for s in borders:
            changes = [(s, me, armies[s] + n)]
            gain = pos.delta(changes)
            undo = pos.apply(changes)
            gain += max(0.0, self.best_attack_from(pos, state, [s], state["card"]))
            pos.undo(undo)
            plans.append((gain, ((s, n), (capital, kept)) if kept else ((s, n),)))
            if self._late(state):
                break
        defensive = super().place(view, decision).placements
        if len(defensive) > 1 or not plans:
            changes = [(t, me, armies[t] + k) for t, k in defensive]
            gain = pos.delta(changes)
            undo = pos.apply(changes)
            gain += max(
                0.0, self.best_attack_from(pos, state, [t for t, _ in defensive], state["card"])
            )
            pos.undo(undo)
            plans.append((gain, tuple(defensive)))
        plans.sort(key=lambda p: (p[0], [-t for t, _ in p[1]]), reverse=True)
        return [(gain, _merged(placements)) for gain, placements in plans]

    def occupy(self, view, decision):
        pos, state = self._start(view)
        s, t, me = decision.source, decision.target, view.seat
        options = sorted(
            {
                decision.minimum,
                decision.maximum,
                (decision.minimum + decision.maximum) // 2,
                pos.split(s, t, decision.maximum, decision.minimum),
            }
        )
        best, best_value = decision.minimum, None
        for m in options:
            changes = [(s, me, view.armies[s] - m), (t, me, view.armies[t] + m)]
            value = pos.delta(changes)
            undo = pos.apply(changes)
            value += self.weights.follow * max(0.0, self.best_attack_from(pos, state, [t, s], 0.0))
            pos.undo(undo)
            if best_value is None or value > best_value + 1e-9:
                best, best_value = m, value
        return Occupy(best)

    def fortify(self, view, decision):
        pos, state = self._start(view)
        me, armies = view.seat, view.armies
        best, best_gain = None, self.min_gain
        for s, t, most in fortify_options(view):
            if s == view.capital and view.rules.capitals == "on":
                continue  # the capital's garrison stays home
            for m in sorted({most, (most + 1) // 2}):
                gain = pos.delta([(s, me, armies[s] - m), (t, me, armies[t] + m)])
                if gain > best_gain + 1e-9:
                    best, best_gain = Fortify(s, t, m), gain
            if self._late(state):
                break
        if best is not None:
            return best
        return super().fortify(view, decision)


def _merged(placements) -> Place:
    """One Place of ``placements``, armies for the same territory added up."""
    merged: dict[int, int] = {}
    for t, k in placements:
        merged[t] = merged.get(t, 0) + k
    return Place(tuple(sorted(merged.items())))


if __name__ == "__main__":
    run(PlannerBot())
