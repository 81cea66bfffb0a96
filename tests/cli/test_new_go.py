"""``hegemon new --lang go``: the Go starter kit builds with Debian's Go packages (offline) and
plays in the sandbox with no fault: no refused answer either, since it answers from the legal
answers it asks for, Risiko! Master's narrower card sets and attacks included."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from hegemon.leaderboard.cli.new import GO_TOOLS

HEGEMON = str(Path(sys.executable).parent / "hegemon")
DEBIAN_GRPC = Path("/usr/share/gocode/src/google.golang.org/grpc")

needs_go = pytest.mark.skipif(
    any(shutil.which(tool) is None for tool in GO_TOOLS) or not DEBIAN_GRPC.is_dir(),
    reason="Go, protoc, its Go plugins or Debian's Go gRPC library is not installed "
    "(scripts/system-packages installs them)",
)


def hegemon(
    *args: str, cwd: Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [HEGEMON, *args], cwd=cwd, capture_output=True, text=True, timeout=600, env=env
    )


@pytest.fixture(scope="module")
def gopher(tmp_path_factory) -> Path:
    """A Go bot made and built by ``hegemon new gopher --lang go``: its folder."""
    work = tmp_path_factory.mktemp("go")
    made = hegemon("new", "gopher", "--lang", "go", cwd=work)
    assert made.returncode == 0, made.stdout + made.stderr
    assert "built ./bot" in made.stdout, made.stdout
    return work / "gopher"


def play(bot: Path, preset: str, work: Path) -> tuple[list[dict], str]:
    """A short game of ``bot`` against two sample bots in the sandbox: the record's lines and
    the Go bot's log."""
    record = work / "game.jsonl"
    played = hegemon(
        "play", "--rules", preset, "--bot", str(bot), "--bot", "random", "--bot", "planner",
        "--set", "turn_limit=3", "--seed", "5", "--record", str(record),
        "--log-dir", str(work / "logs"), cwd=work,
    )  # fmt: skip
    assert played.returncode == 0, played.stdout + played.stderr
    lines = [json.loads(line) for line in record.read_text().splitlines()]
    assert lines[0]["sandbox"] == "bubblewrap"
    return lines, (work / "logs" / "seat-0.log").read_text()


@needs_go
@pytest.mark.slow
@pytest.mark.parametrize("preset", ["classic", "risiko-master-master"])
def test_a_new_go_bot_plays_in_the_sandbox_with_no_fault(gopher, tmp_path, preset):
    lines, _ = play(gopher, preset, tmp_path)
    assert lines[0]["seats"][0] == "gopher"  # the name main.go says in Hello
    assert [line for line in lines if line["type"] == "fault"] == []  # not even a strike
    assert any(line["type"] == "action" and line["player"] == 0 for line in lines)
    # its notes on its own placements and attacks, as main.go writes them
    notes = [line for line in lines if line["type"] == "note" and line["seat"] == 0]
    assert any("enemy neighbours" in note["text"] for note in notes), notes


@needs_go
@pytest.mark.slow
def test_the_go_bot_checks_its_answers_against_the_legal_ones(gopher, tmp_path):
    """An author's change that attacks illegally costs no strike: checked() sends the default
    (pass) instead and says so in the bot's log."""
    broken = tmp_path / "broken"
    shutil.copytree(gopher, broken)
    source = (broken / "main.go").read_text()
    case = "\tcase DecisionKind_DECISION_KIND_ATTACK:\n"
    illegal = (
        "\t\treturn &Action{Kind: &Action_Attack{Attack: &Attack{Source: 0, Target: 0, Dice: 9}}}\n"
    )
    assert case in source
    (broken / "main.go").write_text(source.replace(case, case + illegal))
    built = subprocess.run(["./build.sh"], cwd=broken, capture_output=True, text=True, timeout=600)
    assert built.returncode == 0, built.stderr
    lines, log = play(broken, "classic", tmp_path)
    assert [line for line in lines if line["type"] == "fault"] == []
    assert "is illegal (not a legal attack): sending the default" in log


@needs_go
@pytest.mark.slow
def test_a_new_go_bot_passes_the_check(gopher):
    check = hegemon("bot", "check", ".", cwd=gopher)
    assert check.returncode == 0, check.stdout + check.stderr
    assert "check passed" in check.stdout


def test_without_go_the_kit_is_written_and_says_what_is_missing(tmp_path):
    bare = {**os.environ, "PATH": str(tmp_path / "nothing")}  # no go, no protoc
    made = hegemon("new", "gopher", "--lang", "go", cwd=tmp_path, env=bare)
    assert made.returncode == 0, made.stderr
    assert "not built: go, protoc" in made.stdout
    assert "./build.sh && hegemon bot check ." in made.stdout
    folder = tmp_path / "gopher"
    assert sorted(p.name for p in folder.iterdir()) == [
        "README.md", "bot.proto", "build.sh", "go.mod", "main.go",
    ]  # fmt: skip
    assert 'botName    = "gopher"' in (folder / "main.go").read_text()
    assert os.access(folder / "build.sh", os.X_OK)
    assert (folder / "bot.proto").read_text() == (
        Path(__file__).resolve().parents[2] / "protos" / "hegemon" / "v1" / "bot.proto"
    ).read_text()
