"""Game records: a compact, stable serialisation of rule set, seed, actions and events, and replay.

A record is JSON lines::

    {"type":"header","format":"hegemon-record/2","rules":{...},"players":4,"seed_hash":"…",
     "seed_public":false,…}
    {"type":"opening","events":[...]}                       # set-up events
    {"type":"action","n":0,"player":2,"action":["claim",5],"events":[...]}
    {"type":"note","seat":1,"n":1,"text":"…","marks":[{"t":5,"to":7,"colour":"red"}]}  # private
    ...
    {"type":"result","places":[2,1,4,3],"reason":"conquest","seed":1234…}

Commit, then reveal: the header publishes only the seed's hash (:func:`seed_hash`), the result
line reveals the seed itself, and :func:`replay` checks the one against the other. A seed below
:data:`~hegemon.referee.chance.PUBLIC_BELOW` (a user's ``--seed 7``) is found from its hash by
search, so the header says ``"seed_public":true``: its game was predictable to anyone who knew
the seed. Format-1 records (the seed in the header, one Mersenne Twister for every chance event)
still replay, with :class:`~hegemon.referee.chance.LegacyChance`.

A seat's private lines (``fault``: what its bot did wrong; ``note``: its bot's notes and marks on
the action that follows, :mod:`hegemon.referee.notes`) are the seat owner's: the pages redact
them for everyone else, and :func:`replay` skips them.

Keys are written in a fixed order with no whitespace, so the same game always gives the same
bytes. :func:`replay` re-runs the engine on the recorded actions and compares every event.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from .actions import Action, ActionFormatError, Forfeit, action_from_list, action_to_list
from .chance import PUBLIC_BELOW, LegacyChance
from .events import Event
from .game import Game, GameSetupError, IllegalAction
from .rules import RulesError, rules_from_dict

FORMAT = "hegemon-record/2"
FORMAT_1 = "hegemon-record/1"  # the seed in the header, Mersenne Twister chance: replayed only


class RecordError(ValueError):
    """A record that cannot be read, or that the engine does not reproduce."""


def seed_hash(seed: int) -> str:
    """The commitment published before a game: the sha256 hex digest of the UTF-8 text
    ``hegemon-seed:<seed in decimal>`` (e.g. ``hegemon-seed:7``)."""
    return hashlib.sha256(f"hegemon-seed:{seed}".encode()).hexdigest()


def seed_is_public(seed: int) -> bool:
    """True for a seed small enough to be found from its hash (chosen by a user, not drawn)."""
    return seed < PUBLIC_BELOW


def dumps(obj: Any) -> str:
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


def header(game: Game, **extra: Any) -> dict[str, Any]:
    data = {
        "type": "header",
        "format": FORMAT,
        "rules": game.rules.to_dict(),
        "players": game.player_count,
        "seed_hash": seed_hash(game.seed),
        "seed_public": seed_is_public(game.seed),
    }
    if game.decision_limit:  # only then: the records of games without one stay as they were
        data["decision_limit"] = game.decision_limit
    data.update(extra)
    return data


def action_line(
    n: int, player: int, action: Action, events: Iterable[Event], **extra: Any
) -> dict[str, Any]:
    data = {
        "type": "action",
        "n": n,
        "player": player,
        "action": action_to_list(action),
        "events": [e.to_dict() for e in events],
    }
    data.update(extra)
    return data


@dataclass
class Recorder:
    """Plays a game and keeps its record. ``extra`` header keys (seat names, map, …) are kept."""

    game: Game
    extra: dict[str, Any] = field(default_factory=dict)
    lines: list[dict[str, Any]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.lines.append(header(self.game, **self.extra))
        self.lines.append(
            {"type": "opening", "events": [e.to_dict() for e in self.game.opening_events]}
        )

    def apply(self, action: Action) -> list[Event]:
        """Apply ``action`` for the pending player (or a referee forfeit) and record it."""
        pending = self.game.pending
        player = (
            action.player
            if isinstance(action, Forfeit)
            else (pending.player if pending is not None else -1)
        )
        events = self.game.apply(action)  # refuses (IllegalAction) once the game is over
        self.lines.append(action_line(len(self.lines) - 2, player, action, events))
        if self.game.over:
            self.lines.append(result_line(self.game))
        return events

    def text(self) -> str:
        return "".join(dumps(line) + "\n" for line in self.lines)


def result_line(game: Game) -> dict[str, Any]:
    """The last line: the places, why the game ended, and the seed revealed."""
    return {
        "type": "result",
        "places": list(game.places or ()),
        "reason": game.finish_reason,
        "seed": game.seed,
    }


def parse(text: str) -> list[dict[str, Any]]:
    lines = []
    for number, raw in enumerate(text.splitlines(), 1):
        if not raw.strip():
            continue
        try:
            line = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise RecordError(f"line {number}: not JSON ({exc.msg})") from None
        if not isinstance(line, dict) or "type" not in line:
            raise RecordError(f"line {number}: not a record line")
        lines.append(line)
    if not lines or lines[0].get("type") != "header":
        raise RecordError("line 1: a record starts with its header")
    if lines[0].get("format") not in (FORMAT, FORMAT_1):
        raise RecordError(f"line 1: unknown format {lines[0].get('format')!r} (expected {FORMAT})")
    return lines


def record_seed(lines: list[dict[str, Any]]) -> Any:
    """The seed of a parsed record: revealed by its result line (format 1: in its header)."""
    if lines[0].get("format") == FORMAT_1:
        return lines[0].get("seed")
    for number, line in enumerate(lines, 1):
        if line["type"] == "result":
            if "seed" not in line:
                raise RecordError(f"line {number}: the result does not reveal the seed")
            return line["seed"]
    raise RecordError(f"line {len(lines) + 1}: no result line, so the seed is not revealed")


def game_from_header(head: dict[str, Any], seed: Any = None) -> Game:
    """The game a record's header sets up, with ``seed`` (default: format 1's header seed)."""
    if seed is None:
        seed = head.get("seed")
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise RecordError(f"line 1: the seed {seed!r} is not a non-negative integer")
    legacy = LegacyChance(seed) if head.get("format") == FORMAT_1 else None
    limit = head.get("decision_limit", 0)
    if not isinstance(limit, int) or isinstance(limit, bool) or limit < 0:
        raise RecordError(f"line 1: the decision limit {limit!r:.40} is not a non-negative integer")
    try:
        players: int = head.get("players")  # type: ignore[assignment]  # Game checks it
        rules = rules_from_dict(head.get("rules") or {})
        return Game(rules, players, seed, chance=legacy, decision_limit=limit)
    except (RulesError, GameSetupError, TypeError) as exc:
        raise RecordError(f"line 1: cannot set up the game: {exc}") from None


def game_from_record(lines: list[dict[str, Any]]) -> Game:
    """The game a parsed record sets up, its seed taken where the record reveals it."""
    return game_from_header(lines[0], record_seed(lines))


@dataclass
class Verdict:
    """The outcome of :func:`replay`: ``ok``, else the first difference found."""

    ok: bool
    message: str
    game: Game | None = None
    actions: int = 0


def replay(text: str) -> Verdict:
    """Re-run the engine on a record's actions and compare every event and the result."""
    try:
        lines = parse(text)
    except RecordError as exc:
        return Verdict(False, str(exc))
    head = lines[0]
    try:
        seed = record_seed(lines)
        if seed_hash(seed) != head.get("seed_hash"):
            return Verdict(False, "line 1: the seed does not match the published seed hash")
        if head.get("format") == FORMAT and head.get("seed_public") != seed_is_public(seed):
            return Verdict(False, "line 1: seed_public does not match the revealed seed")
        game = game_from_header(head, seed)
    except RecordError as exc:
        return Verdict(False, str(exc))
    actions = 0
    ended = False
    for number, line in enumerate(lines[1:], 2):
        kind = line["type"]
        if kind == "opening":
            got = [e.to_dict() for e in game.opening_events]
            if got != line.get("events"):
                return Verdict(
                    False,
                    f"line {number}: set-up differs: recorded {line.get('events')}, engine {got}",
                    game,
                )
        elif kind == "action":
            try:
                action = action_from_list(line.get("action"))
            except ActionFormatError as exc:
                return Verdict(False, f"line {number}: {exc}", game, actions)
            expected_player = (
                action.player
                if isinstance(action, Forfeit)
                else (game.pending.player if game.pending else None)
            )
            if line.get("player") != expected_player:
                return Verdict(
                    False,
                    f"line {number}: recorded player {line.get('player')}, "
                    f"but the engine expects {expected_player}",
                    game,
                    actions,
                )
            try:
                events = game.apply(action)
            except IllegalAction as exc:
                return Verdict(
                    False,
                    f"line {number}: the engine refuses {line.get('action')}: {exc.reason}",
                    game,
                    actions,
                )
            got = [e.to_dict() for e in events]
            if got != line.get("events"):
                for i, (a, b) in enumerate(zip(line.get("events") or [], got, strict=False)):
                    if a != b:
                        return Verdict(
                            False,
                            f"line {number}: event {i} differs: recorded {a}, engine {b}",
                            game,
                            actions,
                        )
                return Verdict(
                    False,
                    f"line {number}: recorded {len(line.get('events') or [])} events, "
                    f"engine {len(got)}",
                    game,
                    actions,
                )
            actions += 1
        elif kind == "result":
            ended = True
            if not game.over:
                return Verdict(
                    False,
                    f"line {number}: the record ends the game, the engine does not",
                    game,
                    actions,
                )
            places = list(game.places or ())
            if places != line.get("places"):
                return Verdict(
                    False,
                    f"line {number}: places differ: recorded {line.get('places')}, engine {places}",
                    game,
                    actions,
                )
    if game.over and not ended:
        return Verdict(
            False,
            f"line {len(lines) + 1}: the engine ends the game ({game.finish_reason}), "
            "the record has no result",
            game,
            actions,
        )
    return Verdict(True, f"matches: {actions} actions replayed", game, actions)
