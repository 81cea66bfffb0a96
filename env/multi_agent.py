"""A PettingZoo AEC environment on the referee's own :class:`~hegemon.referee.game.Game`.

>>> from hegemon.env import aec
>>> env = aec("classic", players=3, options={"turn_limit": 2}, seed=1)
>>> env.reset(seed=1)
>>> env.agents
['seat_0', 'seat_1', 'seat_2']

One agent per player's seat (``seat_0``…), the neutral colours none; the agent to act is the
seat the pending decision belongs to. The game runs in this process with no bot protocol in
between: each step is one atomic step of :mod:`hegemon.referee.encoding` (a compound decision such
as a placement takes several), and a complete answer is applied with ``Game.apply``. An answer
the engine refuses all the same (a rule the masks cannot see, e.g. a team game's placement
limits) is replaced by the engine's default action, as the referee does, and the step's info
says ``"refused"``; so is an index the mask forbids (``"illegal"``).

Observations are ``{"observation": float32 vector, "action_mask": int8 vector}`` of the seat's
own view (``view_for``, the referee's redaction). Rewards (``reward=``):

- ``"win"``: +1 to the winner, -1 to the others, at the end;
- ``"place"`` (default): from +1 for first place down to -1 for last, at the end;
- ``"share"``: ``"place"`` plus, after every step, each seat's change of its share of the
  territories.

A game ended by the rule set's ``turn_limit`` (a rule set without one gets the referee's
default, :mod:`hegemon.referee.limits`) or the decision limit truncates every agent still in;
one won or lost terminates; a seat eliminated earlier terminates then, with its place's reward.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any, ClassVar

import gymnasium
import numpy as np
from pettingzoo import AECEnv

from hegemon.referee.encoding import Partial, layout_of, to_action
from hegemon.referee.game import Game, IllegalAction
from hegemon.referee.limits import CUT_SHORT, DEFAULT_DECISION_LIMIT, bounded
from hegemon.referee.rules import RuleSet, make_rules
from hegemon.referee.view import View

from .notebook import game_html
from .observer import PublicSeats, SeatObserver
from .rewards import REWARDS, final_reward, territory_shares
from .spaces import action_space, observation_space
from .text import render_text


def agent_name(seat: int) -> str:
    """The agent of ``seat``."""
    return f"seat_{seat}"


class HegemonAEC(AECEnv):  # type: ignore[misc]
    """A PettingZoo AEC environment of ``rules`` (a preset name, with ``options`` overriding
    single options by name, or a :class:`RuleSet`) for ``players`` seats; see the module's
    doc for observations, actions and ``reward``. ``seed`` seeds the games drawn when
    ``reset`` is given none."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "hegemon_v0",
        "render_modes": ["ansi", "human"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        rules: str | RuleSet = "classic",
        players: int = 4,
        *,
        options: Mapping[str, Any] | None = None,
        seed: int | None = None,
        reward: str = "place",
        render_mode: str | None = None,
    ):
        super().__init__()
        if reward not in REWARDS:
            raise ValueError(f"unknown reward '{reward}' (available: {', '.join(REWARDS)})")
        # every game ends: rules without a round limit get the default (referee.limits)
        self.rules = bounded(rules if isinstance(rules, RuleSet) else make_rules(rules, options))
        self.players = players
        self.reward_mode = reward
        self._share = reward == "share"
        self.render_mode = render_mode
        Game(self.rules, players, 0)  # a bad preset and player count fails here, not at reset
        self.possible_agents = [agent_name(s) for s in range(players)]
        self._seat_of = {agent: s for s, agent in enumerate(self.possible_agents)}
        layout = layout_of(Game(self.rules, players, 0).board)
        self._observation_space = observation_space(layout)
        self._action_space = action_space(layout)
        self._seeds = np.random.default_rng(seed)
        self._current: Game | None = None
        self.partial = Partial()
        self._observers: list[SeatObserver] = []
        # the selected agent's view and mask as last observed: its step needs them again
        self._asked: tuple[View, np.ndarray] | None = None
        # kept so that a step that changes nothing of them costs nothing: whether the last
        # step paid a reward, whether an agent has ended, the seats out of the game so far
        self._rewarded = False
        self._ended = False
        self._out = 0

    def observation_space(self, agent: str) -> gymnasium.spaces.Dict:
        return self._observation_space

    def action_space(self, agent: str) -> gymnasium.spaces.Discrete:
        return self._action_space

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game: with ``seed`` that game (same seed, same actions: the same game),
        else one drawn from the environment's own seed."""
        if seed is not None:
            self._seeds = np.random.default_rng(seed)
        game_seed = int(seed) if seed is not None else int(self._seeds.integers(2**31))
        self._current = Game(
            self.rules, self.players, game_seed, events=False, decision_limit=DEFAULT_DECISION_LIMIT
        )  # no event is read
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.partial = Partial()
        public = PublicSeats(self._current)
        self._observers = [SeatObserver(self._current, s, public) for s in range(self.players)]
        self._asked = None
        self._shares = territory_shares(self.game)
        self._rewarded = self._ended = False
        self._out = 0
        self._select()

    def agent_iter(self, max_iter: int = 2**63) -> Iterable[str]:
        """The agent to act, until every agent is done (or ``max_iter`` were given): as
        PettingZoo's, through a generator (a step's share of its iterator is not small)."""
        return _AgentIter(self, max_iter)

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """The selected agent's observation (None unless ``observe``), cumulative reward,
        termination, truncation and info (PettingZoo's, read directly)."""
        agent = self.agent_selection
        return (
            self._look(agent) if observe else None,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        if agent == self.agent_selection:
            return self._look(agent)
        _, observation, mask = self._observer(self._seat_of[agent]).look(self.partial)
        return {"observation": observation, "action_mask": mask}

    def _look(self, agent: str) -> dict[str, np.ndarray]:
        """The selected ``agent``'s observation; its view and mask kept for its step (the mask
        given is a copy: the step checks the action against the one it made)."""
        if self._current is None:
            self.game  # noqa: B018  # raises: no game before reset
        view, observation, mask = self._observers[self._seat_of[agent]].look(self.partial)
        self._asked = (view, mask)
        return {"observation": observation, "action_mask": mask.copy()}

    def _observer(self, seat: int) -> SeatObserver:
        """``seat``'s observer of the game being played."""
        if self._current is None:
            self.game  # noqa: B018  # raises: no game before reset
        return self._observers[seat]

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self._ended and (self.terminations[agent] or self.truncations[agent]):
            self._was_dead_step(action)
            if self.agents and not self._skip_dead():
                self._select()
            return
        game = self._current
        assert game is not None  # (an agent is selected only once a game was reset)
        seat = self._seat_of[agent]
        self._cumulative_rewards[agent] = 0.0
        if self._rewarded:  # (else every reward is 0 already)
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self._rewarded = False
        if self.infos[agent]:
            self.infos[agent] = {}
        asked, self._asked = self._asked, None
        view, mask = asked if asked is not None else (self._observer(seat).view(), None)
        assert view.pending is not None, "the selected agent always has a decision"
        try:
            index = int(action)  # type: ignore[arg-type]  # None only for a dead agent
            answer = to_action(index, view, view.pending, self.partial, mask=mask)
        except ValueError as illegal:  # as the referee does: the default action
            self.infos[agent] = {"illegal": str(illegal)}
            self.partial = Partial()
            answer = game.default_action()
        if answer is None:  # one step of a compound answer: nothing happened in the game
            return
        self.partial = Partial()
        try:
            game.apply(answer)
        except IllegalAction as refused:
            self.infos[agent] = {"refused": str(refused)}
            game.apply(game.default_action())
        # (only a seat leaving the game, which joins out_order, or its end scores, but "share")
        scoring = self._share or game.over or len(game.out_order) != self._out
        if scoring and self._score(game):
            self._rewarded = True
            self._accumulate_rewards()
        self._select()

    def _score(self, game: Game) -> bool:
        """Reward and end the agents the last action concerned; whether any was (else every
        reward is 0 and no agent's state changed)."""
        self._out = len(game.out_order)
        scored = False
        if self._share:
            scored = True
            shares = territory_shares(game)
            for seat, agent in enumerate(self.possible_agents):
                if agent in self.rewards:
                    self.rewards[agent] += shares[seat] - self._shares[seat]
            self._shares = shares
        out = [p.seat for p in game.players[: self.players] if not p.active]
        if game.over:
            out = list(range(self.players))
        for seat in out:
            agent = self.possible_agents[seat]
            if agent not in self.agents or self.terminations[agent] or self.truncations[agent]:
                continue
            self.rewards[agent] += final_reward(
                self.reward_mode, self._final_place(seat), self.players
            )
            scored = self._ended = True
            if game.over and game.finish_reason in CUT_SHORT and game.players[seat].active:
                self.truncations[agent] = True
            else:
                self.terminations[agent] = True
        return scored

    def _final_place(self, seat: int) -> int:
        """``seat``'s place: the game's once over; a seat out before then, the place it will
        end with (those still in all finish before it)."""
        game = self.game
        if game.places is not None:
            return game.places[seat]
        still_in = len(game.active_players())
        earlier = [s for s in game.out_order if s < self.players]
        return still_in + len(earlier) - earlier.index(seat) if seat in earlier else still_in + 1

    def _skip_dead(self) -> bool:
        return any(self.terminations[a] or self.truncations[a] for a in self.agents)

    def _select(self) -> None:
        game = self._current
        assert game is not None  # (selecting follows a reset)
        if self._ended:  # an ended agent is selected first, to be stepped out with None
            terminations, truncations = self.terminations, self.truncations
            for agent in self.agents:
                if terminations[agent] or truncations[agent]:
                    self.agent_selection = agent
                    return
        if game.pending is not None:
            self.agent_selection = self.possible_agents[game.pending.player]

    @property
    def game(self) -> Game:
        """The game being played (the engine's own, all of it: secrets included)."""
        if self._current is None:
            raise RuntimeError("call reset() before using the environment")
        return self._current

    def render(self) -> str | None:
        """The board as text (``render_mode`` "ansi": returned; "human": printed)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode")
            return None
        text = render_text(self.game)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def _repr_html_(self) -> str | None:
        """In a notebook: the replay viewer of a finished game, the board as text before."""
        if self._current is None:
            return None
        return game_html(self._current, list(self.possible_agents))

    def close(self) -> None:
        """Nothing to release: the game lives in this process."""


class _AgentIter:
    """:meth:`HegemonAEC.agent_iter`'s iterable: each iteration a generator of its own."""

    def __init__(self, env: HegemonAEC, max_iter: int):
        self.env = env
        self.max_iter = max_iter

    def __iter__(self) -> Iterator[str]:
        env, left = self.env, self.max_iter
        while env.agents and left > 0:
            left -= 1
            yield env.agent_selection


aec = HegemonAEC
"""``aec(rules, players, *, options, seed, reward, render_mode)``: the environment (the class
itself, under the name the package offers)."""
