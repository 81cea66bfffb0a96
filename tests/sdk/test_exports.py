"""hegemon.sdk's public names, as run time and as type checkers see them (after trio's export
test): sdk/__init__.py imports each once, as ``name as name`` (an explicit re-export), and that
list is the whole public API: no lazy table, no ``TYPE_CHECKING`` mirror, no ``__all__`` copy."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from importlib import import_module
from pathlib import Path

import pytest

from hegemon import sdk

ROOT = Path(__file__).resolve().parent.parent.parent
INIT = ROOT / "sdk" / "__init__.py"


def exports() -> dict[str, str]:
    """``{name: module}`` of every ``from module import name as name`` in sdk/__init__.py
    (relative imports resolved against hegemon.sdk)."""
    found: dict[str, str] = {}
    for node in ast.parse(INIT.read_text()).body:
        if not isinstance(node, ast.ImportFrom):
            continue
        module = node.module or ""
        if node.level:
            module = "hegemon.sdk" + ("." + module if module else "")
        for alias in node.names:
            if (alias.asname or alias.name).startswith("_"):
                continue  # a private helper of the module
            assert alias.asname == alias.name, f"{alias.name}: not an explicit re-export"
            assert alias.name not in found, f"{alias.name} imported twice"
            found[alias.name] = module
    return found


def test_the_package_is_its_docstring_one_list_of_re_exports_and_all_derived_from_it():
    docstring, *imports, derived = ast.parse(INIT.read_text()).body
    assert isinstance(docstring, ast.Expr) and isinstance(docstring.value, ast.Constant)
    assert imports and all(isinstance(node, ast.ImportFrom) for node in imports), [
        ast.unparse(node) for node in imports if not isinstance(node, ast.ImportFrom)
    ]
    assert isinstance(derived, ast.Assign) and ast.unparse(derived.targets[0]) == "__all__"
    assert sdk.__all__ == list(exports())
    namespace: dict[str, object] = {}
    exec("from hegemon.sdk import *", namespace)
    assert set(namespace) - {"__builtins__"} == set(exports())


def test_every_exported_name_is_the_object_of_its_home_module():
    names = exports()
    assert {"Bot", "run", "play_local", "legal_actions", "Claim", "BotView"} <= set(names)
    for name, module in names.items():
        assert getattr(sdk, name) is getattr(import_module(module), name), name


@pytest.mark.slow
def test_type_checkers_see_real_types(tmp_path):
    """mypy (strict, as a bot author's project would run it) sees every exported name with its
    real type: none is ``Any``, and ``Bot`` is the class."""
    snippet = tmp_path / "bot_author.py"
    snippet.write_text(
        "import hegemon.sdk\n"
        + "".join(f"reveal_type(hegemon.sdk.{name})\n" for name in sorted(exports()))
        + "from hegemon.sdk import Bot\n"
        "class Mine(Bot):\n"
        "    name = 'mine'\n"
        "reveal_type(Mine().answer)\n"
    )
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--strict",
            "--follow-imports=silent",
            "--cache-dir",
            str(tmp_path / "cache"),
            "--config-file",
            os.devnull,
            str(snippet),
        ],
        cwd=tmp_path,
        env=dict(os.environ, MYPYPATH=str(ROOT)),
        capture_output=True,
        text=True,
        timeout=300,
    )
    revealed = [line for line in done.stdout.splitlines() if "Revealed type is" in line]
    assert len(revealed) == len(exports()) + 1, done.stdout + done.stderr
    errors = [line for line in done.stdout.splitlines() if line.startswith(f"{snippet}:")]
    assert not [line for line in errors if "error:" in line], done.stdout
    for line in revealed:
        assert line.split("Revealed type is ", 1)[1] != '"Any"', line
    assert 'Revealed type is "def () -> hegemon.sdk.bot.Bot"' in done.stdout
    assert "hegemon.referee.actions.Claim" in revealed[-1]
