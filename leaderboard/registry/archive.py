"""Bot files through the database: pack a stored bot's folder into an archive, and materialise a
bot from its archive on a machine that has never seen it.

* **Format**: a gzip'd tar of the bot's regular files (:func:`~.sources.bot_files` order, paths
  relative, ``/``-separated), modes 0755 (executable) or 0644, no owners, no times — the same
  files always pack to the same bytes.
* **Trust**: nothing from an archive is believed. Unpacking takes only regular files with plain
  relative paths (no links, devices, ``..`` or absolute names) into a fresh staging folder, and
  the folder's :func:`~.sources.content_hash` must equal the bot's before it is renamed into
  ``$HEGEMON_HOME/bots/<hash>``: a corrupt or forged archive is refused.
"""

from __future__ import annotations

import gzip
import io
import os
import shutil
import tarfile
import tempfile
import uuid
import zlib
from pathlib import Path, PurePosixPath
from typing import Any

from .. import paths
from ..store import BotRow, Store
from .limits import FileLimits
from .sources import RegistryError, _executable, bot_files, bounded, content_hash, is_skipped


def pack(folder: Path, limits: FileLimits | None = None) -> tuple[bytes, int, int]:
    """The archive of the bot files in ``folder``: (bytes, unpacked size, number of files).

    Files are streamed into the archive (none is read whole); the archive itself is built in a
    temporary file that stays in memory while small. Refuses a folder over ``limits`` (default:
    the arena's) before reading it."""
    files = bot_files(folder, limits or FileLimits.from_env())
    bounded(dict(files), str(folder), limits)
    size = count = 0
    with tempfile.SpooledTemporaryFile(max_size=SPOOL_BYTES) as spool:
        with (
            gzip.GzipFile(filename="", mode="wb", fileobj=spool, mtime=0) as zipped,
            tarfile.open(fileobj=zipped, mode="w|", format=tarfile.PAX_FORMAT) as tar,
        ):
            for rel, full in files:
                with open(full, "rb") as source:
                    info = tarfile.TarInfo(rel)
                    info.size = os.fstat(source.fileno()).st_size
                    info.mode = 0o755 if _executable(full) else 0o644
                    info.mtime = 0
                    tar.addfile(info, source)
                size += info.size
                count += 1
        spool.seek(0)
        return spool.read(), size, count


SPOOL_BYTES = 8 * 1024 * 1024
"""An archive larger than this is built on disk rather than in memory."""

TAR_OVERHEAD = 4 * 1024
"""Bytes of tar headers allowed per file beyond its contents (a header, a long-name record)."""


def _safe_member(name: str) -> bool:
    path = PurePosixPath(name)
    return bool(name) and not path.is_absolute() and ".." not in path.parts and "\\" not in name


class _Budget(io.RawIOBase):
    """A stream that reads at most ``limit`` decompressed bytes from ``source``: past that it
    raises, so a decompression bomb stops at the budget, not at the memory's end."""

    def __init__(self, source: gzip.GzipFile, limit: int) -> None:
        self.source = source
        self.left = limit

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        view = memoryview(buffer).cast("B")
        want = min(len(view), self.left + 1)
        data = self.source.read(want)
        if len(data) > self.left:
            raise RegistryError("the archive unpacks to more than the arena's limit for a bot")
        self.left -= len(data)
        view[: len(data)] = data
        return len(data)


def unpack(data: bytes, target: Path, limits: FileLimits | None = None) -> None:
    """Write the archive's files into the (empty) folder ``target``; raises
    :class:`RegistryError` on anything but plain regular files of a bot — no links, devices,
    sparse files, unsafe or skipped names (compiled Python, ``__pycache__``, ``.git``) — and on
    an archive over ``limits`` (default: the arena's), judged before anything is written. The
    caller removes ``target`` on failure."""
    limits = limits or FileLimits.from_env()
    budget = limits.max_bytes + (limits.max_files + 1) * TAR_OVERHEAD
    size = count = 0
    try:
        with (
            gzip.GzipFile(fileobj=io.BytesIO(data), mode="rb") as zipped,
            io.BufferedReader(_Budget(zipped, budget)) as stream,
            tarfile.open(fileobj=stream, mode="r|") as tar,
        ):
            for member in tar:
                _admit(member)
                count += 1
                size += member.size
                limits.check(size, count, "the archive")
                source = tar.extractfile(member)
                assert source is not None
                dest = target.joinpath(*PurePosixPath(member.name).parts)
                dest.parent.mkdir(parents=True, exist_ok=True)
                with open(dest, "xb") as out:
                    shutil.copyfileobj(source, out)
                os.chmod(dest, 0o755 if member.mode & 0o111 else 0o644)
    except (OSError, EOFError, tarfile.TarError, zlib.error) as exc:
        raise RegistryError(f"the archive is unreadable: {exc}") from None


def _admit(member: tarfile.TarInfo) -> None:
    """Refuse a member that is not a plain file a bot's folder would pack."""
    if not member.isfile() or member.issparse() or not _safe_member(member.name):
        raise RegistryError(f"the archive holds a forbidden entry {member.name!r}")
    if is_skipped(member.name):
        raise RegistryError(f"the archive holds {member.name!r}, which a bot's files never include")


def new_staging() -> Path:
    """A fresh, empty folder beside the stored bots (so that renaming it into place is atomic);
    the caller removes it."""
    root = paths.bots_dir()
    root.mkdir(parents=True, exist_ok=True)
    staging = root / f".staging-{uuid.uuid4().hex}"
    staging.mkdir()
    return staging


def store_archive(store: Store, folder: Path, digest: str) -> bool:
    """Put the files of ``folder`` (whose content hash is ``digest``) into the database unless
    they are there already; True if stored now."""
    if store.has_archive(digest):
        return False
    data, size, count = pack(folder)
    return store.put_archive(digest, data, size, count)


def materialise(store: Store, bot: BotRow) -> Path:
    """The bot's stored folder on this machine: already there, or unpacked now from the
    database's archive and verified against the bot's content hash. A folder present here whose
    archive the database lacks (registered before archives existed) is uploaded. Raises
    :class:`RegistryError` when neither is to be had or the archive does not match."""
    folder = paths.bot_dir(bot.content_hash)
    if folder.is_dir():
        store_archive(store, folder, bot.content_hash)
        return folder
    data = store.get_archive(bot.content_hash)
    if data is None:
        raise RegistryError(
            f"{bot.label}: its files are neither on this machine ({folder}) nor in the "
            "database (registered by a hegemon older than bot archives); run "
            "'hegemon bot add' with its files once on any machine that uses this database"
        )
    return install_archive(bot, data)


def install_archive(bot: BotRow, data: bytes) -> Path:
    """Unpack ``data``, the archive of ``bot``'s files, into its stored folder on this machine,
    verified against its content hash first (:class:`RegistryError` if it does not match)."""
    folder = paths.bot_dir(bot.content_hash)
    staging = new_staging()
    try:
        unpack(data, staging)
        got = content_hash(staging)
        if got != bot.content_hash:
            raise RegistryError(
                f"{bot.label}: its archive does not match its content hash "
                f"(got {got[:12]}, want {bot.content_hash[:12]}); refused"
            )
        try:
            staging.rename(folder)
        except OSError:
            if not folder.is_dir():  # not a concurrent materialisation of the same files
                raise
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return folder


def keep_staging(staging: Path, folder: Path) -> None:
    """Move the staged files to their stored folder unless it is there already."""
    if not folder.is_dir():
        try:
            staging.rename(folder)
        except OSError:
            if not folder.is_dir():  # not a concurrent registration of the same files
                raise
