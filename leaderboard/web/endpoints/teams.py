"""Teams on the web: a team's page (``/teams/{name}``: its name, owner and bots for everyone;
its members and invitations for its members) and its JSON twin, one's teams and invitations
(``/api/me/teams``, and on the account page), and the actions — make a team, invite, accept,
leave, remove — as forms (``POST /teams``, ``POST /teams/{name}/{action}``) and as the API's
(``POST /api/teams``, ``POST /api/teams/{name}/{action}``, what ``hegemon team`` calls).

Who may do what is :mod:`hegemon.leaderboard.accounts.teams`'s; every refusal is one line (a
4xx, ``{"error": …}`` on the API)."""

from __future__ import annotations

import json
from collections.abc import Callable

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response

from hegemon.leaderboard.accounts.teams import (
    TeamError,
    accept,
    create_team,
    invite,
    leave,
    my_teams,
    remove,
    team_data,
)
from hegemon.leaderboard.store import Store, UserRow

from ..auth import viewer
from .common import message, not_found, page, signed_in, store

ACTIONS: dict[str, Callable[[Store, UserRow, str, str], str]] = {
    "invite": invite,
    "remove": remove,
    "accept": lambda s, user, team, _: accept(s, user, team),
    "leave": lambda s, user, team, _: leave(s, user, team),
}
"""A team's actions: (store, who acts, the team's name, the user it is about) → what was done.
``invite`` and ``remove`` are the owner's and name a ``user``; the others are the actor's own."""


async def _fields(request: Request) -> dict[str, str]:
    """The request's fields: a JSON object's on the API, else the form's."""
    if request.url.path.startswith("/api/"):
        try:
            body = json.loads(await request.body() or b"{}")
        except ValueError:
            return {}
        return {k: str(v) for k, v in body.items()} if isinstance(body, dict) else {}
    form = await request.form()
    return {k: str(v) for k, v in form.items() if isinstance(v, str)}


def _refused(request: Request, exc: TeamError) -> Response:
    if request.url.path.startswith("/api/"):
        return JSONResponse({"error": str(exc)}, exc.status)
    return message(request, "Not done", str(exc), exc.status)


def team_page(request: Request) -> Response:
    """``GET /teams/{name}``: a team's page (the actions its members and invitees may take)."""
    user = viewer(request)
    data = team_data(store(request), request.path_params["name"], user)
    if data is None:
        return not_found("team", False)
    mine = my_teams(store(request), user) if user is not None else {"invitations": []}
    invited = any(t["name"] == data["name"] for t in mine["invitations"])
    me = None if user is None else user.name
    return page(request, "team.html", f"Team {data['name']}", team=data, me=me, invited=invited)


def api_team(request: Request) -> Response:
    """``GET /api/teams/{name}``: the team as the one asking may see it."""
    data = team_data(store(request), request.path_params["name"], viewer(request))
    return not_found("team", True) if data is None else JSONResponse(data)


def api_my_teams(request: Request) -> Response:
    """``GET /api/me/teams``: ``{"teams", "invitations"}`` of the signed-in user."""
    user = signed_in(request)
    if not isinstance(user, UserRow):
        return user
    return JSONResponse(my_teams(store(request), user))


async def create(request: Request) -> Response:
    """``POST /teams`` and ``POST /api/teams`` (``name``): a new team, the user its owner."""
    user = signed_in(request)
    if not isinstance(user, UserRow):
        return user
    name = (await _fields(request)).get("name", "")
    try:
        team = await run_in_threadpool(create_team, store(request), user, name)
    except TeamError as exc:
        return _refused(request, exc)
    if request.url.path.startswith("/api/"):
        return JSONResponse({"name": team.name, "done": f"the team {team.name} is made"}, 201)
    return RedirectResponse(f"/teams/{team.name}", 303)


async def action(request: Request) -> Response:
    """``POST /teams/{name}/{action}`` and its API twin: invite or remove ``user`` (the
    owner), accept an invitation or leave (one's own)."""
    user = signed_in(request)
    if not isinstance(user, UserRow):
        return user
    act = ACTIONS.get(request.path_params["action"])
    if act is None:
        return _refused(request, TeamError("no such action (invite, remove, accept, leave)", 404))
    team, who = request.path_params["name"], (await _fields(request)).get("user", "")
    try:
        done = await run_in_threadpool(act, store(request), user, team, who)
    except TeamError as exc:
        return _refused(request, exc)
    if request.url.path.startswith("/api/"):
        return JSONResponse({"team": team, "done": done})
    gone = request.path_params["action"] == "leave"
    return RedirectResponse("/account#teams" if gone else f"/teams/{team}", 303)
