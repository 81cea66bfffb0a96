"""hegemon.sdk's public names, as run time and as type checkers see them (after trio's export
test): the package imports them lazily (PEP 562) so that the referee, which imports the
protocol code under hegemon.sdk, never loads the bot side; type checkers read the same names
from imports under ``if TYPE_CHECKING:``. The two lists must agree with ``__all__``."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from importlib import import_module
from pathlib import Path

from hegemon import sdk

ROOT = Path(__file__).resolve().parent.parent
INIT = ROOT / "sdk" / "__init__.py"


def static_imports() -> dict[str, str]:
    """``{name: module}`` for every ``from module import name`` under ``if TYPE_CHECKING:``
    in sdk/__init__.py (relative imports resolved against hegemon.sdk)."""
    found: dict[str, str] = {}
    for node in ast.parse(INIT.read_text()).body:
        if not (isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING"):
            continue
        for statement in node.body:
            assert isinstance(statement, ast.ImportFrom), ast.unparse(statement)
            module = statement.module or ""
            if statement.level:
                module = "hegemon.sdk" + ("." + module if module else "")
            for alias in statement.names:
                assert alias.asname is None, f"{alias.name} imported as {alias.asname}"
                found[alias.name] = module
    return found


def module_functions() -> set[str]:
    """Public functions and classes defined in sdk/__init__.py itself (``run``)."""
    tree = ast.parse(INIT.read_text())
    return {
        node.name
        for node in tree.body
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and not node.name.startswith("_")
    }


def test_every_name_in_all_resolves_at_run_time():
    for name in sdk.__all__:
        assert getattr(sdk, name) is not None, name
    namespace: dict[str, object] = {}
    exec("from hegemon.sdk import *", namespace)
    assert set(namespace) - {"__builtins__"} == set(sdk.__all__)
    assert set(sdk.__all__) <= set(dir(sdk))


def test_the_static_imports_are_the_lazy_table_and_all():
    static = static_imports()
    assert static == sdk._WHERE
    assert sorted(sdk.__all__) == sorted({*static, *module_functions()})
    assert len(sdk.__all__) == len(set(sdk.__all__))
    for name, module in static.items():
        assert getattr(sdk, name) is getattr(import_module(module), name), name


def test_an_unknown_name_is_an_attribute_error():
    try:
        sdk.NoSuchThing  # noqa: B018
    except AttributeError as exc:
        assert "hegemon.sdk" in str(exc)
    else:
        raise AssertionError("hegemon.sdk.NoSuchThing resolved")


def test_type_checkers_see_real_types(tmp_path):
    """mypy (strict, as a bot author's project would run it) sees every exported name with its
    real type: none is ``Any``, and ``Bot`` is the class."""
    snippet = tmp_path / "bot_author.py"
    snippet.write_text(
        "import hegemon.sdk\n"
        + "".join(f"reveal_type(hegemon.sdk.{name})\n" for name in sorted(sdk.__all__))
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
    assert len(revealed) == len(sdk.__all__) + 1, done.stdout + done.stderr
    errors = [line for line in done.stdout.splitlines() if line.startswith(f"{snippet}:")]
    assert not [line for line in errors if "error:" in line], done.stdout
    for line in revealed:
        assert line.split("Revealed type is ", 1)[1] != '"Any"', line
    assert 'Revealed type is "def () -> hegemon.sdk.bot.Bot"' in done.stdout
    assert "hegemon.referee.actions.Claim" in revealed[-1]
