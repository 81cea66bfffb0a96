"""The rules engine compiled with mypyc: which modules, and loading a checkout's build of them.

Compiled code reaches a process one of two ways, both made by the build backend (``setup.py``,
``mypycify`` over :data:`COMPILED`):

* **an installed wheel** carries each compiled module's extension beside its source, as mypy's
  and black's wheels do; the import system prefers the extension, and nothing here runs
  (:func:`install` finds no build in the environment and returns at once);
* **an editable checkout** runs its sources. ``python -m hegemon.referee.native build`` (which
  ``scripts/bootstrap`` runs) builds the wheel of a snapshot of the checkout and keeps it and
  its extension modules in :data:`BUILD_DIR`, inside the environment, with a stamp: the digest
  of the sources they were compiled from (:func:`source_digest`). :func:`install`, called
  first thing by ``hegemon.referee``'s ``__init__``, puts a finder in front of the import
  system for exactly those modules, and only when the stamp equals the digest of the sources
  on disk now: after any edit of the engine the pure Python sources run, never an older
  compiled copy. ``HEGEMON_NATIVE=0`` keeps the compiled engine out.

This module runs at every ``import hegemon.referee``: it imports only what the interpreter has
loaded already (the engine itself needs ``hashlib``), and it is never compiled itself (it decides
what gets loaded). The build lives in :mod:`hegemon.referee.native.build`, imported only to
build. ``setup.py`` reads :data:`COMPILED` from this file without importing ``hegemon``.
"""

from __future__ import annotations

import hashlib
import os
import sys
from collections.abc import Mapping, Sequence
from importlib.machinery import EXTENSION_SUFFIXES, ExtensionFileLoader, ModuleSpec
from types import ModuleType

COMPILED: tuple[str, ...] = (
    "game",
    "legal",
    "checks",
    "chance",
    "dice",
    "formulas",
    "policies",
    "cards",
    "observation",
    "holdings",
    "seats",
    "view",
)
"""The modules of ``hegemon.referee`` that mypyc compiles, where a game spends its time: the one
list, read by the wheel's build (``setup.py``) and the checkout's loader. A module of a
subpackage is named with a dot (``"editions.teams"``)."""

PACKAGE = "hegemon.referee"
SOURCES = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
"""The folder of ``hegemon.referee``, as it was imported (the ``hegemon/referee`` link in a
checkout, not the folder it points to)."""

NOT_ENGINE = ("runner", "wire", "viewer", "native")
"""Subpackages of ``hegemon.referee`` left out of the digest: the I/O around the engine, which
no compiled module imports (tests/codebase/test_layering.py), and this loader. An edit there
leaves the build current; a folder that holds a compiled module is always in the digest."""

BUILD_DIR = os.path.join(sys.prefix, "hegemon-native", sys.implementation.cache_tag)
"""Where a checkout's build lives: inside this interpreter's environment (a virtualenv's own
folder), one per Python implementation and version, so that another interpreter finds none."""

SUFFIX = EXTENSION_SUFFIXES[0]
"""The file name ending of this interpreter's extension modules
(``.cpython-311-x86_64-linux-gnu.so``)."""

GROUP = "hegemon_engine__mypyc"
"""mypyc puts the code of all the compiled modules into one shared library, a top-level module
of this name (``setup.py`` names the group), that each module's own small extension imports. A
build folder is laid out as the wheel is: that library at the top, the modules' extensions under
``hegemon/referee/``."""

STAMP = "stamp"
ENV = "HEGEMON_NATIVE"


def module_path(name: str) -> str:
    """The source of the compiled module ``name`` relative to the project's root, as the wheel's
    build names it (``hegemon/referee/editions/teams.py``)."""
    return "/".join([*PACKAGE.split("."), *name.split(".")]) + ".py"


def module_file(folder: str | os.PathLike[str], name: str) -> str:
    """Where the build in ``folder`` keeps the extension of the compiled module ``name``."""
    return os.path.join(folder, module_path(name).removesuffix(".py") + SUFFIX)


# ------------------------------------------------------------------------ the digest
def _engine_files(sources: str) -> list[tuple[str, str]]:
    """``(path relative to sources, full path)`` of every ``*.py`` of the engine's folders,
    sorted."""
    compiled_in = {name.split(".")[0] for name in COMPILED if "." in name}
    found = []
    for folder, subfolders, files in os.walk(sources):
        relative = os.path.relpath(folder, sources)
        if relative == ".":
            subfolders[:] = [d for d in subfolders if d not in NOT_ENGINE or d in compiled_in]
        subfolders[:] = [d for d in subfolders if d != "__pycache__"]
        for name in files:
            if name.endswith(".py"):
                found.append((os.path.normpath(os.path.join(relative, name)), folder + "/" + name))
    return sorted(found)


def source_digest(sources: str | os.PathLike[str] = SOURCES) -> str:
    """The sha256 of what a build depends on: this interpreter's cache tag, :data:`COMPILED`,
    and the name and bytes of every ``*.py`` file of the engine's folders under ``sources``
    (mypyc compiles some and may inline facts of the others they import, so a change to any
    of them makes a build stale).

    >>> len(source_digest())
    64
    """
    digest = hashlib.sha256()
    for part in (sys.implementation.cache_tag, ",".join(COMPILED)):
        digest.update(part.encode() + b"\0")
    for relative, path in _engine_files(os.fspath(sources)):
        with open(path, "rb") as source:
            data = source.read()
        digest.update(f"{relative}\0{len(data)}\0".encode())
        digest.update(data)
    return digest.hexdigest()


# ------------------------------------------------------------------------ a build's state
class BuildState:
    """What a build folder holds, judged against the sources: its files to load by module name
    (the compiled modules and the shared library) when it is usable, else why not (a plain
    class: a dataclass costs a millisecond at every import)."""

    __slots__ = ("files", "problem")

    def __init__(self, files: Mapping[str, str], problem: str | None) -> None:
        self.files = files
        self.problem = problem

    def __repr__(self) -> str:
        return f"BuildState({len(self.files)} files, problem={self.problem!r})"

    @property
    def usable(self) -> bool:
        """The build was made from exactly the sources and holds every module."""
        return self.problem is None


def matching_build(
    folder: str | os.PathLike[str] = BUILD_DIR, sources: str | os.PathLike[str] = SOURCES
) -> BuildState:
    """The build in ``folder`` if its stamp is the digest of ``sources`` and it holds every
    compiled module and its shared library; else the reason it is not used ("no build", "the
    build is older than the sources", "the build is incomplete"). Cheap: when there is no
    stamp, the sources are not read."""
    try:
        with open(os.path.join(folder, STAMP), encoding="ascii") as file:
            stamp = file.read().strip()
    except (OSError, UnicodeDecodeError):
        return BuildState({}, "no build")
    if stamp != source_digest(sources):
        return BuildState({}, "the build is older than the sources")
    files = {f"{PACKAGE}.{name}": module_file(folder, name) for name in COMPILED}
    files[GROUP] = os.path.join(folder, GROUP + SUFFIX)
    if not all(os.path.isfile(path) for path in files.values()):
        return BuildState({}, "the build is incomplete")
    return BuildState(files, None)


# ------------------------------------------------------------------------ loading it
class CompiledFinder:
    """A meta path finder for exactly the compiled modules and their shared library: each name
    gets a spec for its extension module in the build folder, every other name is left to the
    rest of the import system."""

    def __init__(self, files: Mapping[str, str]) -> None:
        self.files = dict(files)

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        """The spec of ``fullname``'s extension module, or None for a name not compiled."""
        file = self.files.get(fullname)
        if file is None:
            return None
        return ModuleSpec(fullname, ExtensionFileLoader(fullname, file), origin=file)

    def invalidate_caches(self) -> None:
        """Nothing cached: part of the finder protocol."""


def active() -> bool:
    """Whether :func:`install` put a checkout's build in place in this process."""
    return any(isinstance(finder, CompiledFinder) for finder in sys.meta_path)


def install() -> bool:
    """Load the checkout's build for the modules of :data:`COMPILED`, unless ``HEGEMON_NATIVE``
    is ``0`` or the build does not match the sources (:func:`matching_build`); returns whether
    it is in place (:func:`active`). Idempotent. Must run before any compiled module is
    imported: a process never mixes compiled and pure copies of the engine."""
    if active():
        return True
    if os.environ.get(ENV) == "0":
        return False
    if any(f"{PACKAGE}.{name}" in sys.modules for name in COMPILED):
        return False  # too late: the pure modules are loaded already
    state = matching_build()
    if not state.usable:
        return False
    sys.meta_path.insert(0, CompiledFinder(state.files))
    return True


def _runs_compiled() -> bool:
    """Whether this process's ``game`` module is an extension module (from a wheel or a build)."""
    game = sys.modules.get(f"{PACKAGE}.game")
    if game is None:
        __import__(f"{PACKAGE}.game")
        game = sys.modules[f"{PACKAGE}.game"]
    return str(getattr(game, "__file__", "")).endswith(SUFFIX)


def status() -> str:
    """Which engine this process runs, and why: ``compiled (mypyc)`` (from the installed wheel,
    or a checkout's current build), or ``pure Python: `` and the reason (``HEGEMON_NATIVE=0``,
    no build, the build is older than the sources, ...)."""
    if _runs_compiled():
        return "compiled (mypyc)"
    if active():
        return "pure Python: the compiled engine was installed after the engine loaded"
    if os.environ.get(ENV) == "0":
        return f"pure Python: {ENV}=0"
    state = matching_build()
    if state.usable:
        return "pure Python: this process loaded the engine before the build was in place"
    return f"pure Python: {state.problem}"
