"""continental: takes continents and holds them.

- Target: the continent it is closest to owning — the fewest enemy armies and territories left
  to take there, weighed against the continent's bonus — among the continents it can reach.
- Claim: territories of the continent where it already holds the most and others the least
  (small, high-bonus-per-territory continents first).
- Place: first covers the threatened borders of the continents it owns (enemy armies next door
  beyond its own), then stacks the rest on the best staging territory for the target.
- Attack: into the target continent (or inside an owned one) at conquest odds of at least
  ``target_odds``; breaks an enemy's whole continent at ``break_odds``; otherwise takes one
  territory a turn (for the card) at ``card_odds``. Most dice always.
- Occupy: splits the armies between the two territories by the enemy armies each now faces.
  That share does not depend on the dice, so each attack goes out as a blitz (one roll at
  least) that carries it: the referee answers the conquest's OCCUPY without asking.
- Fortify: inward to outward — the largest interior stack moves toward the most threatened
  border (along the shortest own path; straight there when ``fortify`` is ``connected``).
- Trade: when forced, or when the best set is worth at least ``trade_at`` armies (the
  escalating value grows with every set traded, so it times its trades to the later sets).
- Objectives (only when the rules have them; classic play is unchanged): with secret missions
  it prefers continents, attacks and staging territories that advance its own missions
  (:func:`~hegemon.sdk.helpers.mission_targets`); in capital Risk it first garrisons its own
  capital against the armies next to it (``capital_guard`` times their threat), never
  fortifies away from it, and attacks known enemy capitals at ``target_odds``.
- Two-player active neutrals: bribes with cards it needs for no set, first the neutral
  allied to its opponent that borders it most, else an uncommitted one
  (:func:`~hegemon.sdk.neutrals.bribe_choice`); attacks with its allies as with its own.

The thresholds are class attributes, so a subclass can tune them.
"""

from __future__ import annotations

from dataclasses import replace

from hegemon.sdk import (
    Attack,
    Blitz,
    Bot,
    BuildCentre,
    Claim,
    DefendPolicy,
    Fortify,
    Kind,
    Occupy,
    OccupyShare,
    Pass,
    Place,
    Policies,
    Trade,
    attack_options,
    border_territories,
    bribe_choice,
    conquest_probability,
    distances,
    is_team_game,
    occupy_share,
    own_territories,
    presence,
    run,
    set_value,
    team_territories,
    threat,
    trade_options,
)
from hegemon.sdk.helpers import known_capitals, mission_targets
from hegemon.sdk.odds import dice_rule


def set_worth(view, cards) -> int:
    """Armies a set is worth now, with the +2 territory bonus when it applies."""
    insignia = [view.board.card_insignia[c] for c in cards]
    value = set_value(view.rules.card_values, view.trade_count, insignia)
    board = view.board
    value += sum(board.extra_armies(c) for c in cards)  # Risiko! Master cards' extra armies
    shown = [board.card_territory(c) for c in cards]
    if view.rules.card_territory_bonus != "off" and any(
        t >= 0 and view.owner[t] == view.seat for t in shown
    ):
        value += 2
    return value


def best_trade(view):
    """The most valuable set (keeping wild cards when it costs nothing); None without a set."""
    sets = trade_options(view)
    if not sets:
        return None
    insignia = view.board.card_insignia

    def key(cards):
        wild = sum(insignia[c] == "wild" for c in cards)
        return (set_worth(view, cards), -wild, [-c for c in cards])

    return max(sets, key=key)


def pressures(view, source: int, target: int) -> tuple[int, int]:
    """The enemy armies next to ``source`` and next to ``target``, ``target`` taken: they sum
    other territories' armies, so a conquest's dice do not change them."""
    me = view.seat
    owner = list(view.owner)
    owner[target] = me  # the view may already say so; make sure
    armies, neighbours = view.armies, view.board.neighbours

    def pressure(x):
        return sum(armies[n] for n in neighbours[x] if owner[n] != me and owner[n] >= 0)

    return pressure(source), pressure(target)


def pressure_share(view, source: int, target: int) -> OccupyShare | None:
    """The share of the armies to move into ``target`` so the two keep armies in proportion
    to their threats; None: all of them (the source faces no enemy)."""
    ps, pt = pressures(view, source, target)
    if ps == 0:
        return None
    return OccupyShare(pt, ps + pt)  # 0/ps when the target faces no enemy: the fewest


ALL = OccupyShare(1)  # pressure_share's None, stated for the referee


def occupy_split(view, decision) -> int:
    """Armies to move so source and target keep armies in proportion to their threats."""
    share = pressure_share(view, decision.source, decision.target)
    if share is None:
        return decision.maximum
    return occupy_share(share, decision, view.armies).armies


def share_is_exact(view, source: int, target: int) -> bool:
    """Does the referee's rule see at the conquest's OCCUPY what :func:`occupy_split` would?
    Not from a team-mate's or an ally's territory (the pressure would count it, and its armies
    fall with the dice), not in a team game (the view shows one seat's armies where the
    referee counts another's), not against a capital not yet known (its capture changes
    owners around it)."""
    foe = view.owner[target]
    if view.owner[source] != view.seat or foe < 0 or is_team_game(view):
        return False
    return view.rules.capitals != "on" or view.seats[foe].capital >= 0


class ContinentalBot(Bot):
    name = "continental"
    version = "1.0"
    target_odds = 0.5  # attack into the target / an owned continent from these odds
    break_odds = 0.7  # attack into an enemy's whole continent
    card_odds = 0.6  # the turn's first conquest (for the card)
    expand_odds = 1.1  # any other attack (above 1: never)
    trade_at = 8  # trade unforced once the best set is worth this many armies
    defence_share = 0.5  # at most this share of the armies placed defends owned borders
    mission_weight = 1.0  # continent score added per share of it that advances a mission
    capital_guard = 3.0  # keep this many times the threat next to the own capital on it
    # Orders, the same play with fewer round trips: it defends with the most dice, and its
    # attack depends on the board alone, so each is pressed as a blitz as far as it would go.
    policies = Policies(defend=DefendPolicy.MOST)
    press_attacks = True

    # -------------------------------------------------------------- objectives
    def objectives(self, view) -> set[int]:
        """Enemy territories worth taking for the game's objectives: those advancing a secret
        mission, and known enemy capitals. Empty when the rules have neither."""
        targets: set[int] = set()
        if view.rules.missions != "none":
            targets |= mission_targets(view)
        if view.rules.capitals == "on":
            me, owner = view.seat, view.owner
            targets |= {t for t in known_capitals(view).values() if owner[t] != me}
        return targets

    def capital_need(self, view) -> tuple[int, int] | None:
        """(missing armies, own capital) when the own capital is held but under-garrisoned."""
        if view.rules.capitals != "on":
            return None
        t = view.capital
        if t < 0 or view.owner[t] != view.seat:
            return None
        need = int(self.capital_guard * threat(view, t)) + 1 - view.armies[t]
        return (need, t) if need > 0 else None

    # -------------------------------------------------------------- analysis
    def continent_scores(self, view) -> list[tuple[float, int]]:
        """(score, continent) for every continent not yet owned that the seat can reach,
        best first: bonus per enemy army and territory still to take, plus what it holds."""
        me, owner, armies, board = view.seat, view.owner, view.armies, view.board
        goals = self.objectives(view) if view.rules.missions != "none" else set()
        scores = []
        for c in board.continents:
            mine = [t for t in c.territories if owner[t] == me]
            if len(mine) == len(c.territories):
                continue
            reachable = mine or any(
                owner[n] == me for t in c.territories for n in board.neighbours[t]
            )
            if not reachable:
                continue
            foes = [t for t in c.territories if owner[t] != me]
            cost = sum(armies[t] for t in foes) + len(foes)
            held = len(mine) / len(c.territories)
            score = (c.bonus + 1) / (1 + cost) + held
            if goals:
                score += self.mission_weight * sum(t in goals for t in foes) / len(foes)
            scores.append((score, c.index))
        scores.sort(key=lambda x: (-x[0], x[1]))
        return scores

    def target(self, view) -> int:
        """The continent to take next (-1 if none is reachable)."""
        scores = self.continent_scores(view)
        return scores[0][1] if scores else -1

    def owned(self, view) -> set[int]:
        me, owner = view.seat, view.owner
        return {
            c.index for c in view.board.continents if all(owner[t] == me for t in c.territories)
        }

    def deficits(self, view) -> list[tuple[int, int]]:
        """(missing armies, territory) for threatened borders of owned continents, worst first."""
        board, armies = view.board, view.armies
        owned = self.owned(view)
        result = []
        for t in border_territories(view):
            if board.territories[t].continent in owned:
                need = threat(view, t) + 1 - armies[t]
                if need > 0:
                    result.append((need, t))
        result.sort(key=lambda x: (-x[0], x[1]))
        return result

    def staging(self, view, target: int) -> int:
        """The own territory to stack armies on for attacking the target continent (next to
        an objective first, when the rules have objectives)."""
        me, owner, armies, board = view.seat, view.owner, view.armies, view.board
        goals = self.objectives(view)
        best, best_key = -1, None
        for t in border_territories(view):
            foes = [n for n in board.neighbours[t] if owner[n] != me]
            inside = [n for n in foes if board.territories[n].continent == target]
            if target >= 0 and not inside:
                continue
            weakest = min(armies[n] for n in (inside or foes))
            key: tuple[int, ...] = (len(inside), armies[t] - weakest, -t)
            if goals:
                key = (sum(n in goals for n in inside), *key)
            if best_key is None or key > best_key:
                best, best_key = t, key
        if best < 0:
            front = border_territories(view) or own_territories(view)
            best = max(front, key=lambda t: (armies[t], -t))
        return best

    # -------------------------------------------------------------- decisions
    def claim(self, view, decision):
        me, owner, board = view.seat, view.owner, view.board

        def score(t):
            c = board.continents[board.territories[t].continent]
            size = len(c.territories)
            mine = sum(owner[x] == me for x in c.territories)
            others = sum(owner[x] >= 0 and owner[x] != me for x in c.territories)
            near = sum(owner[n] == me for n in board.neighbours[t])
            return (2.0 * mine - 1.5 * others) / size + c.bonus / size - 0.03 * size + 0.1 * near

        return Claim(max(decision.territories, key=lambda t: (score(t), -t)))

    def place(self, view, decision):
        left = decision.armies
        split: dict[int, int] = {}
        budget = max(1, int(left * self.defence_share)) if left > 1 else (left if view.round else 0)
        guard = self.capital_need(view)
        if guard is not None and view.round:  # the capital first, from the whole reserve
            n = min(guard[0], left)
            split[guard[1]] = n
            left -= n
            budget = min(budget, left)
        for need, t in self.deficits(view):
            n = min(need, budget, left)
            if n <= 0:
                break
            split[t] = split.get(t, 0) + n
            budget -= n
            left -= n
        if left:
            t = self.staging(view, self.target(view))
            split[t] = split.get(t, 0) + left
        return Place(tuple(sorted(split.items())))

    def bribe(self, view, decision):
        """Two-player active neutrals: spare cards turn the neutrals at its borders its way."""
        return bribe_choice(view, decision)

    def trade(self, view, decision):
        cards = best_trade(view)
        if decision.forced or set_worth(view, cards) >= self.trade_at:
            return Trade(cards)
        return Pass()

    def attack(self, view, decision):
        me, owner, armies, board = view.seat, view.owner, view.armies, view.board
        two = dice_rule(view.rules)
        target, owned = self.target(view), self.owned(view)
        enemy_owned = {
            c.index
            for c in board.continents
            if len({owner[t] for t in c.territories}) == 1
            and owner[c.territories[0]] not in (me, -1)
        }
        need_card = not view.context.conquered_this_turn
        goals = self.objectives(view)
        best = None
        for s, t, most in attack_options(view):
            odds = conquest_probability(armies[s], armies[t], two)
            cont = board.territories[t].continent
            if t in goals and odds >= self.target_odds:
                rank = 4
            elif (cont == target or cont in owned) and odds >= self.target_odds:
                rank = 3
            elif cont in enemy_owned and odds >= self.break_odds:
                rank = 2
            elif odds >= (self.card_odds if need_card else self.expand_odds):
                rank = 1
            else:
                rank = 0
            if rank and (best is None or (rank, odds, -s, -t) > best[0]):
                best = ((rank, odds, -s, -t), Attack(s, t, most))
        if best is not None:
            return best[1]
        return super().attack(view, decision)

    def occupy(self, view, decision):
        return Occupy(occupy_split(view, decision))

    def answer(self, view):
        """Each attack as a blitz (one roll at least) that also says how it occupies: the
        referee answers the conquest's OCCUPY as :meth:`occupy` would, without asking."""
        action = super().answer(view)
        decision = view.pending
        if decision.kind is not Kind.ATTACK or not isinstance(action, (Attack, Blitz)):
            return action
        s, t = action.source, action.target
        if type(self).occupy is not ContinentalBot.occupy or not share_is_exact(view, s, t):
            return action
        if isinstance(action, Attack):  # a blitz whose box is this board: it stops after one roll
            a, d = view.armies[s], view.armies[t]
            action = Blitz(s, t, action.dice, until=a - 1, until_target=max(d - 1, 0))
        return replace(action, occupy=pressure_share(view, s, t) or ALL)

    def build_centre(self, view, decision):
        """Risiko! Master: a production centre on the safest own territory (no enemy
        neighbour, most armies), if there is one; never on the front."""
        owner, me = view.owner, view.seat
        safe = [
            t for t in decision.territories if all(owner[n] == me for n in view.board.neighbours[t])
        ]
        if not safe:
            return Pass()
        return BuildCentre(max(safe, key=lambda t: (view.armies[t], -t)))

    def fortify(self, view, decision):
        if decision.target >= 0:  # the rest of a many-into-one move (Risiko! Master): done
            return Pass()
        me, armies, board = view.seat, view.armies, view.board
        borders = border_territories(view)
        if not borders:
            return Pass()
        border_set = set(borders)
        # a team game: only this seat's own armies move, along its team's territories
        mine = [held.get(me, 0) for held in presence(view)]
        friendly = set(team_territories(view))
        stacks = [t for t in own_territories(view) if t not in border_set and mine[t] > 1]
        if view.rules.capitals == "on":  # the capital's garrison stays home
            stacks = [t for t in stacks if t != view.capital]
        if not stacks:
            return Pass()
        source = max(stacks, key=lambda t: (mine[t], -t))
        owned = self.owned(view)

        def urgency(b):
            guard = board.territories[b].continent in owned
            return (guard, threat(view, b) - armies[b], -b)

        if view.rules.fortify == "connected":
            reach = distances(view, [source], through=friendly.__contains__)
            targets = [b for b in borders if reach[b] > 0]
            if not targets:
                return Pass()
            return Fortify(source, max(targets, key=urgency), mine[source] - 1)
        # adjacent: one step along the shortest own path toward the nearest border
        dist = distances(view, borders, through=friendly.__contains__)
        steps = [
            n for n in board.neighbours[source] if n in friendly and 0 <= dist[n] < dist[source]
        ]
        if not steps:
            return Pass()
        step = min(steps, key=lambda n: (dist[n], -(threat(view, n) if n in border_set else 0), n))
        return Fortify(source, step, mine[source] - 1)


if __name__ == "__main__":
    run(ContinentalBot())
