"""One name per module: ruff, mypy, pytest and the layering test all name a product module
``hegemon.<folder>.<module>`` (the installed name, through the ``hegemon/`` links), never by
the checkout's folder of the same files; and the league is type-checked as strictly as the
engine."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
CONFIG = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
LINKED = sorted(p.name for p in (ROOT / "hegemon").iterdir() if p.is_symlink())
"""The checkout's package folders that ``hegemon/`` links under the project's name."""
GENERATED = ("_pb2.py", "_pb2_grpc.py")


def ruff_files() -> list[str]:
    """The files ruff reads as scripts/check runs it, relative to the checkout."""
    linked = [f"hegemon/{name}/" for name in LINKED]
    ruff = Path(sys.executable).parent / "ruff"
    done = subprocess.run(
        [str(ruff), "check", "--no-cache", "--show-files", ".", *linked],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return [str(Path(line).relative_to(ROOT)) for line in done.stdout.split()]


def test_ruff_reads_every_product_module_once_under_its_installed_name():
    seen = ruff_files()
    twice = [f for f in seen if f.split("/")[0] in LINKED]
    assert not twice, f"ruff reads the checkout's folders too: {twice[:5]}"
    product = sorted(
        f"hegemon/{name}/{path.relative_to(ROOT / name)}"
        for name in LINKED
        for path in (ROOT / name).rglob("*.py")
        if "node_modules" not in path.parts and not path.name.endswith(GENERATED)
    )
    missing = sorted(set(product) - set(seen))
    assert not missing, f"ruff does not read {missing[:5]}"
    assert "hegemon/referee/game.py" in seen and "tests/engine/test_dice.py" in seen


def module_exists(name: str) -> bool:
    """Whether ``name`` is a module of the checkout (through hegemon/) or installed."""
    parts = name.split(".")
    if parts[0] == "hegemon":
        base = ROOT.joinpath(*parts)
        return base.with_suffix(".py").is_file() or (base / "__init__.py").is_file()
    return importlib.util.find_spec(parts[0]) is not None


def test_the_configuration_names_modules_as_mypy_and_pytest_do():
    """Every module the tools' configuration names is ``hegemon.*`` (or not ours) and exists;
    every file it names is one ruff reads."""
    ruff = CONFIG["tool"]["ruff"]
    calls = ruff["lint"]["flake8-bugbear"]["extend-immutable-calls"]
    ours = [c.rsplit(".", 1)[0] for c in calls if c.split(".")[0] != "typer"]
    assert ours and all(m.startswith("hegemon.") and module_exists(m) for m in ours), ours
    overridden = [
        module.removesuffix(".*")
        for override in CONFIG["tool"]["mypy"]["overrides"]
        for module in override["module"]
        if module.split(".")[0] in ("hegemon", *LINKED)
    ]
    assert all(m.startswith("hegemon.") and module_exists(m) for m in overridden), overridden
    seen = set(ruff_files())
    named = [p for p in ruff["lint"]["per-file-ignores"] if "*" not in p]
    assert named and all(p in seen for p in named), [p for p in named if p not in seen]


def test_pytest_collects_the_product_only_through_hegemon():
    """``pytest`` walks ``tests/`` and ``hegemon/`` (the doctests, under installed names); any
    other folder of the checkout holding Python is ignored by conftest.py, so that a module is
    never collected under its checkout name too, and every ignored path exists."""
    spec = importlib.util.spec_from_file_location("checkout_conftest", ROOT / "conftest.py")
    assert spec is not None and spec.loader is not None
    conftest = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(conftest)
    ignored = set(conftest.collect_ignore)
    assert all((ROOT / path).exists() for path in ignored), ignored
    walked = set(CONFIG["tool"]["pytest"]["ini_options"]["testpaths"])
    assert walked == {"tests", "hegemon"}
    holding_python = {
        p.name
        for p in ROOT.iterdir()
        if p.is_dir() and not p.name.startswith(".") and any(p.rglob("*.py"))
    }
    assert holding_python - walked <= ignored, holding_python - walked - ignored
    assert set(LINKED) <= ignored


def test_the_league_is_type_checked_as_strictly_as_the_engine():
    """mypy is strict everywhere; no override relaxes a rule for the engine, the SDK, the
    league or the environment (only the generated protocol code is not checked)."""
    mypy = CONFIG["tool"]["mypy"]
    assert mypy["strict"] is True
    strict = ("hegemon.referee", "hegemon.sdk", "hegemon.leaderboard", "hegemon.env")
    generated = {"hegemon.referee.wire.bot_pb2", "hegemon.referee.wire.bot_pb2_grpc"}
    for override in mypy["overrides"]:
        relaxed = [m for m in override["module"] if m.startswith(strict) and m not in generated]
        assert not relaxed, f"{relaxed}: {override}"
