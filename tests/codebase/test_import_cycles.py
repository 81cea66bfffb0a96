"""No import cycles among hegemon's modules.

Read from the source (``ast``), not by importing: every ``import`` and ``from … import`` a
module runs when it is loaded — at module level, including inside ``if``/``try`` blocks, but not
under ``if TYPE_CHECKING:`` and not inside functions (those run later, on purpose: fast start-up,
the engine never loading the runner). An edge goes to the module named, or to the submodule a
``from package import name`` names (else to the package). A cycle means two modules each need
the other half-loaded.
"""

from __future__ import annotations

import ast
import os
from collections.abc import Iterator
from pathlib import Path

import hegemon

PACKAGE = Path(hegemon.__file__).resolve().parent


def module_files() -> dict[str, Path]:
    """Every hegemon module, by dotted name (the package's folders are symlinks: followed)."""
    found: dict[str, Path] = {}
    files = [
        Path(folder, file)
        for folder, _, names in os.walk(PACKAGE, followlinks=True)
        for file in names
        if file.endswith(".py")
    ]
    for path in sorted(files):
        relative = path.relative_to(PACKAGE)
        if "node_modules" in relative.parts:
            continue
        parts = ["hegemon", *relative.with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _load_time_statements(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """The statements run when the module loads (descending into if/try/with, not defs)."""
    for node in body:
        if isinstance(node, ast.If):
            if not _is_type_checking(node.test):
                yield from _load_time_statements(node.body)
            yield from _load_time_statements(node.orelse)
        elif isinstance(node, ast.Try):
            for block in (node.body, node.orelse, node.finalbody):
                yield from _load_time_statements(block)
            for handler in node.handlers:
                yield from _load_time_statements(handler.body)
        elif isinstance(node, ast.With):
            yield from _load_time_statements(node.body)
        else:
            yield node


def imports_of(name: str, path: Path, modules: dict[str, Path], deferred: bool = False) -> set[str]:
    """The hegemon modules ``name`` imports when it loads (``deferred``: or ever, counting the
    imports inside functions and under ``TYPE_CHECKING``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    statements = ast.walk(tree) if deferred else _load_time_statements(tree.body)
    found: set[str] = set()
    for node in statements:
        if isinstance(node, ast.Import | ast.ImportFrom):
            found |= _names_of(node, name, path, modules)
    return found


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of the graph (as the list of its modules, first repeated last), or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for target in sorted(graph[node]):
            if state.get(target) == 1:
                return [*path[path.index(target) :], target]
            if target not in state and (cycle := visit(target)):
                return cycle
        path.pop()
        state[node] = 2
        return None

    for start in sorted(graph):
        if start not in state and (cycle := visit(start)):
            return cycle
    return None


def test_the_walk_sees_the_package():
    modules = module_files()
    assert "hegemon.referee.game" in modules and "hegemon.leaderboard.cli.app" in modules
    assert "hegemon.leaderboard.cli.common" in imports_of(
        "hegemon.leaderboard.cli.season", modules["hegemon.leaderboard.cli.season"], modules
    )


def test_the_cycle_finder_finds_a_cycle():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_no_import_cycles():
    modules = module_files()
    graph = {name: imports_of(name, path, modules) for name, path in modules.items()}
    cycle = find_cycle(graph)
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


TYPED_AGAINST_THE_ENGINE = frozenset(
    f"hegemon.referee.{name}"
    for name in (
        "checks",
        "editions.alliances",
        "editions.capitals",
        "editions.contract",
        "editions.master",
        "editions.missions",
        "editions.neutrals",
        "editions.parts",
        "editions.teams",
        "holdings",
        "seats",
    )
)
"""The edition parts, the board rules, the seats and the engine's checks and handlers: the
engine imports them, and they name the engine's type (``Game``) in their hooks' signatures
under ``TYPE_CHECKING`` only — the one
reverse reference allowed, as python-chess's variants name ``chess.Board``. Any other import of
``hegemon.referee.game`` from them, at load time or in a function, is still a cycle."""


def type_checking_imports(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The hegemon modules ``name`` imports only under ``if TYPE_CHECKING:``."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    typed = {
        node
        for block in ast.walk(tree)
        if isinstance(block, ast.If) and _is_type_checking(block.test)
        for statement in block.body
        for node in ast.walk(statement)
    }
    everywhere = imports_of(name, path, modules, deferred=True)
    outside = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom) and node not in typed:
            outside |= _names_of(node, name, path, modules)
    return everywhere - outside


def _names_of(
    node: ast.Import | ast.ImportFrom, name: str, path: Path, modules: dict[str, Path]
) -> set[str]:
    """The hegemon modules one import statement of module ``name`` names: the module, or the
    submodule a ``from package import name`` names (else the package)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    if isinstance(node, ast.Import):
        found.update(a.name for a in node.names)
    else:
        if node.level:
            base = package.split(".")
            base = base[: len(base) - (node.level - 1)]
            source = ".".join([*base, node.module] if node.module else base)
        else:
            source = node.module or ""
        for alias in node.names:
            submodule = f"{source}.{alias.name}"
            found.add(submodule if submodule in modules else source)
    return {m for m in found if m in modules and m != name}


def test_no_import_cycles_even_through_imports_inside_functions():
    """Deferring an import hides a cycle from the loader, not from the reader: the two modules
    still depend on each other (but for the editions' typed hooks, see
    :data:`TYPED_AGAINST_THE_ENGINE`)."""
    modules = module_files()
    graph = {name: imports_of(name, path, modules, deferred=True) for name, path in modules.items()}
    for name in TYPED_AGAINST_THE_ENGINE:
        if "hegemon.referee.game" in type_checking_imports(name, modules[name], modules):
            graph[name].discard("hegemon.referee.game")
    cycle = find_cycle(graph)
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])
