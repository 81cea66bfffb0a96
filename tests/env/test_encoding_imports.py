"""The encoder stays importable by a bot: it loads numpy and the rules engine, nothing else of
hegemon (no SDK, no learning environment, no league) and neither learning library."""

from __future__ import annotations

import json
import subprocess
import sys

PROBE = """
import json, sys
before = set(sys.modules)
import hegemon.referee.encoding
print(json.dumps(sorted(set(sys.modules) - before)))
"""


def test_the_encoder_loads_only_numpy_and_the_engine():
    out = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, check=True, timeout=120
    )
    loaded = json.loads(out.stdout)
    roots = {name.split(".")[0] for name in loaded}
    assert "numpy" in roots
    ours = {name for name in loaded if name.startswith("hegemon.")}
    outside = {
        n
        for n in ours
        if not n.startswith("hegemon.referee")
        or n.startswith(("hegemon.referee.wire", "hegemon.referee.runner"))
    }
    assert not outside, outside
    assert not roots & {"gymnasium", "pettingzoo", "grpc", "trio"}, roots
