"""random: answers uniformly at random among legal actions (the weakest sample bot).

Claims a random free territory, spreads its armies one by one over random own territories,
trades a random set half the time (always when forced), attacks a random legal target with a
random number of dice but stops with probability 0.3 at every step (so games end), defends
and occupies with a random legal number, and fortifies a random legal move half the time.
Its randomness comes from the game's seeded ``context.rng``, so a game replays identically.
"""

from __future__ import annotations

from hegemon.sdk import (
    Attack,
    Bot,
    BuildCentre,
    Claim,
    Defend,
    Fortify,
    Occupy,
    Pass,
    Place,
    Trade,
    attack_options,
    fortify_options,
    least_attack_dice,
    own_territories,
    run,
    trade_options,
)

STOP = 0.3


class RandomBot(Bot):
    name = "random"
    version = "1.0"

    def claim(self, view, decision):
        return Claim(view.context.rng.choice(decision.territories))

    def place(self, view, decision):
        rng, own = view.context.rng, own_territories(view)
        split: dict[int, int] = {}
        for _ in range(decision.armies):
            t = rng.choice(own)
            split[t] = split.get(t, 0) + 1
        return Place(tuple(sorted(split.items())))

    def trade(self, view, decision):
        rng = view.context.rng
        if not decision.forced and rng.random() < 0.5:
            return Pass()
        return Trade(rng.choice(trade_options(view)))

    def attack(self, view, decision):
        rng = view.context.rng
        if not decision.forced and rng.random() < STOP:
            return Pass()
        source, target, most = rng.choice(attack_options(view))
        return Attack(source, target, rng.randint(least_attack_dice(view, target), most))

    def defend(self, view, decision):
        return Defend(view.context.rng.randint(1, decision.maximum))

    def occupy(self, view, decision):
        return Occupy(view.context.rng.randint(decision.minimum, decision.maximum))

    def build_centre(self, view, decision):
        rng = view.context.rng
        if rng.random() < 0.5:
            return Pass()
        return BuildCentre(rng.choice(decision.territories))

    def fortify(self, view, decision):
        rng = view.context.rng
        if rng.random() < 0.5:
            return Pass()
        source, target, most = rng.choice(fortify_options(view))
        return Fortify(source, target, rng.randint(1, most))


if __name__ == "__main__":
    run(RandomBot())
