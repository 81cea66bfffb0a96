"""The README's and the docs' examples run as printed, from a fresh clone, as a user would.

Every ```bash block of README.md and of every page of docs/ runs, page after page in the order
the docs index (docs/README.md) lists them, in one clone of this working tree placed in a
directory other users cannot enter (mode 0700, also the run's ``$HOME``), with the environment
activated: the blocks are extracted from the pages, so pages and test never drift. A block is
left out only with a ``<!-- readme-test: skip: REASON -->`` line right above it (the test suite
itself, which this test is part of). The clone reuses this checkout's ``.venv`` (a symlink), so
no dependency is installed again.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent
FENCE = re.compile(
    r"(?:<!-- readme-test: skip: (?P<why>[^>]*?) -->\n)?```(?P<lang>[\w-]*)\n(?P<body>.*?)```", re.S
)
SHELLS = ("sh", "shell", "console", "zsh")
INDEX = ROOT / "docs" / "README.md"
LOCAL_PAGE = re.compile(r"\]\((?P<page>[\w-]+\.md)(?:#[^)]*)?\)")


def pages() -> list[Path]:
    """README.md, the docs index, then the docs pages in the order the index links them (a
    page's commands may use what an earlier page's made: the bot author's ``mybot``)."""
    linked = dict.fromkeys(m["page"] for m in LOCAL_PAGE.finditer(INDEX.read_text("utf-8")))
    listed = [INDEX.parent / name for name in linked if (INDEX.parent / name).is_file()]
    return [ROOT / "README.md", INDEX, *listed]


def blocks(lang: str) -> list[tuple[str, str | None]]:
    """Every fenced block in ``lang`` of every page: (its text, why it is skipped or None)."""
    return [
        (m["body"], m["why"])
        for page in pages()
        for m in FENCE.finditer(page.read_text(encoding="utf-8"))
        if m["lang"] == lang
    ]


def python_blocks() -> list[str]:
    return [body for body, _ in blocks("python")]


# ------------------------------------------------------------------------ the fresh clone
def clone_working_tree(target: Path) -> None:
    """``git clone`` of this checkout, then its uncommitted changes and new files: the README
    and the code exactly as they are on disk."""
    subprocess.run(["git", "clone", "-q", "--no-hardlinks", str(ROOT), str(target)], check=True)
    diff = subprocess.run(
        ["git", "-C", str(ROOT), "diff", "HEAD", "--binary"], capture_output=True, check=True
    ).stdout
    if diff:
        subprocess.run(["git", "-C", str(target), "apply", "-"], input=diff, check=True)
    new = subprocess.run(
        ["git", "-C", str(ROOT), "ls-files", "--others", "--exclude-standard", "-z"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    for name in filter(None, new.split("\0")):
        (target / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, target / name)
    (target / ".venv").symlink_to(ROOT / ".venv")


@pytest.fixture(scope="module")
def clone(tmp_path_factory) -> tuple[Path, dict[str, str]]:
    home = tmp_path_factory.mktemp("readme") / "home"
    home.mkdir(mode=0o700)
    home.chmod(0o700)  # whatever the umask: nobody else may enter
    checkout = home / "hegemon"
    clone_working_tree(checkout)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HEGEMON_", "PYTEST_"))}
    venv = checkout / ".venv"
    env.update(
        HOME=str(home),
        VIRTUAL_ENV=str(venv),
        PATH=f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}",
        COLUMNS="80",
        HEGEMON_REUSE_VENV="1",  # the shared .venv stays installed from this checkout
    )
    return checkout, env


def stop_processes_in(folder: Path) -> None:
    """SIGKILL every process of this user whose working folder is in ``folder``."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            cwd = Path(os.readlink(entry / "cwd"))
        except OSError:  # gone, or another user's
            continue
        if cwd == folder or folder in cwd.parents:
            try:
                os.kill(int(entry.name), signal.SIGKILL)
            except OSError:
                pass


# ------------------------------------------------------------------------ the tests
def test_every_docs_page_is_in_the_index_so_its_commands_run():
    listed = set(pages())
    unlisted = [p.name for p in sorted((ROOT / "docs").glob("*.md")) if p not in listed]
    assert not unlisted, f"link these pages from docs/README.md: {unlisted}"


def test_every_shell_block_is_a_bash_block_and_skips_say_why():
    for page in pages():
        text = page.read_text(encoding="utf-8")
        for lang in SHELLS:
            assert f"```{lang}\n" not in text, (
                f"{page.name}: a ```{lang} block would escape this test"
            )
    skipped = [why for _, why in blocks("bash") if why is not None]
    assert len(skipped) <= 2 and all(why.strip() for why in skipped), skipped
    assert len(blocks("bash")) - len(skipped) >= 4


# the whole journey (a demo season, a bench until its SPRT decides, a season) took 11 minutes at
# load 14 on two cores, beyond the suite's 10-minute default
@pytest.mark.timeout(1800)
@pytest.mark.slow
def test_every_bash_block_runs_from_a_fresh_private_clone(clone):
    checkout, env = clone
    assert (checkout.parent.stat().st_mode & 0o777) == 0o700
    said = []
    try:
        for body, why in blocks("bash"):
            if why is not None:
                continue
            done = subprocess.run(
                ["bash", "-euo", "pipefail", "-c", body],
                cwd=checkout,
                env=env,
                capture_output=True,
                text=True,
                timeout=1200,
            )
            failed = f"docs block failed:\n{body}\n{done.stdout}\n{done.stderr}"
            assert done.returncode == 0, failed
            said.append(done.stdout)
    finally:
        # a guide's block may start a server in the background and a later one stop it: when
        # a block fails in between, nothing would, and it would outlive the test
        stop_processes_in(checkout)
    out = "\n".join(said)
    # what the pages say these commands do
    assert "classic-2004" in out and "golden_cavalry" in out  # the README's hegemon rules
    assert "2 passed" in out  # hegemon new's bot passes its own tests
    assert (checkout / "docs" / "api" / "hegemon" / "sdk.html").is_file()
    assert "OK, matches" in out  # verify
    assert "check passed" in out  # bot check
    assert "registered mybot v1" in out or "already registered as mybot" in out
    assert "H1 accepted" in out  # bench: the starter bot beats random
    assert "spring" in out and "planner" in out  # season status, the leaderboard
    assert (checkout / "site" / "index.html").is_file()
    assert (checkout / "game.html").is_file()


def test_readme_engine_example_plays_both_presets_to_the_end():
    block = next(b for b in python_blocks() if "def play(" in b)
    out = subprocess.run(
        [sys.executable, "-c", block], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert [line.split()[0] for line in lines] == ["classic", "classic-2004"]
    for line in lines:
        places = eval(line.split(" ", 1)[1])  # a tuple of places printed by the example
        assert sorted(places)[0] == 1 and len(places) == 4


def test_readme_play_local_example_finishes():
    block = next(b for b in python_blocks() if "play_local(" in b)
    out = subprocess.run(
        [sys.executable, "-c", block], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert out.returncode == 0, out.stderr
    places = eval(out.stdout.split(")")[0] + ")")  # the tuple of places it prints first
    assert sorted(places) == [1, 2, 3] and out.stdout.rstrip().endswith("[]")  # no faults


def test_the_guides_minimal_bot_is_the_tested_sample_and_under_30_lines():
    minimal = (ROOT / "sample_bots" / "minimal.py").read_text(encoding="utf-8")
    assert minimal in python_blocks()
    assert len(minimal.strip().splitlines()) < 30
