"""The runners' API (``hegemon runner --arena URL --token T``, JSON over HTTP): each request
carries a runner token as ``Authorization: Bearer …``, and nothing else is accepted here (a
member's API token is refused, as a runner token is on every member's route).

- ``POST /api/runner/claim`` ``{"worker", "wait"}``: a lease on the next match waiting, or
  ``{"match": null}`` (:mod:`hegemon.leaderboard.arena.http_runner.protocol`); with ``wait``
  (seconds, capped by the server) the claim waits for a match to become claimable before it
  answers none (:mod:`hegemon.leaderboard.arena.http_runner.waiting`; 503 when too many wait);
- ``POST /api/runner/heartbeat`` ``{"worker", "match_id"}``: the lease renewed, or 409 (lost);
- ``POST /api/runner/release`` ``{"worker", "match_id", "reason"}``: the match given back;
- ``GET /api/runner/archives/{digest}``: a bot's files (the archive whose content hash it is);
- ``POST /api/runner/result`` ``{"worker", "match_id", "record", "logs", "duration",
  "decisions"}``: the game verified and stored
  (:mod:`hegemon.leaderboard.arena.http_runner.accept`).

A runner is named ``TOKEN/WORKER`` in the claims (the token's name, then its own id). Every
refusal is one line, ``{"error": …}``."""

from __future__ import annotations

import json
import time
from collections.abc import Awaitable, Callable
from typing import Any, cast

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from hegemon.leaderboard.arena.http_runner.accept import accept_result
from hegemon.leaderboard.arena.http_runner.leases import Leases, give_back
from hegemon.leaderboard.arena.http_runner.protocol import (
    DIGEST,
    ProtocolError,
    read_result,
    wait_of,
    worker_of,
)
from hegemon.leaderboard.arena.http_runner.waiting import MAX_WAIT, WaitingRoom
from hegemon.leaderboard.store import StoreError
from hegemon.leaderboard.store.runner_tokens import runner_of

from .common import store

Handler = Callable[[Request, str], Awaitable[Response]]


def _refused(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status)


def _leases(request: Request) -> Leases:
    """The web server's leases (made on the first runner's first claim)."""
    state = request.app.state
    leases = getattr(state, "runner_leases", None)
    if leases is None:
        leases = state.runner_leases = Leases()
    return cast(Leases, leases)


def runner_route(handler: Handler) -> Callable[[Request], Awaitable[Response]]:
    """``handler(request, runner)`` for a request with a live runner token (``runner``: its
    name); 401 without one; a database failure is a 503 the runner retries."""

    async def endpoint(request: Request) -> Response:
        scheme, _, value = request.headers.get("authorization", "").partition(" ")
        if scheme.lower() != "bearer" or not value.strip():
            return _refused(401, "a runner token is needed: Authorization: Bearer TOKEN")
        try:
            runner = await run_in_threadpool(runner_of, store(request), value.strip())
            if runner is None:
                return _refused(401, "this is not a runner token, or it was revoked")
            return await handler(request, runner)
        except ProtocolError as exc:
            return _refused(400, str(exc))
        except StoreError:
            return _refused(503, "the arena's database is unavailable; retry soon")

    endpoint.__doc__ = handler.__doc__
    return endpoint


async def _body(request: Request) -> Any:
    try:
        return json.loads(await request.body())
    except (ValueError, UnicodeDecodeError):
        raise ProtocolError("the body must be JSON") from None


async def _worker(request: Request, runner: str) -> tuple[Any, str]:
    """The request's body and its runner's full id (``TOKEN/WORKER``)."""
    body = await _body(request)
    return body, f"{runner}/{worker_of(body)}"


def waiting_room(request: Request) -> WaitingRoom:
    """The web server's waiting room of long-poll claims (made on the first claim)."""
    state = request.app.state
    room = getattr(state, "runner_waiting", None)
    if room is None:
        room = state.runner_waiting = WaitingRoom(store(request), _leases(request).lease)
    return cast(WaitingRoom, room)


@runner_route
async def claim(request: Request, runner: str) -> Response:
    """``POST /api/runner/claim``: a lease on the next match waiting, or none (after waiting
    up to the body's ``wait`` seconds for one)."""
    body, worker = await _worker(request, runner)
    wait = min(wait_of(body), MAX_WAIT)
    leases, room = _leases(request), waiting_room(request)
    mark = room.mark()  # before the claim: a match made during it ends the wait at once
    answer = await run_in_threadpool(leases.claim, store(request), worker)
    if answer["match"] is not None or wait <= 0:
        return JSONResponse(answer)
    if not room.enter():
        refused = _refused(503, "busy: too many runners are waiting for work here; retry soon")
        refused.headers["retry-after"] = "5"
        return refused
    deadline = time.monotonic() + wait
    try:
        while not room.closed and (left := deadline - time.monotonic()) > 0:
            if not await room.wait(mark, left, request.receive()):
                return Response(status_code=204)  # the runner hung up: nobody reads this
            mark = room.mark()
            answer = await run_in_threadpool(leases.claim, store(request), worker)
            if answer["match"] is not None:
                return JSONResponse({**answer, "waited": True})
    finally:
        room.leave()
    return JSONResponse({**answer, "waited": True})


@runner_route
async def heartbeat(request: Request, runner: str) -> Response:
    """``POST /api/runner/heartbeat``: the runner's lease on a match renewed."""
    body, worker = await _worker(request, runner)
    match_id = body.get("match_id")
    if not isinstance(match_id, int) or isinstance(match_id, bool):
        raise ProtocolError('"match_id" must be a match\'s id')
    if await run_in_threadpool(store(request).renew_claim, match_id, worker):
        return JSONResponse({"held": True})
    return _refused(409, f"refused: this runner no longer holds match {match_id}")


@runner_route
async def release(request: Request, runner: str) -> Response:
    """``POST /api/runner/release``: the runner's match given back, as stopped (no ``reason``:
    played again, nothing counted) or spoiled by a fault of the runner's (``reason``: an
    attempt counted, void after the season runner's most)."""
    body, worker = await _worker(request, runner)
    match_id, reason = body.get("match_id"), body.get("reason") or ""
    if not isinstance(match_id, int) or isinstance(match_id, bool):
        raise ProtocolError('"match_id" must be a match\'s id')
    if not isinstance(reason, str):
        raise ProtocolError('"reason" must be a line of text')
    given = await run_in_threadpool(give_back, store(request), worker, match_id, reason)
    return JSONResponse({"released": given})


@runner_route
async def archive(request: Request, runner: str) -> Response:
    """``GET /api/runner/archives/{digest}``: a bot's files, packed (gzip'd tar)."""
    digest = request.path_params["digest"]
    if not DIGEST.match(digest):
        return _refused(404, "no such archive")
    data = await run_in_threadpool(store(request).get_archive, digest)
    if data is None:
        return _refused(404, "no such archive")
    return Response(data, media_type="application/gzip")


@runner_route
async def result(request: Request, runner: str) -> Response:
    """``POST /api/runner/result``: a played game, verified and stored."""
    body, worker = await _worker(request, runner)
    answer = await run_in_threadpool(accept_result, store(request), worker, read_result(body))
    return JSONResponse(answer.body, answer.status)
