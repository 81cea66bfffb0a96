"""Every bot form runs as written, in ``play``, ``bot check`` and ``bot add`` alike: a ``.py``
file, a folder, a ``.js`` file, a quoted command with relative paths, ``host:port`` and a
sample bot's name — real processes in the real sandbox, short games.

``tests/bots/forms/pyfolder`` holds ``random.py`` and ``json.py`` that raise when imported: a
bot's own files must never hide the standard library (they did when the bot's folder came first
on ``sys.path``), and its own ``helper.py`` must still import.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hegemon.leaderboard.botspec import resolve_spec, runnable_argv
from hegemon.leaderboard.cli import app as APP
from hegemon.leaderboard.registry import check, find_source

ROOT = Path(__file__).resolve().parent.parent.parent
NODE_DIR = ROOT / "sample_bots" / "node"
HAS_NODE = shutil.which("node") is not None and (NODE_DIR / "node_modules" / "@grpc").is_dir()
needs_node = pytest.mark.skipif(not HAS_NODE, reason="node or the node bot's packages missing")

PY_FORMS = {
    "py-file": "sample_bots/minimal.py",
    "folder": "tests/bots/forms/pyfolder",
    "python-command": "python tests/bots/forms/pyfolder/bot.py",
    "sample": "planner",
}
NODE_FORMS = {
    "js-file": "sample_bots/node/bot.js",
    "node-folder": "sample_bots/node/",
    "node-command": "node sample_bots/node/bot.js",
}


def forms(*node: str, python: tuple[str, ...] = tuple(PY_FORMS)) -> list:
    """The Python forms named, and the node forms named (each copies 14 MB of node_modules)."""
    return [
        *(pytest.param(PY_FORMS[name], id=name) for name in python),
        *(pytest.param(NODE_FORMS[name], id=name, marks=needs_node) for name in node),
    ]


runner = CliRunner()


def run(*args: str):
    return runner.invoke(APP, [str(a) for a in args], catch_exceptions=False)


@pytest.fixture(autouse=True)
def in_checkout(tmp_path, monkeypatch):
    """Relative paths are the user's: run every command from the checkout, with a private
    arena home."""
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("HEGEMON_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("HEGEMON_DB", raising=False)
    monkeypatch.setenv("COLUMNS", "200")
    monkeypatch.setattr(check, "CHECK_TURN_LIMIT", 2)  # the same check game, shorter


@pytest.fixture(scope="module")
def remote_bot():
    """A sample bot the test starts itself on TCP (outside any sandbox): ``host:port``."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    proc = subprocess.Popen(
        [sys.executable, "-m", "hegemon.sample_bots.random", "--address", f"127.0.0.1:{port}"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        while proc.poll() is None:
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", port)) == 0:
                    break
        assert proc.poll() is None, "the remote bot did not start"
        yield f"127.0.0.1:{port}"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_a_bots_own_files_never_hide_the_standard_library():
    spec = resolve_spec("tests/bots/forms/pyfolder")
    argv = spec.command().argv
    assert argv[1] == "-P"  # nothing of the bot's folder comes first on sys.path
    assert spec.folder == ROOT / "tests" / "bots" / "forms" / "pyfolder"
    assert spec.command().cwd == str(spec.folder)


@pytest.mark.parametrize(
    "spec", [*PY_FORMS.values(), *NODE_FORMS.values(), "tests/bots/forms/pyfolder/"]
)
def test_check_and_add_resolve_like_play(spec):
    """One resolver: the command stored for ``bot add`` is the one ``play`` runs."""
    found = resolve_spec(spec)
    source = find_source(spec)
    if found.sample is None:
        assert source.command == found.argv
        assert runnable_argv(source.command, found.folder) == found.command().argv


def test_a_quoted_command_runs_in_the_bots_folder():
    spec = resolve_spec("node sample_bots/node/bot.js")
    assert spec.folder == NODE_DIR
    assert spec.argv == ("node", "bot.js")
    assert spec.command().cwd == str(NODE_DIR)


def test_every_form_plays_a_game_labelled_by_hello_names(tmp_path, remote_bot):
    forms = ["sample_bots/minimal.py", "tests/bots/forms/pyfolder", remote_bot, "random"]
    if HAS_NODE:
        forms[3:3] = ["sample_bots/node/bot.js", "node sample_bots/node/bot.js"]
    record = tmp_path / "game.jsonl"
    args = [x for spec in forms for x in ("--bot", spec)]
    out = run("play", *args, "--set", "turn_limit=3", "--record", record, "-q")
    assert out.exit_code == 0, out.output
    head = json.loads(record.read_text().splitlines()[0])
    expected = ["minimal", "pyfolder", "random#1", "random#2"]
    if HAS_NODE:
        expected[3:3] = ["node-sample#1", "node-sample#2"]
    assert head["seats"] == expected
    assert '"type":"fault"' not in record.read_text()
    logs = sorted(p.name for p in (tmp_path / "game.logs").iterdir())
    assert logs == [f"seat-{i}.log" for i in range(len(forms)) if forms[i] != remote_bot]


@pytest.mark.parametrize("spec", forms("js-file"))
def test_every_form_passes_bot_check(spec):
    out = run("bot", "check", spec)
    assert out.exit_code == 0, out.output
    assert "check passed" in out.output


def test_a_remote_bot_is_checked_but_never_registered(remote_bot):
    assert run("bot", "check", remote_bot).exit_code == 0
    out = run("bot", "add", "far", remote_bot)
    assert out.exit_code == 2
    assert "cannot be registered" in out.output


@pytest.mark.parametrize(
    "spec", forms("node-folder", python=("py-file", "folder", "python-command"))
)
def test_every_form_registers_and_runs_from_its_copy(spec, tmp_path):
    out = run("bot", "add", "mine", spec)
    assert out.exit_code == 0, out.output
    assert "registered mine v1" in out.output
    stored = list((tmp_path / "home" / "bots").iterdir())
    assert len(stored) == 1
    if "node" in spec:  # the whole folder, its packages included; the .proto is found
        assert (stored[0] / "node_modules").is_dir()


def test_a_python_file_is_stored_with_the_modules_it_imports():
    source = find_source("tests/bots/forms/pyfolder/bot.py")
    assert set(source.files) == {"bot.py", "helper.py"}


def test_a_bot_runs_with_its_folder_as_working_directory_read_only(tmp_path):
    bot = tmp_path / "cwdbot"
    bot.mkdir()
    (bot / "data.txt").write_text("opening book")
    (bot / "bot.py").write_text(
        "import os, sys\n"
        "from pathlib import Path\n"
        "from hegemon.sdk import Bot, run\n"
        "assert Path('data.txt').read_text() == 'opening book', os.getcwd()\n"
        "try:\n"
        "    Path('written.txt').write_text('x')\n"
        "    sys.exit('the bot folder is writable')\n"
        "except OSError:\n"
        "    pass\n"
        "class B(Bot):\n"
        "    name = 'cwdbot'\n"
        "if __name__ == '__main__':\n"
        "    run(B())\n"
    )
    os.chmod(tmp_path, 0o755)  # a pool uid must reach it, as any bot's folder
    out = run("bot", "check", bot)
    assert out.exit_code == 0, out.output
    assert not (bot / "written.txt").exists()


# ------------------------------------------------------------------ bots in any language
STUBS = "from hegemon.sdk import Bot, run\n\n\ndef main():\n    run(Bot())\n"


def script_bot(folder: Path, name: str) -> Path:
    """A bot in 'another language': an executable with a ``#!`` line and no ``.py`` suffix,
    which loads the generated stubs beside it (as a Ruby or Go bot loads its ``bot_pb``)."""
    folder.mkdir(parents=True)
    (folder / "stubs.py").write_text(STUBS)
    script = folder / name
    script.write_text(
        f"#!{sys.executable}\n"
        "import os, sys\n"
        "sys.path.append(os.path.dirname(os.path.abspath(__file__)))\n"
        "import stubs\n"
        "stubs.main()\n"
    )
    script.chmod(0o755)
    return script


def test_a_bot_file_in_another_language_is_checked_and_stored_with_its_folder(tmp_path):
    script = script_bot(tmp_path / "rubyish", "bot.rb")
    checked = run("bot", "check", str(script))
    assert checked.exit_code == 0, checked.output
    assert set(find_source(str(script)).files) == {"bot.rb", "stubs.py"}
    added = run("bot", "add", "stubby", str(script))
    assert added.exit_code == 0, added.output
    (stored,) = (tmp_path / "home" / "bots").iterdir()
    assert sorted(p.name for p in stored.iterdir()) == ["bot.rb", "stubs.py"]
    listed = run("bot", "list")
    assert "stubby" in listed.output and "ruby" in listed.output


def test_a_folder_holding_an_executable_bot_is_a_bot(tmp_path):
    script_bot(tmp_path / "compiled", "bot")
    spec = resolve_spec(str(tmp_path / "compiled"))
    assert (spec.kind, spec.argv, spec.language) == ("folder", ("./bot",), "python")
    checked = run("bot", "check", str(tmp_path / "compiled"))
    assert checked.exit_code == 0, checked.output
    # a file named bot that is not executable is data, not an entry point
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "bot").write_text("weights")
    assert "a bot folder needs one of" in run("bot", "check", str(tmp_path / "data")).output


def test_bot_list_names_a_sensible_language(tmp_path):
    from hegemon.leaderboard.botspec import language_of

    native = tmp_path / "native"
    shutil.copy("/bin/true", native)
    ruby = tmp_path / "bot"
    ruby.write_text("#!/usr/bin/env ruby\nputs 1\n")
    cases = {
        ("python", "bot.py"): "python",
        ("node", "bot.js"): "javascript",
        ("ruby", "bot.rb"): "ruby",
        ("./bot.rb",): "ruby",
        ("./native",): "compiled",
        ("./bot",): "ruby",
        ("java", "-jar", "bot.jar"): "java",
    }
    got = {argv: language_of(argv, tmp_path) for argv in cases}
    assert got == cases
