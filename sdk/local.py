"""Play a game between Python bots in this process, without gRPC: quick testing for bot authors.

>>> from hegemon.sdk import Bot, play_local
>>> result = play_local([Bot(), Bot(), Bot()], "classic", seed=1, options={"turn_limit": 5})
>>> sorted(result.places)[0]
1

Each bot sees exactly what it would see from the referee: its own view, the events since its
previous decision (another seat's drawn card hidden), and the error text when its previous
answer was refused. As with the referee, a refused or failed answer is replaced by the
engine's default action and counted (``faults``); ``strict=True`` raises instead. With
``protocol=True`` every request and answer also goes through the protocol messages
(:mod:`hegemon.sdk.protocol.codec`), exactly as over gRPC but without a socket.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from hegemon.referee.actions import Action
from hegemon.referee.events import Event, redact
from hegemon.referee.game import Game, IllegalAction
from hegemon.referee.rules import RuleSet, make_rules
from hegemon.referee.view import view_for

from .bot import Bot, GameContext, make_view
from .protocol import codec
from .server import BotServicer

__all__ = ["LocalFault", "LocalGame", "play_local"]


class LocalFault(RuntimeError):
    """Raised by ``play_local(..., strict=True)`` when a bot fails or answers illegally."""


@dataclass
class LocalGame:
    """The result of :func:`play_local`."""

    places: tuple[int, ...]  # places[seat], 1 = winner
    reason: str  # "conquest", "turn limit", ...
    rounds: int
    actions: list[tuple[int, Action]] = field(default_factory=list)  # (seat, answer) in order
    decisions: list[int] = field(default_factory=list)  # decisions asked, per seat
    seconds: list[float] = field(default_factory=list)  # time spent deciding, per seat
    faults: list[tuple[int, str]] = field(default_factory=list)  # (seat, why), refused answers
    game: Game | None = field(default=None, repr=False)  # the finished engine game


def play_local(
    bots: Sequence[Bot],
    rules: RuleSet | str = "classic",
    seed: int = 0,
    *,
    options: Mapping[str, Any] | None = None,
    game_id: str | None = None,
    protocol: bool = False,
    strict: bool = False,
    decision_ms: int = 2000,
    max_decisions: int = 1_000_000,
) -> LocalGame:
    """Play one game, ``bots[i]`` in seat ``i`` (the same bot object may sit in several
    seats), and return its :class:`LocalGame`."""
    if isinstance(rules, str):
        rules = make_rules(rules, options)
    elif options:
        raise ValueError("give options with a preset name, not with a RuleSet")
    players = len(bots)
    game = Game(rules, players, seed)
    game_id = game_id if game_id is not None else f"local-{rules.preset}-{seed}"
    names = tuple(b.name for b in bots)
    servicers: dict[int, BotServicer] = {}
    contexts: list[GameContext | None] = [None] * players
    for seat, bot in enumerate(bots):
        if protocol:
            servicer = servicers.setdefault(id(bot), BotServicer(bot))
            servicer.StartGame(
                codec.start_game_request(game_id, seat, names, rules, game.board, decision_ms, 0),
                None,
            )
        else:
            contexts[seat] = bot.start_game(
                GameContext(game_id, seat, names, rules, game.board, decision_ms)
            )
    result = LocalGame(
        places=(), reason="", rounds=0, decisions=[0] * players, seconds=[0.0] * players, game=game
    )
    inbox: list[list[Event]] = [list(game.opening_events) for _ in range(players)]
    errors = [""] * players
    strikes = [0] * players
    clock = time.perf_counter
    while not game.over:
        if len(result.actions) >= max_decisions:
            raise LocalFault(f"no end after {max_decisions} decisions")
        d = game.pending
        seat = d.player
        bot = bots[seat]
        view = view_for(game, seat)
        events, inbox[seat] = inbox[seat], []
        error, errors[seat] = errors[seat], ""
        action: Action | None = None
        started = clock()
        try:
            if protocol:
                request = codec.view_to_proto(
                    view, events, error, strikes[seat], 0, game_id=game_id, deadline_ms=decision_ms
                )
                reply = servicers[id(bot)].Decide(request, None)
                action = codec.action_from_proto(reply, game_id)
            else:
                bot_view = make_view(
                    view,
                    contexts[seat],
                    [redact(e, seat) for e in events],
                    error,
                    strikes[seat],
                    0,
                    decision_ms,
                )
                action = bot.answer(bot_view)
        except Exception as exc:  # the bot failed: the referee would count a strike
            if strict:
                raise LocalFault(
                    f"seat {seat} ({bot.name}) failed on {d.kind.value}: "
                    f"{type(exc).__name__}: {exc}"
                ) from exc
            reason = f"{type(exc).__name__}: {exc}"
        result.seconds[seat] += clock() - started
        result.decisions[seat] += 1
        if action is not None:
            try:
                caused = game.apply(action)
                result.actions.append((seat, action))
            except IllegalAction as exc:
                if strict:
                    raise LocalFault(
                        f"seat {seat} ({bot.name}): illegal {action!r} for "
                        f"{d.kind.value}: {exc.reason}"
                    ) from exc
                reason = exc.reason
                action = None
        if action is None:
            result.faults.append((seat, reason))
            errors[seat] = reason
            strikes[seat] += 1
            caused = game.apply(game.default_action())
        for box in inbox:
            box.extend(caused)
    result.places, result.reason, result.rounds = game.places, game.finish_reason, game.round
    done: set[int] = set()
    for seat, bot in enumerate(bots):
        if id(bot) in done:
            continue
        done.add(id(bot))
        if protocol:
            servicers[id(bot)].EndGame(
                codec.end_game_request(game_id, game.places, game.finish_reason), None
            )
        else:
            bot.end_game(game_id, game.places, game.finish_reason)
    return result
