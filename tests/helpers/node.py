"""The Node.js sample bot as a running process, for the tests that talk to it over gRPC."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

ROOT = Path(__file__).resolve().parent.parent.parent
BOT_DIR = ROOT / "sample_bots" / "node"
NODE = shutil.which("node")


def _install() -> None:
    """`npm ci` from the lock file, once, if node_modules is missing."""
    if (BOT_DIR / "node_modules" / "@grpc" / "grpc-js").is_dir() and (
        BOT_DIR / "node_modules" / "@grpc" / "proto-loader"
    ).is_dir():
        return
    npm = shutil.which("npm")
    assert npm, "node is installed but npm is not: cannot install the Node bot's packages"
    done = subprocess.run(
        [npm, "ci", "--no-audit", "--no-fund"],
        cwd=BOT_DIR,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, f"npm ci failed in {BOT_DIR}:\n{done.stdout}\n{done.stderr}"


@pytest.fixture(scope="module")
def node_bot():
    """The running bot: yields (channel, process); the process is killed afterwards."""
    _install()
    sock_dir = tempfile.mkdtemp(prefix="hegemon-node-")  # short: unix socket paths are limited
    address = f"unix:{sock_dir}/bot.sock"
    log = open(Path(sock_dir) / "bot.log", "w+")  # noqa: SIM115 (closed in the finally below)
    assert NODE is not None  # the module is skipped without node
    proc = subprocess.Popen(
        [NODE, str(BOT_DIR / "bot.js"), "--address", address],
        cwd=BOT_DIR,
        stdin=subprocess.DEVNULL,
        stdout=log,
        stderr=log,
        start_new_session=True,
    )
    channel = grpc.insecure_channel(address)
    try:
        health = health_pb2_grpc.HealthStub(channel)
        deadline = time.monotonic() + 30
        while True:
            if proc.poll() is not None:
                log.seek(0)
                pytest.fail(f"the Node bot exited with {proc.returncode}:\n{log.read()}")
            try:
                reply = health.Check(health_pb2.HealthCheckRequest(), timeout=1)
                if reply.status == health_pb2.HealthCheckResponse.SERVING:
                    break
            except grpc.RpcError:
                pass
            if time.monotonic() > deadline:
                log.seek(0)
                pytest.fail(f"the Node bot did not become SERVING within 30 s:\n{log.read()}")
            time.sleep(0.05)
        yield channel, proc
    finally:
        channel.close()
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)  # our own process group, started above
                proc.wait(timeout=5)
        log.close()
        shutil.rmtree(sock_dir, ignore_errors=True)
        assert proc.poll() is not None, "the Node bot is still running"
