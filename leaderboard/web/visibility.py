"""Who sees what on the pages: a bot's fault details, its logs and its notes on its decisions
only for its owner (every member of its team, for a team's bot) and the admins; everyone else
gets the same data with those parts left out. The data is redacted after it is made (and
cached) for everyone, so every viewer shares one cache."""

from __future__ import annotations

import json
from typing import Any

from hegemon.leaderboard.accounts.ownership import may_act, teams_of
from hegemon.leaderboard.store import Store, UserRow
from hegemon.referee.events import fault_kind


class Seen:
    """What one viewer may see of the bots of ``store`` (their owners, and the viewer's teams,
    read once per request)."""

    def __init__(self, store: Store, user: UserRow | None):
        self.user = user
        self._teams = teams_of(store, user)
        bots = store.bots()
        self._by_id = {b.id: (b.owner_id, b.team_id) for b in bots}
        self._by_label = {b.label: (b.owner_id, b.team_id) for b in bots}

    def _may(self, owners: tuple[int | None, int | None] | None) -> bool:
        owner_id, team_id = owners or (None, None)
        return may_act(self.user, owner_id, team_id, self._teams)

    def bot(self, bot_id: int | None) -> bool:
        """Whether the viewer sees the private parts of the bot ``bot_id``."""
        return self._may(self._by_id.get(bot_id))

    def hidden_seats(self, seats: list[int]) -> set[int]:
        """The seats (of bot ids ``seats``) whose private parts the viewer may not see."""
        return {i for i, bot_id in enumerate(seats) if not self.bot(bot_id)}

    def hidden_labels(self, labels: list[str]) -> set[int]:
        """As :meth:`hidden_seats`, for seats given as bot labels."""
        return {i for i, label in enumerate(labels) if not self._may(self._by_label.get(label))}


def redact_faults(faults: list[dict[str, Any]], hidden: set[int]) -> list[dict[str, Any]]:
    """``faults`` without the detail of the ``hidden`` seats' (what happened stays public)."""
    return [
        {**f, "detail": None} if isinstance(f, dict) and f.get("seat") in hidden else f
        for f in faults
    ]


def redact_games(data: dict[str, Any], seen: Seen) -> dict[str, Any]:
    """A game list (``Arena.games``) as the viewer may see it."""
    games = [
        {**g, "faults": redact_faults(g["faults"], seen.hidden_labels(g["seats"]))}
        for g in data["games"]
    ]
    return {**data, "games": games}


def redact_bot(data: dict[str, Any]) -> dict[str, Any]:
    """A bot's page data (``Arena.bot``) for a viewer who is neither its owner nor an admin."""
    faults = [{**f, "detail": None, "log": False} for f in data["faults"]]
    return {**data, "faults": faults}


def redact_replay(replay: dict[str, Any], hidden: set[int]) -> dict[str, Any]:
    """Replay data whose fault events of ``hidden`` seats show only their redacted text, and
    without those seats' notes."""

    def event(e: dict[str, Any]) -> dict[str, Any]:
        if e.get("k") == "fault" and e.get("s") in hidden and "r" in e:
            return {**e, "t": e["r"]}
        return e

    steps = [
        _step_notes({**s, "ev": [event(e) for e in s.get("ev", [])]}, hidden)
        for s in replay.get("steps", [])
    ]
    return {**replay, "steps": steps}


def _step_notes(step: dict[str, Any], hidden: set[int]) -> dict[str, Any]:
    """A replay step without the notes of the ``hidden`` seats (no key at all when none is
    left, so a page shows no trace of them)."""
    if "notes" not in step:
        return step
    kept = [n for n in step["notes"] if n.get("s") not in hidden]
    if kept:
        return {**step, "notes": kept}
    return {k: v for k, v in step.items() if k != "notes"}


def redact_record(text: str, hidden: set[int]) -> str:
    """A record's text whose fault lines of ``hidden`` seats lose their detail, whose note
    lines of those seats are left out, and whose forfeits of those seats say the fault kind
    only (an older record's reason holds the detail: rewritten in the action and its event
    alike, so the record still verifies). Every other line is kept byte for byte."""
    if not hidden:
        return text
    lines = text.splitlines(keepends=True)
    for i, line in enumerate(lines):
        if '"note"' in line and _private_note(line, hidden):
            lines[i] = ""
            continue
        if '"fault"' not in line and '"forfeit' not in line:
            continue
        try:
            item = json.loads(line)
        except ValueError:
            continue
        if not isinstance(item, dict):
            continue
        if item.get("type") == "fault" and item.get("seat") in hidden:
            item.pop("detail", None)
        elif item.get("type") != "action" or not _public_forfeit(item, hidden):
            continue
        end = "\n" if line.endswith("\n") else ""
        lines[i] = json.dumps(item, separators=(",", ":"), ensure_ascii=False) + end
    return "".join(lines)


def _private_note(line: str, hidden: set[int]) -> bool:
    """Whether ``line`` is a note line of a ``hidden`` seat (or a note line of no readable
    seat: left out too, since nobody can be shown to own it)."""
    try:
        item = json.loads(line)
    except ValueError:
        return False
    if not isinstance(item, dict) or item.get("type") != "note":
        return False
    seat = item.get("seat")
    return seat in hidden or not isinstance(seat, int)


def _public_forfeit(item: dict[str, Any], hidden: set[int]) -> bool:
    """Cut a ``hidden`` seat's forfeit (action line ``item``) to its fault kind, in place;
    whether anything changed."""
    action, events = item.get("action"), item.get("events")
    if not (isinstance(action, list) and len(action) == 3 and action[0] == "forfeit"):
        return False
    if action[1] not in hidden or not isinstance(action[2], str):
        return False
    kind = fault_kind(action[2])
    if kind == action[2]:
        return False
    action[2] = kind
    for event in events if isinstance(events, list) else []:
        if isinstance(event, dict) and event.get("event") == "forfeited":
            event["reason"] = kind
    return True
