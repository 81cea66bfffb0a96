"""The store's registered bots: versions, lookups, removal."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

import sqlalchemy as sa
from sqlalchemy import func
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from .accounts import UserRow
from .archives import BotArchiveRow
from .database import Database, StoreError
from .models import CHALLENGE, BotRow, SeasonBotRow, SeasonRow
from .names import skeleton
from .pins import drop_pins
from .teams import TeamRow
from .versions import ACTIVE, RETIRED


class NameTaken(StoreError):
    """A new bot name that looks like one registered already (their skeletons are equal)."""


def name_taken(name: str, other: str) -> str:
    """The refusal of the new bot name ``name``, which looks like the registered ``other``."""
    return f"refused: the bot name {name} looks like {other}, which is registered; choose another"


def _look_alike(s: Session, name: str, form: str) -> str | None:
    if s.exec(select(BotRow.id).where(col(BotRow.name) == name).limit(1)).first():
        return None
    return s.exec(select(BotRow.name).where(col(BotRow.name_skeleton) == form).limit(1)).first()


Guard = Callable[[Session], None]
"""A check run inside the transaction that adds a version, before it is added (it raises to
refuse): what it reads cannot change before the version is written."""


class BotStore(Database):
    """The store's registered bots: versions, lookups, removal."""

    def add_bot(
        self,
        name: str,
        command: Sequence[str],
        content_hash: str,
        language: str,
        source: str = "",
        state: str = ACTIVE,
        guard: Guard | None = None,
        **extra: Any,
    ) -> BotRow:
        """Register the next version of ``name`` (v1 for a new name) in ``state`` (``active``:
        checked already, retiring the older active versions; ``queued``: a runner checks it).
        ``extra``: more of :class:`BotRow`'s fields (its ``owner_id``). A new name that looks
        like a registered one (:mod:`.names`) raises :class:`NameTaken`; ``guard`` (e.g. the
        owner's quotas) runs in the same transaction, the owner's and the name's additions
        waiting their turn, so two submissions cannot both pass a check one of them fails."""
        form = skeleton(name)
        for _ in range(5):
            try:
                with self.session(write=True) as s:
                    self._one_at_a_time(s, form, extra.get("owner_id"), extra.get("team_id"))
                    self._check_new_name(s, name, form)
                    if guard is not None:
                        guard(s)
                    last = s.exec(
                        select(func.max(col(BotRow.version))).where(col(BotRow.name) == name)
                    ).one()
                    bot = BotRow(
                        name=name,
                        name_skeleton=form,
                        version=(last or 0) + 1,
                        command=list(command),
                        content_hash=content_hash,
                        language=language,
                        source=source,
                        state=state,
                        **extra,
                    )
                    s.add(bot)
                    s.flush()
                    if state == ACTIVE:
                        s.exec(
                            sa.update(BotRow)
                            .where(
                                col(BotRow.name) == name,
                                col(BotRow.state) == ACTIVE,
                                col(BotRow.id) != bot.id,
                            )
                            .values(state=RETIRED)
                        )
                    return bot
            except StoreError as exc:
                if not isinstance(exc.__cause__, IntegrityError):
                    raise
        raise StoreError(f"could not register {name}: other registrations kept getting in the way")

    def _one_at_a_time(
        self, s: Session, form: str, owner_id: int | None, team_id: int | None = None
    ) -> None:
        """Make additions by the same owner or team, or of names with the same skeleton, wait
        for each other until the transaction ends. SQLite has one writer at a time already;
        PostgreSQL locks the owner's row, the team's, then the skeleton (in that order: no
        deadlock)."""
        if not self.is_postgres:
            return
        if owner_id is not None:
            s.exec(select(UserRow.id).where(col(UserRow.id) == owner_id).with_for_update())
        if team_id is not None:
            s.exec(select(TeamRow.id).where(col(TeamRow.id) == team_id).with_for_update())
        s.connection().execute(
            sa.select(func.pg_advisory_xact_lock(func.hashtext(f"bot-name:{form}")))
        )

    def look_alike(self, name: str) -> str | None:
        """The registered name a *new* ``name`` looks like (None: ``name`` is registered
        already, or free): a quick look before a version is made; adding it checks again."""
        with self.session() as s:
            return _look_alike(s, name, skeleton(name))

    def _check_new_name(self, s: Session, name: str, form: str) -> None:
        """Refuse a *new* ``name`` whose skeleton is another name's (a name registered before
        the rule, sharing one, keeps getting versions)."""
        other = _look_alike(s, name, form)
        if other is not None:
            raise NameTaken(name_taken(name, other))

    def get_bot(self, bot_id: int) -> BotRow | None:
        with self.session() as s:
            return s.get(BotRow, bot_id)

    def find_bot(self, name: str, version: int | None = None) -> BotRow | None:
        """``name`` at ``version``, or its latest version."""
        with self.session() as s:
            query = select(BotRow).where(col(BotRow.name) == name)
            if version is not None:
                query = query.where(col(BotRow.version) == version)
            return s.exec(query.order_by(col(BotRow.version).desc()).limit(1)).first()

    def find_bot_by_hash(self, name: str, content_hash: str) -> BotRow | None:
        """The version of ``name`` with exactly these files, if registered."""
        with self.session() as s:
            return s.exec(
                select(BotRow)
                .where(col(BotRow.name) == name, col(BotRow.content_hash) == content_hash)
                .order_by(col(BotRow.version))
                .limit(1)
            ).first()

    def bots(self, name: str | None = None, latest_only: bool = False) -> list[BotRow]:
        """Registered bots by name, then version (only each name's newest with ``latest_only``)."""
        with self.session() as s:
            query = select(BotRow)
            if name is not None:
                query = query.where(col(BotRow.name) == name)
            found = list(s.exec(query.order_by(col(BotRow.name), col(BotRow.version))).all())
        if latest_only:
            newest: dict[str, BotRow] = {}
            for bot in found:
                newest[bot.name] = bot
            found = list(newest.values())
        return found

    def bots_by_id(self, ids: Iterable[int]) -> dict[int, BotRow]:
        wanted = set(ids)
        if not wanted:
            return {}
        with self.session() as s:
            found = s.exec(select(BotRow).where(col(BotRow.id).in_(wanted))).all()
            return {b.id: b for b in found if b.id is not None}

    def seasons_using_bot(self, bot_id: int) -> list[SeasonRow]:
        with self.session() as s:
            return list(
                s.exec(
                    select(SeasonRow)
                    .join(SeasonBotRow, col(SeasonBotRow.season_id) == col(SeasonRow.id))
                    .where(col(SeasonBotRow.bot_id) == bot_id)
                    .where(col(SeasonRow.kind) != CHALLENGE)  # unrated: on no bot's page
                    .order_by(col(SeasonRow.id))
                ).all()
            )

    def remove_bot(self, bot_id: int) -> BotRow:
        """Delete a bot version that no season uses (raises :class:`StoreError` otherwise).
        Its stored files are the caller's business (other versions may share them)."""
        with self.session(write=True) as s:
            bot = s.get(BotRow, bot_id)
            if bot is None:
                raise StoreError(f"no bot with id {bot_id}")
            used = s.exec(
                select(col(SeasonRow.name))
                .join(SeasonBotRow, col(SeasonBotRow.season_id) == col(SeasonRow.id))
                .where(col(SeasonBotRow.bot_id) == bot_id)
                .order_by(col(SeasonRow.id))
            ).all()
            if used:
                raise StoreError(
                    f"{bot.label} plays in season(s) {', '.join(used)}; "
                    "a bot with a season cannot be removed"
                )
            drop_pins(s, bot_id)  # a pin of it goes with it: the newest active version plays
            s.delete(bot)
            return bot

    def hash_in_use(self, content_hash: str) -> bool:
        """Whether any registered bot version uses the files with this hash."""
        with self.session() as s:
            return (
                s.exec(
                    select(col(BotRow.id)).where(col(BotRow.content_hash) == content_hash).limit(1)
                ).first()
                is not None
            )

    # ------------------------------------------------------------------ archives
    def put_archive(self, content_hash: str, data: bytes, size: int, files: int) -> bool:
        """Store the packed files of ``content_hash`` unless stored already; True if stored
        now. Concurrent stores of the same hash are harmless (the content is the same)."""
        if self.has_archive(content_hash):
            return False
        try:
            with self.session(write=True) as s:
                s.add(BotArchiveRow(content_hash=content_hash, data=data, size=size, files=files))
                s.flush()
                return True
        except StoreError as exc:
            if isinstance(exc.__cause__, IntegrityError):
                return False  # another registration stored it first
            raise

    def has_archive(self, content_hash: str) -> bool:
        with self.session() as s:
            found = s.exec(
                select(col(BotArchiveRow.content_hash)).where(
                    col(BotArchiveRow.content_hash) == content_hash
                )
            ).first()
            return found is not None

    def get_archive(self, content_hash: str) -> bytes | None:
        """The packed files of ``content_hash``, or None if the database has none."""
        with self.session() as s:
            return s.exec(
                select(col(BotArchiveRow.data)).where(
                    col(BotArchiveRow.content_hash) == content_hash
                )
            ).first()

    def drop_archive(self, content_hash: str) -> None:
        """Delete the archive of files no bot version uses any more."""
        with self.session(write=True) as s:
            archive = s.get(BotArchiveRow, content_hash)
            if (
                archive is not None
                and not s.exec(
                    select(col(BotRow.id)).where(col(BotRow.content_hash) == content_hash).limit(1)
                ).first()
            ):
                s.delete(archive)
