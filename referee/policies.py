"""Simple policies over the pure engine: for property tests, benchmarks and quick experiments.

Each takes a :class:`hegemon.referee.game.Game` and a ``random.Random`` and returns a legal
action for the pending decision.
"""

from __future__ import annotations

import random

from . import legal
from .actions import (
    Attack,
    BuildCentre,
    Capital,
    Claim,
    Defend,
    Fortify,
    Occupy,
    Pass,
    Place,
    PlayerAction,
    Trade,
)
from .decisions import Decision, Kinds
from .game import Game, IllegalAction


def _pending(game: Game) -> Decision:
    if game.pending is None:
        raise IllegalAction("the game is over")
    return game.pending


def random_action(game: Game, rng: random.Random) -> PlayerAction:
    """A uniformly drawn legal answer to the pending decision (kinds, then options)."""
    d = _pending(game)
    kind = d.kind
    if kind is Kinds.CLAIM:
        return Claim(rng.choice(d.territories))
    if kind is Kinds.CAPITAL:
        return Capital(rng.choice(d.territories))
    if kind is Kinds.PLACE:
        own = legal.own_territories(game, d.player)
        left, split = d.armies, dict[int, int]()
        while left:
            n = rng.randint(1, left)
            t = rng.choice(own)
            split[t] = split.get(t, 0) + n
            left -= n
        return Place(tuple(split.items()))
    if kind is Kinds.TRADE:
        sets = legal.trades(game.players[d.player].cards, game.board, game.rules.card_values)
        if not d.forced and rng.random() < 0.5:
            return Pass()
        return Trade(rng.choice(sets))
    if kind is Kinds.ATTACK:
        if not d.forced and rng.random() < 0.5:
            return Pass()
        source, target, most = rng.choice(legal.attacks(game, d.player))
        return Attack(source, target, rng.randint(legal.least_dice(game, target), most))
    if kind is Kinds.DEFEND:
        return Defend(rng.randint(1, d.maximum))
    if kind is Kinds.OCCUPY:
        return Occupy(rng.randint(d.minimum, d.maximum))
    if kind is Kinds.FORTIFY:
        if rng.random() < 0.5:
            return Pass()
        moves = [
            m
            for m in legal.fortifies(game, d.player, d.target)
            if d.target < 0 or m[0] in d.territories  # the rest of a many-into-one move
        ]
        source, target, most = rng.choice(moves)
        return Fortify(source, target, rng.randint(1, most))
    if kind is Kinds.BUILD_CENTRE:
        return Pass() if rng.random() < 0.5 else BuildCentre(rng.choice(d.territories))
    # the two-player editions' decisions: one of the listed answers
    return rng.choice(list(legal.actions(game, d, game.players[d.player].cards)))


def attack_happy_action(game: Game, rng: random.Random) -> PlayerAction:
    """Claim and reinforce at random, attack whenever the source has more armies than the
    target (most dice), occupy and defend with the most, trade only when forced, never fortify."""
    d = _pending(game)
    kind = d.kind
    if kind is Kinds.CLAIM:
        return Claim(rng.choice(d.territories))
    if kind is Kinds.PLACE:
        return Place(((rng.choice(legal.own_territories(game, d.player)), d.armies),))
    if kind is Kinds.TRADE:
        if not d.forced:
            return Pass()
        return Trade(
            legal.trades(game.players[d.player].cards, game.board, game.rules.card_values)[0]
        )
    if kind is Kinds.ATTACK:
        armies = game.armies
        for source, target, most in legal.iter_attacks(game, d.player):
            if armies[source] > armies[target] or d.forced:
                return Attack(source, target, most)
        return Pass()
    if kind is Kinds.DEFEND:
        return Defend(d.maximum)
    if kind is Kinds.OCCUPY:
        return Occupy(d.maximum)
    if kind is Kinds.PLACE_NEUTRAL:
        return game.default_action()
    return Pass()  # never fortify (nor bribe, reinforce or move an ally)
