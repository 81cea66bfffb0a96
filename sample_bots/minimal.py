"""The guide's minimal bot, as `hegemon new` writes it: reinforce the front, attack at odds."""

from hegemon.sdk import Attack, Bot, Occupy, Pass, Place, run
from hegemon.sdk import attack_options, border_territories, conquest_probability, own_territories


class Minimal(Bot):
    name = "minimal"

    def place(self, view, decision):
        front = border_territories(view) or own_territories(view)  # a team game: maybe none
        return Place(((max(front, key=lambda t: view.armies[t]), decision.armies),))

    def attack(self, view, decision):
        odds = [
            (conquest_probability(view.armies[s], view.armies[t]), s, t, dice)
            for s, t, dice in attack_options(view)
        ]
        best = max(odds, default=None)
        if best is None or (best[0] < 0.6 and not decision.forced):
            return Pass()
        return Attack(*best[1:])

    def occupy(self, view, decision):
        return Occupy(decision.maximum)


if __name__ == "__main__":
    run(Minimal())
