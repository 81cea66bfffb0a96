"""``hegemon team create|invite|accept|leave|remove|show``: teams in the arena you signed in to
(``hegemon login``), over its API (``/api/teams``). A team's owner invites members, an invited
user accepts, a member leaves, the owner removes; every member may submit the team's bots
(``hegemon submit --team T``) and read their logs. ``--json`` prints the site's answer."""

from __future__ import annotations

import json
from typing import Any

import typer

from .common import console, fail

team_app = typer.Typer(
    no_args_is_help=True, help="Make teams, invite and remove members, accept and leave."
)

JSON = typer.Option(False, "--json", help="Print the site's JSON.")


def _source(asked: str) -> Any:
    from .games import ArenaSource

    return ArenaSource(asked)


def _post(asked: str, path: str, body: dict[str, str], as_json: bool) -> None:
    """POST ``body`` to the arena's ``path``; say what was done, or fail with the site's line."""
    import httpx

    from .games import _error_of

    source = _source(asked)
    try:
        response = source.client.post(path, json=body)
    except httpx.HTTPError as exc:
        fail(f"cannot reach {source.where}: {type(exc).__name__}", code=1)
    if response.status_code == 401:
        fail(f"{source.where} did not take your token: sign in again (hegemon login URL)")
    if response.status_code not in (200, 201):
        fail(f"refused: {_error_of(response)}", code=1)
    data = response.json()
    if as_json:
        print(json.dumps(data, indent=1))
    else:
        console.print(data["done"], highlight=False, markup=False)


@team_app.command("create")
def create_command(
    name: str = typer.Argument(..., help="The team's name."), as_json: bool = JSON
) -> None:
    """Make a team; you are its owner and first member."""
    _post("hegemon team create", "/api/teams", {"name": name}, as_json)


@team_app.command("invite")
def invite_command(
    team: str = typer.Argument(..., help="Your team."),
    user: str = typer.Argument(..., help="The user name to invite."),
    as_json: bool = JSON,
) -> None:
    """Invite a user to your team (they accept with hegemon team accept TEAM)."""
    _post("hegemon team invite", f"/api/teams/{team}/invite", {"user": user}, as_json)


@team_app.command("accept")
def accept_command(
    team: str = typer.Argument(..., help="The team that invited you."), as_json: bool = JSON
) -> None:
    """Accept a team's invitation."""
    _post("hegemon team accept", f"/api/teams/{team}/accept", {}, as_json)


@team_app.command("leave")
def leave_command(
    team: str = typer.Argument(..., help="A team you are in or invited to."), as_json: bool = JSON
) -> None:
    """Leave a team (or decline its invitation); its bots stay the team's."""
    _post("hegemon team leave", f"/api/teams/{team}/leave", {}, as_json)


@team_app.command("remove")
def remove_command(
    team: str = typer.Argument(..., help="Your team."),
    user: str = typer.Argument(..., help="The member (or invited user) to remove."),
    as_json: bool = JSON,
) -> None:
    """Remove a member from your team: their access to its bots ends at once."""
    _post("hegemon team remove", f"/api/teams/{team}/remove", {"user": user}, as_json)


@team_app.command("show")
def show_command(
    team: str | None = typer.Argument(None, help="A team (default: your teams and invitations)."),
    as_json: bool = JSON,
) -> None:
    """A team's owner, bots and (for its members) members; without TEAM, your teams."""
    source = _source("hegemon team show")
    if team is None:
        data = source.json("/api/me/teams", "your teams")
    else:
        data = source.json(f"/api/teams/{team}", f"the team {team}")
    if as_json:
        print(json.dumps(data, indent=1))
        return
    for line in _lines(data, team is None):
        console.print(line, highlight=False, markup=False)


def _lines(data: dict[str, Any], mine: bool) -> list[str]:
    """What ``hegemon team show`` prints of ``/api/me/teams`` (``mine``) or ``/api/teams/T``."""
    if mine:
        teams = [t["name"] + (" (owner)" if t["owner"] else "") for t in data["teams"]]
        invitations = [t["name"] for t in data["invitations"]]
        return [
            "teams: " + (", ".join(teams) or "none"),
            "invited to: " + (", ".join(invitations) or "none"),
        ]
    lines = [f"team {data['name']} · owner {data['owner']}"]
    lines.append("bots: " + (", ".join(b["label"] for b in data["bots"]) or "none"))
    if "members" in data:
        lines.append("members: " + ", ".join(data["members"]))
        lines.append("invited: " + (", ".join(data["invited"]) or "none"))
    return lines
