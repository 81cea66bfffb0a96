"""docs/speed.md keeps one row per benchmark script, each saying where its figure comes from.

A reader looks up a script and finds today's figure, the load and the commit it was measured
on, and the target: so every ``benchmarks/*.py`` has exactly one row, every row names a script
that exists, every measured row names its commit (or says since which commit it was not
re-measured), and a helper's row names the benchmark that runs it. The figures' history lives
in docs/speed-history.md, which the page links to.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
SPEED = ROOT / "docs" / "speed.md"
HEADER = ["script", "measures", "figure", "load", "commit", "target"]
SCRIPT = re.compile(r"`benchmarks/(?P<name>[\w-]+\.py)")
COMMIT = re.compile(r"^(?:not re-measured since )?`[0-9a-f]{7,40}`$")
HELPER = re.compile(r"^helper of (?P<names>(?:`benchmarks/[\w-]+\.py`(?:, | and )?)+)")


def cells(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def rows(text: str) -> list[dict[str, str]]:
    """Every body row of the page's tables whose header is :data:`HEADER`, as a dict."""
    found = []
    header: list[str] | None = None
    for line in text.splitlines():
        if not line.startswith("|"):
            header = None
            continue
        parts = cells(line)
        if header is None:
            header = parts
        elif header == HEADER and not set(line) <= set("|-: "):
            assert len(parts) == len(HEADER), f"a row of {len(parts)} cells: {line}"
            found.append(dict(zip(HEADER, parts, strict=True)))
    return found


def scripts() -> set[str]:
    return {path.name for path in (ROOT / "benchmarks").glob("*.py")}


def script_of(row: dict[str, str]) -> str:
    names = SCRIPT.findall(row["script"])
    assert len(names) == 1, f"a row's first cell names one script: {row['script']}"
    return str(names[0])


def test_every_benchmark_has_one_row_and_every_row_an_existing_script():
    named = [script_of(row) for row in rows(SPEED.read_text(encoding="utf-8"))]
    assert named, "no table with the columns " + " | ".join(HEADER)
    twice = sorted({name for name in named if named.count(name) > 1})
    assert not twice, f"one row per script: {twice}"
    assert not set(named) - scripts(), f"rows for no script: {sorted(set(named) - scripts())}"
    assert not scripts() - set(named), f"scripts with no row: {sorted(scripts() - set(named))}"


def test_every_row_says_what_commit_and_load_its_figure_is_from_or_whose_helper_it_is():
    by_name = {script_of(row): row for row in rows(SPEED.read_text(encoding="utf-8"))}
    vague = []
    for name, row in by_name.items():
        helper = HELPER.match(row["figure"])
        if helper:
            served = SCRIPT.findall(helper["names"])
            vague += [
                f"{name}: helper of {s}, which has no row" for s in served if s not in by_name
            ]
        elif not COMMIT.match(row["commit"]) or not row["load"] or not row["figure"]:
            vague.append(f"{name}: {row['figure']!r} at load {row['load']!r}, {row['commit']!r}")
    assert not vague, "\n".join(vague)


def test_the_history_has_a_page_of_its_own_linked_from_the_figures():
    assert "(speed-history.md)" in SPEED.read_text(encoding="utf-8")
    assert (ROOT / "docs" / "speed-history.md").is_file()


def test_the_rows_are_read_from_tables_of_the_right_columns_only():
    text = "\n".join(
        [
            "| script | measures | figure | load | commit | target |",
            "|---|---|---|---|---|---|",
            "| `benchmarks/a.py` | x | 1 | 2 | `abc1234` | none |",
            "",
            "| other | table |",
            "|---|---|",
            "| `benchmarks/b.py` | y |",
        ]
    )
    assert [script_of(row) for row in rows(text)] == ["a.py"]
