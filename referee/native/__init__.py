"""The rules engine compiled with mypyc, used only when it was built from exactly these sources.

``python -m hegemon.referee.native build`` compiles the engine's hot modules (:data:`COMPILED`)
in a temporary folder and moves the extension modules into :data:`BUILD_DIR`, inside the
environment of the interpreter that made them, with a ``stamp``: the digest of the sources they
were compiled from (:func:`source_digest`). :func:`install`, called first thing by
``hegemon.referee``'s ``__init__``, puts a finder in front of the import system that loads those
extension modules for the ``hegemon.referee.<module>`` names, and only when the stamp equals the
digest of the sources on disk now: after any edit of the package's modules the build is stale
and the pure Python sources run, never an older compiled copy of them. ``HEGEMON_NATIVE=0`` turns
the compiled engine off. Nothing is ever written next to the sources.

This package is plain Python and is never compiled itself (it decides what gets loaded). It
imports nothing heavy at import time: it runs at every ``import hegemon.referee``, and the
engine imports no process or I/O machinery (``subprocess`` only inside :func:`build`).
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import os
import re
import sys
from collections.abc import Mapping, Sequence
from importlib.machinery import ModuleSpec
from pathlib import Path
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
    "holdings",
    "seats",
)
"""The modules of ``hegemon.referee`` that mypyc compiles: where a game spends its time."""

PACKAGE = "hegemon.referee"
SOURCES = Path(__file__).parent.parent
"""The folder of ``hegemon.referee``, as it was imported (the ``hegemon/referee`` link in a
checkout, not the folder it points to)."""

BUILD_DIR = Path(sys.prefix) / "hegemon-native" / sys.implementation.cache_tag
"""Where the build lives: inside this interpreter's environment (a virtualenv's own folder),
one per Python implementation and version, so that another interpreter finds none."""

SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]
"""The file name ending of this interpreter's extension modules
(``.cpython-311-x86_64-linux-gnu.so``)."""

GROUP_MARK = "__mypyc"
"""mypyc puts the code of all the compiled modules into one shared library, a top-level module
named ``<hash>__mypyc``, that each module's own small extension imports. A build folder is laid
out as mypyc's output is: that library at the top, the modules' extensions under
``hegemon/referee/`` (compiled modules import each other straight from the library, and it
derives their ``__file__`` from its own place by that layout)."""

STAMP = "stamp"
ENV = "HEGEMON_NATIVE"


class NativeBuildError(RuntimeError):
    """The compiled engine could not be built (mypyc or a C compiler missing, or it failed);
    the message is one line and names the log when there is one."""


# ------------------------------------------------------------------------ the digest
_VERSION = re.compile(rb"""__version__\s*(?::\s*\w+\s*)?=\s*["']([^"']+)["']""")


def mypy_version() -> str:
    """The installed mypy's version, read from its ``version.py`` without importing mypy (that
    loads mypy's own compiled library, tens of milliseconds); ``"none"`` without mypy."""
    try:
        spec = importlib.util.find_spec("mypy")
    except (ImportError, ValueError):
        return "none"
    if spec is None or spec.origin is None:
        return "none"
    try:
        text = (Path(spec.origin).parent / "version.py").read_bytes()
    except OSError:
        return "none"
    found = _VERSION.search(text)
    return found.group(1).decode("ascii", "replace") if found else "unknown"


def source_digest(sources: Path = SOURCES) -> str:
    """The sha256 of what a build depends on: mypy's version (mypyc's code generation and
    runtime), this interpreter's cache tag, :data:`COMPILED`, and the name and bytes of every
    ``*.py`` file directly in ``sources`` and in its ``editions`` package (mypyc compiles some
    and may inline facts of the others they import, so a change to any of them makes a build
    stale).

    >>> len(source_digest())
    64
    """
    digest = hashlib.sha256()
    for part in (mypy_version(), sys.implementation.cache_tag, ",".join(COMPILED)):
        digest.update(part.encode() + b"\0")
    paths = [*sources.glob("*.py"), *sources.glob("editions/*.py")]
    for path in sorted(paths, key=lambda p: p.relative_to(sources).as_posix()):
        data = path.read_bytes()
        digest.update(f"{path.relative_to(sources).as_posix()}\0{len(data)}\0".encode())
        digest.update(data)
    return digest.hexdigest()


# ------------------------------------------------------------------------ a build's state
def module_file(folder: Path, name: str) -> Path:
    """Where the build in ``folder`` keeps the extension of the compiled module ``name``."""
    return folder.joinpath(*PACKAGE.split("."), name + SUFFIX)


class BuildState:
    """What a build folder holds, judged against the sources: its files to load by module name
    (the compiled modules and the shared library) when it is usable, else why not (a plain
    class: a dataclass costs a millisecond at every import)."""

    __slots__ = ("files", "problem")

    def __init__(self, files: Mapping[str, Path], problem: str | None) -> None:
        self.files = files
        self.problem = problem

    def __repr__(self) -> str:
        return f"BuildState({len(self.files)} files, problem={self.problem!r})"

    @property
    def usable(self) -> bool:
        """The build was made from exactly the sources and holds every module."""
        return self.problem is None


def matching_build(folder: Path = BUILD_DIR, sources: Path = SOURCES) -> BuildState:
    """The build in ``folder`` if its stamp is the digest of ``sources`` and it holds every
    compiled module and its shared library; else the reason it is not used ("no build", "the
    build is older than the sources", "the build is incomplete"). Cheap: when there is no
    stamp, the sources are not read."""
    try:
        stamp = (folder / STAMP).read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        return BuildState({}, "no build")
    if stamp != source_digest(sources):
        return BuildState({}, "the build is older than the sources")
    files = {f"{PACKAGE}.{name}": module_file(folder, name) for name in COMPILED}
    try:
        groups = [n for n in os.listdir(folder) if n.endswith(GROUP_MARK + SUFFIX)]
    except OSError:
        groups = []
    if len(groups) != 1 or not all(path.is_file() for path in files.values()):
        return BuildState({}, "the build is incomplete")
    files[groups[0].removesuffix(SUFFIX)] = folder / groups[0]
    return BuildState(files, None)


# ------------------------------------------------------------------------ loading it
class CompiledFinder:
    """A meta path finder for exactly the compiled modules and their shared library: each name
    gets a spec for its extension module in the build folder (an ``ExtensionFileLoader``), every
    other name is left to the rest of the import system."""

    def __init__(self, files: Mapping[str, Path]) -> None:
        self.files = dict(files)

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        """The spec of ``fullname``'s extension module, or None for a name not compiled."""
        file = self.files.get(fullname)
        if file is None:
            return None
        return importlib.util.spec_from_file_location(fullname, file)

    def invalidate_caches(self) -> None:
        """Nothing cached: part of the finder protocol."""


def active() -> bool:
    """Whether :func:`install` put the compiled engine in place in this process."""
    return any(isinstance(finder, CompiledFinder) for finder in sys.meta_path)


def install() -> bool:
    """Load the compiled engine for the modules of :data:`COMPILED`, unless ``HEGEMON_NATIVE``
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


def status() -> str:
    """Which engine this process runs, and why: ``compiled (mypyc)``, or ``pure Python: `` and
    the reason (``HEGEMON_NATIVE=0``, no build, the build is older than the sources, ...)."""
    if active():
        game = sys.modules.get(f"{PACKAGE}.game")
        if game is None or str(getattr(game, "__file__", "")).endswith(SUFFIX):
            return "compiled (mypyc)"
        return "pure Python: the compiled engine was installed after the engine loaded"
    if os.environ.get(ENV) == "0":
        return f"pure Python: {ENV}=0"
    state = matching_build()
    if state.usable:
        return "pure Python: this process loaded the engine before the build was in place"
    return f"pure Python: {state.problem}"


# ------------------------------------------------------------------------ building it
SETUP = """\
from setuptools import setup
from mypyc.build import mypycify

setup(
    name="hegemon-native",
    packages=[],
    py_modules=[],
    ext_modules=mypycify({paths!r}, opt_level="3"),
)
"""


def _check_toolchain() -> None:
    """Raise :class:`NativeBuildError` naming what is missing to build: mypyc, a C compiler,
    the Python headers."""
    import shlex
    import shutil
    import sysconfig

    if importlib.util.find_spec("mypyc") is None:
        raise NativeBuildError("mypyc is not installed (it comes with mypy: pip install mypy)")
    # setuptools compiles with $CC when it is set, else with the compiler Python was built with
    chosen = os.environ.get("CC") or str(sysconfig.get_config_var("CC") or "cc")
    compiler = shlex.split(chosen)[:1] or ["cc"]
    if shutil.which(compiler[0]) is None:
        raise NativeBuildError(f"no C compiler: {compiler[0]} is not on PATH")
    headers = Path(sysconfig.get_paths()["include"]) / "Python.h"
    if not headers.is_file():
        raise NativeBuildError(f"the Python headers are missing: no {headers}")


def _snapshot(into: Path) -> Path:
    """Copy the ``hegemon`` package's top (its ``__init__``) and ``hegemon.referee``'s sources
    into ``into``, as mypyc will read them; returns the copy of the referee's folder. The build
    is stamped with this copy's digest, so an edit made during the build makes it stale."""
    import shutil

    top = into / "hegemon"
    top.mkdir(parents=True)
    for name in ("__init__.py", "py.typed"):
        if (SOURCES.parent / name).is_file():
            shutil.copy2(SOURCES.parent / name, top / name)
    referee = top / "referee"
    shutil.copytree(
        SOURCES,
        referee,
        ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyc", "data", "node_modules"),
    )
    return referee


def _run_logged(command: list[str], cwd: Path, log: Path, quiet: bool) -> int:
    """Run ``command`` in ``cwd`` with its output into ``log`` (and to stderr unless
    ``quiet``); its exit code."""
    import subprocess

    with open(log, "w", encoding="utf-8") as out:
        out.write(f"$ cd {cwd} && {' '.join(command)}\n")
        out.flush()
        proc = subprocess.Popen(
            command,
            cwd=cwd,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            text=True,
            errors="replace",
        )
        assert proc.stdout is not None
        for line in proc.stdout:
            out.write(line)
            if not quiet:
                sys.stderr.write(line)
        return proc.wait()


def build(quiet: bool = True, log: Path | None = None) -> Path:
    """Compile :data:`COMPILED` with mypyc in a temporary folder and put the result in
    :data:`BUILD_DIR` (replacing an older build whole; the stamp is written last); returns the
    folder. The compiler's output goes to ``log`` (default: ``build.log`` next to the build
    folder), and to stderr too unless ``quiet``. Raises :class:`NativeBuildError`."""
    import shutil
    import tempfile

    _check_toolchain()
    root = BUILD_DIR.parent
    root.mkdir(parents=True, exist_ok=True)
    log = log if log is not None else root / "build.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="hegemon-native-") as work_name:
        work = Path(work_name)
        src = work / "src"
        referee = _snapshot(src)
        digest = source_digest(referee)
        paths = [f"hegemon/referee/{name}.py" for name in COMPILED]
        (src / "setup.py").write_text(SETUP.format(paths=paths), encoding="utf-8")
        # an empty configuration in the folder mypy starts in: no user's or project's settings
        (src / "mypy.ini").write_text("[mypy]\n", encoding="utf-8")
        out = work / "out"
        command = [
            sys.executable,
            "setup.py",
            "build_ext",
            "--build-lib",
            str(out),
            "--build-temp",
            str(work / "temp"),
        ]
        code = _run_logged(command, src, log, quiet)
        if code != 0:
            raise NativeBuildError(f"mypyc failed (exit code {code}); its output is in {log}")
        groups = sorted(out.glob(f"*{GROUP_MARK}{SUFFIX}"))
        missing = [name for name in COMPILED if not module_file(out, name).is_file()]
        if len(groups) != 1 or missing:
            raise NativeBuildError(
                f"mypyc made {len(groups)} shared libraries and not the modules {missing};"
                f" its output is in {log}"
            )
        staging = Path(tempfile.mkdtemp(prefix=f".{BUILD_DIR.name}.new-", dir=root))
        try:
            staging.chmod(0o755)  # mkdtemp's is 0700: readable like the rest of the environment
            shutil.copy2(groups[0], staging / groups[0].name)
            for name in COMPILED:
                module_file(staging, name).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(module_file(out, name), module_file(staging, name))
            (staging / STAMP).write_text(digest + "\n", encoding="ascii")
            _replace(staging, BUILD_DIR)
        except BaseException:
            shutil.rmtree(staging, ignore_errors=True)
            raise
    return BUILD_DIR


def _replace(new: Path, target: Path) -> None:
    """Put the folder ``new`` at ``target`` by renames: a reader sees the old build, none, or
    the new one, never a part of one."""
    import shutil
    import tempfile

    old = Path(tempfile.mkdtemp(prefix=f".{target.name}.old-", dir=target.parent))
    old.rmdir()
    try:
        target.rename(old)
    except FileNotFoundError:
        pass  # no build yet
    try:
        new.rename(target)
    except OSError:
        if not target.is_dir():
            raise
        shutil.rmtree(new)  # a build running at the same time put its own in place first
    shutil.rmtree(old, ignore_errors=True)
