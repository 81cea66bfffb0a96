"""Run a Python bot file as ``__main__`` with its folder *last* on ``sys.path``, its own modules
imported from their source only.

``python bot.py`` puts the bot's folder first on the import path, so a bot's own ``random.py``
(or ``grpc.py``, ``hegemon.py``…) would hide the standard library or the SDK. The referee runs
``python -P pyboot.py BOT.py ARGS…`` instead (``-P``: nothing is put first): the standard
library and the installed packages win, and the bot's own modules still import.

The bot's modules are compiled from their ``.py`` files, never loaded from bytecode found in its
folder (``__pycache__/*.pyc`` or a bare ``.pyc``): the content hash that names a registered bot
covers its sources, not bytecode, so bytecode beside them could run other code than was
registered. (``PYTHONPYCACHEPREFIX`` would do the same for every module, the standard library
and the SDK included, and so recompile them at every start.)

Run by path inside the sandbox: it imports nothing of hegemon.
"""

import os
import runpy
import sys
from collections.abc import Callable
from importlib.machinery import (
    EXTENSION_SUFFIXES,
    SOURCE_SUFFIXES,
    ExtensionFileLoader,
    FileFinder,
    SourceFileLoader,
)


class SourceOnlyLoader(SourceFileLoader):
    """Compiles a module from its source: the bytecode cache is never read."""

    def get_data(self, path: str) -> bytes:
        if path.endswith(".pyc"):
            raise OSError("a bot's bytecode is never read")
        return super().get_data(path)


def source_only_below(folder: str) -> Callable[[str], FileFinder]:
    """A ``sys.path_hooks`` entry that finds modules below ``folder`` from their source (and
    compiled extensions, which are part of the bot's hashed files) and nothing else."""
    root = os.path.realpath(folder)

    def hook(path: str) -> FileFinder:
        real = os.path.realpath(path or ".")
        if not os.path.isdir(real) or (real != root and not real.startswith(root + os.sep)):
            raise ImportError("not a folder of the bot's")
        return FileFinder(
            path,
            (ExtensionFileLoader, EXTENSION_SUFFIXES),
            (SourceOnlyLoader, SOURCE_SUFFIXES),
        )

    return hook


def main() -> None:
    if len(sys.argv) < 2:
        sys.exit("usage: python -P pyboot.py BOT.py [ARGS...]")
    script = os.path.abspath(sys.argv[1])
    folder = os.path.dirname(script)
    sys.argv = [script, *sys.argv[2:]]
    sys.path_hooks.insert(0, source_only_below(folder))
    sys.path_importer_cache.clear()
    sys.path.append(folder)
    runpy.run_path(script, run_name="__main__")


if __name__ == "__main__":
    main()
