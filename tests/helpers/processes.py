"""Real bot processes for the tests: start one on a unix socket, stop it; find what a bot's
sandbox left running."""

from __future__ import annotations

import os
import signal
import struct
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from hegemon.referee.runner.process import BotCommand
from hegemon.referee.wire import bot_pb2 as pb

ROOT = Path(__file__).resolve().parent.parent.parent


@contextmanager
def spinners(
    count: int, cpu: int | None = None, nice: int = 0
) -> Iterator[list[subprocess.Popen[bytes]]]:
    """``count`` processes spinning until the block ends (then killed): a busy machine. On
    ``cpu`` alone if given, each in a session of its own (the kernel may share a CPU between
    sessions before tasks), at ``nice``."""
    code = "import os\n"
    code += f"os.sched_setaffinity(0, {{{cpu}}})\n" if cpu is not None else ""
    code += f"os.nice({nice})\nwhile True: pass"
    started = [
        subprocess.Popen([sys.executable, "-c", code], start_new_session=cpu is not None)
        for _ in range(count)
    ]
    try:
        yield started
    finally:
        for process in started:
            process.kill()
            process.wait()


def start_bot(tmp_path: Path, argv: list[str], *, via_env: bool = False, name: str = "bot"):
    """Start a bot process listening on a unix socket in ``tmp_path``; wait until its health
    service says SERVING. Returns (process, channel, address)."""
    sock = tmp_path / f"{name}.sock"
    address = f"unix:{sock}"
    env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONUNBUFFERED="1")
    if via_env:
        env["HEGEMON_BOT_ADDRESS"] = address
    else:
        argv = [*argv, "--address", address]
    with open(tmp_path / f"{name}.log", "wb") as log:
        proc = subprocess.Popen(
            [sys.executable, *argv],
            cwd=tmp_path,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    channel = grpc.insecure_channel(address)
    health = health_pb2_grpc.HealthStub(channel)
    deadline = time.monotonic() + 30
    while True:
        try:
            status = health.Check(health_pb2.HealthCheckRequest(service=""), timeout=1).status
            if status == health_pb2.HealthCheckResponse.SERVING:
                return proc, channel, address
        except grpc.RpcError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            raise AssertionError(f"bot did not come up: {(tmp_path / f'{name}.log').read_text()}")
        time.sleep(0.05)


def boot_ticks() -> int:
    """Now, in the unit ``/proc/<pid>/stat`` gives a process's start in: clock ticks since
    boot."""
    return int(time.clock_gettime(time.CLOCK_BOOTTIME) * os.sysconf("SC_CLK_TCK"))


def left_running(namespaces: dict[int, int], uids: dict[int, int]) -> list[str]:
    """The processes still running in one of ``namespaces`` (a PID namespace's inode → a
    moment in :func:`boot_ticks`) or, in the host's PID namespace, as one of ``uids`` (a pool
    uid → a moment), that started no later than that moment — the moment its bot was first
    killed. Once free, a namespace's inode and a pool uid are reused (by another test worker's
    bot, the tests running in parallel): processes started after the kill are not its bot's."""
    host = os.stat("/proc/self/ns/pid").st_ino
    left = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            ns = os.stat(f"/proc/{entry}/ns/pid").st_ino
            with open(f"/proc/{entry}/status") as f:
                uid = next(int(line.split()[1]) for line in f if line.startswith("Uid:"))
            with open(f"/proc/{entry}/stat") as f:
                started = int(f.read().rpartition(")")[2].split()[19])
        except (OSError, StopIteration, IndexError, ValueError):
            continue  # it ended while being looked at
        mark = namespaces.get(ns, uids.get(uid) if ns == host else None)
        if mark is not None and started <= mark:
            left.append(f"pid {entry} (uid {uid}, pid namespace {ns})")
    return left


def stop_bot(proc: subprocess.Popen, channel: grpc.Channel) -> int:
    channel.close()
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
    try:
        return proc.wait(timeout=15)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)


BOTS = Path(__file__).resolve().parent.parent / "bots"


def spy(spy_file: Path) -> BotCommand:
    """The spy bot: told where to write (a bot never sees the referee's environment) and let
    write there (its sandbox hides every other folder of the host)."""
    return BotCommand(
        "bad-spy",
        (sys.executable, str(BOTS / "misbehave.py"), "spy"),
        env=(("SPY_FILE", str(spy_file)),),
        share=(str(spy_file.parent),),
    )


def read_spy(path: Path) -> list[tuple[bytes, pb.DecideRequest | pb.StartGameRequest]]:
    """The messages a spy bot saw, in order, each with its kind: b"S" (start) or b"D" (decide)."""
    data = path.read_bytes()
    messages: list[tuple[bytes, pb.DecideRequest | pb.StartGameRequest]] = []
    at = 0
    while at < len(data):
        kind, size = data[at : at + 1], struct.unpack(">I", data[at + 1 : at + 5])[0]
        body = data[at + 5 : at + 5 + size]
        cls = pb.DecideRequest if kind == b"D" else pb.StartGameRequest
        messages.append((kind, cls.FromString(body)))
        at += 5 + size
    return messages
