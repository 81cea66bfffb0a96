"""Dependencies point one way (docs/design.md "Layout"): checked on what importing really loads.

``sample_bots → sdk → (referee.wire, referee.encoding, rules engine)``; ``env → (sample_bots,
sdk, referee.viewer)`` (the learning environment plays the engine against sample bots and shares
the observation encoding with the SDK's PolicyBot, so the encoding sits below both; it draws
games with the replay viewer, which sits below it and the league);
``leaderboard → referee → rules engine`` (the match runner uses the wire); the rules engine
imports nothing from the rest. Checked twice: every module of the five installed packages is
imported in a fresh process (the engine's modules together, every other on its own on top of the
engine, the league's on top of its store too), and what it pulls in (by installed name) must lie
on its side of the arrows; and every import statement of every module — inside functions too,
which importing does not run — is read from its source and must point down.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent
PACKAGES = ("referee", "sdk", "sample_bots", "env", "leaderboard")
SKIPPED = ("hegemon.leaderboard.migrations",)
"""Run by alembic, not imported (its environment migrates at import)."""

LAYERS = (
    ("hegemon.referee.wire", "wire"),
    ("hegemon.referee.runner", "runner"),
    ("hegemon.referee.encoding", "encoding"),
    ("hegemon.referee.viewer", "viewer"),
    ("hegemon.referee", "engine"),
    ("hegemon.sdk", "sdk"),
    ("hegemon.sample_bots", "sample_bots"),
    ("hegemon.env", "env"),
    ("hegemon.leaderboard", "leaderboard"),
)
"""Installed name prefix → layer, the first match winning (the wire and the match runner live
inside ``hegemon.referee`` but are not the engine)."""

MAY_LOAD = {
    "engine": {"engine"},
    "wire": {"engine", "wire"},
    "runner": {"engine", "wire", "runner"},
    "encoding": {"engine", "encoding"},
    "viewer": {"engine", "viewer"},
    "sdk": {"engine", "wire", "encoding", "sdk"},
    "sample_bots": {"engine", "wire", "encoding", "sdk", "sample_bots"},
    "env": {"engine", "wire", "encoding", "viewer", "sdk", "sample_bots", "env"},
    "leaderboard": {
        "engine",
        "wire",
        "runner",
        "encoding",
        "viewer",
        "sdk",
        "sample_bots",
        "env",
        "leaderboard",
    },
}
"""What importing a module of each layer may load: its own layer and those below it."""

# Imports the rules engine's modules (the first line of stdin) together, prints one JSON line
# for each with what they load, then loads each other module (the second line) in a forked
# child of that interpreter and prints what the child added. The engine may be loaded by every
# layer, so loading it first hides no arrow back up, and spares each child its import; heavy
# third-party packages are imported once before the forks, only to save time (never counted).
# The top layer (the third line) may load every layer, so no arrow can start there: its modules
# are only proved to import on their own, each in a child forked from one that loaded the
# layer's common base first (the league's store, which most of them import: 0.2 CPU-s a child).
HEAVY = (
    "grpc",
    "grpc_health.v1.health",
    "trio",
    "sqlmodel",
    "typer",
    "rich",
    "sqlite3",
    "starlette.applications",
    "starlette.routing",
    "starlette.responses",
    "jinja2",
    "argon2",
    "httpx",
    "uvicorn",
    "python_multipart",
    "numpy",
    "tarfile",
    "mimetypes",
)
TOP_BASE = "hegemon.leaderboard.store"
PROBE = """
import importlib, json, os, sys
for heavy in HEAVY:
    try:
        importlib.import_module(heavy)
    except ImportError:
        pass
def ours():
    return sorted(m for m in sys.modules if m.startswith("hegemon."))
def each_alone(names):
    for name in names:
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(read)
            try:
                importlib.import_module(name)
                out = {"loaded": ours()}
            except BaseException as exc:
                out = {"error": f"{type(exc).__name__}: {exc}"}
            os.write(write, json.dumps(out).encode())
            os._exit(0)
        os.close(write)
        with os.fdopen(read, "rb") as pipe:
            data = pipe.read()
        os.waitpid(pid, 0)
        print(json.dumps({"module": name, **json.loads(data)}), flush=True)
base, others, top = (line.split() for line in sys.stdin.read().splitlines())
for name in base:
    importlib.import_module(name)
for name in base:
    print(json.dumps({"module": name, "loaded": ours()}), flush=True)
each_alone(others)
pid = os.fork()
if pid == 0:
    try:
        importlib.import_module(TOP_BASE)
        each_alone(top)
    except BaseException as exc:
        for name in top:
            print(json.dumps({"module": name, "error": f"{type(exc).__name__}: {exc}"}))
    sys.stdout.flush()
    os._exit(0)
os.waitpid(pid, 0)
"""
TOP = "leaderboard"
"""The layer that may load every other."""


def layer_of(module: str) -> str | None:
    for prefix, layer in LAYERS:
        if module == prefix or module.startswith(prefix + "."):
            return layer
    return None


def module_files() -> dict[str, Path]:
    """Every Python module of the five packages, by installed name (``hegemon.x.y``), with its
    source file."""
    files = {}
    for package in PACKAGES:
        folder = (ROOT / "hegemon" / package).resolve()
        for path in sorted(folder.rglob("*.py")):
            parts = path.relative_to(folder).with_suffix("").parts
            if "node_modules" in parts:
                continue
            if parts[-1] == "__init__":
                parts = parts[:-1]
            name = ".".join(("hegemon", package, *parts))
            if not name.startswith(SKIPPED):
                files[name] = path
    return files


def installed_modules() -> list[str]:
    """Every Python module of the five packages, by installed name."""
    return list(module_files())


def imports_of(module: str, source: str, package: bool = False) -> list[tuple[int, str]]:
    """``(line, installed name)`` of everything ``module``'s source imports, wherever the
    statement stands (module level, functions, ``TYPE_CHECKING`` blocks), relative imports
    resolved; ``from m import x`` counts both ``m`` and ``m.x`` (x may be a submodule)."""
    home = module.split(".") if package else module.split(".")[:-1]
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = home[: len(home) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            found.append((node.lineno, target))
            found += [(node.lineno, f"{target}.{alias.name}") for alias in node.names]
    return found


def statements_up(modules: dict[str, str], packages: frozenset[str] = frozenset()) -> list[str]:
    """``importer:line -> imported`` for every import statement pointing against the arrows
    (``modules``: installed name → source; ``packages``: those that are a package's
    ``__init__``)."""
    wrong = []
    for module, source in modules.items():
        layer = layer_of(module)
        assert layer is not None, module
        for line, target in imports_of(module, source, module in packages):
            below = layer_of(target)
            if below is not None and below not in MAY_LOAD[layer]:
                wrong.append(f"{module}:{line} ({layer}) -> {target} ({below})")
    return sorted(set(wrong))


def loads(modules: list[str]) -> dict[str, list[str]]:
    """``{module: the hegemon modules importing it alone loads}``."""
    engine = [m for m in modules if layer_of(m) == "engine"]
    assert MAY_LOAD[TOP] == set(MAY_LOAD), "what the top layer loads is no longer unchecked"
    top = [m for m in modules if layer_of(m) == TOP]
    others = [m for m in modules if layer_of(m) not in ("engine", TOP)]
    program = f"HEAVY = {HEAVY!r}\nTOP_BASE = {TOP_BASE!r}\n{PROBE}"
    done = subprocess.run(
        [sys.executable, "-c", program],
        input="\n".join(" ".join(names) for names in (engine, others, top)) + "\n",
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
    )
    found = {}
    for line in done.stdout.splitlines():
        entry = json.loads(line)
        assert "error" not in entry, f"importing {entry['module']}: {entry['error']}"
        found[entry["module"]] = entry["loaded"]
    assert set(found) == set(modules)
    return found


def arrows_up(loaded: dict[str, list[str]]) -> list[str]:
    """``importer -> imported`` for every module loaded against the direction."""
    wrong = []
    for module, pulled in loaded.items():
        layer = layer_of(module)
        assert layer is not None, module
        for other in pulled:
            below = layer_of(other)
            if below is not None and below not in MAY_LOAD[layer]:
                wrong.append(f"{module} ({layer}) -> {other} ({below})")
    return wrong


@pytest.fixture(scope="module")
def loaded() -> dict[str, list[str]]:
    return loads(installed_modules())


@pytest.mark.slow
def test_every_module_of_the_five_packages_is_probed(loaded):
    probed = set(loaded)
    assert {"hegemon.referee.game", "hegemon.referee.wire.codec", "hegemon.sdk.server"} <= probed
    assert {"hegemon.referee.runner.link", "hegemon.sample_bots.planner"} <= probed
    assert {"hegemon.leaderboard.botspec", "hegemon.leaderboard.store.models"} <= probed
    assert {"hegemon.referee.encoding", "hegemon.env.multi_agent"} <= probed
    assert all(m.startswith("hegemon.") for m in probed)


@pytest.mark.slow
def test_no_arrow_runs_back_up(loaded):
    """The rules engine loads nothing of the rest; the wire only the engine; the match runner
    never the SDK, the sample bots or the league; the SDK never the match runner; the sample
    bots never the runner or the league; the learning environment never the runner or the
    league."""
    assert arrows_up(loaded) == []


def test_no_import_statement_points_up():
    """Every import statement, including those inside functions (which a module's import does
    not run, so the probe above cannot see them)."""
    files = module_files()
    packages = frozenset(name for name, path in files.items() if path.name == "__init__.py")
    sources = {name: path.read_text(encoding="utf-8") for name, path in files.items()}
    assert statements_up(sources, packages) == []


def test_every_import_names_a_module_by_its_installed_name():
    """One name per module: no import spells a package by the checkout's folder (``import
    leaderboard.cli``), which would run only from the checkout and be another module there."""
    files = module_files()
    packages = frozenset(name for name, path in files.items() if path.name == "__init__.py")
    wrong = [
        f"{module}:{line} -> {target}"
        for module, path in files.items()
        for line, target in imports_of(module, path.read_text(encoding="utf-8"), module in packages)
        if target.split(".")[0] in PACKAGES
    ]
    assert wrong == []
    assert imports_of("hegemon.sdk.bot", "import referee.game\n") == [(1, "referee.game")]


def test_the_statement_check_sees_an_import_inside_a_function():
    """The checker itself: an SDK module importing the learning environment inside a function,
    relatively, and an environment module importing the league at module level."""
    wrong = statements_up(
        {
            "hegemon.sdk.policy": "def load():\n    from ..env import multi_agent\n",
            "hegemon.env.train": "import os\nfrom hegemon.leaderboard.bench import x\n",
            "hegemon.sdk.bot": "from .context import BotView\nfrom hegemon.referee import game\n",
        }
    )
    assert wrong == [
        "hegemon.env.train:2 (env) -> hegemon.leaderboard.bench (leaderboard)",
        "hegemon.env.train:2 (env) -> hegemon.leaderboard.bench.x (leaderboard)",
        "hegemon.sdk.policy:2 (sdk) -> hegemon.env (env)",
        "hegemon.sdk.policy:2 (sdk) -> hegemon.env.multi_agent (env)",
    ]


def test_the_check_sees_an_arrow_back_up():
    """The checker itself: a runner module that loads the sample bots' names and an engine
    module that loads the wire are both reported, under their installed names."""
    wrong = arrows_up(
        {
            "hegemon.referee.runner.bots": ["hegemon.sample_bots.names"],
            "hegemon.referee.game": ["hegemon.referee.wire.codec", "hegemon.referee.board"],
            "hegemon.sdk.bot": ["hegemon.referee.runner.link"],
        }
    )
    assert wrong == [
        "hegemon.referee.runner.bots (runner) -> hegemon.sample_bots.names (sample_bots)",
        "hegemon.referee.game (engine) -> hegemon.referee.wire.codec (wire)",
        "hegemon.sdk.bot (sdk) -> hegemon.referee.runner.link (runner)",
    ]


def loaded_after(statement: str) -> set[str]:
    code = f"import sys; {statement}; import json; print(json.dumps(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return set(json.loads(out.stdout))


def test_the_rules_engine_does_no_io_imports():
    modules = loaded_after(
        "import hegemon.referee, hegemon.referee.game, hegemon.referee.record, "
        "hegemon.referee.view, hegemon.referee.legal, hegemon.referee.policies, "
        "hegemon.referee.timecontrol, hegemon.referee.formulas"
    )
    forbidden = {"grpc", "trio", "sqlmodel", "socket", "subprocess"}
    assert not {m for m in modules if m.split(".")[0] in forbidden}


def test_the_referee_core_uses_trio_for_its_clock_and_nothing_of_a_transport():
    """The core (asks, clock, strikes, forfeits) is shared by the gRPC runner and the SDK's
    local play: it may load trio, never grpc, the wire or the match runner."""
    modules = loaded_after("import hegemon.referee.arbiter")
    assert "trio" in modules
    forbidden = ("grpc", "hegemon.referee.wire", "hegemon.referee.runner")
    assert not {m for m in modules if m.startswith(forbidden)}


def test_the_match_runner_speaks_the_wire():
    modules = loaded_after("import hegemon.referee.runner.session, hegemon.referee.runner.match")
    assert "hegemon.referee.wire.bot_pb2" in modules


def test_a_bot_that_serves_loads_neither_trio_nor_the_referees_core():
    """Every bot process starts this way: local play's trio and the referee's core load only
    when a game is played in-process (``play_local``), not with ``import hegemon.sdk``."""
    modules = loaded_after("import hegemon.sample_bots.planner, hegemon.sdk.server")
    assert not {m for m in modules if m.split(".")[0] == "trio"}
    assert "hegemon.referee.arbiter" not in modules


def test_the_rule_formulas_import_nothing_but_the_board():
    """``formulas`` is the one copy of the rule formulas that the engine, the SDK helpers and
    the odds all read: it stays a leaf on top of the board (read from its source, as importing
    any engine module loads the whole package; from the checkout, as the module imported may
    be its compiled copy, hegemon.referee.native)."""
    tree = ast.parse((ROOT / "hegemon" / "referee" / "formulas.py").read_text())
    imported = {
        (node.level, node.module) for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
    }
    plain = {a.name for node in ast.walk(tree) if isinstance(node, ast.Import) for a in node.names}
    assert {m for level, m in imported if level} <= {"board"}
    assert {m for level, m in imported if not level} <= {"__future__", "collections.abc"}
    assert not plain
