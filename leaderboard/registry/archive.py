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
import uuid
from pathlib import Path, PurePosixPath

from .. import paths
from ..store import BotRow, Store
from .sources import RegistryError, _executable, bot_files, content_hash


def pack(folder: Path) -> tuple[bytes, int, int]:
    """The archive of the bot files in ``folder``: (bytes, unpacked size, number of files)."""
    raw = io.BytesIO()
    size = count = 0
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for rel, full in bot_files(folder):
            data = full.read_bytes()
            info = tarfile.TarInfo(rel)
            info.size = len(data)
            info.mode = 0o755 if _executable(full) else 0o644
            info.mtime = 0
            tar.addfile(info, io.BytesIO(data))
            size += len(data)
            count += 1
    return gzip.compress(raw.getvalue(), mtime=0), size, count


def _safe_member(name: str) -> bool:
    path = PurePosixPath(name)
    return bool(name) and not path.is_absolute() and ".." not in path.parts and "\\" not in name


def unpack(data: bytes, target: Path) -> None:
    """Write the archive's files into the (empty) folder ``target``; raises
    :class:`RegistryError` on anything but plain regular files."""
    try:
        raw = gzip.decompress(data)
        with tarfile.open(fileobj=io.BytesIO(raw), mode="r:") as tar:
            for member in tar.getmembers():
                if not member.isfile() or not _safe_member(member.name):
                    raise RegistryError(f"the archive holds a forbidden entry {member.name!r}")
                source = tar.extractfile(member)
                assert source is not None
                dest = target.joinpath(*PurePosixPath(member.name).parts)
                dest.parent.mkdir(parents=True, exist_ok=True)
                with open(dest, "xb") as out:
                    shutil.copyfileobj(source, out)
                os.chmod(dest, 0o755 if member.mode & 0o111 else 0o644)
    except (OSError, EOFError, tarfile.TarError) as exc:
        raise RegistryError(f"the archive is unreadable: {exc}") from None


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
    root = paths.bots_dir()
    root.mkdir(parents=True, exist_ok=True)
    staging = root / f".staging-{uuid.uuid4().hex}"
    staging.mkdir()
    try:
        unpack(data, staging)
        got = content_hash(staging)
        if got != bot.content_hash:
            raise RegistryError(
                f"{bot.label}: the database's archive does not match its content hash "
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
