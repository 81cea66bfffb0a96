"""The SDK's API reference (``scripts/docs``, pdoc) builds without a warning and documents
what a bot author needs: the view's fields, the by-name lookups, ``play_local``."""

from __future__ import annotations

import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent


def test_the_sdk_reference_builds_without_warnings(tmp_path):
    out = subprocess.run(
        [str(ROOT / "scripts" / "docs"), str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr
    assert "Warn" not in out.stderr, out.stderr
    package = (tmp_path / "hegemon" / "sdk.html").read_text(encoding="utf-8")
    context = (tmp_path / "hegemon" / "sdk" / "context.html").read_text(encoding="utf-8")
    for name in ("BotView", "play_local", "conquest_probability", "attack_options"):
        assert name in package, name
    for text in ("The territory called", "The continent called", "Why your previous answer"):
        assert text in context, text
