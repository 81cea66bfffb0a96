"""The store's registered bots: versions, lookups, removal."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from sqlalchemy import func
from sqlalchemy.exc import IntegrityError
from sqlmodel import col, select

from .archives import BotArchive
from .database import Database, StoreError
from .models import Bot, Season, SeasonBot


class BotStore(Database):
    """The store's registered bots: versions, lookups, removal."""

    def add_bot(
        self, name: str, command: Sequence[str], content_hash: str, language: str, source: str = ""
    ) -> Bot:
        """Register the next version of ``name`` (v1 for a new name)."""
        for _ in range(5):
            try:
                with self.session(write=True) as s:
                    last = s.exec(
                        select(func.max(col(Bot.version))).where(col(Bot.name) == name)
                    ).one()
                    bot = Bot(
                        name=name,
                        version=(last or 0) + 1,
                        command=list(command),
                        content_hash=content_hash,
                        language=language,
                        source=source,
                    )
                    s.add(bot)
                    s.flush()
                    return bot
            except StoreError as exc:
                if not isinstance(exc.__cause__, IntegrityError):
                    raise
        raise StoreError(f"could not register {name}: other registrations kept getting in the way")

    def get_bot(self, bot_id: int) -> Bot | None:
        with self.session() as s:
            return s.get(Bot, bot_id)

    def find_bot(self, name: str, version: int | None = None) -> Bot | None:
        """``name`` at ``version``, or its latest version."""
        with self.session() as s:
            query = select(Bot).where(col(Bot.name) == name)
            if version is not None:
                query = query.where(col(Bot.version) == version)
            return s.exec(query.order_by(col(Bot.version).desc()).limit(1)).first()

    def find_bot_by_hash(self, name: str, content_hash: str) -> Bot | None:
        """The version of ``name`` with exactly these files, if registered."""
        with self.session() as s:
            return s.exec(
                select(Bot)
                .where(col(Bot.name) == name, col(Bot.content_hash) == content_hash)
                .order_by(col(Bot.version))
                .limit(1)
            ).first()

    def bots(self, name: str | None = None, latest_only: bool = False) -> list[Bot]:
        """Registered bots by name, then version (only each name's newest with ``latest_only``)."""
        with self.session() as s:
            query = select(Bot)
            if name is not None:
                query = query.where(col(Bot.name) == name)
            found = list(s.exec(query.order_by(col(Bot.name), col(Bot.version))).all())
        if latest_only:
            newest: dict[str, Bot] = {}
            for bot in found:
                newest[bot.name] = bot
            found = list(newest.values())
        return found

    def bots_by_id(self, ids: Iterable[int]) -> dict[int, Bot]:
        wanted = set(ids)
        if not wanted:
            return {}
        with self.session() as s:
            found = s.exec(select(Bot).where(col(Bot.id).in_(wanted))).all()
            return {b.id: b for b in found if b.id is not None}

    def seasons_using_bot(self, bot_id: int) -> list[Season]:
        with self.session() as s:
            return list(
                s.exec(
                    select(Season)
                    .join(SeasonBot, col(SeasonBot.season_id) == col(Season.id))
                    .where(col(SeasonBot.bot_id) == bot_id)
                    .order_by(col(Season.id))
                ).all()
            )

    def remove_bot(self, bot_id: int) -> Bot:
        """Delete a bot version that no season uses (raises :class:`StoreError` otherwise).
        Its stored files are the caller's business (other versions may share them)."""
        with self.session(write=True) as s:
            bot = s.get(Bot, bot_id)
            if bot is None:
                raise StoreError(f"no bot with id {bot_id}")
            used = s.exec(
                select(col(Season.name))
                .join(SeasonBot, col(SeasonBot.season_id) == col(Season.id))
                .where(col(SeasonBot.bot_id) == bot_id)
                .order_by(col(Season.id))
            ).all()
            if used:
                raise StoreError(
                    f"{bot.label} plays in season(s) {', '.join(used)}; "
                    "a bot with a season cannot be removed"
                )
            s.delete(bot)
            return bot

    def hash_in_use(self, content_hash: str) -> bool:
        """Whether any registered bot version uses the files with this hash."""
        with self.session() as s:
            return (
                s.exec(
                    select(col(Bot.id)).where(col(Bot.content_hash) == content_hash).limit(1)
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
                s.add(BotArchive(content_hash=content_hash, data=data, size=size, files=files))
                s.flush()
                return True
        except StoreError as exc:
            if isinstance(exc.__cause__, IntegrityError):
                return False  # another registration stored it first
            raise

    def has_archive(self, content_hash: str) -> bool:
        with self.session() as s:
            found = s.exec(
                select(col(BotArchive.content_hash)).where(
                    col(BotArchive.content_hash) == content_hash
                )
            ).first()
            return found is not None

    def get_archive(self, content_hash: str) -> bytes | None:
        """The packed files of ``content_hash``, or None if the database has none."""
        with self.session() as s:
            return s.exec(
                select(col(BotArchive.data)).where(col(BotArchive.content_hash) == content_hash)
            ).first()

    def drop_archive(self, content_hash: str) -> None:
        """Delete the archive of files no bot version uses any more."""
        with self.session(write=True) as s:
            archive = s.get(BotArchive, content_hash)
            if (
                archive is not None
                and not s.exec(
                    select(col(Bot.id)).where(col(Bot.content_hash) == content_hash).limit(1)
                ).first()
            ):
                s.delete(archive)
