"""Games in play (:mod:`hegemon.leaderboard.live`): a game's live page, its stream of
server-sent events, and the list of games in play (``/api/live``, the front page's "now
playing"). All public: what they show is the public's form of the game, delayed."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable
from typing import Any, cast

import anyio
from markupsafe import Markup
from starlette.requests import Request
from starlette.responses import (
    HTMLResponse,
    JSONResponse,
    PlainTextResponse,
    RedirectResponse,
    Response,
    StreamingResponse,
)
from starlette.types import Receive, Scope, Send

from hegemon.leaderboard.live import rows
from hegemon.leaderboard.live.public import DELAY, shown
from hegemon.leaderboard.live.watch import FINISHED, PLAYING, LiveWatch, Snapshot, StreamLimits
from hegemon.leaderboard.store import Store
from hegemon.referee.viewer.embed import script_json

from .. import pages as html
from ..links import Links
from ..params import database_id
from ..templating import fragment, page
from .common import links, not_found, store

KEEP_ALIVE = 15.0
"""Seconds of silence after which a stream sends a comment line (a proxy keeps it open, and a
spectator gone is noticed)."""

STARTING_REFRESH = 2
"""Seconds after which a live page shown before its game's first write asks again (the
``Refresh`` header: no script needed)."""

NOT_LIVE = "game in play (it may have ended: see the game list)"


def watch(request: Request) -> LiveWatch:
    """The app's live games (one :class:`LiveWatch`, shared by every spectator)."""
    state = request.app.state
    if getattr(state, "live", None) is None:  # made with the app (server.make_app)
        state.live = LiveWatch(store(request))
    return cast(LiveWatch, state.live)


def limits(request: Request) -> StreamLimits:
    """How many live streams the app holds open."""
    state = request.app.state
    if getattr(state, "live_streams", None) is None:
        state.live_streams = StreamLimits()
    return cast(StreamLimits, state.live_streams)


def live_path(match_id: int) -> str:
    """A game in play's page."""
    return f"/live/{match_id}"


def now_playing(found: Store) -> list[dict[str, Any]]:
    """The games in play, each as the list and ``/api/live`` show it."""
    return [
        {
            "match": row.match_id,
            "title": row.title,
            "seats": row.seats,
            "shown": shown(row.decisions),
            "started_at": row.started_at.isoformat(),
            "url": live_path(row.match_id),
            "events": f"{live_path(row.match_id)}/events",
        }
        for row in rows.playing(found)
    ]


def playing_list(found: Store, where: Links) -> Markup:
    """The front page's "now playing" list (nothing when no game is in play, or on a static
    report: it cannot follow a game)."""
    if where.static:
        return Markup("")
    return fragment("live_list.html", playing=now_playing(found))


def api_live(request: Request) -> Response:
    """``/api/live``: the games in play, oldest first."""
    return JSONResponse({"delay": DELAY, "games": now_playing(store(request))})


def _ended(snap: Snapshot) -> dict[str, Any]:
    """The stream's last event: where the finished game's replay is, or why it stopped."""
    if snap.status == FINISHED and snap.game_id is not None:
        url = Links().game(snap.game_id)
        return {"status": FINISHED, "url": url, "message": "the game is over: its replay"}
    return {
        "status": snap.status,
        "url": None,
        "message": "the game stopped without a result (it will be played again)",
    }


def live_page(request: Request) -> Response:
    """``/live/{match_id}``: a game in play, drawn by the replay viewer and followed live; a
    finished one sends on to its replay."""
    match_id = database_id(request.path_params["match_id"])
    snap = None if match_id is None else watch(request).snapshot(match_id)
    if snap is None or match_id is None:
        return not_found(NOT_LIVE, False)
    if snap.status == FINISHED and snap.game_id is not None:
        return RedirectResponse(Links().game(snap.game_id), 303)
    where = links(request)
    if snap.status != PLAYING:
        return HTMLResponse(html.message_page("Live game", _ended(snap)["message"], where))
    if not snap.data:  # its runner has not written yet: the page looks again until it has
        text = "The game is starting: this page follows it once its first moves are stored."
        starting = HTMLResponse(html.message_page("Live game", text, where))
        starting.headers["Refresh"] = str(STARTING_REFRESH)
        return starting
    data = {**snap.data, "steps": snap.steps(0)}
    body = page(
        "live.html", f"Live: {data['title']}", where, "/api/live",
        events=f"{live_path(match_id)}/events", shown=snap.visible, delay=DELAY,
        replay_json=Markup(script_json(data)),  # inert in a <script>: see ..embed
    )  # fmt: skip
    return HTMLResponse(body)


def _event(kind: str, data: dict[str, Any]) -> str:
    return f"event: {kind}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"


async def _follow(found: LiveWatch, match_id: int, sent: int) -> AsyncIterator[str]:
    """The stream of one spectator: ``steps`` events (``from``: the first one's number) as
    decisions become visible, then one ``end`` event."""
    quiet = 0.0
    while True:
        snap = found.peek(match_id) or await anyio.to_thread.run_sync(found.snapshot, match_id)
        if snap is None:
            yield _event("end", {"status": "gone", "url": None, "message": "no such game in play"})
            return
        if snap.visible > sent:
            yield _event("steps", {"from": sent, "steps": snap.steps(sent)})
            sent, quiet = snap.visible, 0.0
        if snap.status != PLAYING:
            yield _event("end", _ended(snap))
            return
        if quiet >= KEEP_ALIVE:
            yield ": still playing\n\n"
            quiet = 0.0
        await anyio.sleep(found.poll)
        quiet += found.poll


async def live_events(request: Request) -> Response:
    """``/live/{match_id}/events``: the game's new visible decisions as server-sent events
    (``?from=N``: from decision N on), until it ends; a few at once per address."""
    match_id = database_id(request.path_params["match_id"])
    found = watch(request)
    snap = None if match_id is None else await anyio.to_thread.run_sync(found.snapshot, match_id)
    if snap is None or match_id is None:
        return not_found(NOT_LIVE, True)
    start = request.query_params.get("from", "0")
    sent = int(start) if start.isdigit() and len(start) < 9 else 0
    address = request.client.host if request.client else "unknown"
    bounds = limits(request)
    refused = bounds.open(address)
    if refused is not None:
        return PlainTextResponse(refused + "\n", 429)

    headers = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
    response = _Counted(_follow(found, match_id, sent), media_type="text/event-stream")
    response.headers.update(headers)
    response.closed = lambda: bounds.close(address)
    return response


class _Counted(StreamingResponse):
    """A stream that says when it ends, however it ends (the spectator gone before its first
    byte included): ``closed()`` then."""

    closed: Callable[[], None] = staticmethod(lambda: None)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self.closed()
