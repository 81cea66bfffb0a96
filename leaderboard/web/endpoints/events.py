"""Final events on the web: the list, an event's page (standings, or a knockout's bracket,
every game linked to its replay; the seed's hash before it ends, the seed after), their JSON
twins, and the admins' form that creates one (as ``hegemon event create``). Everything shown
is public: bots' labels, tables, places and points."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict
from urllib.parse import quote

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response

from hegemon.leaderboard.events.setup import EventPlan, create_event
from hegemon.leaderboard.events.view import event_names, event_view
from hegemon.leaderboard.seasons.setup import SetupError
from hegemon.leaderboard.store import UserRow

from .admin import _whole, competition_plan, competitions_page
from .common import admin, not_found, page, store


async def events(request: Request) -> Response:
    """``/events``: every final event, newest first."""
    rows = await run_in_threadpool(event_names, store(request))
    return page(request, "events.html", "Final events", rows=rows)


async def event(request: Request) -> Response:
    """``/event/{name}``: an event's standings or bracket."""
    view = await run_in_threadpool(event_view, store(request), request.path_params["name"])
    if view is None:
        return not_found("event", False)
    return page(request, "event.html", f"Event {view['name']}", view=view)


async def api_events(request: Request) -> Response:
    """``/api/events``: every final event (name, format, status, winner)."""
    return JSONResponse({"events": await run_in_threadpool(event_names, store(request))})


async def api_event(request: Request) -> Response:
    """``/api/events/{name}``: an event as ``hegemon event show --json`` prints it."""
    view = await run_in_threadpool(event_view, store(request), request.path_params["name"])
    return not_found("event", True) if view is None else JSONResponse(view)


def event_plan(form: Mapping[str, str]) -> EventPlan:
    """The plan the admins' event form asks for: a ladder's (rules, seats, time) fields and
    the event's own, checked after by the same code as ``hegemon event create``."""
    base = asdict(competition_plan(form, season=False))
    top = _whole(form, "top", "--top", None)
    return EventPlan(
        **base,
        format=form.get("format", "").strip() or "knockout",
        ladder=form.get("ladder", "").strip() or None,
        top=top,
        bots=form.get("bots", ""),
        advance=_whole(form, "advance", "--advance", 1) or 1,
        rounds=_whole(form, "rounds", "--rounds", None),
        rotate=not form.get("no_rotations"),
        seed=_whole(form, "seed", "--seed", None),
    )


async def create_event_form(request: Request) -> Response:
    """``POST /admin/events``: a new final event (a refusal shows the form again with its
    one line)."""
    user = admin(request)
    if not isinstance(user, UserRow):
        return user
    form = {k: str(v) for k, v in (await request.form()).items() if k != "csrf"}
    try:
        created = await run_in_threadpool(create_event, store(request), event_plan(form))
    except SetupError as exc:
        return await run_in_threadpool(competitions_page, request, 400, str(exc), event=form)
    return RedirectResponse(f"/event/{quote(created.season.name, safe='')}", 303)
