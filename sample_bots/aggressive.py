"""aggressive: always takes its best-odds attack while the odds are good enough.

Claims next to its own territories, puts every army on the border territory with the best
attack (highest conquest probability), attacks the target with the highest conquest
probability (exact battle odds, most dice) as long as that is at least ``threshold``, moves
everything it can into a conquered territory, trades a set as soon as it holds one, defends
with the most dice and never fortifies.

Orders (same play, fewer round trips): standing policies defend with the most dice and occupy
with everything, and every attack is pressed as a blitz as far as this bot would press it.
"""

from __future__ import annotations

from hegemon.sdk import (
    Attack,
    Bot,
    Claim,
    DefendPolicy,
    Occupy,
    OccupyPolicy,
    Pass,
    Place,
    Policies,
    Trade,
    attack_options,
    border_territories,
    conquest_probability,
    own_territories,
    run,
    trade_options,
)
from hegemon.sdk.odds import dice_rule


class AggressiveBot(Bot):
    name = "aggressive"
    version = "1.0"
    threshold = 0.5  # attack while the best conquest probability is at least this
    policies = Policies(defend=DefendPolicy.MOST, occupy=OccupyPolicy.ALL)
    press_attacks = True  # its attack depends on the board alone

    def claim(self, view, decision):
        owner, nbrs, me = view.owner, view.board.neighbours, view.seat
        return Claim(
            max(
                decision.territories,
                key=lambda t: (sum(owner[n] == me for n in nbrs[t]), -len(nbrs[t]), -t),
            )
        )

    def place(self, view, decision):
        owner, armies, me = view.owner, view.armies, view.seat
        two = dice_rule(view.rules)
        front = border_territories(view) or own_territories(view)

        def best_odds(t):
            enemies = [armies[n] for n in view.board.neighbours[t] if owner[n] != me]
            if not enemies:
                return (0.0, armies[t], -t)
            odds = conquest_probability(armies[t] + decision.armies, min(enemies), two)
            return (odds, armies[t], -t)

        return Place(((max(front, key=best_odds), decision.armies),))

    def trade(self, view, decision):
        return Trade(trade_options(view)[0])

    def attack(self, view, decision):
        armies, two = view.armies, dice_rule(view.rules)
        scored = [
            (conquest_probability(armies[s], armies[t], two), -s, -t, s, t, most)
            for s, t, most in attack_options(view)
        ]
        if not scored:
            return Pass()
        odds, _, _, source, target, most = max(scored)
        if odds < self.threshold and not decision.forced:
            return Pass()
        return Attack(source, target, most)

    def occupy(self, view, decision):
        return Occupy(decision.maximum)


if __name__ == "__main__":
    run(AggressiveBot())
