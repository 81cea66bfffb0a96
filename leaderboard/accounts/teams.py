"""Teams: a member makes one (its name follows the users' and bots' rules, :mod:`..store.names`)
and owns it; the owner invites members, an invited user accepts (or declines by leaving); the
owner removes members, a member leaves. A team owns bots (``BotRow.team_id``): every member may
act on them (:mod:`.ownership`), and its bots count against the team's quotas.

Every refusal is a :class:`TeamError`: one line, with the HTTP status the web answers with."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from hegemon.leaderboard.store import BotRow, Store, StoreError, UserRow, utcnow
from hegemon.leaderboard.store.names import is_name, skeleton
from hegemon.leaderboard.store.teams import INVITED, JOINED, TeamMemberRow, TeamRow

from . import AccountError
from .ownership import member_teams

T = TypeVar("T")


class TeamError(AccountError):
    """A team action that cannot be done; ``status`` is the HTTP answer's."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.status = status


def check_team_name(name: str) -> str:
    """``name`` stripped, or :class:`TeamError` unless it is a possible name."""
    name = name.strip()
    if not is_name(name):
        raise TeamError(
            f"not a team name: {name[:70]!r} (1 to 64 letters, digits, '_', '.' or '-', "
            "starting with a letter or digit)"
        )
    return name


def find_team(s: Session, name: str) -> TeamRow | None:
    """The team called exactly ``name`` (None: there is none)."""
    return s.exec(select(TeamRow).where(col(TeamRow.name) == name.strip())).first()


def _team(s: Session, name: str) -> TeamRow:
    team = find_team(s, name)
    if team is None:
        raise TeamError(f"no such team: {name.strip()[:70]}", 404)
    return team


def _user(s: Session, name: str) -> UserRow:
    user = s.exec(select(UserRow).where(col(UserRow.name) == name.strip())).first()
    if user is None:
        raise TeamError(f"no such user: {name.strip()[:70]}", 404)
    return user


def _membership(s: Session, team: TeamRow, user_id: int | None) -> TeamMemberRow | None:
    return s.get(TeamMemberRow, (team.id, user_id))


def _own_place(s: Session, user: UserRow, name: str, missing: str) -> tuple[TeamRow, TeamMemberRow]:
    """The team ``name`` and ``user``'s place in it; none: :class:`TeamError` (``missing``
    followed by the team's name)."""
    team = _team(s, name)
    found = _membership(s, team, user.id)
    if found is None:
        raise TeamError(f"{missing} {team.name}", 404)
    return team, found


def _owned(s: Session, actor: UserRow, name: str) -> TeamRow:
    """The team ``name`` if ``actor`` owns it (or is an admin), else :class:`TeamError`."""
    team = _team(s, name)
    if team.owner_id != actor.id and not actor.is_admin:
        raise TeamError(f"only the owner of {team.name} may do this", 403)
    return team


def _write(store: Store, action: Callable[[Session], T]) -> T:
    """``action(session)`` in a write transaction; a uniqueness clash is a refusal (409)."""
    try:
        with store.session(write=True) as s:
            return action(s)
    except StoreError as exc:
        if isinstance(exc.__cause__, IntegrityError):
            raise TeamError(
                "refused: someone else changed this at the same moment; try again", 409
            ) from None
        raise


def create_team(store: Store, owner: UserRow, name: str) -> TeamRow:
    """A new team ``name`` owned by ``owner`` (its first member)."""
    name = check_team_name(name)
    form = skeleton(name)

    def make(s: Session) -> TeamRow:
        taken = s.exec(
            select(TeamRow.name).where(
                (col(TeamRow.name) == name) | (col(TeamRow.name_skeleton) == form)
            )
        ).first()
        if taken is not None:
            like = "" if taken == name else f": it looks like {taken}, which is taken"
            raise TeamError(f"the team name {name} is taken{like}", 409)
        assert owner.id is not None
        team = TeamRow(name=name, name_skeleton=form, owner_id=owner.id)
        s.add(team)
        s.flush()
        assert team.id is not None
        now = utcnow()
        s.add(TeamMemberRow(team_id=team.id, user_id=owner.id, state=JOINED, joined_at=now))
        return team

    return _write(store, make)


def invite(store: Store, actor: UserRow, team_name: str, user_name: str) -> str:
    """The owner of ``team_name`` invites ``user_name``; what was done, in one line."""

    def act(s: Session) -> str:
        team, user = _owned(s, actor, team_name), _user(s, user_name)
        found = _membership(s, team, user.id)
        if found is not None:
            state = "a member" if found.state == JOINED else "invited already"
            raise TeamError(f"{user.name} is {state} of {team.name}", 409)
        assert team.id is not None and user.id is not None
        s.add(TeamMemberRow(team_id=team.id, user_id=user.id, state=INVITED))
        return f"{user.name} is invited to {team.name}"

    return _write(store, act)


def accept(store: Store, user: UserRow, team_name: str) -> str:
    """``user`` accepts their invitation to ``team_name``."""

    def act(s: Session) -> str:
        team, found = _own_place(s, user, team_name, "you have no invitation to")
        if found.state == JOINED:
            return f"you are a member of {team.name} already"
        found.state, found.joined_at = JOINED, utcnow()
        s.add(found)
        return f"you are a member of {team.name}"

    return _write(store, act)


def leave(store: Store, user: UserRow, team_name: str) -> str:
    """``user`` leaves ``team_name`` (or declines its invitation); the owner cannot."""

    def act(s: Session) -> str:
        team, found = _own_place(s, user, team_name, "you are not in")
        if team.owner_id == user.id:
            raise TeamError(f"the owner cannot leave {team.name}", 409)
        s.delete(found)
        return f"you left {team.name}" if found.state == JOINED else "invitation declined"

    return _write(store, act)


def remove(store: Store, actor: UserRow, team_name: str, user_name: str) -> str:
    """The owner of ``team_name`` removes ``user_name`` (a member or an invitation): their
    access to the team's bots ends at once."""

    def act(s: Session) -> str:
        team, user = _owned(s, actor, team_name), _user(s, user_name)
        found = _membership(s, team, user.id)
        if found is None:
            raise TeamError(f"{user.name} is not in {team.name}", 404)
        if team.owner_id == user.id:
            raise TeamError(f"the owner of {team.name} cannot be removed", 409)
        s.delete(found)
        return f"{user.name} is no longer in {team.name}"

    return _write(store, act)


def team_for_submission(s: Session, user_id: int, admin: bool, team_name: str) -> int:
    """The id of ``team_name`` if the user ``user_id`` is a member (admins: any team), else
    :class:`TeamError` (read in the submission's own transaction: a member removed meanwhile
    is refused)."""
    team = _team(s, team_name)
    if not admin and team.id not in member_teams(s, user_id):
        raise TeamError(f"refused: you are not a member of the team {team.name}", 403)
    assert team.id is not None
    return team.id


def team_data(store: Store, name: str, viewer: UserRow | None) -> dict[str, Any] | None:
    """A team as ``viewer`` may see it (None: no such team): its name, owner and bots for
    everyone; its members and invitations for its members and the admins."""
    with store.session() as s:
        team = find_team(s, name)
        if team is None:
            return None
        people = s.exec(
            select(TeamMemberRow, UserRow)
            .join(UserRow, col(UserRow.id) == col(TeamMemberRow.user_id))
            .where(col(TeamMemberRow.team_id) == team.id)
            .order_by(col(UserRow.name))
        ).all()
        owner = s.get(UserRow, team.owner_id)
        bots = s.exec(
            select(BotRow).where(col(BotRow.team_id) == team.id).order_by(col(BotRow.id))
        ).all()
    newest: dict[str, BotRow] = {}
    for bot in bots:
        newest[bot.name] = bot
    data: dict[str, Any] = {
        "name": team.name,
        "owner": owner.name if owner else None,
        "created_at": team.created_at.isoformat(),
        "bots": [{"name": b.name, "id": b.id, "label": b.label} for b in newest.values()],
    }
    inside = viewer is not None and any(u.id == viewer.id and m.state == JOINED for m, u in people)
    if inside or (viewer is not None and viewer.is_admin):
        data["members"] = [u.name for m, u in people if m.state == JOINED]
        data["invited"] = [u.name for m, u in people if m.state == INVITED]
    return data


def my_teams(store: Store, user: UserRow) -> dict[str, list[dict[str, Any]]]:
    """``user``'s teams (``{"name", "owner"}``: owner is whether they own it) and the teams
    that invited them."""
    with store.session() as s:
        rows = s.exec(
            select(TeamMemberRow, TeamRow)
            .join(TeamRow, col(TeamRow.id) == col(TeamMemberRow.team_id))
            .where(col(TeamMemberRow.user_id) == user.id)
            .order_by(col(TeamRow.name))
        ).all()
    return {
        "teams": [
            {"name": t.name, "owner": t.owner_id == user.id} for m, t in rows if m.state == JOINED
        ],
        "invitations": [{"name": t.name} for m, t in rows if m.state == INVITED],
    }
