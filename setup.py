"""The wheel's build: setuptools (the metadata is in pyproject.toml), with the rules engine's hot
modules compiled by mypyc, as mypy's and black's wheels are (``ext_modules=mypycify(...)``).

Only a wheel is compiled: an editable install (``pip install -e .``, scripts/bootstrap) runs the
sources, and an sdist carries them. ``HEGEMON_NATIVE=0`` builds a pure Python wheel; so does a
build without mypyc, saying so (``hegemon.referee.native status`` tells which engine runs).
The modules are ``COMPILED`` in referee/native/__init__.py, read without importing hegemon (its
dependencies need not be in the build's environment).
"""

from __future__ import annotations

import os
import sys
from importlib.util import module_from_spec, spec_from_file_location
from pathlib import Path
from types import ModuleType
from typing import Any

from setuptools import setup

ROOT = Path(__file__).resolve().parent
WHEEL_COMMANDS = {"bdist_wheel", "build_ext", "build"}
"""setuptools' commands that make a wheel's contents (``editable_wheel`` and ``sdist`` are
not among them)."""


def native() -> ModuleType:
    """referee/native/__init__.py (through the hegemon/ link, which a snapshot's build has as a
    folder), loaded alone: it imports only the standard library."""
    spec = spec_from_file_location(
        "_hegemon_native", ROOT / "hegemon" / "referee" / "native" / "__init__.py"
    )
    assert spec is not None and spec.loader is not None
    module = module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def compiled_extensions() -> list[Any]:
    """The extension modules of a wheel's build: every module of ``COMPILED`` and mypyc's shared
    library, or none (an editable install, an sdist, ``HEGEMON_NATIVE=0``, no mypyc)."""
    if not WHEEL_COMMANDS & set(sys.argv[1:]) or os.environ.get("HEGEMON_NATIVE") == "0":
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        if os.environ.get("HEGEMON_NATIVE") == "1":
            raise
        print("hegemon: mypyc is not installed; building a pure Python wheel", file=sys.stderr)
        return []
    engine = native()
    paths = [engine.module_path(name) for name in engine.COMPILED]
    # --config-file= : the build reads no mypy configuration (the project's is for the checks);
    # the group name fixes the shared library's name, which the checkout's loader looks for
    group = engine.GROUP.removesuffix("__mypyc")
    return mypycify(["--config-file=", *paths], opt_level="3", group_name=group)


setup(ext_modules=compiled_extensions())
