"""A checkout's mypyc-compiled engine (hegemon.referee.native) is used only when it was built
from exactly the sources on disk: a stale build is refused and the pure Python sources run
instead; ``HEGEMON_NATIVE=0`` turns it off; a current build (CI's ``scripts/bootstrap`` makes
one) is what a plain process loads. (The installed wheel: tests/cli/test_wheel.py.)

Real processes, no compile here (a build takes minutes): the staleness rules are checked on a
copy of the sources against a hand-made build folder, and the loading on the environment's own
build.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from hegemon.referee import native

ROOT = Path(__file__).resolve().parent.parent.parent

# What a child process reports about the engine it loaded: every compiled module's file, the
# status line, whether the finder is in place (and only once, after a second install()), and
# the places of one short seeded game.
REPORT = """
import importlib, json, random, sys
from hegemon.referee import Game, make_rules, native
from hegemon.referee.policies import attack_happy_action
native.install()
files = {m: importlib.import_module("hegemon.referee." + m).__file__ for m in native.COMPILED}
finders = sum(isinstance(f, native.CompiledFinder) for f in sys.meta_path)
game = Game(make_rules("classic", {"turn_limit": 30}), 4, 5)
rng = random.Random(5)
while game.places is None:
    game.apply(attack_happy_action(game, rng))
print(json.dumps({"files": files, "status": native.status(), "active": native.active(),
                  "finders": finders, "places": game.places}))
"""


def child_env(**changes: str | None) -> dict[str, str]:
    env = dict(os.environ)
    for name, value in changes.items():
        if value is None:
            env.pop(name, None)
        else:
            env[name] = value
    return env


def report(cwd: Path = ROOT, **env: str | None) -> dict:
    """What a fresh interpreter started in ``cwd`` (whose ``hegemon`` it imports) loads."""
    done = subprocess.run(
        [sys.executable, "-c", REPORT],
        cwd=cwd,
        env=child_env(**env),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == "", done.stderr
    return json.loads(done.stdout)


def copy_of_the_package(into: Path) -> Path:
    """A copy of ``hegemon``'s top and of ``hegemon.referee`` (the rules engine, its data); the
    copy's folder, for a child process to import from."""
    into.mkdir()
    shutil.copy2(ROOT / "hegemon" / "__init__.py", into / "__init__.py")
    shutil.copytree(
        ROOT / "hegemon" / "referee",
        into / "referee",
        ignore=shutil.ignore_patterns("__pycache__", "*.so"),
    )
    return into


def fake_build(folder: Path, sources: Path) -> None:
    """A build folder laid out as ``build()`` makes one, stamped for ``sources``, whose
    extension modules are empty files (only their presence is judged)."""
    for name in native.COMPILED:
        Path(native.module_file(folder, name)).parent.mkdir(parents=True, exist_ok=True)
        Path(native.module_file(folder, name)).write_bytes(b"")
    (folder / f"{native.GROUP}{native.SUFFIX}").write_bytes(b"")
    (folder / native.STAMP).write_text(native.source_digest(sources) + "\n", encoding="ascii")


# ------------------------------------------------------------------------ the pure path
def test_hegemon_native_0_runs_the_pure_sources():
    out = report(HEGEMON_NATIVE="0")
    for name, file in out["files"].items():
        assert file == str(ROOT / "hegemon" / "referee" / f"{name}.py")
    assert out["status"] == "pure Python: HEGEMON_NATIVE=0"
    assert not out["active"] and out["finders"] == 0
    assert sorted(out["places"]) == [1, 2, 3, 4]


def test_the_command_line_says_which_engine_runs_without_a_warning():
    done = subprocess.run(
        [sys.executable, "-m", "hegemon.referee.native", "status"],
        cwd=ROOT,
        env=child_env(HEGEMON_NATIVE="0"),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert (done.returncode, done.stdout, done.stderr) == (
        0,
        "pure Python: HEGEMON_NATIVE=0\n",
        "",
    )


# ------------------------------------------------------------------------ staleness
def test_a_build_is_used_only_for_exactly_the_sources_it_was_made_from(tmp_path):
    sources = tmp_path / "referee"
    shutil.copytree(
        ROOT / "hegemon" / "referee", sources, ignore=shutil.ignore_patterns("__pycache__", "data")
    )
    assert native.source_digest(sources) == native.source_digest()  # bytes, not where they are
    folder = tmp_path / "build"
    fake_build(folder, sources)

    state = native.matching_build(folder, sources)
    assert state.usable and state.problem is None
    assert set(state.files) == {f"hegemon.referee.{m}" for m in native.COMPILED} | {native.GROUP}
    assert state.files["hegemon.referee.game"] == str(
        folder / "hegemon" / "referee" / ("game" + native.SUFFIX)
    )
    assert all(Path(path).is_file() for path in state.files.values())

    # any module of the engine, compiled or not: mypyc may inline what the compiled ones import
    with open(sources / "board.py", "a", encoding="utf-8") as f:
        f.write("# an edit\n")
    stale = native.matching_build(folder, sources)
    assert not stale.usable and not stale.files
    assert stale.problem == "the build is older than the sources"

    fake_build(folder, sources)  # rebuilt: current again
    assert native.matching_build(folder, sources).usable
    (sources / "added.py").write_text("X = 1\n", encoding="utf-8")  # a new module
    assert native.matching_build(folder, sources).problem == "the build is older than the sources"
    (sources / "added.py").unlink()
    assert native.matching_build(folder, sources).usable
    # the editions' modules too: the compiled engine calls their parts and board rules
    with open(sources / "editions" / "teams.py", "a", encoding="utf-8") as f:
        f.write("# an edit\n")
    assert native.matching_build(folder, sources).problem == "the build is older than the sources"
    fake_build(folder, sources)
    # a new subpackage of the engine counts; the I/O around it (the match runner) does not
    (sources / "rooms").mkdir()
    (sources / "rooms" / "__init__.py").write_text("", encoding="utf-8")
    assert native.matching_build(folder, sources).problem == "the build is older than the sources"
    shutil.rmtree(sources / "rooms")
    with open(sources / "runner" / "arbiter.py", "a", encoding="utf-8") as f:
        f.write("# an edit\n")
    assert native.matching_build(folder, sources).usable

    Path(native.module_file(folder, "dice")).unlink()
    assert native.matching_build(folder, sources).problem == "the build is incomplete"
    (folder / native.STAMP).unlink()
    assert native.matching_build(folder, sources).problem == "no build"
    assert native.matching_build(tmp_path / "nowhere", sources).problem == "no build"


def test_a_compiled_module_of_a_subpackage_is_built_and_judged_in_its_folder(tmp_path, monkeypatch):
    """``COMPILED`` names a subpackage's module with a dot: the wheel's build compiles it at its
    place in the package, and the digest reads its folder even when that folder is otherwise
    left out (a module of the match runner, compiled)."""
    assert native.module_path("editions.teams") == "hegemon/referee/editions/teams.py"
    assert native.module_file(tmp_path, "runner.clock") == str(
        tmp_path / "hegemon" / "referee" / "runner" / f"clock{native.SUFFIX}"
    )
    sources = str(ROOT / "hegemon" / "referee")
    before = native.source_digest(sources)
    assert not [rel for rel, _ in native._engine_files(sources) if rel.startswith("runner/")]
    monkeypatch.setattr(native, "COMPILED", (*native.COMPILED, "runner.clock"))
    assert [rel for rel, _ in native._engine_files(sources) if rel.startswith("runner/")]
    assert native.source_digest(sources) != before


def test_an_edited_copy_of_the_sources_runs_pure_python(tmp_path):
    """A child imports ``hegemon`` from a copy whose ``board.py`` differs from the checkout's
    by one comment: the environment's build (made from the checkout, or none) is not used."""
    copy_of_the_package(tmp_path / "hegemon")
    with open(tmp_path / "hegemon" / "referee" / "board.py", "a", encoding="utf-8") as f:
        f.write("# an edit\n")
    out = report(cwd=tmp_path, HEGEMON_NATIVE=None)
    for name, file in out["files"].items():
        assert file == str(tmp_path / "hegemon" / "referee" / f"{name}.py")
    assert not out["active"]
    has_a_build = (Path(native.BUILD_DIR) / native.STAMP).is_file()
    reason = "the build is older than the sources" if has_a_build else "no build"
    assert out["status"] == f"pure Python: {reason}"


# ------------------------------------------------------------------------ the compiled path
def test_a_plain_process_runs_the_current_build():
    """What CI runs: its bootstrap compiled the engine, and a process that asks for nothing
    loads every compiled module from the build and plays the game the pure engine plays. Under
    ``HEGEMON_NATIVE=0`` (in this test's environment) the pure engine runs instead."""
    pure = report(HEGEMON_NATIVE="0")
    if os.environ.get("HEGEMON_NATIVE") == "0":
        out = report()
        assert out["status"] == "pure Python: HEGEMON_NATIVE=0"
        assert out["files"] == pure["files"] and not out["active"]
        return
    state = native.matching_build()
    assert state.usable, (
        f"no compiled engine of these sources in {native.BUILD_DIR} ({state.problem}):"
        " run ./scripts/bootstrap (or python -m hegemon.referee.native build);"
        " HEGEMON_NATIVE=0 tests the pure engine alone"
    )
    out = report(HEGEMON_NATIVE=None)
    for name, file in out["files"].items():
        assert file == str(native.module_file(native.BUILD_DIR, name))
        assert file.endswith(native.SUFFIX)
    assert out["status"] == "compiled (mypyc)"
    assert out["active"] and out["finders"] == 1  # install() again changed nothing
    assert out["places"] == pure["places"]


def test_a_missing_compiler_is_one_line_that_names_it(tmp_path):
    """Checked before anything is written: no C compiler on PATH, no build attempted."""
    done = subprocess.run(
        [sys.executable, "-m", "hegemon.referee.native", "build"],
        cwd=ROOT,
        env=child_env(PATH=str(tmp_path), CC=None, HEGEMON_NATIVE="0"),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 1
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1 and "no C compiler" in done.stderr, done.stderr


# ------------------------------------------------------------------------ both engines
def test_the_pure_engine_passes_the_hostile_input_and_record_tests_too():
    """CI's run uses the compiled engine (the rest of the suite); these files run again on the
    Python sources, so both engines refuse bad actions alike, write the same records, play
    the rulebooks' battles with their given dice and make views that behave alike."""
    files = [
        "test_engine_hostile.py",
        "test_record_digests.py",
        "test_quick_paths.py",
        "test_dice.py",
        "test_view_classes.py",
    ]
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist"]
        + [str(ROOT / "tests" / "engine" / f) for f in files],
        cwd=ROOT,
        env=child_env(HEGEMON_NATIVE="0"),
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert " passed" in done.stdout.splitlines()[-1]
