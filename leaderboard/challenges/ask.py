"""A member's challenge, asked for and stored: which version plays (theirs, active), against
whom (active bots named, or its nearest neighbours on the ladder's ratings), under which rules
(a ladder's), how many games and in which seats — checked against the member's quota and stored
with its season and schedule in one transaction."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field

from sqlmodel import Session, col, select

from hegemon.referee.chance import new_seed

from ..accounts.ownership import allowed, member_teams
from ..ladder.entrants import entrant_ids
from ..ladder.matchmaker import ladder_ratings
from ..seasons.schedule import ScheduledMatch, match_seed
from ..store import (
    CHALLENGE,
    FINISHED,
    LADDER,
    BotRow,
    ChallengeRow,
    SeasonRow,
    Store,
    StoreError,
    UserRow,
)
from ..store.seasons import add_season
from ..store.versions import ACTIVE
from .quotas import ChallengeError, ChallengeQuotas

NEIGHBOURS = "neighbours"
"""What ``--vs`` may say instead of names: the version's nearest bots on the ladder."""


@dataclass(frozen=True)
class Ask:
    """What a member asks for: ``bot`` (a name of theirs), its ``version`` (None: the active
    one), the opponents' names (empty or ``["neighbours"]``: its ladder neighbours), the number
    of ``games`` and the ``ladder`` whose rules they play (None: the only ladder)."""

    bot: str
    games: int
    vs: Sequence[str] = field(default_factory=tuple)
    version: int | None = None
    ladder: str | None = None


def make_challenge(
    store: Store, user: UserRow, ask: Ask, quotas: ChallengeQuotas | None = None
) -> ChallengeRow:
    """Store ``user``'s challenge (its season, schedule and row) or refuse it with one line
    (:class:`ChallengeError`): an unknown bot, another's, a version not active, an unknown or
    inactive opponent, too few opponents for a table, too many games, a quota reached."""
    limits = quotas or ChallengeQuotas.from_env()
    limits.check_games(ask.games)
    try:
        with store.session(write=True) as s:
            bot = _version(s, user, ask)
            ladder = _ladder(s, ask.ladder)
            assert ladder.id is not None and bot.id is not None
            opponents, note = _opponents(s, bot, ladder, ask.vs)
            limits.check_in(s, user, ask.games)
            season = add_season(
                s, _season(ladder, ask.games), [bot.id, *opponents],
                schedule(bot.id, opponents, ladder.players, ask.games, new_seed()),
            )  # fmt: skip
            assert season.id is not None and user.id is not None
            row = ChallengeRow(
                season_id=season.id, owner_id=user.id, bot_id=bot.id, opponents=opponents,
                games=ask.games, ladder_id=ladder.id, note=note,
            )  # fmt: skip
            s.add(row)
            s.flush()
            return row
    except StoreError as exc:  # the database's own failure: one line, nothing stored
        raise ChallengeError(f"cannot store the challenge: {exc}", 503) from exc


def _version(s: Session, user: UserRow, ask: Ask) -> BotRow:
    """The version asked for: the user's or their team's (an admin: anyone's), active."""
    versions = list(
        s.exec(
            select(BotRow).where(col(BotRow.name) == ask.bot).order_by(col(BotRow.version))
        ).all()
    )
    if not versions:
        raise ChallengeError(f"no bot named {ask.bot}", 404)
    teams = member_teams(s, user.id)
    if not all(allowed(user.id, user.is_admin, v.owner_id, v.team_id, teams) for v in versions):
        raise ChallengeError(f"refused: {ask.bot} is not your bot", 403)
    if ask.version is None:
        active = [v for v in versions if v.state == ACTIVE]
        if not active:
            raise ChallengeError(f"refused: {ask.bot} has no active version to play")
        return active[-1]
    found = next((v for v in versions if v.version == ask.version), None)
    if found is None:
        raise ChallengeError(f"{ask.bot} has no version {ask.version}", 404)
    if found.state != ACTIVE:
        raise ChallengeError(f"refused: {found.label} is {found.state}; only an active one plays")
    return found


def _ladder(s: Session, name: str | None) -> SeasonRow:
    """The ladder whose rules the games play: the one named, else the only one running."""
    ladders = list(
        s.exec(
            select(SeasonRow)
            .where(col(SeasonRow.kind) == LADDER, col(SeasonRow.status) != FINISHED)
            .order_by(col(SeasonRow.id))
        ).all()
    )
    if name is not None:
        found = next((ladder for ladder in ladders if ladder.name == name), None)
        if found is None:
            raise ChallengeError(f"no ladder named {name}", 404)
        return found
    if len(ladders) == 1:
        return ladders[0]
    if not ladders:
        raise ChallengeError("refused: the arena has no ladder whose rules the games could play")
    named = ", ".join(ladder.name for ladder in ladders)
    raise ChallengeError(f"say which ladder's rules to play (--ladder): {named}")


def _opponents(
    s: Session, bot: BotRow, ladder: SeasonRow, vs: Sequence[str]
) -> tuple[list[int], str]:
    """The opponents' version ids (each name's active version) and how they were chosen."""
    assert ladder.id is not None
    playing = {b.id: b for b in s.exec(select(BotRow).where(col(BotRow.id).in_(entrant_ids(s))))}
    others = {b.name: b_id for b_id, b in playing.items() if b.name != bot.name and b_id}
    wanted = ladder.players - 1
    names = [n.strip() for n in vs if n.strip()]
    if not names or names == [NEIGHBOURS]:
        ratings, _ = ladder_ratings(s, ladder.id)
        mine = ratings.belief(bot.id or 0).mean
        nearest = sorted(
            others.items(), key=lambda o: (abs(ratings.belief(o[1]).mean - mine), o[0])
        )
        if len(nearest) < wanted:
            raise ChallengeError(f"refused: {ladder.name} has too few other active bots")
        return [b_id for _, b_id in nearest[:wanted]], f"neighbours on {ladder.name}"
    chosen: list[int] = []
    for name in dict.fromkeys(names):  # each once, in the order given
        if name == bot.name:
            raise ChallengeError(f"refused: {bot.name} cannot play against itself")
        if name not in others:
            raise ChallengeError(f"refused: no active bot named {name} to play against")
        chosen.append(others[name])
    if len(chosen) < wanted:
        raise ChallengeError(
            f"refused: {ladder.name} seats {ladder.players} a table; name at least {wanted} "
            f"opponents (or --vs {NEIGHBOURS})"
        )
    return chosen, "named"


def _season(ladder: SeasonRow, games: int) -> SeasonRow:
    """The challenge's season: the ladder's rules and time control, a secret seed of its own."""
    return SeasonRow(
        name=f"challenge-{secrets.token_hex(4)}", preset=ladder.preset, options=ladder.options,
        players=ladder.players, games=games, startup_time=ladder.startup_time,
        decision_time=ladder.decision_time, time_bank=ladder.time_bank,
        time_increment=ladder.time_increment, time_clock=ladder.time_clock,
        max_strikes=ladder.max_strikes, seed=new_seed(), fault_policy=ladder.fault_policy,
        keep_memory=ladder.keep_memory, kind=CHALLENGE,
    )  # fmt: skip


def schedule(
    bot: int, opponents: Sequence[int], players: int, games: int, seed: int
) -> list[ScheduledMatch]:
    """``games`` tables of ``bot`` and ``players - 1`` of ``opponents`` (taken in turn, table
    after table): each deal (dice seed) is played ``players`` times in a row, the tested version
    moved one seat on each time, so it sits in every seat equally often on the same dice."""
    matches = []
    for number in range(games):
        deal, seat = divmod(number, players)
        start = deal * (players - 1)
        others = [opponents[(start + i) % len(opponents)] for i in range(players - 1)]
        seats = [*others[:seat], bot, *others[seat:]]
        matches.append(ScheduledMatch(number + 1, deal, tuple(seats), match_seed(seed, deal)))
    return matches
