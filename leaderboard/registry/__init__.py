"""Registering bots: copy their files by content hash, check they play, and run them later.

A bot is given as a file (``bot.py``, ``bot.js``, an executable), a folder (holding one of
``bot.py``, ``main.py``, ``bot.js``, ``index.js``, or any files plus ``--command``), or a sample
bot's name (``random``, ``aggressive``, ``continental``, ``planner``).

* **Files.** The bot's files are copied into ``$HEGEMON_HOME/bots/<content hash>/``, which is
  the bot's working folder whenever it plays, so editing the original later changes nothing
  registered. ``__pycache__`` and ``.git`` folders and ``*.pyc`` files are left out; everything
  else (``node_modules`` included) is kept. A sample bot is stored as its module (and the
  sample modules it imports) under ``sample_bots/`` in that folder and run with
  ``python -m sample_bots.NAME`` from there; ``hegemon.sdk`` and ``hegemon.referee`` come from
  the installed hegemon, like the interpreter.
* **Content hash** (:func:`content_hash`): sha256 over the files in sorted order of their
  relative paths (``/``-separated), each as ``path NUL mode NUL size NUL bytes`` where mode is
  ``x`` for an executable file and ``-`` otherwise.
* **Versions.** The first registration of a name is v1; new content under the same name is the
  next version; the same content again is refused as "already registered as NAME vN".
* **Command** (``BotRow.command``, an argv run in the stored folder): inferred from the file type
  (``python bot.py``, ``node bot.js``, ``./bot``) or given with ``--command``. At run time
  ``python``/``python3`` mean hegemon's own interpreter (which has the SDK and gRPC), ``node``
  and other bare names are looked up on ``PATH``, and ``./x`` is the stored folder's ``x``.
* **Archive** (:mod:`.archive`): the files are also stored in the database, packed, under their
  content hash, so a runner on another machine materialises the bot on first use
  (:func:`materialise`, verifying the hash) with nothing but the database URL.
* **Check** (:func:`check_command`): a short game against two sample ``random`` bots
  (``classic``, ``turn_limit`` 10, seed 1) with real processes. Any fault of the bot —
  start-up failure, crash, timeout, illegal action, protocol error — refuses it, with the
  reason in one line.
"""

from __future__ import annotations

import re
import shutil
from dataclasses import dataclass
from pathlib import Path

from hegemon.sample_bots.names import NAMES as SAMPLE_BOTS

from .. import paths
from ..store import BotRow, Store, StoreError
from ..store.versions import ACTIVE
from .archive import keep_staging, materialise, new_staging, store_archive
from .check import (
    CHECK_OPPONENTS,
    CheckResult,
    check_command,
    check_source,
)
from .naming import refuse_look_alike, validate_name
from .sources import (
    BotSource,
    RegistryError,
    bot_command,
    bot_files,
    content_hash,
    find_source,
)
from .upload import Submitted, Submitter, file_upload, pack_source, submit_archive

__all__ = [
    "CHECK_OPPONENTS",
    "SAMPLE_BOTS",
    "AddResult",
    "BotSource",
    "CheckResult",
    "RegistryError",
    "Submitted",
    "Submitter",
    "add_bot",
    "bot_command",
    "bot_files",
    "check_command",
    "check_source",
    "content_hash",
    "file_upload",
    "find_source",
    "lookup_bot",
    "materialise",
    "pack_source",
    "parse_bot_ref",
    "remove_bots",
    "store_archive",
    "submit_archive",
    "validate_name",
]


@dataclass
class AddResult:
    bot: BotRow
    new: bool  # False: this content was already registered under this name
    check: CheckResult | None = None


def _stage(source: BotSource) -> tuple[Path, str]:
    """Copy the files into a staging folder next to the stored bots; returns it and its hash."""
    staging = new_staging()
    try:
        source.copy_to(staging)
        return staging, content_hash(staging)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


def add_bot(
    store: Store, name: str, spec: str, command: str | None = None, check: bool = True
) -> AddResult:
    """Register ``spec`` (file, folder or sample bot name) as the next version of ``name``.

    Refuses (:class:`RegistryError`) a bot whose check game shows a fault. Registering content
    already stored under ``name`` changes nothing and returns ``new=False``.
    """
    name = validate_name(name)
    refuse_look_alike(store, name)
    source = find_source(spec, command)
    staging, digest = _stage(source)
    try:
        folder = paths.bot_dir(digest)
        existing = store.find_bot_by_hash(name, digest)
        if existing is not None:
            # registered from another machine, or before archives: keep a copy here and there
            keep_staging(staging, folder)
            store_archive(store, folder, digest)
            return AddResult(existing, new=False)
        result = None
        if check:
            result = check_source(source, name)
            if not result.ok:
                refused = RegistryError(f"{name} is refused: {result.reason}")
                refused.check = result  # its log, for the CLI
                raise refused
        keep_staging(staging, folder)
        try:
            store_archive(store, folder, digest)
            bot = store.add_bot(name, source.command, digest, source.language, source.origin)
        except StoreError:
            if not store.hash_in_use(digest):
                shutil.rmtree(folder, ignore_errors=True)
            raise
        return AddResult(bot, new=True, check=result)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


_REF = re.compile(r"^(?P<name>[^@]+)(?:@v?(?P<version>\d+))?$")


def parse_bot_ref(ref: str) -> tuple[str, int | None]:
    """``name``, ``name@vN`` or ``name@N`` → (name, version or None for the latest)."""
    match = _REF.match(ref.strip())
    if not match:
        raise RegistryError(f"bad bot reference {ref!r}: use NAME or NAME@vN")
    version = match.group("version")
    return match.group("name").strip(), int(version) if version else None


def lookup_bot(store: Store, ref: str) -> BotRow:
    """The registered bot ``ref`` names (latest version unless ``@vN``)."""
    name, version = parse_bot_ref(ref)
    bot = store.find_bot(name, version)
    if bot is not None:
        return bot
    if version is not None and store.find_bot(name) is not None:
        versions = ", ".join(f"v{b.version}" for b in store.bots(name))
        raise RegistryError(f"bot {name} has no version {version} (registered: {versions})")
    known = sorted({b.name for b in store.bots()})
    listed = ", ".join(known) if known else "none; add one with: hegemon bot add NAME PATH"
    raise RegistryError(f"unknown bot '{name}' (registered: {listed})")


DISABLED_REASON = "disabled by an admin"
"""Why a version was disabled, when the admin gave no reason (its owner sees it)."""
ENABLED_REASON = "enabled by an admin"
"""Why a version became active again by an admin's hand."""


def set_bot_state(store: Store, ref: str, state: str, reason: str = "") -> BotRow:
    """An admin disabling (``state`` ``disabled``) or enabling (``active``) the version ``ref``
    names (``NAME@vN``; ``NAME``: its latest), as ``hegemon bot disable|enable`` and the
    admins' web page do. A version made active retires the other active version of its name;
    a disabled one no longer plays on the ladders (its games stay). Raises
    :class:`RegistryError` for a reference to no version. Without a ``reason``, the version's
    owner reads that an admin disabled (or enabled) it."""
    bot = lookup_bot(store, ref)
    assert bot.id is not None
    if not reason:
        reason = ENABLED_REASON if state == ACTIVE else DISABLED_REASON
    changed = store.set_state(bot.id, state, reason)
    if changed is None:  # removed meanwhile
        raise RegistryError(f"unknown bot '{bot.label}'")
    return changed


def remove_bots(store: Store, name: str, version: int | None = None) -> list[BotRow]:
    """Remove one version (or every version) of ``name``. Refuses, removing nothing, if any of
    them plays in a season. Stored files no other version uses are deleted."""
    targets = (
        store.bots(name)
        if version is None
        else [b for b in store.bots(name) if b.version == version]
    )
    if not targets:
        if version is not None and store.bots(name):
            raise RegistryError(f"bot {name} has no version {version}")
        raise RegistryError(f"unknown bot '{name}'")
    for bot in targets:
        used = store.seasons_using_bot(bot.id)  # type: ignore[arg-type]
        if used:
            raise RegistryError(
                f"{bot.label} plays in season {', '.join(s.name for s in used)}; "
                "bots with seasons cannot be removed"
            )
    removed = []
    for bot in targets:
        try:
            removed.append(store.remove_bot(bot.id))  # type: ignore[arg-type]
        except StoreError as exc:
            raise RegistryError(str(exc)) from None
        if not store.hash_in_use(bot.content_hash):
            shutil.rmtree(paths.bot_dir(bot.content_hash), ignore_errors=True)
            try:
                store.drop_archive(bot.content_hash)
            except StoreError as exc:
                raise RegistryError(str(exc)) from None
    return removed
