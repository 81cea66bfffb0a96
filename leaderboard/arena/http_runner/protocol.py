"""What a runner and the arena say to each other over HTTP (JSON), both sides' halves in one
place: a lease (:func:`lease_body` → :func:`read_lease`) and a result (:func:`result_body` →
:func:`read_result`).

A lease carries the match's seed: the runner plays the game, so it needs it (a runner is a
machine of the organiser's, trusted as one). The seed is never logged by either side; the
record published afterwards reveals it, as every record does.
"""

from __future__ import annotations

import base64
import binascii
import re
from dataclasses import dataclass
from typing import Any

from hegemon.leaderboard.store import BotRow, MatchRow, SeasonRow

DIGEST = re.compile(r"^[0-9a-f]{64}$")
"""A bot archive's content digest (sha256 hex): also a folder's name on the runner's disk."""

WORKER = re.compile(r"^[A-Za-z0-9._:-]{1,100}$")
"""A runner's own id, as it sends it (the arena prefixes its token's name)."""

SEASON_FIELDS = (
    "name",
    "preset",
    "options",
    "players",
    "startup_time",
    "decision_time",
    "time_bank",
    "time_increment",
    "time_clock",
    "max_strikes",
    "fault_policy",
    "keep_memory",
    "duplicate",
    "kind",
)
"""What a runner needs of a season to play its games (never its own secret seed)."""

BOT_FIELDS = ("id", "name", "version", "command", "content_hash", "language")
"""What a runner needs of a bot version to start it from its archive."""


class ProtocolError(ValueError):
    """A body that is not what the protocol says (one line saying what is wrong)."""


def game_id(season_name: str, number: int) -> str:
    """The game id the bots of match ``number`` are told (the season runner's own)."""
    return f"{season_name}-{number}"


@dataclass(frozen=True)
class Lease:
    """A match a runner holds: play it, heartbeat it every ``heartbeat`` seconds, post it
    within ``lease`` seconds of the last heartbeat."""

    match_id: int
    number: int
    season: SeasonRow
    seed: int
    seats: list[BotRow]
    lease: float
    heartbeat: float

    @property
    def game_id(self) -> str:
        return game_id(self.season.name, self.number)


def lease_body(
    season: SeasonRow, match: MatchRow, seats: list[BotRow], lease: float
) -> dict[str, Any]:
    """The claim's answer: the match ``match`` of ``season``, its ``seats``' bots in seat order."""
    return {
        "match": {
            "id": match.id,
            "number": match.number,
            "seed": match.seed,
            "season": {name: getattr(season, name) for name in SEASON_FIELDS},
            "seats": [{name: getattr(bot, name) for name in BOT_FIELDS} for bot in seats],
        },
        "lease": lease,
        "heartbeat": max(0.2, min(30.0, lease / 4)),
    }


def read_lease(body: Any) -> Lease | None:
    """The lease of a claim's answer (None: nothing to play now)."""
    try:
        match = body["match"]
        if match is None:
            return None
        season = SeasonRow(seed=0, **{name: match["season"][name] for name in SEASON_FIELDS})
        seats = [BotRow(**{name: bot[name] for name in BOT_FIELDS}) for bot in match["seats"]]
        lease = Lease(
            int(match["id"]),
            int(match["number"]),
            season,
            int(match["seed"]),
            seats,
            float(body["lease"]),
            float(body["heartbeat"]),
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise ProtocolError(f"the arena's lease is not understood ({exc!r:.80})") from None
    for bot in seats:
        if not DIGEST.match(str(bot.content_hash)):
            raise ProtocolError("the arena's lease names a bot archive by a malformed digest")
    return lease


@dataclass(frozen=True)
class Result:
    """A played game as a runner posts it: the record, each seat's log (None: none kept), and
    what only the runner knows (the game's duration, the decisions asked)."""

    match_id: int
    record: str
    logs: list[bytes | None]
    duration: float
    decisions: int


def result_body(worker: str, result: Result) -> dict[str, Any]:
    """The JSON a runner posts (logs in base64)."""
    return {
        "worker": worker,
        "match_id": result.match_id,
        "record": result.record,
        "logs": [None if log is None else base64.b64encode(log).decode() for log in result.logs],
        "duration": result.duration,
        "decisions": result.decisions,
    }


def read_result(body: Any) -> Result:
    """A posted result, its every field checked."""
    if not isinstance(body, dict):
        raise ProtocolError("the body must be a JSON object")
    match_id, record, logs = body.get("match_id"), body.get("record"), body.get("logs")
    duration, decisions = body.get("duration"), body.get("decisions")
    if not isinstance(match_id, int) or isinstance(match_id, bool) or match_id < 1:
        raise ProtocolError('"match_id" must be a match\'s id')
    if not isinstance(record, str) or not record:
        raise ProtocolError('"record" must be the game\'s record (JSON lines)')
    if not isinstance(logs, list) or len(logs) > 64:
        raise ProtocolError('"logs" must be a list of each seat\'s log (base64, or null)')
    if not isinstance(duration, (int, float)) or isinstance(duration, bool) or duration < 0:
        raise ProtocolError('"duration" must be the game\'s seconds')
    if not isinstance(decisions, int) or isinstance(decisions, bool) or decisions < 0:
        raise ProtocolError('"decisions" must be the count of decisions asked')
    try:
        raw = [None if log is None else base64.b64decode(log, validate=True) for log in logs]
    except (binascii.Error, TypeError, ValueError):
        raise ProtocolError('"logs" must hold base64 text or null') from None
    return Result(match_id, record, raw, float(duration), decisions)


def wait_of(body: Any) -> float:
    """The seconds a claim may wait for a match (``wait``; none given: 0, answer at once)."""
    wait = body.get("wait", 0) if isinstance(body, dict) else 0
    if not isinstance(wait, (int, float)) or isinstance(wait, bool) or not 0 <= wait < 1e6:
        raise ProtocolError('"wait" must be the seconds the claim may wait (0 or more)')
    return float(wait)


def worker_of(body: Any) -> str:
    """The runner's own id in a request's body (checked: it is stored in the claims)."""
    worker = body.get("worker") if isinstance(body, dict) else None
    if not isinstance(worker, str) or not WORKER.match(worker):
        raise ProtocolError(
            '"worker" must be the runner\'s id (letters, digits, ".", "_", ":", "-")'
        )
    return worker
