"""May this user act on this bot: the one check behind every owner-only thing (submitting a
new version, reading a bot's logs, notes, fault details and check logs, choosing its version).

A bot is its owner's (``BotRow.owner_id``), or its team's (``BotRow.team_id``: every member of
the team, whoever submitted it); the admins may act on every bot; a bot of neither (the
organiser's, from the shell) is the admins'. Membership is read when asked, so a member who
leaves or is removed loses access at once."""

from __future__ import annotations

from sqlmodel import Session, col, select

from hegemon.leaderboard.store import BotRow, Store, UserRow
from hegemon.leaderboard.store.teams import JOINED, TeamMemberRow


def member_teams(s: Session, user_id: int | None) -> frozenset[int]:
    """The ids of the teams ``user_id`` is a member of (not those they are only invited to)."""
    if user_id is None:
        return frozenset()
    rows = s.exec(
        select(col(TeamMemberRow.team_id)).where(
            col(TeamMemberRow.user_id) == user_id, col(TeamMemberRow.state) == JOINED
        )
    ).all()
    return frozenset(rows)


def teams_of(store: Store, user: UserRow | None) -> frozenset[int]:
    """:func:`member_teams` of ``user`` (None: anonymous, in no team)."""
    if user is None:
        return frozenset()
    with store.session() as s:
        return member_teams(s, user.id)


def may_act(
    user: UserRow | None, owner_id: int | None, team_id: int | None, teams: frozenset[int]
) -> bool:
    """Whether ``user`` (None: anonymous; ``teams``: the teams they are a member of) may act on
    a bot owned by ``owner_id`` or, when ``team_id`` is set, by that team."""
    if user is None or user.disabled:
        return False
    return allowed(user.id, user.is_admin, owner_id, team_id, teams)


def allowed(
    user_id: int | None, admin: bool, owner_id: int | None, team_id: int | None,
    teams: frozenset[int],
) -> bool:  # fmt: skip
    """:func:`may_act` for a user given by id and role (an enabled one: a submission's)."""
    if admin:
        return True
    if team_id is not None:
        return team_id in teams
    return owner_id is not None and owner_id == user_id


def may_act_on(store: Store, user: UserRow | None, bot: BotRow) -> bool:
    """:func:`may_act` on ``bot``, its team's members read from ``store`` now."""
    return may_act(user, bot.owner_id, bot.team_id, teams_of(store, user))


def is_mine(user_id: int | None, bot: BotRow, teams: frozenset[int]) -> bool:
    """Whether ``bot`` is among the user ``user_id``'s own (``teams``: theirs): their own bot, or
    a bot of a team they are a member of. What "my bots" lists show (an admin's: theirs only)."""
    if bot.team_id is not None:
        return bot.team_id in teams
    return user_id is not None and bot.owner_id == user_id


def keepers(store: Store, bot: BotRow) -> list[int]:
    """The ids of the users told of ``bot``'s news (its check, its faults, its results): every
    member of its team, whoever submitted it (a team's bot), else its owner; none for the
    organiser's. Read now, so a member who left or was removed is told nothing more."""
    if bot.team_id is None:
        return [] if bot.owner_id is None else [bot.owner_id]
    with store.session() as s:
        members = s.exec(
            select(col(TeamMemberRow.user_id))
            .where(col(TeamMemberRow.team_id) == bot.team_id, col(TeamMemberRow.state) == JOINED)
            .order_by(col(TeamMemberRow.user_id))
        ).all()
    return list(members)
