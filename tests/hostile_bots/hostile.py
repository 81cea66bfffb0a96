"""A hostile bot: it attacks the arena in the way its first argument names, says on stdout what
it observed (lines ``HOSTILE <what>: <result>``, read by tests/runner/test_hostile.py from its log),
then plays on legally — or misbehaves on purpose where that is the attack.

    python hostile.py MODE [--address ADDR]

Where to aim comes from its environment (set by the test, since a bot never sees the
referee's): HOSTILE_TCP_PORT, HOSTILE_UDP_PORT, HOSTILE_PG_PORT, HOSTILE_ABSTRACT,
HOSTILE_UNIX_PATH, HOSTILE_DB, HOSTILE_HOME, HOSTILE_OTHER_BOT, HOSTILE_RECORDS,
HOSTILE_REFEREE_PID, HOSTILE_TMP_MARK. Every address is on the loopback or this machine's own
sockets.

Modes: network, files, disk, fork_bomb, fork_bomb_left, memory, kill, escape, spin_decide,
spin_background, answer_100mb, malformed, late, flood, socket_swap_start, socket_swap_later,
leave_children, memory_fork (20 children touching 900 MB each), spinners (ten children
spinning in the background from its start on), quiet (plays like spinners, without
them).
"""

from __future__ import annotations

import ctypes
import errno
import mmap
import os
import signal
import socket
import sys
import threading
import time
from pathlib import Path

from hegemon.referee.wire import bot_pb2 as pb
from hegemon.sdk import Bot, run
from hegemon.sdk import server as sdk_server

MODE = sys.argv[1]
ENV = os.environ
LIBC = ctypes.CDLL(None, use_errno=True)


def report(what: str, result: object) -> None:
    text = str(result).replace("\n", " ")[:300]
    try:
        print(f"HOSTILE {what}: {text}", flush=True)
    except OSError:
        pass  # its log is full (the file-size limit): nothing more to say


def attempt(what: str, action) -> None:
    """Run one attack; report what came of it (``ok ...`` if it worked, else the error)."""
    try:
        value = action()
        report(what, f"ok {value!r}"[:300])
    except BaseException as exc:
        report(what, f"{type(exc).__name__}: {exc}")


def write(path: str, mode: str, data: str | bytes) -> int:
    with open(path, mode) as f:
        return f.write(data)


def errno_of(result: int) -> str:
    if result == -1:
        e = ctypes.get_errno()
        return f"refused: {errno.errorcode.get(e, e)} {os.strerror(e)}"
    return f"ok {result}"


# ------------------------------------------------------------------------------ attacks
def network() -> None:
    tcp_port = int(ENV.get("HOSTILE_TCP_PORT", "1"))
    udp_port = int(ENV.get("HOSTILE_UDP_PORT", "1"))
    pg_port = int(ENV.get("HOSTILE_PG_PORT", "5432"))

    def tcp(host: str, port: int):
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        with socket.socket(family, socket.SOCK_STREAM) as s:
            s.settimeout(2)
            s.connect((host, port))
            s.sendall(b"hostile hello\n")
            return "connected"

    def udp():
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            return s.sendto(b"hostile datagram", ("127.0.0.1", udp_port))

    def unix(address: str):
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            s.settimeout(2)
            s.connect(address)
            s.sendall(b"hostile hello\n")
            return "connected"

    attempt("tcp 127.0.0.1 listener", lambda: tcp("127.0.0.1", tcp_port))
    attempt("tcp 127.0.0.1 postgres", lambda: tcp("127.0.0.1", pg_port))
    attempt("tcp ::1 listener", lambda: tcp("::1", tcp_port))
    attempt("udp 127.0.0.1 listener", udp)
    attempt("abstract unix listener", lambda: unix("\0" + ENV.get("HOSTILE_ABSTRACT", "x")))
    attempt("path unix listener", lambda: unix(ENV.get("HOSTILE_UNIX_PATH", "/nonexistent")))
    attempt("postgres unix socket", lambda: unix(f"/var/run/postgresql/.s.PGSQL.{pg_port}"))
    attempt("docker socket", lambda: unix("/var/run/docker.sock"))
    attempt("netlink socket", lambda: socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 0))
    attempt("interfaces", socket.if_nameindex)


def files() -> None:
    def read(path: str):
        with open(path, "rb") as f:
            return f.read(200)

    pid = ENV.get("HOSTILE_REFEREE_PID", "1")
    attempt("read database", lambda: read(ENV["HOSTILE_DB"]))
    attempt("write database", lambda: write(ENV["HOSTILE_DB"], "ab", b"pwned"))
    attempt("list hegemon home", lambda: os.listdir(ENV["HOSTILE_HOME"]))
    attempt("read other bot", lambda: read(ENV["HOSTILE_OTHER_BOT"]))
    attempt("list records", lambda: os.listdir(ENV["HOSTILE_RECORDS"]))
    attempt("list referee home", lambda: os.listdir(ENV["HOSTILE_USER_HOME"]))
    attempt("list beside checkout", lambda: os.listdir(ENV["HOSTILE_BESIDE_CHECKOUT"]))
    attempt("read referee source", lambda: read(ENV["HOSTILE_REFEREE_SOURCE"]))
    attempt("read .git", lambda: read(ENV["HOSTILE_GIT"]))
    attempt("read /etc/shadow", lambda: read("/etc/shadow"))
    attempt("referee environ", lambda: read(f"/proc/{pid}/environ"))
    attempt("referee cmdline", lambda: read(f"/proc/{pid}/cmdline"))
    attempt("parent environ", lambda: read(f"/proc/{os.getppid()}/environ"))
    attempt("processes seen", lambda: sorted(int(p) for p in os.listdir("/proc") if p.isdigit()))
    attempt("write own folder", lambda: write("pwned.txt", "w", "x"))
    attempt("write root", lambda: write("/pwned.txt", "w", "x"))
    attempt("write hegemon home", lambda: write(f"{ENV['HOSTILE_HOME']}/pwned.txt", "w", "x"))
    # its own /tmp is private: what it writes there must not reach the host's
    attempt("write /tmp", lambda: write(f"/tmp/{ENV['HOSTILE_TMP_MARK']}", "w", "x"))
    attempt("environment", lambda: sorted(os.environ))
    attempt("uid", lambda: (os.getuid(), os.geteuid(), os.getgid(), os.getgroups()))


def disk() -> None:
    chunk = b"\0" * (1 << 20)

    def fill(path: str, limit: int = 10 << 30) -> str:
        written = 0
        try:
            with open(path, "wb") as f:
                while written < limit:
                    written += f.write(chunk)
                    f.flush()
        except OSError as exc:
            return f"stopped after {written >> 20} MiB: {exc}"
        return f"wrote {written >> 20} MiB"

    def many(folder: str) -> str:
        total, results = 0, set()
        for i in range(1000):  # up to 1000 files of at most 10 GB each
            result = fill(f"{folder}/fill-{i}", 10 << 30)
            results.add(result.split(":")[-1].strip())
            total += int(result.split()[2]) if result.startswith("stopped") else 0
            if "No space" in result:
                break
        return f"{total} MiB in all; {sorted(results)}"

    report("10 GB file in /tmp", fill("/tmp/ten-gb"))
    report("many files in /tmp", many("/tmp"))
    report("many files in /dev/shm", many("/dev/shm"))
    report("10 GB file in its folder", fill("ten-gb"))
    for folder in ("/tmp", "/dev/shm"):  # room again, for its own socket
        for name in os.listdir(folder):
            if name.startswith(("fill-", "ten-gb")):
                os.unlink(f"{folder}/{name}")
    # last: 10 GB into its own log (stdout): stopped by the file-size limit
    written = 0
    try:
        line = b"x" * 65535 + b"\n"
        while written < (10 << 30):
            written += os.write(1, line)
    except OSError as exc:
        report("log flood", f"stopped after {written >> 20} MiB: {exc}")  # lost: the log is full


_forked: list[int] = []


def fork_bomb() -> None:
    read, write = os.pipe()
    count, error = 0, ""
    for _ in range(10_000):
        try:
            pid = os.fork()
        except OSError as exc:
            error = str(exc)
            break
        if pid == 0:
            os.close(write)
            os.read(read, 1)  # wait for the parent to give up
            os._exit(0)
        _forked.append(pid)
        count += 1
    os.close(write)
    for pid in _forked:
        os.waitpid(pid, 0)
    report("fork bomb", f"{count} processes, then {error or 'no refusal'}")


def fork_bomb_left() -> None:
    """A detached bomb that keeps forking and stays; the bot itself then tries to play."""
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
            signal.signal(signal.SIGHUP, signal.SIG_IGN)
            while True:
                try:
                    if os.fork() == 0:
                        signal.signal(signal.SIGTERM, signal.SIG_IGN)
                        time.sleep(3600)
                        os._exit(0)
                except OSError:
                    time.sleep(0.01)
        os._exit(0)
    report("fork bomb left", "started")


def memory() -> None:
    def big():
        block = bytearray(20 << 30)
        return len(block)

    def grow():
        blocks, total = [], 0
        try:
            while total < (20 << 30):
                blocks.append(bytearray(100 << 20))
                total += 100 << 20
        except MemoryError:
            pass
        blocks.clear()
        return f"{total >> 20} MiB before MemoryError"

    attempt("allocate 20 GB at once", big)
    attempt("allocate 20 GB by 100 MB", grow)
    attempt("mmap 20 GB", lambda: mmap.mmap(-1, 20 << 30).close())


def memory_fork(children: int = 20, size: int = 900 << 20) -> None:
    """Fork ``children`` processes that each touch ``size`` bytes and then hold them."""
    for _ in range(children):
        try:
            if os.fork() == 0:
                try:
                    block = bytearray(size)
                    for at in range(0, size, 4096):
                        block[at] = 1  # every page resident, not just reserved
                except MemoryError:
                    os._exit(3)
                time.sleep(3600)
                os._exit(0)
        except OSError as exc:
            report("fork", exc)
            break
    report("memory fork", f"{children} children of {size >> 20} MiB started")


def spinners(count: int = 10) -> None:
    """``count`` children burning CPU for ever, in the background (as many as the bot's task
    ceiling lets it start: its gRPC threads count too)."""
    started, stopped_by = 0, ""
    for _ in range(count):
        try:
            child = os.fork()
        except OSError as exc:
            stopped_by = f", then {errno.errorcode.get(exc.errno or 0, exc)}"
            break
        if child == 0:
            while True:
                pass
        started += 1
    report("spinners", f"{started} started{stopped_by}")


def kill() -> None:
    pid = int(ENV.get("HOSTILE_REFEREE_PID", "1"))
    attempt("kill parent", lambda: os.kill(os.getppid(), signal.SIGKILL))
    attempt("kill referee pid", lambda: os.kill(pid, signal.SIGKILL))
    attempt("kill pid 1", lambda: os.kill(1, signal.SIGKILL))
    attempt("kill -9 -1", lambda: os.kill(-1, signal.SIGKILL))
    attempt("still alive", os.getpid)


def escape() -> None:
    CLONE_NEWUSER, CLONE_NEWNS, CLONE_NEWNET = 0x10000000, 0x00020000, 0x40000000
    report("unshare user namespace", errno_of(LIBC.unshare(CLONE_NEWUSER | CLONE_NEWNS)))
    report("unshare network", errno_of(LIBC.unshare(CLONE_NEWNET)))
    report("mount tmpfs", errno_of(LIBC.mount(b"none", b"/tmp", b"tmpfs", 0, None)))
    report("ptrace pid 1", errno_of(LIBC.ptrace(16, 1, None, None)))  # PTRACE_ATTACH
    report("chroot", errno_of(LIBC.chroot(b"/tmp")))
    report("setuid 0", errno_of(LIBC.setuid(0)))
    attempt("memfd", lambda: os.memfd_create("x"))
    report("io_uring", errno_of(LIBC.syscall(425, 8, ctypes.create_string_buffer(120))))
    report("bpf", errno_of(LIBC.syscall(321, 0, None, 0)))
    report("open_by_handle_at", errno_of(LIBC.syscall(304, -100, None, 0)))
    attempt("packet socket", lambda: socket.socket(socket.AF_PACKET, socket.SOCK_RAW, 0))
    attempt("shmget", lambda: errno_of(LIBC.shmget(0, 1 << 30, 0o1000 | 0o600)))
    attempt(
        "capabilities",
        lambda: [
            line
            for line in Path("/proc/self/status").read_text().splitlines()
            if line.startswith(("CapEff", "CapBnd", "NoNewPrivs", "Seccomp:"))
        ],
    )


def spin_background() -> None:
    def spin():
        while True:
            pass

    threading.Thread(target=spin, daemon=True).start()
    report("spinning", "in the background")


def leave_children() -> None:
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            for s in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
                signal.signal(s, signal.SIG_IGN)
            LIBC.prctl(1, 0)  # PR_SET_PDEATHSIG: none
            time.sleep(3600)
            os._exit(0)
        os._exit(0)
    report("daemon", "left behind")


def flood_connections() -> None:
    address = sys.argv[sys.argv.index("--address") + 1][len("unix:") :]
    held, error = [], ""
    for _ in range(100_000):
        try:
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.connect(address)
            held.append(s)
        except OSError as exc:
            error = str(exc)
            break
    report("connections to its own socket", f"{len(held)}, then {error or 'no refusal'}")
    time.sleep(1.0)  # the referee's next requests meet a server with no file left
    for s in held:
        s.close()


# ------------------------------------------------------------------------------ the bot
class Hostile(Bot):
    name = f"hostile-{MODE}"
    answered = 0

    def decide(self, view, decision):
        self.answered += 1
        if MODE == "spin_decide":
            while True:
                pass
        if MODE == "spin_background":
            if self.answered == 1:
                spin_background()
            time.sleep(0.05)  # a long game: the CPU limit must strike during it
        if MODE == "memory_fork" and self.answered == 1:
            memory_fork()
        if MODE == "flood" and self.answered == 3:  # the referee is connected by now
            threading.Thread(target=flood_connections, daemon=True).start()
        if MODE == "late":  # a legal answer, too late: past its deadline of CPU time
            end = time.process_time() + view.deadline_ms / 1000 + 0.3
            while time.process_time() < end:
                pass
        if MODE == "socket_swap_later" and self.answered == 5:
            threading.Thread(target=swap_socket_later, daemon=True).start()
            time.sleep(0.5)
        return super().decide(view, decision)


def swap_socket_later() -> None:
    """Stop serving, and put a link to a socket of the host where the bot's socket was."""
    address = sys.argv[sys.argv.index("--address") + 1][len("unix:") :]
    serving = SERVING[0]
    serving.server.stop(0)
    try:
        os.unlink(address)
    except OSError:
        pass
    attempt(
        "socket swapped for a link", lambda: os.symlink(ENV.get("HOSTILE_UNIX_PATH", "/x"), address)
    )


SERVING: list = []
original_serve = sdk_server.serve


def serve_and_keep(*args, **kwargs):
    serving = original_serve(*args, **kwargs)
    SERVING.append(serving)
    return serving


sdk_server.serve = serve_and_keep

if MODE == "answer_100mb":
    HUGE = pb.DecideReply(game_id="x" * 100_000_000)  # built once, so it is sent in time

    def huge_decide(self, request, context):
        return HUGE

    sdk_server.BotServicer.Decide = huge_decide  # type: ignore[method-assign]  # the attack

if MODE == "malformed":
    COUNT = [0]

    def malformed_decide(self, request, context):
        COUNT[0] += 1
        n = COUNT[0] % 4
        if n == 0:
            return pb.DecideReply(game_id="someone-else's game", action=pb.Action(pass_=pb.Pass()))
        if n == 1:
            place = pb.Place(
                placements=[pb.Placement(territory=-(1 << 31), armies=(1 << 31) - 1)] * 100_000
            )
            return pb.DecideReply(game_id=request.game_id, action=pb.Action(place=place))
        if n == 2:
            return pb.DecideReply(
                game_id=request.game_id,
                action=pb.Action(attack=pb.Attack(source=-1, target=1 << 30, dice=-7)),
            )
        return pb.DecideReply(
            game_id=request.game_id, action=pb.Action(trade=pb.Trade(cards=[7] * 200_000))
        )

    sdk_server.BotServicer.Decide = malformed_decide  # type: ignore[method-assign]  # the attack

if MODE == "flood":
    # an endless stream of ~1 MB health messages the referee never asked to read
    from grpc_health.v1 import health, health_pb2

    def varint(n: int) -> bytes:
        out = b""
        while n > 0x7F:
            out += bytes([n & 0x7F | 0x80])
            n >>= 7
        return out + bytes([n])

    JUNK = 900_000  # under the referee's 1 MiB limit: each message is one it would accept
    BLOB = (
        health_pb2.HealthCheckResponse(status=1).SerializeToString()
        + varint(1023 << 3 | 2)
        + varint(JUNK)
        + b"z" * JUNK
    )  # an unknown field

    def endless_watch(self, request, context):
        sent = 0
        while context.is_active():
            yield health_pb2.HealthCheckResponse.FromString(BLOB)
            sent += 1
            if sent % 100 == 0:
                report("health messages pushed", sent)

    health.HealthServicer.Watch = endless_watch

if MODE == "socket_swap_start":
    address = sys.argv[sys.argv.index("--address") + 1][len("unix:") :]
    attempt("socket is a link", lambda: os.symlink(ENV.get("HOSTILE_UNIX_PATH", "/x"), address))
    time.sleep(3600)

ATTACKS = {
    "network": network,
    "files": files,
    "disk": disk,
    "fork_bomb": fork_bomb,
    "fork_bomb_left": fork_bomb_left,
    "memory": memory,
    "kill": kill,
    "escape": escape,
    "leave_children": leave_children,
    # before gRPC starts: a process serving gRPC forks badly (its threads are not copied, and a
    # child's gRPC may start threads of its own until the bot's task ceiling stops everything)
    "spinners": spinners,
}
if MODE in ATTACKS:
    ATTACKS[MODE]()
report("done", MODE)
run(Hostile(), list(sys.argv[2:]))
