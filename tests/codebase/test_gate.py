"""The checked-in tooling around the code: the CI lock agrees with pyproject.toml's ranges, and
the docstring examples of the product code are collected as tests."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parent.parent.parent
LOCK = ROOT / "requirements" / "ci.lock"


def locked_versions() -> dict[str, Version]:
    pins: dict[str, Version] = {}
    for raw in LOCK.read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        match = re.fullmatch(r"([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;]+)", line)
        assert match, f"requirements/ci.lock: not an exact pin: {line!r}"
        name = canonicalize_name(match[1])
        assert name not in pins, f"requirements/ci.lock: {name} pinned twice"
        pins[name] = Version(match[2])
    return pins


def project_requirements() -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    found = [Requirement(r) for r in project["dependencies"]]
    for extra in project["optional-dependencies"].values():
        found += [Requirement(r) for r in extra]
    return found


def test_the_lock_pins_every_requirement_within_its_range():
    pins = locked_versions()
    wrong = []
    for requirement in project_requirements():
        name = canonicalize_name(requirement.name)
        if name not in pins:
            wrong.append(f"{requirement}: not in the lock")
        elif not requirement.specifier.contains(pins[name], prereleases=True):
            wrong.append(f"{requirement}: the lock has {pins[name]}")
    assert not wrong, "requirements/ci.lock is stale (remake it: scripts/lock): " + "; ".join(wrong)


def test_the_user_facing_requirements_are_ranges_not_pins():
    pinned = [
        str(r)
        for r in project_requirements()
        if any(s.operator in ("==", "===") for s in r.specifier)
        # the one exception: the generator of the checked-in protocol code
        and canonicalize_name(r.name) != "grpcio-tools"
    ]
    assert not pinned


def test_docstring_examples_of_the_product_code_are_collected():
    """pytest's default run covers hegemon/ with --doctest-modules (pyproject.toml), and there
    collects every module's examples under its installed name, once."""
    options = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["pytest"]
    assert "hegemon" in options["ini_options"]["testpaths"]
    assert "--doctest-modules" in options["ini_options"]["addopts"].split()
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "--collect-only",
            "-q",
            "-p",
            "no:cacheprovider",
            "hegemon",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    collected = [line for line in done.stdout.splitlines() if "::" in line]
    assert "hegemon/referee/wire/codec.py::hegemon.referee.wire.codec" in collected
    assert "hegemon/referee/rules.py::hegemon.referee.rules" in collected
    assert len(collected) == len(set(collected))
    assert not [line for line in collected if "migrations" in line]
