"""A Gymnasium environment for one seat against bots, played by the referee's own loop.

>>> from hegemon.env import single
>>> env = single("classic", opponents=["random", "random"], options={"turn_limit": 2})
>>> obs, info = env.reset(seed=1)
>>> sorted(obs)
['action_mask', 'observation']
>>> env.close()

The learner sits in seat ``seat`` (default 0); the other player seats hold ``opponents``, each
a sample bot's name (``random``, ``aggressive``, ``continental``, ``planner``), a Python bot file
as ``hegemon bench`` takes it, or a :class:`hegemon.sdk.Bot`. The game is run by
:class:`hegemon.referee.arbiter.Arbiter` as :func:`hegemon.sdk.play_local` runs it, so the
opponents see, answer and are held to the rules exactly as in the arena (their orders
included), untimed. The arbiter runs in a thread of its own, which waits while the learner
thinks; :meth:`HegemonSingle.close` (or the next reset) ends it.

Observations, actions and rewards are those of :mod:`hegemon.env.multi_agent` (one step is one
atomic step of :mod:`hegemon.referee.encoding`). An index the mask forbids is an illegal answer: the
arena applies the default action (``info["illegal"]``); no strike ever forfeits the learner. The
episode ends when the game does (``terminated``; ``truncated`` when the rule set's
``turn_limit`` cut it while the learner was still in: a rule set without one gets the
referee's default, :mod:`hegemon.referee.limits`, and the decision limit cuts it too), the
learner's place paid then; a learner eliminated early waits for the others to finish, since
its place is theirs to decide. The last observation of an episode has an all-zero mask:
nothing is left to decide.
"""

from __future__ import annotations

import math
import queue
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import gymnasium
import numpy as np

from hegemon.referee.actions import Action
from hegemon.referee.encoding import Partial, action_mask, encode, layout_of, to_action
from hegemon.referee.events import Event
from hegemon.referee.game import Game
from hegemon.referee.limits import CUT_SHORT, DEFAULT_DECISION_LIMIT, bounded
from hegemon.referee.rules import RuleSet, make_rules
from hegemon.referee.timecontrol import TimeControl
from hegemon.referee.view import View
from hegemon.sdk import Bot

from .notebook import game_html
from .observer import ViewEncoder
from .rewards import REWARDS, final_reward
from .spaces import action_space, observation_space
from .text import render_text

# the learner may answer badly as often as it likes: a refused answer gets the default action
UNTIMED = TimeControl(decision=math.inf, bank=math.inf, max_strikes=2**31)


class _Abandoned(Exception):
    """Ends the arbiter's thread: the game was left unfinished (reset, close)."""


@dataclass(frozen=True)
class _Over:
    """The game ended: its places and why."""

    places: tuple[int, ...]
    reason: str


@dataclass(frozen=True)
class _Asked:
    """The learner is asked: its view, and why its previous answer was refused (or "")."""

    view: View
    error: str


@dataclass(frozen=True)
class _Illegal:
    """The learner's index was not legal: the arbiter is told the answer was malformed."""

    why: str


class LearnerTransport:
    """The arbiter's transport to the learner: each ask waits for the environment's answer."""

    name = "learner"
    alive = True
    startup_error = ""

    def __init__(self) -> None:
        # (SimpleQueue: a hand-over in C, a fraction of Queue's locks and conditions in Python)
        self.asks: queue.SimpleQueue[_Asked | _Over | BaseException] = queue.SimpleQueue()
        self.answers: queue.SimpleQueue[Action | _Illegal | None] = queue.SimpleQueue()

    def encode_event(self, event: Event) -> Event:
        return event

    async def start_game(self, start: Any, timeout: float) -> None:  # noqa: ASYNC109 - the Transport protocol's
        return None

    async def decide(self, ask: Any) -> Any:
        from hegemon.referee.arbiter import Failure

        self.asks.put(_Asked(ask.view, ask.error))
        answer = self.answers.get()  # the arbiter's thread waits while the learner thinks
        if answer is None:
            raise _Abandoned
        if isinstance(answer, _Illegal):
            return Failure("protocol", answer.why)
        return answer

    async def end_game(self, game_id: str, places: Any, reason: str, timeout: float) -> None:  # noqa: ASYNC109 - the Transport protocol's
        return None

    async def resume(self) -> None:
        """Nothing to resume."""

    async def pause(self) -> None:
        """Nothing to pause."""

    def discard(self) -> None:
        """Never forfeited (no strike limit)."""


def bot_factory(opponent: str | Bot) -> Bot:
    """A bot object for an opponent: the bot itself, or a fresh one of a sample bot's name or a
    Python bot file (as ``hegemon bench`` reads it)."""
    if isinstance(opponent, Bot):
        return opponent
    from hegemon.sample_bots.local import python_bot

    make = python_bot(opponent)
    if make is None:
        raise ValueError(f"unknown opponent '{opponent}': a sample bot's name or a Python bot")
    bot: Bot = make()
    return bot


class HegemonSingle(gymnasium.Env[dict[str, Any], np.int64]):
    """A Gymnasium environment: the learner in ``seat`` against ``opponents`` (sample bots'
    names, Python bot files or :class:`hegemon.sdk.Bot` objects), under ``rules`` (a preset
    name, ``options`` overriding single options, or a :class:`RuleSet`); see the module's
    doc."""

    def __init__(
        self,
        rules: str | RuleSet = "classic",
        opponents: Sequence[str | Bot] = ("random", "random", "random"),
        *,
        seat: int = 0,
        options: Mapping[str, Any] | None = None,
        reward: str = "place",
        render_mode: str | None = None,
    ):
        if reward not in REWARDS:
            raise ValueError(f"unknown reward '{reward}' (available: {', '.join(REWARDS)})")
        # every game ends: rules without a round limit get the default (referee.limits)
        self.rules = bounded(rules if isinstance(rules, RuleSet) else make_rules(rules, options))
        self.players = len(opponents) + 1
        if not 0 <= seat < self.players:
            raise ValueError(f"seat {seat} is not one of the {self.players} players' seats")
        self.seat = int(seat)  # (a numpy integer too: the compiled observer takes an int)
        self.opponents = [bot_factory(o) for o in opponents]
        self.reward_mode = reward
        self.metadata = {"render_modes": ["ansi"]}
        self.render_mode = render_mode
        board = Game(self.rules, self.players, 0).board  # a bad player count fails here
        layout = layout_of(board)
        self.observation_space = observation_space(layout)
        self.action_space = action_space(layout)
        self._current: Game | None = None
        self._link: LearnerTransport | None = None
        self._thread: threading.Thread | None = None
        self._asked: _Asked | None = None
        self._partial = Partial()
        self._share = 0.0
        self._encoder: ViewEncoder | None = None  # the learner's observation, kept per game
        self._mask: np.ndarray | None = None  # the last observation's mask, for its step

    @property
    def game(self) -> Game:
        """The game being played (the engine's own, all of it: secrets included); read it only
        between steps, while the game's thread waits for the learner."""
        if self._current is None:
            raise RuntimeError("call reset() before using the environment")
        return self._current

    # ------------------------------------------------------------------ the game's thread
    def _start(self, seed: int) -> None:
        from hegemon.referee.arbiter import Arbiter
        from hegemon.sdk.local import InProcessBot, local_game_id

        self._stop()
        game = Game(self.rules, self.players, seed, decision_limit=DEFAULT_DECISION_LIMIT)
        link = LearnerTransport()
        shared: dict[int, dict[str, Any]] = {}
        links: list[Any] = [
            InProcessBot(bot, s, protocol=False, strict=False, decision_ms=1000, shared=shared)
            for s, bot in enumerate(self._seated_opponents(), start=0)
        ]
        links[self.seat] = link
        arbiter = Arbiter(
            game, links, local_game_id(seed), UNTIMED, header={"sandbox": "in-process"}
        )

        def run() -> None:
            import trio

            try:
                result = trio.run(arbiter.play)
            except _Abandoned:
                return
            except BaseException as exc:  # an opponent's bug or the engine's: tell the learner
                link.asks.put(exc)
                return
            link.asks.put(_Over(result.places, result.reason))

        self._current, self._link = game, link
        self._encoder = ViewEncoder(game.board, self.seat)
        self._thread = threading.Thread(target=run, name="hegemon-env-game", daemon=True)
        self._thread.start()

    def _seated_opponents(self) -> list[Bot]:
        """A bot per player seat, the learner's a placeholder (replaced by its transport)."""
        bots = list(self.opponents)
        bots.insert(self.seat, Bot())
        return bots

    def _stop(self) -> None:
        if self._thread is not None and self._link is not None:
            if self._thread.is_alive():
                self._link.answers.put(None)
            self._thread.join()
        self._thread = None
        self._link = None

    def _next(self) -> _Asked | _Over:
        assert self._link is not None
        news = self._link.asks.get()
        if isinstance(news, BaseException):
            raise news
        if isinstance(news, _Asked):
            self._asked = news
            self._partial = Partial()
        return news

    # ------------------------------------------------------------------ gymnasium
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Start a game: with ``seed``, that game (the opponents play deterministically given
        it), else one drawn from the environment's random generator."""
        super().reset(seed=seed)
        game_seed = int(seed) if seed is not None else int(self.np_random.integers(2**31))
        self._start(game_seed)
        self._share = 0.0
        news = self._next()
        if isinstance(news, _Over):  # the opponents ended it before the learner was asked
            raise RuntimeError("the game ended before the learner was asked anything")
        return self._observation(), {}

    def step(
        self, action: np.int64 | int
    ) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        asked = self._asked
        if asked is None or self._link is None:
            raise RuntimeError("call reset() before step(), and again after the episode ended")
        view, decision = asked.view, asked.view.pending
        assert decision is not None
        info: dict[str, Any] = {}
        try:
            answer: Action | _Illegal | None = to_action(
                int(action), view, decision, self._partial, mask=self._mask
            )
        except ValueError as illegal:
            answer = _Illegal(str(illegal))
            info["illegal"] = str(illegal)
        if answer is None:  # one step of a compound answer: the same decision goes on
            return self._observation(), 0.0, False, False, info
        self._link.answers.put(answer)
        news = self._next()
        if isinstance(news, _Over):
            self._asked = None
            self._thread_join()
            place = news.places[self.seat]
            game = self.game
            reward = final_reward(self.reward_mode, place, self.players) + self._shaping(game)
            truncated = news.reason in CUT_SHORT and game.players[self.seat].active
            info["place"] = place
            return self._final_observation(), reward, not truncated, truncated, info
        if news.error:
            info["refused"] = news.error
        return self._observation(), self._shaping(None), False, False, info

    def _thread_join(self) -> None:
        if self._thread is not None:
            self._thread.join()

    def _shaping(self, game: Game | None) -> float:
        """The change of the learner's territory share since its last decision ("share")."""
        if self.reward_mode != "share":
            return 0.0
        if game is not None:
            share = game.territory_count[self.seat] / game.board.size
        else:
            assert self._asked is not None
            view = self._asked.view
            share = view.seats[self.seat].territories / view.board.size
        change, self._share = share - self._share, share
        return change

    def _observation(self) -> dict[str, np.ndarray]:
        assert self._asked is not None and self._encoder is not None
        view = self._asked.view
        self._mask = action_mask(view, view.pending, self._partial)
        return {
            "observation": self._encoder.observe(view, view.pending, self._partial),
            "action_mask": self._mask.copy(),
        }

    def action_masks(self) -> np.ndarray:
        """The legal actions of the next step as a bool vector of the action space's size
        (sb3-contrib's ``MaskablePPO`` convention): the current observation's
        ``action_mask``; all False once the episode has ended."""
        if self._current is None:
            raise RuntimeError("call reset() before action_masks()")
        if self._asked is None or self._mask is None:
            return np.zeros(gymnasium.spaces.flatdim(self.action_space), dtype=bool)
        return self._mask.astype(bool)

    def _final_observation(self) -> dict[str, np.ndarray]:
        from hegemon.referee.view import view_for

        view = view_for(self.game, self.seat)
        return {"observation": encode(view, None), "action_mask": action_mask(view, None)}

    def render(self) -> str | None:
        """The board as text (``render_mode="ansi"``)."""
        if self.render_mode != "ansi" or self._current is None:
            return None
        return render_text(self._current)

    def _repr_html_(self) -> str | None:
        """In a notebook: the replay viewer of a finished game, the board as text before."""
        if self._current is None:
            return None
        names = [getattr(bot, "name", "bot") for bot in self._seated_opponents()]
        names[self.seat] = "learner"
        return game_html(self.game, names)

    def close(self) -> None:
        """End the game's thread (an unfinished game is abandoned)."""
        self._stop()


single = HegemonSingle
"""``single(rules, opponents, *, seat, options, reward, render_mode)``: the environment (the
class itself, under the name the package offers)."""
