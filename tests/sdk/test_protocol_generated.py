"""The generated protocol code in referee/wire/ is what scripts/gen-protos makes of the .proto."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent
GENERATED = ("bot_pb2.py", "bot_pb2.pyi", "bot_pb2_grpc.py")
COMMAND = "scripts/gen-protos"


def test_generated_code_is_up_to_date(tmp_path):
    env = dict(os.environ, HEGEMON_PYTHON=sys.executable)
    done = subprocess.run(
        ["bash", str(ROOT / "scripts" / "gen-protos"), str(tmp_path)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, f"{COMMAND} failed:\n{done.stdout}{done.stderr}"
    stale = []
    for name in GENERATED:
        checked_in = ROOT / "referee" / "wire" / name
        fresh = (tmp_path / name).read_text()
        if not checked_in.is_file() or checked_in.read_text() != fresh:
            stale.append(f"referee/wire/{name}")
    if stale:
        pytest.fail(
            f"stale generated protocol code: {', '.join(stale)} differ(s) from "
            f"protos/hegemon/v1/bot.proto; run `{COMMAND}` and commit the result"
        )


def test_generated_code_imports_as_a_package():
    from hegemon.referee.wire import bot_pb2, bot_pb2_grpc

    assert bot_pb2.DESCRIPTOR.package == "hegemon.v1"
    # the generated module's own import of bot_pb2 (not re-exported): resolved in the package
    assert bot_pb2_grpc.hegemon_dot_v1_dot_bot__pb2 is bot_pb2  # type: ignore[attr-defined]
    assert set(bot_pb2.DESCRIPTOR.services_by_name["Bot"].methods_by_name) == {
        "Hello",
        "StartGame",
        "Decide",
        "EndGame",
        "DecideStream",
    }


def test_every_message_and_field_is_documented(tmp_path):
    """Bot authors read the .proto: every message, field, oneof, enum, enum value, service and
    RPC carries a comment (checked on protoc's own source info, not by pattern matching)."""
    from google.protobuf import descriptor_pb2
    from grpc_tools import protoc

    out = tmp_path / "bot.desc"
    code = protoc.main(
        [
            "protoc",
            f"-I{ROOT / 'protos'}",
            "--include_source_info",
            f"--descriptor_set_out={out}",
            "hegemon/v1/bot.proto",
        ]
    )
    assert code == 0
    fds = descriptor_pb2.FileDescriptorSet.FromString(out.read_bytes())
    (file,) = fds.file
    commented = {
        tuple(loc.path)
        for loc in file.source_code_info.location
        if loc.leading_comments.strip() or loc.trailing_comments.strip()
    }
    missing = []

    def need(path, what):
        if tuple(path) not in commented:
            missing.append(what)

    def message(msg, path, prefix):
        name = f"{prefix}{msg.name}"
        if msg.options.map_entry:
            return
        need(path, f"message {name}")
        for i, field in enumerate(msg.field):
            need([*path, 2, i], f"field {name}.{field.name}")
        for i, oneof in enumerate(msg.oneof_decl):
            if not oneof.name.startswith("_"):  # synthetic oneof of a proto3 `optional`
                need([*path, 8, i], f"oneof {name}.{oneof.name}")
        for i, nested in enumerate(msg.nested_type):
            message(nested, [*path, 3, i], name + ".")
        for i, enum in enumerate(msg.enum_type):
            enumeration(enum, [*path, 4, i], name + ".")

    def enumeration(enum, path, prefix):
        need(path, f"enum {prefix}{enum.name}")
        for i, value in enumerate(enum.value):
            need([*path, 2, i], f"enum value {value.name}")

    for i, msg in enumerate(file.message_type):
        message(msg, [4, i], "")
    for i, enum in enumerate(file.enum_type):
        enumeration(enum, [5, i], "")
    for i, service in enumerate(file.service):
        need([6, i], f"service {service.name}")
        for j, method in enumerate(service.method):
            need([6, i, 2, j], f"rpc {service.name}.{method.name}")
    assert not missing, "undocumented in bot.proto:\n" + "\n".join(missing)
