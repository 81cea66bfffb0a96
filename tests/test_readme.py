"""The README's examples run as printed."""

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def python_blocks() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return re.findall(r"```python\n(.*?)```", text, re.S)


def test_readme_engine_example_plays_both_presets_to_the_end():
    block = next(b for b in python_blocks() if "def play(" in b)
    out = subprocess.run(
        [sys.executable, "-c", block], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert [line.split()[0] for line in lines] == ["classic", "classic-2004"]
    for line in lines:
        places = eval(line.split(" ", 1)[1])  # a tuple of places printed by the example
        assert sorted(places)[0] == 1 and len(places) == 4


def test_readme_minimal_bot_is_the_tested_sample_and_under_30_lines():
    minimal = (ROOT / "sample_bots" / "minimal.py").read_text(encoding="utf-8")
    assert minimal in python_blocks()
    assert len(minimal.strip().splitlines()) < 30
