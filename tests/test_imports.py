"""No import cycles in the product code: module A importing B (anywhere in A: at the top, in a
function, under TYPE_CHECKING) while B imports A. A cycle hidden in a function still ties the
two modules together and breaks the moment someone moves the import to the top."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("referee", "sdk", "leaderboard", "sample_bots")


def product_modules() -> dict[str, Path]:
    """``{installed module name: file}`` for every module of the product."""
    found: dict[str, Path] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            relative = path.relative_to(ROOT).with_suffix("")
            if "migrations" in relative.parts:  # alembic loads these by path
                continue
            parts = ["hegemon", *relative.parts]
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def imports_of(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The product modules ``name`` imports (its own parent packages aside: importing a module
    always imports them first, which is no cycle)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    targets: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            targets.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:
                submodule = f"{base}.{alias.name}"
                targets.add(submodule if submodule in modules else base)
    return {t for t in targets if t in modules and t != name and not name.startswith(t + ".")}


def reachable(graph: dict[str, set[str]], start: str) -> set[str]:
    seen: set[str] = set()
    todo = list(graph[start])
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo.extend(graph[name])
    return seen


def test_the_import_graph_has_no_cycle():
    modules = product_modules()
    assert "hegemon.sdk.bot" in modules and "hegemon.referee.game" in modules
    graph = {name: imports_of(name, path, modules) for name, path in modules.items()}
    reach = {name: reachable(graph, name) for name in graph}
    # every group of modules that import each other, directly or through others
    cycles = {
        tuple(sorted(other for other in reach[name] if name in reach[other]))
        for name in graph
        if name in reach[name]
    }
    assert not cycles, "import cycles: " + "; ".join(" <-> ".join(c) for c in sorted(cycles))


def test_the_sdk_server_does_not_import_the_bot_class():
    """Bot.run imports the server; the server takes any object shaped like a bot."""
    modules = product_modules()
    server = imports_of("hegemon.sdk.server", modules["hegemon.sdk.server"], modules)
    assert "hegemon.sdk.bot" not in server
    assert "hegemon.sdk.server" in imports_of(
        "hegemon.sdk.bot", modules["hegemon.sdk.bot"], modules
    )
