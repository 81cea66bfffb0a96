"""Dependencies point one way (DESIGN.md "Layout"): checked on what importing really loads."""

import ast
import json
import subprocess
import sys
from pathlib import Path

from hegemon.referee import formulas


def loaded_after(statement: str) -> set[str]:
    code = f"import sys; {statement}; import json; print(json.dumps(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return set(json.loads(out.stdout))


def test_the_rules_engine_imports_nothing_from_the_rest_and_does_no_io_imports():
    modules = loaded_after(
        "import hegemon.referee, hegemon.referee.game, hegemon.referee.record, "
        "hegemon.referee.view, hegemon.referee.legal, hegemon.referee.policies, "
        "hegemon.referee.timecontrol, hegemon.referee.formulas"
    )
    forbidden = {
        "hegemon.sdk",
        "hegemon.leaderboard",
        "hegemon.sample_bots",
        "hegemon.referee.runner",
        "grpc",
        "trio",
        "sqlmodel",
        "socket",
        "subprocess",
    }
    assert not {m for m in modules if m.split(".")[0] in forbidden or m in forbidden}


def test_the_referee_core_uses_trio_for_its_clock_and_nothing_of_a_transport():
    """The core (asks, clock, strikes, forfeits) is shared by the gRPC runner and the SDK's
    local play: it may load trio, never grpc, the match runner or the SDK."""
    modules = loaded_after("import hegemon.referee.arbiter")
    assert "trio" in modules
    forbidden = ("grpc", "hegemon.sdk", "hegemon.referee.runner", "hegemon.leaderboard")
    assert not {m for m in modules if m.startswith(forbidden)}


def test_the_match_runner_uses_the_protocol_code_but_not_the_sdks_bot_side():
    modules = loaded_after("import hegemon.referee.runner.session, hegemon.referee.runner.match")
    assert "hegemon.referee.wire.bot_pb2" in modules
    assert (
        not {
            "hegemon.sdk.bot",
            "hegemon.sdk.context",
            "hegemon.sdk.server",
            "hegemon.sdk.helpers",
            "hegemon.sdk.local",
        }
        & modules
    )
    assert not {m for m in modules if m.startswith(("leaderboard", "sample_bots"))}


def test_the_sdk_never_imports_the_match_runner():
    modules = loaded_after(
        "import hegemon.sdk; from hegemon.sdk import Bot, run, play_local, legal_actions"
    )
    assert not {
        m for m in modules if m.startswith(("hegemon.referee.runner", "hegemon.leaderboard"))
    }


def test_the_rule_formulas_import_nothing_but_the_board():
    """``formulas`` is the one copy of the rule formulas that the engine, the SDK helpers and
    the odds all read: it stays a leaf on top of the board (read from its source, as importing
    any engine module loads the whole package)."""
    tree = ast.parse(Path(formulas.__file__).read_text())
    imported = {
        (node.level, node.module) for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
    }
    plain = {a.name for node in ast.walk(tree) if isinstance(node, ast.Import) for a in node.names}
    assert {m for level, m in imported if level} <= {"board"}
    assert {m for level, m in imported if not level} <= {"__future__", "collections.abc"}
    assert not plain
