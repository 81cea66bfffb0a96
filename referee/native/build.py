"""A checkout's compiled engine: the wheel of a snapshot of the checkout, built by the build
backend (``setup.py``: mypyc over :data:`~hegemon.referee.native.COMPILED`), kept in the
environment with its extension modules unpacked beside it and stamped with the digest of the
sources they were compiled from. The wheel's build is the one way to the compiled engine; this
module only runs it on a copy of the checkout (nothing is ever written next to the sources) and
puts the result where :func:`hegemon.referee.native.install` looks.
"""

from __future__ import annotations

import importlib.util
import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import zipfile
from pathlib import Path

from . import BUILD_DIR, COMPILED, GROUP, SOURCES, STAMP, SUFFIX, module_path, source_digest

PROJECT = Path(SOURCES).parent.parent
"""The checkout: the folder above ``hegemon/`` (in an installed wheel there is none to build)."""

PROJECT_FILES = ("pyproject.toml", "setup.py", "README.md", "hegemon")
"""What the wheel's build reads of the checkout: its configuration, the readme named in
``pyproject.toml``, and the package (``hegemon/``'s links are followed by the snapshot)."""

NOT_SOURCE = shutil.ignore_patterns("__pycache__", "*.so", "*.pyc", "node_modules", "*.egg-info")

WHEEL = "hegemon-*.whl"


class NativeBuildError(RuntimeError):
    """The compiled engine could not be built (mypyc or a C compiler missing, or it failed);
    the message is one line and names the log when there is one."""


def check_toolchain() -> None:
    """Raise :class:`NativeBuildError` naming what is missing to build: the checkout, mypyc, a
    C compiler, the Python headers."""
    if not (PROJECT / "setup.py").is_file():
        raise NativeBuildError(
            f"no checkout to build at {PROJECT.name}/: an installed wheel carries its own engine"
        )
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


def snapshot(into: Path) -> Path:
    """Copy what the wheel's build reads of the checkout into ``into`` (the links of
    ``hegemon/`` as the folders they point to); returns the copy of ``hegemon.referee``. The
    build is stamped with this copy's digest, so an edit made during the build makes it
    stale."""
    into.mkdir(parents=True, exist_ok=True)
    for name in PROJECT_FILES:
        source = PROJECT / name
        if source.is_dir():
            shutil.copytree(source, into / name, ignore=NOT_SOURCE)
        else:
            shutil.copy2(source, into / name)
    return into / "hegemon" / "referee"


def _run_logged(command: list[str], cwd: Path, log: Path, quiet: bool) -> int:
    """Run ``command`` in ``cwd`` with its output into ``log`` (and to stderr unless
    ``quiet``); its exit code."""
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
            env={**os.environ, "HEGEMON_NATIVE": "1"},
        )
        assert proc.stdout is not None
        for line in proc.stdout:
            out.write(line)
            if not quiet:
                sys.stderr.write(line)
        return proc.wait()


def compiled_members(wheel: Path) -> list[str]:
    """The extension modules the wheel carries, as paths in it (a build folder keeps them at
    the same paths: the shared library at the top, each module beside its source)."""
    wanted = [module_path(name).removesuffix(".py") + SUFFIX for name in COMPILED]
    wanted.append(GROUP + SUFFIX)
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
    return [path for path in wanted if path in names]


def build(quiet: bool = True, log: Path | None = None) -> Path:
    """Build the wheel of a snapshot of the checkout (compiled by ``setup.py``), and put it and
    its extension modules in :data:`BUILD_DIR` (replacing an older build whole; the stamp is
    written last); returns the folder. The build's output goes to ``log`` (default:
    ``build.log`` next to the build folder), and to stderr too unless ``quiet``. Raises
    :class:`NativeBuildError`."""
    check_toolchain()
    target = Path(BUILD_DIR)
    root = target.parent
    root.mkdir(parents=True, exist_ok=True)
    log = log if log is not None else root / "build.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="hegemon-native-") as work_name:
        work = Path(work_name)
        digest = source_digest(snapshot(work / "src"))
        command = [sys.executable, "-m", "pip", "wheel", ".", "--no-deps"]
        command += ["--no-build-isolation", "--no-cache-dir", "-w", str(work / "dist")]
        code = _run_logged(command, work / "src", log, quiet)
        if code != 0:
            raise NativeBuildError(f"the wheel's build failed (exit code {code}); see {log}")
        (wheel,) = (work / "dist").glob(WHEEL)
        members = compiled_members(wheel)
        if len(members) != len(COMPILED) + 1:
            raise NativeBuildError(f"the wheel holds {len(members)} compiled files; see {log}")
        staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.new-", dir=root))
        try:
            staging.chmod(0o755)  # mkdtemp's is 0700: readable like the rest of the environment
            with zipfile.ZipFile(wheel) as archive:
                for member in members:
                    archive.extract(member, staging)
            shutil.copy2(wheel, staging / wheel.name)
            (staging / STAMP).write_text(digest + "\n", encoding="ascii")
            _replace(staging, target)
        except BaseException:
            shutil.rmtree(staging, ignore_errors=True)
            raise
    return target


def kept_wheel(folder: str | os.PathLike[str] = BUILD_DIR) -> Path | None:
    """The wheel a build folder keeps (the one the compiled modules came from), if any."""
    found = sorted(Path(folder).glob(WHEEL))
    return found[0] if found else None


def _replace(new: Path, target: Path) -> None:
    """Put the folder ``new`` at ``target`` by renames: a reader sees the old build, none, or
    the new one, never a part of one."""
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
