"""The wheel a user installs: built with ``pip wheel`` (setup.py compiles the rules engine with
mypyc), installed into a fresh environment outside the checkout, it runs the compiled engine and
writes main's records, and it plays a game with the node sample and a bot made by
``hegemon new --lang node`` (both need the protocol's ``bot.proto`` from the installed tree).

A compiled build takes minutes on two cores: the module shares one wheel, the one
``scripts/bootstrap`` built and kept in the environment (hegemon.referee.native) when it is of
exactly this checkout's files, else one built here."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

from hegemon.leaderboard.cli.new import npm_install
from hegemon.referee import native
from hegemon.referee.native.build import kept_wheel

ROOT = Path(__file__).resolve().parent.parent.parent
NODE_SAMPLE = "hegemon/sample_bots/node/"
# what the build needs of the checkout (its caches, environments and build output are left out;
# the node sample's node_modules is copied, to show that the wheel leaves it out)
NOT_SOURCE = shutil.ignore_patterns(
    ".git", ".venv", "build", "*.egg-info", "__pycache__", ".*_cache", "records"
)

DIGESTS = ROOT / "scripts" / "record-digests"
# In the fresh environment: which engine runs, from where, and the digests of classic's games as
# scripts/record-digests plays them (a copy of it, away from the checkout, imports the wheel).
PLAY = """
import json, sys
from importlib.machinery import SourceFileLoader
from importlib.util import module_from_spec, spec_from_loader
import hegemon.referee.game
from hegemon.referee import native
loader = SourceFileLoader("record_digests", sys.argv[1])
digests = module_from_spec(spec_from_loader(loader.name, loader))
loader.exec_module(digests)
played = {f"{s} {n}": digests.digest("classic", s, n) for s, n in digests.GAMES}
print(json.dumps({"status": native.status(), "game": hegemon.referee.game.__file__,
                  "digests": played}))
"""

pytestmark = pytest.mark.slow


def run(argv: list[str | Path], cwd: Path) -> subprocess.CompletedProcess[str]:
    """``argv`` as a user runs it: nothing of the checkout on the path, no engine switch."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", native.ENV)}
    return subprocess.run(
        [str(a) for a in argv], cwd=cwd, env=env, capture_output=True, text=True, timeout=900
    )


def of_this_checkout(wheel: Path) -> bool:
    """Whether every file the wheel holds of the package is the checkout's, byte for byte, and
    the checkout has no module the wheel lacks (its compiled modules aside)."""
    with zipfile.ZipFile(wheel) as archive:
        members = [n for n in archive.namelist() if n.startswith("hegemon/")]
        for name in members:
            if not name.endswith(native.SUFFIX) and (
                not (ROOT / name).is_file() or archive.read(name) != (ROOT / name).read_bytes()
            ):
                return False
    modules = {
        str(path.relative_to(ROOT))
        for path in (ROOT / "hegemon").glob("*/**/*.py")
        if "node_modules" not in path.parts and "__pycache__" not in path.parts
    }
    return modules <= set(members)


def build_wheel(tmp_path: Path) -> Path:
    """The wheel of a copy of the checkout (the build writes its egg-info beside the source)."""
    source, dist = tmp_path / "source", tmp_path / "dist"
    shutil.copytree(ROOT, source, symlinks=True, ignore=NOT_SOURCE)
    argv = [sys.executable, "-m", "pip", "wheel", ".", "--no-deps", "--no-build-isolation"]
    built = run([*argv, "-w", dist], cwd=source)
    assert built.returncode == 0, built.stdout + built.stderr
    (wheel,) = dist.glob("hegemon-*.whl")
    return wheel


def site_of(folder: Path) -> Path:
    """The site-packages of the virtualenv in ``folder``."""
    python = folder / "bin" / "python"
    asked = run([python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"], folder)
    return Path(asked.stdout.strip())


def fresh_environment(folder: Path, wheel: Path) -> Path:
    """A new virtualenv with ``wheel`` installed; its site-packages. It borrows the
    dependencies of this checkout's environment through a ``.pth`` line per site folder (the
    .pth files there, the editable install's among them, are not read: ``hegemon`` comes from
    the wheel)."""
    made = run([sys.executable, "-m", "venv", "--without-pip", folder], cwd=folder.parent)
    assert made.returncode == 0, made.stderr
    site = site_of(folder)
    borrowed = [p for p in sys.path if p.endswith("site-packages")] or [
        sysconfig.get_path("purelib")
    ]
    (site / "borrowed.pth").write_text("\n".join(borrowed) + "\n", encoding="utf-8")
    python = folder / "bin" / "python"
    installed = run([python, "-m", "pip", "install", "--no-deps", "--quiet", wheel], folder)
    assert installed.returncode == 0, installed.stdout + installed.stderr
    return site


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """This checkout's wheel, built once (or by scripts/bootstrap)."""
    kept = kept_wheel()
    if kept is not None and of_this_checkout(kept):
        return kept
    return build_wheel(tmp_path_factory.mktemp("wheel"))


@pytest.fixture(scope="module")
def installed(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh environment with the wheel installed; its folder."""
    folder = tmp_path_factory.mktemp("installed") / "fresh"
    fresh_environment(folder, wheel)
    return folder


def test_the_installed_wheel_runs_the_compiled_engine_and_writes_mains_records(
    wheel, installed, tmp_path
):
    names = zipfile.ZipFile(wheel).namelist()
    for name in native.COMPILED:
        assert native.module_path(name).removesuffix(".py") + native.SUFFIX in names, name
        assert native.module_path(name) in names  # the sources too, as mypy's wheel has them
    assert native.GROUP + native.SUFFIX in names
    script = tmp_path / "scripts" / "record-digests"
    script.parent.mkdir()
    shutil.copy2(DIGESTS, script)  # away from the checkout: it puts its own root on the path
    done = run([installed / "bin" / "python", "-c", PLAY, script], tmp_path)
    assert (done.returncode, done.stderr) == (0, ""), done.stderr
    out = json.loads(done.stdout)
    assert out["status"] == "compiled (mypyc)"
    assert out["game"].startswith(str(installed)) and out["game"].endswith(native.SUFFIX)
    stored = (ROOT / "tests" / "records" / "digests.txt").read_text(encoding="utf-8")
    expected = {
        f"{seed} {limit}": digest
        for preset, seed, limit, digest in (line.split() for line in stored.splitlines())
        if preset == "classic"
    }
    assert out["digests"] == expected


@pytest.mark.skipif(shutil.which("npm") is None, reason="npm is not installed")
def test_the_installed_wheel_plays_the_node_sample_and_a_new_node_bot(wheel, installed, tmp_path):
    names = zipfile.ZipFile(wheel).namelist()
    assert "hegemon/protos/hegemon/v1/bot.proto" in names
    sample = sorted(n.removeprefix(NODE_SAMPLE) for n in names if n.startswith(NODE_SAMPLE))
    assert sample == ["README.md", "bot.js", "health.proto", "package-lock.json", "package.json"]
    assert not [n for n in names if "node_modules" in n]

    site = site_of(installed)
    hegemon = installed / "bin" / "hegemon"
    where = run(
        [installed / "bin" / "python", "-c", "import hegemon; print(hegemon.__file__)"], tmp_path
    )
    assert Path(where.stdout.strip()) == site / "hegemon" / "__init__.py", where.stderr

    work = tmp_path / "work"
    work.mkdir()
    play = [hegemon, "play", "--rules", "classic", "--set", "turn_limit=5", "--quiet"]
    # the installed sample has no packages yet: one line that says what to do
    refused = run([*play, "--bot", "node", "--bot", "random", "--bot", "random"], work)
    assert refused.returncode != 0
    assert "npm ci" in refused.stderr and len(refused.stderr.strip().splitlines()) == 1, (
        refused.stderr
    )
    installed = npm_install(site / "hegemon" / "sample_bots" / "node")
    assert installed == "packages installed (npm ci)", installed

    made = run([hegemon, "new", "nodey", "--lang", "node"], work)
    assert made.returncode == 0, made.stdout + made.stderr
    assert "packages installed" in made.stdout, made.stdout

    game = run([*play, "--bot", "node", "--bot", "nodey", "--bot", "random"], work)
    assert game.returncode == 0, game.stdout + game.stderr
    table = [line.split("│")[1:-1] for line in game.stdout.splitlines() if line.startswith("│")]
    seats = {cells[1].strip(): cells[-1].strip() for cells in table}
    assert seats == {"node-sample": "0", "nodey": "0", "random": "0"}, game.stdout
