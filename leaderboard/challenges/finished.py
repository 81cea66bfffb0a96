"""A challenge's finish, told to its owner (a notice and their webhooks): the version, its
opponents, its mean place and, against one opponent, the SPRT line. Run by the arena's notifier
each round; each finish is told once (the row is marked before the notice is written, so two
notifiers never both tell it)."""

from __future__ import annotations

import sqlalchemy as sa
from sqlmodel import col, select

from ..notify.notices import Notice, notify
from ..store import FINISHED, ChallengeRow, NoticeRow, SeasonRow, Store, utcnow
from .results import challenge_data

FINISHED_KIND = "challenge.finished"
"""The notice's kind (its webhook's ``event``)."""


def finished_notice(data: dict[str, object]) -> Notice:
    """What the owner hears of the finished challenge ``data`` (:func:`challenge_data`)."""
    opponents = data["opponents"]
    assert isinstance(opponents, list)
    names = ", ".join(str(o["bot"]) for o in opponents)
    mean = data["mean_place"]
    placed = f"mean place {mean:.2f} of {data['players']}" if isinstance(mean, float) else ""
    sprt = data["sprt"]
    body = sprt["line"] if isinstance(sprt, dict) else placed
    return Notice(
        FINISHED_KIND,
        f"challenge {data['id']} finished: {data['bot']} against {names}, {data['done']} games",
        body,
        str(data["url"]),
        {"challenge": data["id"], "bot": data["bot"], "games": data["done"],
         "mean_place": mean, "sprt": sprt},
        int(str(data["bot_id"])),
    )  # fmt: skip


def tell_finished(store: Store) -> list[NoticeRow]:
    """A notice for each challenge finished since the last call."""
    with store.session() as s:
        due = s.exec(
            select(ChallengeRow)
            .join(SeasonRow, col(SeasonRow.id) == col(ChallengeRow.season_id))
            .where(col(ChallengeRow.notified_at).is_(None), col(SeasonRow.status) == FINISHED)
        ).all()
    told = []
    for challenge in due:
        with store.session(write=True) as s:
            unsaid = col(ChallengeRow.notified_at).is_(None)
            query = sa.update(ChallengeRow).where(col(ChallengeRow.id) == challenge.id, unsaid)
            taken = s.exec(query.values(notified_at=utcnow()))
        if taken.rowcount:
            notice = finished_notice(challenge_data(store, challenge))
            told.append(notify(store, challenge.owner_id, notice))
    return told
