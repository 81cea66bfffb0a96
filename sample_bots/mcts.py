"""mcts: a search bot on the SDK's forward model (:mod:`hegemon.sdk.forward`), over planner.

Design. At each attack and occupation of its own turn the bot searches; every other decision
is planner's (:mod:`hegemon.sample_bots.planner`).

- Candidates: planner's own answer, stopping, and the other attacks (most dice) with the best
  odds — or, to occupy, the fewest, the most, half way and planner's split.
- Determinized Monte Carlo search at the root: each iteration samples a game consistent with
  what the seat has seen (:func:`hegemon.sdk.forward.sample_game`: others' cards, the deck,
  hidden missions and capitals drawn; fresh dice), and plays *every* remaining candidate on a
  clone of that one sample with the same dice (common random numbers: the candidates differ
  by their move, not their luck). A playout finishes the seat's turn with a cheap policy
  (:func:`rollout_action`: attack while clearly stronger, move in with everything), is cut
  before the fortify move (``horizon`` actions at most), and is scored by planner's own
  position score (its change from the real position: exposure to the enemies' next turn
  included), plus the turn's card if it conquered; a game won or lost counts ``WIN``. Every
  ``halve`` iterations the worse half of the candidates is dropped (successive halving), so
  the work goes to the close calls.
- It is a search of depth one over the compound turn (the root's candidates; the rest of the
  turn is the playout), not a tree over every later decision.
- Planner's answer is kept unless another candidate beats it by ``margin`` on average and by
  ``z`` standard errors of the paired differences: search overrules the planner only when the
  samples say clearly that it is wrong.

Time: a search plays a fixed number of ``iterations`` (a count, as planner bounds its work:
the same game plays the same way however loaded the machine is; its randomness is the game's
seeded ``context.rng``), a few tens of milliseconds. The clock is only a safety stop: never
more than ``budget`` seconds, nor a ``share`` of the decision's deadline, nor more than the
time bank left spread over the decisions still to come, so it never answers late.
"""

from __future__ import annotations

import os
import random
import time

from hegemon.referee import legal
from hegemon.referee.actions import Attack, Defend, Occupy, Pass, Place, Trade
from hegemon.referee.decisions import Kind
from hegemon.referee.editions import teams as teamlib
from hegemon.referee.game import Game
from hegemon.sdk import run
from hegemon.sdk.forward import CannotSample, sample_game

from .planner import PlannerBot


def _budget_default() -> float:
    """Seconds a searched decision may take at most (``HEGEMON_MCTS_SECONDS`` overrides 1)."""
    try:
        return max(0.0, float(os.environ.get("HEGEMON_MCTS_SECONDS", "1")))
    except ValueError:
        return 1.0


class MctsBot(PlannerBot):
    name = "mcts"
    version = "1.0"
    budget = _budget_default()  # seconds a searched decision may take at most (a safety stop)
    share = 0.4  # ... and at most this share of the decision's deadline
    horizon = 60  # actions of the seat's turn a playout plays at most after the candidate
    candidates = 6  # attacks searched besides stopping and planner's own
    halve = 8  # iterations between two halvings of the candidates
    margin = 3.0  # how much better than planner's answer a candidate must score (armies)
    z = 2.5  # ... in standard errors of the paired differences
    iterations = 32  # samples a searched decision plays its candidates on

    # -------------------------------------------------------------- decisions
    def attack(self, view, decision):
        planned = super().attack(view, decision)
        if view.round < 1:
            return planned
        options = sorted(
            legal.attacks(view, view.seat),
            key=lambda a: view.armies[a[1]] - view.armies[a[0]],
        )
        moves = [planned, *(Attack(s, t, most) for s, t, most in options[: self.candidates])]
        if not decision.forced:
            moves.append(Pass())
        return self.search(view, moves)

    def occupy(self, view, decision):
        planned = super().occupy(view, decision)
        low, high = decision.minimum, decision.maximum
        moves = [planned, *(Occupy(n) for n in (low, high, (low + high) // 2))]
        return self.search(view, moves)

    # -------------------------------------------------------------- search
    def seconds(self, view) -> float:
        """The time this decision may search: within its deadline and the bank left."""
        deadline = view.deadline_ms / 1000 if view.deadline_ms else 2.0
        limit = min(self.budget, self.share * deadline)
        if view.time_bank_ms:
            limit = min(limit, view.time_bank_ms / 1000 / 50 + self.share * deadline)
        return limit

    def search(self, view, moves):
        """The best of ``moves`` (the first is planner's) by determinized playouts."""
        unique = list(dict.fromkeys(moves))
        if len(unique) < 2 or teamlib.on(view.rules):
            return moves[0]
        rng = view.context.rng
        stop = time.perf_counter() + self.seconds(view)
        pos, state = self._start(view)
        judge = Judge(pos, view.seat, state["card"])
        scores: dict[object, list[float]] = {move: [] for move in unique}
        alive = list(unique)
        iterations = 0
        while iterations < self.iterations and time.perf_counter() < stop:
            try:
                root = sample_game(view, rng)
            except CannotSample:
                return moves[0]
            chance = rng.getrandbits(62)
            for move in alive:
                game = root.clone()
                game.rng = type(game.rng)(chance)  # the same fresh dice for every candidate
                scores[move].append(playout(game, move, judge, self.horizon, rng))
            iterations += 1
            if iterations % self.halve == 0 and len(alive) > 2:
                alive.sort(key=lambda m: -sum(scores[m]))
                alive = alive[: max(2, len(alive) // 2)]
                if moves[0] not in alive:
                    alive.append(moves[0])
        planned = moves[0]
        best = max(alive, key=lambda m: sum(scores[m]))
        return best if self.clearly_better(scores[best], scores[planned]) else planned

    def clearly_better(self, best: list[float], planned: list[float]) -> bool:
        """Whether ``best`` beats planner's answer by ``margin`` on average, and by ``z``
        standard errors of the paired differences (the same samples and dice for both)."""
        diffs = [b - p for b, p in zip(best, planned, strict=True)]
        n = len(diffs)
        if n < 2:
            return False
        mean = sum(diffs) / n
        var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
        return mean > self.margin and mean > self.z * (var / n) ** 0.5


# ------------------------------------------------------------------ playouts
class Judge:
    """Scores the end of a playout for ``seat`` by planner's position score: its change from
    the real position (``pos``), plus a card earned and a won or lost game."""

    def __init__(self, pos, seat: int, card: float):
        self.pos, self.seat, self.card = pos, seat, card
        self.owner, self.armies = list(pos.owner), list(pos.armies)

    def score(self, game: Game) -> float:
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
        return gain + (self.card if game.conquered_this_turn else 0.0)


WIN = 1000.0  # a won (or lost) game, in planner's units (armies)


def playout(game: Game, move, judge: Judge, horizon: int, rng: random.Random) -> float:
    """Apply ``move``, finish the seat's turn with :func:`rollout_action` (``horizon`` actions
    at most), and score where it stands before the turn passes on."""
    seat = judge.seat
    try:
        game.apply(move)
        for _ in range(horizon):
            d = game.pending
            if d is None or d.player != seat or d.kind is Kind.FORTIFY:
                break
            game.apply(rollout_action(game, rng))
    except Exception:  # a move the sample refuses (it should not) scores nothing
        return -WIN
    return judge.score(game)


def rollout_action(game: Game, rng: random.Random):
    """A cheap, sensible action for the pending decision: attack the weakest neighbour while
    clearly stronger, stack on the border, trade when possible, move in with everything."""
    d = game.pending
    assert d is not None
    kind, p = d.kind, d.player
    if kind is Kind.ATTACK:
        armies = game.armies
        best, best_margin = None, 2 if not d.forced else -(1 << 30)
        for s, t, most in legal.attacks(game, p):
            margin = armies[s] - armies[t]
            if margin > best_margin:
                best, best_margin = Attack(s, t, most), margin
        if best is not None:
            return best
    elif kind is Kind.PLACE:
        front = legal.border_territories(game, p)
        if front:
            armies = game.armies
            t = max(front, key=lambda x: armies[x] + rng.random())
            action = Place(((t, d.armies),))
            if game.is_legal(action):
                return action
    elif kind is Kind.TRADE:
        sets = legal.trades(game.players[p].cards, game.board, game.rules.card_values)
        if sets:
            return Trade(sets[0])
    elif kind is Kind.OCCUPY:
        return Occupy(d.maximum)
    elif kind is Kind.DEFEND:
        return Defend(d.maximum)
    return game.default_action()


if __name__ == "__main__":
    run(MctsBot())
