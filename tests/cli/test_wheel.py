"""The wheel a user installs: built with ``pip wheel``, installed into a fresh environment
outside the checkout, it plays a game with the node sample and a bot made by
``hegemon new --lang node`` (both need the protocol's ``bot.proto`` from the installed tree)."""

from __future__ import annotations

import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

from hegemon.leaderboard.cli.new import npm_install

ROOT = Path(__file__).resolve().parent.parent.parent
NODE_SAMPLE = "hegemon/sample_bots/node/"
# what the build needs of the checkout (its caches, environments and build output are left out;
# the node sample's node_modules is copied, to show that the wheel leaves it out)
NOT_SOURCE = shutil.ignore_patterns(
    ".git", ".venv", "build", "*.egg-info", "__pycache__", ".*_cache", "records"
)

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("npm") is None, reason="npm is not installed"),
]


def run(argv: list[str | Path], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(a) for a in argv], cwd=cwd, capture_output=True, text=True, timeout=600
    )


def build_wheel(tmp_path: Path) -> Path:
    """The wheel of a copy of the checkout (the build writes its egg-info beside the source)."""
    source, dist = tmp_path / "source", tmp_path / "dist"
    shutil.copytree(ROOT, source, symlinks=True, ignore=NOT_SOURCE)
    argv = [sys.executable, "-m", "pip", "wheel", ".", "--no-deps", "--no-build-isolation"]
    built = run([*argv, "-w", dist], cwd=source)
    assert built.returncode == 0, built.stdout + built.stderr
    (wheel,) = dist.glob("hegemon-*.whl")
    return wheel


def fresh_environment(folder: Path, wheel: Path) -> Path:
    """A new virtualenv with ``wheel`` installed; its site-packages. It borrows the
    dependencies of this checkout's environment through a ``.pth`` line (the .pth files there,
    the editable install's among them, are not read: ``hegemon`` comes from the wheel)."""
    made = run([sys.executable, "-m", "venv", "--without-pip", folder], cwd=folder.parent)
    assert made.returncode == 0, made.stderr
    python = folder / "bin" / "python"
    asked = run([python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"], folder)
    site = Path(asked.stdout.strip())
    (site / "borrowed.pth").write_text(sysconfig.get_path("purelib") + "\n", encoding="utf-8")
    installed = run([python, "-m", "pip", "install", "--no-deps", "--quiet", wheel], folder)
    assert installed.returncode == 0, installed.stdout + installed.stderr
    return site


@pytest.mark.slow
def test_the_installed_wheel_plays_the_node_sample_and_a_new_node_bot(tmp_path):
    wheel = build_wheel(tmp_path)
    names = zipfile.ZipFile(wheel).namelist()
    assert "hegemon/protos/hegemon/v1/bot.proto" in names
    sample = sorted(n.removeprefix(NODE_SAMPLE) for n in names if n.startswith(NODE_SAMPLE))
    assert sample == ["README.md", "bot.js", "health.proto", "package-lock.json", "package.json"]
    assert not [n for n in names if "node_modules" in n]

    site = fresh_environment(tmp_path / "fresh", wheel)
    hegemon = tmp_path / "fresh" / "bin" / "hegemon"
    where = run(
        [tmp_path / "fresh" / "bin" / "python", "-c", "import hegemon; print(hegemon.__file__)"],
        tmp_path,
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
