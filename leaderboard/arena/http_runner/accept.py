"""The arena's side of a runner's post: the lease checked, the record verified, the game stored
by the store's one finishing path
(:meth:`~hegemon.leaderboard.store.claims.ClaimStore.finish_match`: game, record, logs and claim
in one transaction), and each refusal one line.

- a post for a match this runner does not hold (its lease lapsed and another runner has it, or
  another runner stored it) is refused (409), nothing stored;
- the same post again after its answer was lost is answered as the first was (idempotent): the
  match is stored, by this runner, with this very record;
- a record that does not verify (:func:`verify_posted`: the seed against its published hash,
  the engine replaying every action, and the rules, seats, game id and seed being the match's)
  is refused (422) and counted as a runner fault: the match goes back to the queue
  (:meth:`~hegemon.leaderboard.store.claims.ClaimStore.void_match`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from hegemon.leaderboard.seasons.limits import DEFAULT_MAX_ATTEMPTS
from hegemon.leaderboard.store import CLAIMED, DONE, GameOutcome, MatchRow, Store
from hegemon.leaderboard.store.records import stored_record
from hegemon.referee.limits import DEFAULT_DECISION_LIMIT, bounded
from hegemon.referee.record import RecordError, record_seed
from hegemon.referee.record_check import check_lines, checked_replay
from hegemon.referee.runner.botlog import cap

from .protocol import Result, game_id


@dataclass(frozen=True)
class Answer:
    """What the arena answers a post: an HTTP status and its JSON body."""

    status: int
    body: dict[str, Any]


def verify_posted(text: str, rules: dict[str, Any], game: str, labels: list[str], seed: int) -> str:
    """Why the record ``text`` is not the game the match asked for ("" if it is): it must
    replay (:func:`~hegemon.referee.record_check.checked_replay`: every line's shape, the seed
    against its hash, every event the engine's), under the season's ``rules`` (as played:
    bounded), with the match's seats (``labels``), game id and ``seed``."""
    verdict = checked_replay(text)
    if not verdict.ok:
        return verdict.message
    lines = check_lines(text)
    head = lines[0]
    seats = list(head.get("seats") or [])
    if head.get("rules") != rules:
        return "line 1: the rules are not the season's"
    if head.get("players") != len(labels) or seats[: len(labels)] != labels:
        return "line 1: the seats are not the match's"
    if any(name != "neutral" for name in seats[len(labels) :]):
        return "line 1: the seats are not the match's"
    if head.get("game_id") != game:
        return "line 1: the game id is not the match's"
    if head.get("decision_limit") != DEFAULT_DECISION_LIMIT:
        return "line 1: the decision limit is not the arena's"
    try:
        if record_seed(lines) != seed:
            return "the revealed seed is not the match's"  # never the seeds themselves
    except RecordError as exc:
        return str(exc)
    return ""


def outcome_of_record(text: str, result: Result) -> GameOutcome:
    """The stored outcome of a verified record: places, reason and faults read from the record
    itself (not taken on the runner's word), the duration and decisions as posted, the logs
    capped as a local runner caps them. No local copy on the arena's machine (``record_path``
    empty: the database's copy is the one)."""
    lines = check_lines(text)
    seats = list(lines[0].get("seats") or [])
    final = next(line for line in reversed(lines) if line["type"] == "result")
    faults = [
        {
            "seat": line["seat"],
            "bot": seats[line["seat"]] if 0 <= line["seat"] < len(seats) else "",
            "kind": line["fault"],
            "detail": line.get("detail", ""),
            "decision": line.get("n", 0),
        }
        for line in lines
        if line["type"] == "fault"
    ]
    logs = tuple(None if log is None else cap(log) for log in result.logs[: len(seats)])
    return GameOutcome(
        "",
        tuple(final["places"]),
        faults,
        final.get("reason") or "",
        result.duration,
        result.decisions,
        record=text,
        logs=logs,
    )


def _match(store: Store, match_id: int) -> MatchRow | None:
    with store.session() as s:
        return s.get(MatchRow, match_id)


def _stored_alike(store: Store, match_id: int, worker: str, record: str) -> bool:
    """Whether the match is stored by ``worker`` with this very record (a post repeated after
    its answer was lost)."""
    return store.stored_by(match_id, worker) and stored_record(store, match_id) == record


def _stored(match: MatchRow) -> Answer:
    return Answer(200, {"stored": True, "match_id": match.id, "number": match.number})


def accept_result(store: Store, worker: str, result: Result) -> Answer:
    """Store ``result`` of ``worker`` if it holds the match's lease and the record verifies (a
    repeat of a stored post: the same answer again); else the refusal."""
    match = _match(store, result.match_id)
    if match is None:
        return Answer(404, {"error": f"no such match: {result.match_id}"})
    if match.status == DONE:
        if _stored_alike(store, result.match_id, worker, result.record):
            return _stored(match)
        return Answer(409, {"error": f"refused: match {match.id} is stored already"})
    if match.status != CLAIMED or match.worker != worker:
        return Answer(
            409,
            {
                "error": f"refused: this runner does not hold match {match.id} (its lease "
                "lapsed and the match was claimed again or given back)"
            },
        )
    season = store.get_season(match.season_id)
    bots = store.bots_by_id(int(b) for b in match.seats)
    assert season is not None and match.id is not None
    labels = [bots[int(b)].label for b in match.seats if int(b) in bots]
    rules = bounded(season.rule_set()).to_dict()
    problem = verify_posted(
        result.record, rules, game_id(season.name, match.number), labels, match.seed
    )
    if problem:
        reason = f"runner fault ({worker}): its record does not verify: {problem}"
        store.void_match(match.id, worker, reason, DEFAULT_MAX_ATTEMPTS)
        return Answer(422, {"error": f"refused: the record does not verify: {problem}"[:500]})
    if store.finish_match(match.id, worker, outcome_of_record(result.record, result)):
        return _stored(match)
    if _stored_alike(store, match.id, worker, result.record):  # a concurrent repeat landed first
        return _stored(match)
    return Answer(409, {"error": f"refused: this runner no longer holds match {match.id}"})
