"""Submitting a bot over HTTP: the client packs its files as ``bot add`` would store them (the
archive format of :mod:`.archive`), the server unpacks them under the arena's limits, stores the
version content-addressed exactly as ``bot add`` does — the same files under the same name are
the same version, not a new one — and queues it for a runner's check game.

A bot has one owner: a name first submitted by a member is theirs, or their team's when they
submit it for a team (every member of the team may then submit its versions); a name registered
from the organiser's shell (no owner) is the admins'. Quotas (:mod:`.quotas`) apply to members,
per team for a team's bot.
"""

from __future__ import annotations

import shlex
import shutil
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from sqlmodel import Session, col, select
from sqlmodel.sql.expression import SelectOfScalar

from .. import paths
from ..accounts.ownership import allowed, member_teams
from ..accounts.teams import TeamError, team_for_submission
from ..store import BotRow, Store, StoreError
from ..store.bots import NameTaken
from ..store.versions import QUEUED
from .archive import TAR_OVERHEAD, keep_staging, new_staging, pack, store_archive, unpack
from .errors import RegistryError, relative_to
from .limits import FileLimits
from .naming import refuse_look_alike, validate_name
from .quotas import QuotaError, Quotas
from .sources import BotSource, content_hash, find_source


@dataclass(frozen=True)
class Submitter:
    """Who submits: a user's id, whether they are an admin (no quotas, any name), and the team
    they submit for (its name; None: for themselves, or the name's team if it has one)."""

    id: int
    admin: bool = False
    team: str | None = None


@dataclass
class Submitted:
    """A submission's outcome: the version, and whether it is new (False: identical files
    were submitted before under this name, and that version is returned)."""

    bot: BotRow
    new: bool


def archive_budget(limits: FileLimits | None = None) -> int:
    """The most bytes an upload's archive may take: the bot's files at their limit plus tar
    headers (gzip never grows them by much more). Uploads are refused past it while read."""
    limits = limits or FileLimits.from_env()
    return limits.max_bytes + (limits.max_files + 1) * TAR_OVERHEAD + 64 * 1024


def pack_source(source: BotSource) -> bytes:
    """The archive of a bot form's files (``hegemon submit``): what ``bot add`` would store."""
    with tempfile.TemporaryDirectory(prefix="hegemon-submit-") as tmp:
        folder = Path(tmp)
        source.copy_to(folder)
        return pack(folder)[0]


def command_text(argv: Sequence[str]) -> str:
    """A stored argv as the one-line ``--command`` the server takes."""
    return shlex.join(argv)


def file_upload(filename: str, data: bytes) -> tuple[bytes, str]:
    """A browser's upload of one bot file (``bot.py``, ``bot.js``, …) as (archive, command),
    the file's command inferred as ``bot add FILE`` infers it."""
    name = Path(filename).name
    if not name or name.startswith("."):
        raise RegistryError(f"bad file name {filename!r}")
    with tempfile.TemporaryDirectory(prefix="hegemon-upload-") as tmp:
        path = Path(tmp) / name
        path.write_bytes(data)
        try:
            source = find_source(str(path))
        except RegistryError as exc:
            raise relative_to(exc, tmp) from None
        return pack_source(source), command_text(source.command)


def submit_archive(
    store: Store,
    submitter: Submitter,
    name: str,
    archive: bytes,
    command: str | None = None,
    quotas: Quotas | None = None,
) -> Submitted:
    """Store ``archive`` as the next version of ``name`` for ``submitter``, queued for its
    check game; raises :class:`RegistryError` (:class:`QuotaError`, with its HTTP status) with
    one line saying why not. ``command``: how to run it in its folder (default: inferred from
    the files as ``bot add FOLDER`` does)."""
    name = validate_name(name)
    with store.session() as s:
        team_id = _owning_team(s, name, submitter)
    refuse_look_alike(store, name)
    staging = new_staging()
    try:
        unpack(archive, staging)
        digest = content_hash(staging)
        existing = store.find_bot_by_hash(name, digest)
        if existing is not None:
            return Submitted(existing, new=False)
        source = find_source(str(staging), command)
        guard = None
        if not submitter.admin:
            size = sum(f.stat().st_size for f in source.files.values())
            limits = quotas or Quotas.from_env()
            limits.check(store, submitter.id, name, size, team_id)  # before keeping any file

            def guard(s: Session) -> None:
                _owning_team(s, name, submitter)  # again: a member removed meanwhile is refused
                limits.check_in(s, submitter.id, name, size, team_id)

        folder = paths.bot_dir(digest)
        keep_staging(staging, folder)
        store_archive(store, folder, digest)
        try:
            bot = store.add_bot(
                name,
                source.command,
                digest,
                source.language,
                "upload",
                state=QUEUED,
                guard=guard,
                owner_id=submitter.id,
                team_id=team_id,
            )
        except (RegistryError, StoreError) as exc:
            _drop_unused(store, folder, digest)
            if isinstance(exc, RegistryError):
                raise
            raise QuotaError(str(exc), 409 if isinstance(exc, NameTaken) else 503) from None
        return Submitted(bot, new=True)
    except RegistryError as exc:
        raise relative_to(exc, staging) from None
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _first_version(name: str) -> SelectOfScalar[BotRow]:
    return select(BotRow).where(col(BotRow.name) == name).limit(1)


def _owning_team(s: Session, name: str, submitter: Submitter) -> int | None:
    """The team a new version of ``name`` by ``submitter`` belongs to (None: its submitter's
    own), or :class:`QuotaError` when the name is another member's or another team's, or the
    submitter is not a member of the team."""
    found = s.exec(_first_version(name)).first()
    try:
        team_id = None
        if submitter.team is not None:
            team_id = team_for_submission(s, submitter.id, submitter.admin, submitter.team)
        if found is None:
            return team_id
        if team_id is not None and found.team_id != team_id:
            raise QuotaError(f"refused: the name {name} is not the team {submitter.team}'s")
    except TeamError as exc:
        raise QuotaError(str(exc), exc.status) from None
    teams = member_teams(s, submitter.id)
    if not allowed(submitter.id, submitter.admin, found.owner_id, found.team_id, teams):
        if found.team_id is not None:
            raise QuotaError(f"refused: the name {name} is a team's you are not a member of")
        raise QuotaError(f"refused: the name {name} belongs to another member; choose another")
    return found.team_id


def _drop_unused(store: Store, folder: Path, digest: str) -> None:
    """Forget the files of a refused version unless another version has the same."""
    if not store.hash_in_use(digest):
        shutil.rmtree(folder, ignore_errors=True)
        store.drop_archive(digest)
