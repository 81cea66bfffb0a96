"""The data a page and its JSON twin both show, as the one asking may see it (a bot's fault
details and logs only for its owner and the admins: :mod:`..visibility`)."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request

from hegemon.referee.viewer import replay_data

from ..auth import viewer
from ..visibility import Seen, redact_bot, redact_faults, redact_replay
from .common import arena, path_id, store

GAME_NOT_FOUND = (
    "game (or its record: a duplicate table's games are shown once all its rotations are played)"
)


def ids(request: Request) -> dict[str, int]:
    """Every bot's id by its label (the pages link bots by id)."""
    return {label: bot_id for bot_id, label in arena(request).labels().items()}


def seen(request: Request) -> Seen:
    """What the one asking may see of the bots."""
    return Seen(store(request), viewer(request))


def filters(request: Request) -> dict[str, Any]:
    """The game list's filters the query asks for."""
    q = request.query_params
    fault = q.get("fault")
    return {
        "season": q.get("season") or None,
        "bot": q.get("bot") or None,
        "rule_set": q.get("rule_set") or None,
        "fault": None if not fault else fault in ("yes", "1", "true"),
    }


def bot(request: Request) -> dict[str, Any] | None:
    """The path's bot's data as the viewer may see it (None: no such bot)."""
    bot_id = path_id(request, "bot_id")
    found = None if bot_id is None else store(request).get_bot(bot_id)
    if found is None:
        return None
    data = arena(request).bot(found)
    return data if seen(request).bot(found.id) else redact_bot(data)


def hidden(request: Request, game_id: int) -> set[int]:
    """The seats of a game whose fault details and logs the viewer may not see."""
    found = arena(request).game(game_id)
    return set() if found is None else seen(request).hidden_seats(found[1].seats)


def game(request: Request) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """The path's game (its facts, its replay) as the viewer may see it; None: no such game
    or no record shown (:meth:`Arena.record_text`). A record that cannot be read raises
    :class:`~hegemon.referee.record.RecordError`."""
    game_id = path_id(request, "game_id")
    if game_id is None:
        return None
    found = arena(request).game(game_id)
    text = arena(request).record_text(game_id)
    if found is None or text is None:
        return None
    row, match, season_name = found
    secret = hidden(request, game_id)
    info = {
        "id": row.id,
        "season": season_name,
        "number": match.number,
        "places": row.places,
        "faults": redact_faults(row.faults, secret),
        "reason": row.finish_reason,
        "decisions": row.decisions,
        "duration": row.duration,
    }
    return info, redact_replay(replay_data(text, f"{season_name} #{match.number}"), secret)
