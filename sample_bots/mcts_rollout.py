"""The rollouts of the mcts sample bot (:mod:`hegemon.sample_bots.mcts`): planner finishing the
seat's turn on a sampled game after a candidate move, and the score of where the turn ends.

A module of its own so that ``mcts.py`` defines one bot class (the one a loader picks)."""

from __future__ import annotations

import dataclasses

from hegemon.referee import legal
from hegemon.referee.actions import Attack
from hegemon.referee.decisions import Kind
from hegemon.referee.game import Game
from hegemon.referee.view import View, view_for
from hegemon.sdk import conquest_probability
from hegemon.sdk.context import BotView
from hegemon.sdk.odds import dice_rule

from .planner import PlannerBot

_VIEW_FIELDS = tuple(f.name for f in dataclasses.fields(View))


class Judge:
    """Scores the end of a rollout for ``seat`` by planner's position score: its change from
    the real position (``pos``), plus the turn's card if it earned one, and a won or lost
    game."""

    def __init__(self, pos, seat: int, card: float):
        self.pos, self.seat, self.card = pos, seat, card
        self.owner, self.armies = list(pos.owner), list(pos.armies)

    def score(self, game: Game, conquered: bool) -> float:
        if game.places is not None:
            return WIN if game.places[self.seat] == 1 else -WIN
        owner, armies = game.owner, game.armies
        changes = [
            (t, owner[t], armies[t])
            for t in range(len(owner))
            if owner[t] != self.owner[t] or armies[t] != self.armies[t]
        ]
        gain = self.pos.delta(changes) if changes else 0.0
        if not game.players[self.seat].active:
            return gain - WIN
        return gain + (self.card if conquered else 0.0)


WIN = 1000.0  # a won (or lost) game, in planner's units (armies)


class Rollout(PlannerBot):
    """Planner with a one-step attack lookahead, answering for every seat on a sampled game:
    it finishes the seat's turn after a candidate (and, asked to, the enemies' turns up to the
    seat's next one). A battle it starts is pressed roll after roll while the odds of taking
    the territory hold (planner would mostly do the same, at far more cost)."""

    depth = 1
    max_evaluations = 400

    def __init__(self, view: BotView):
        assert view.context is not None
        self.seat = view.seat
        self.two = dice_rule(view.rules)
        self.contexts = {
            p: dataclasses.replace(view.context, seat=p, seen=[], memory={})
            for p in range(len(view.seats))
        }

    def play(self, game: Game, move, judge: Judge, horizon: int, enemies: bool = False) -> float:
        """Apply ``move``, play the seat's turn to its end (and with ``enemies`` the others'
        turns until the seat's next one; ``horizon`` actions at most), and score where it
        stands then."""
        seat = self.seat
        battle = move if type(move) is Attack else None
        conquered, current = False, seat
        try:
            game.apply(move)
            for _ in range(horizon):
                d = game.pending
                if d is None:
                    break
                if game.current != current:  # the turn passed on
                    current, battle = game.current, None
                    if current == seat or not enemies:
                        break
                if current == seat:
                    conquered = game.conquered_this_turn
                action = self.next(game, d.player, d.kind, battle)
                if not game.is_legal(action):
                    action = game.default_action()
                battle = action if type(action) is Attack else battle
                game.apply(action)
        except Exception:  # a move the sample refuses (it should not) scores nothing
            return -WIN
        return judge.score(game, conquered)

    def next(self, game: Game, p: int, kind: Kind, battle: Attack | None):
        """The rollout's answer to seat ``p``'s pending decision."""
        if kind is Kind.ATTACK and battle is not None:
            s, t = battle.source, battle.target
            armies = game.armies
            if (
                game.owner[s] == p
                and game.owner[t] != p
                and armies[s] > 1
                and conquest_probability(armies[s], armies[t], self.two) >= self.min_odds
            ):
                for source, target, most in legal.attacks(game, p):
                    if (source, target) == (s, t):
                        return Attack(s, t, most)
        view = view_for(game, p)
        context = self.contexts[p]
        context.conquered_this_turn = game.conquered_this_turn and game.current == p
        bot_view = BotView(**{name: getattr(view, name) for name in _VIEW_FIELDS}, context=context)
        assert bot_view.pending is not None
        return self.decide(bot_view, bot_view.pending)
