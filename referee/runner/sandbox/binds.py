"""What a bot sees: the host paths bound (read-only unless shared) into its sandbox."""

from __future__ import annotations

import importlib.util
import os
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

SYSTEM_TOP = ("usr", "bin", "sbin", "lib", "lib32", "lib64", "libx32")
_PACKAGES = (
    "hegemon",
    "hegemon.sdk",
    "hegemon.referee",
    "hegemon.sample_bots",
    "grpc",
    "google",
)


def real(path: Path | str) -> Path:
    """``path`` made absolute with every link resolved."""
    return Path(os.path.realpath(os.path.abspath(os.fspath(path))))


def is_within(path: Path, folder: Path) -> bool:
    """Is ``path`` the folder itself or below it?"""
    return path == folder or folder in path.parents


def is_system(path: Path) -> bool:
    """Does ``path`` lie under a system folder every sandbox binds anyway (``/usr``, …)?"""
    parts = path.parts
    return len(parts) > 1 and parts[1] in SYSTEM_TOP


def protected_paths() -> list[Path]:
    """Folders and files no bot may see; a folder that contains one is never bound whole."""
    found = [Path("/"), Path.home()]
    home = os.environ.get("HEGEMON_HOME", "").strip()
    found.append(Path(home or "~/.hegemon").expanduser())
    db = os.environ.get("HEGEMON_DB", "").strip()
    if db and "://" not in db:
        found.append(Path(db).expanduser())
    elif db.startswith("sqlite:///"):
        found.append(Path(db[len("sqlite:///") :]).expanduser())
    return [real(p) for p in found]


def _safe_folder(folder: Path, protected: Sequence[Path]) -> bool:
    """May ``folder`` be bound whole? Not if it is, or contains, a protected path."""
    return not any(is_within(p, folder) for p in protected)


def _package_dirs(names: Iterable[str]) -> list[Path]:
    dirs: list[Path] = []
    for name in names:
        try:
            spec = importlib.util.find_spec(name)
        except (ImportError, ValueError):
            spec = None
        if spec is not None and spec.submodule_search_locations:
            dirs.extend(real(p) for p in spec.submodule_search_locations)
    return dirs


def _site_folder(package: Path) -> Path:
    """The site-packages folder on ``sys.path`` that holds ``package``, else ``package``: what
    the SDK's packages import lies beside them (grpc needs ``typing_extensions``), also where
    that folder is not the virtualenv's (``pip install --user``, a ``.pth`` line)."""
    folder = package.parent
    on_path = {real(entry) for entry in sys.path if entry}
    if folder.name in ("site-packages", "dist-packages") and folder in on_path:
        return folder
    return package


def project_root() -> Path:
    """The checkout (or installed tree) holding ``referee/`` and ``protos/``."""
    return real(Path(__file__)).parents[3]


def is_python(program: Path) -> bool:
    """Is ``program`` the referee's Python (the bot then needs its prefix, the virtualenv and
    the SDK)? A bare ``python3`` is taken for it; another interpreter by its full path (the
    system's ``/usr/bin/python3``) is not: it brings what it needs itself."""
    if not program.is_absolute():
        return program.name.startswith("python")
    found = real(program)
    prefixes = {real(sys.prefix), real(sys.base_prefix)}
    return found == real(sys.executable) or any(is_within(found, p) for p in prefixes)


def shebang(path: Path) -> list[str]:
    """The words of a script's ``#!`` line (``["/usr/bin/env", "ruby"]``), or ``[]``."""
    try:
        with open(path, "rb") as f:
            head = f.read(256)
    except OSError:
        return []
    if not head.startswith(b"#!"):
        return []
    return head[2:].split(b"\n")[0].decode("utf-8", "replace").split()


def interpreter_of(program: Path) -> Path:
    """What really runs for ``program``: the interpreter its ``#!`` line names (the bot's own
    virtualenv's Python, say, which its sandbox must then show it), else ``program`` itself."""
    words = shebang(program) if program.is_absolute() else []
    return Path(words[0]) if words and Path(words[0]).name != "env" else program


@dataclass
class BindPlan:
    """Host paths bound into a bot's sandbox (same path inside), and where it starts."""

    read_only: list[Path] = field(default_factory=list)
    writable: list[Path] = field(default_factory=list)
    chdir: str = "/tmp"
    notes: list[str] = field(default_factory=list)

    def add(self, path: Path, writable: bool = False) -> None:
        """Bind ``path`` (once; system folders are bound anyway)."""
        path = real(path)
        target = self.writable if writable else self.read_only
        if path not in target and not is_system(path):
            target.append(path)


def bind_plan(argv: Sequence[str], cwd: str | None, share: Sequence[str] = ()) -> BindPlan:
    """What a bot started as ``argv`` in ``cwd`` needs to see: system folders (``/usr``, a few
    files of ``/etc``), its own folder (the working directory and the files named on its
    command line), the interpreter (for a Python bot: its prefix, the virtualenv and the SDK's
    packages) and the protocol's ``protos/`` — nothing of the database, the records, other
    bots, the referee's files or anyone's home."""
    plan = BindPlan()
    protected = protected_paths()
    program = Path(argv[0]) if argv else Path("/nonexistent")
    script = program
    program = interpreter_of(program)
    if script != program:
        _add_argument(plan, script, protected)
    if is_python(program):
        # the interpreter's prefix (pyenv: under root's 0700 home), the virtualenv, the SDK
        plan.add(Path(sys.base_prefix))
        if sys.prefix != sys.base_prefix:
            plan.add(Path(sys.prefix))
        for folder in map(_site_folder, _package_dirs(_PACKAGES)):
            if not any(is_within(folder, p) for p in plan.read_only):
                plan.add(folder)
    elif program.is_absolute() and program.exists():
        found = real(program)
        if not is_system(found):
            folder = found.parent
            plan.add(folder if _safe_folder(folder, protected) else found)
    protos = project_root() / "protos"
    if protos.is_dir():
        plan.add(protos)
    for arg in argv[1:]:
        _add_argument(plan, Path(arg), protected)
    if cwd:
        folder = real(cwd)
        if _safe_folder(folder, protected):
            plan.add(folder)
        else:
            plan.notes.append(f"{folder} holds private data: the bot does not see it")
        plan.chdir = str(folder)
    for path in share:
        plan.add(Path(path), writable=True)
    # a folder inside another bound one is already visible
    plan.read_only = [
        p for p in plan.read_only if not any(q != p and is_within(p, q) for q in plan.read_only)
    ]
    return plan


def _add_argument(plan: BindPlan, path: Path, protected: Sequence[Path]) -> None:
    """A file or folder named on the command line: its folder, or just itself where the folder
    holds private data."""
    if not path.is_absolute() or not path.exists():
        return
    found = real(path)
    if is_system(found) or any(is_within(found, p) for p in plan.read_only):
        return
    if found.is_dir():
        if _safe_folder(found, protected):
            plan.add(found)
        return
    folder = found.parent
    if _safe_folder(folder, protected):
        plan.add(folder)
    else:
        plan.add(found)
        plan.notes.append(f"{folder} holds private data: only {found.name} is visible")
