"""The referee's cost per decision, beside a bare grpcio call over the same kind of socket.

Plays 3-seat `classic` games (turn limit 30) between trivial bots (benchmarks/trivial_bot.py)
through the real referee, and measures the mean wall time per decision. Then, in the same run,
sends the very same Decide requests again to the same bot with a plain synchronous stub, one
call at a time, and measures the mean round trip. The ratio is what the referee adds on top of gRPC:
view building, protobuf encoding, validation, the engine, freezing and the trio bridge. The
same requests are also sent through the trio bridge alone (:func:`bridge.call`, as the referee
calls, but nothing else around it): that ratio is the floor of any referee built on grpcio's
futures from trio, however little it did per decision.

The referee's CPU is also split by thread (from ``/proc/self/task``, summed over the games):
trio's own thread, grpc's channel polling threads (which hand each reply over), grpc's I/O
threads, the rest (the ceiling's watcher).

Last line: ``rpc: overhead ratio R`` (referee ÷ bare: the median over the games of each game's
ratio to its own bare calls).

``--no-socket`` measures the referee's own work alone: the same games over links whose stream
hands each request's bytes to the trivial bot's answer in this process (no gRPC, no bot process,
no freezing; trio's mock clock), and prints trio's thread's CPU per decision — the view, the
request's encoding, the engine, the record, the checks and trio's own scheduling. It runs on
any checkout with the stream (compare with ``cd ../main && python benchmarks/rpc.py
--no-socket``): a figure the machine's load moves far less than the real games'.

``--parts`` says where the ratio goes: it measures the referee four ways in turn, twice over —
as it is; with bots never frozen; with each Decide made as a blocking call on trio's own thread
(no grpc future, no hand-off between threads: a referee that could play only one game at a
time); and with both — and prints each way's ratio and CPU time per decision. Those ways are
measurements only: a referee must freeze its bots and must not block its event loop.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import resource
import statistics
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import trio
import trio.testing

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from hegemon.referee.game import Game  # noqa: E402
from hegemon.referee.rules import make_rules  # noqa: E402
from hegemon.referee.runner import bridge, steady  # noqa: E402
from hegemon.referee.runner.link import BotLink  # noqa: E402
from hegemon.referee.runner.match import Referee  # noqa: E402
from hegemon.referee.runner.process import BotCommand, python_command  # noqa: E402
from hegemon.referee.runner.sandbox.ceiling import Ceiling  # noqa: E402
from hegemon.referee.runner.stream import CallStream, DecideStream, ThreadedStream  # noqa: E402
from hegemon.referee.timecontrol import TimeControl  # noqa: E402
from hegemon.referee.wire.bot_pb2 import DecideReply, DecideRequest, HelloReply  # noqa: E402

RULES = make_rules("classic", {"turn_limit": 30})
SEATS = 3
RUNS = 7
UNARY = "--unary" in sys.argv
"""``--unary``: the referee asks through unary Decide calls, as to a bot without the stream."""


CPU: list[tuple[float, float]] = []
"""Per game: this process's CPU seconds per decision in the referee's game and per bare call
(all its threads: the load of a shared machine moves it much less than the wall time)."""

BRIDGE: list[float] = []
"""Per game: the mean wall time of one call through the trio bridge alone, in seconds."""

BRIDGE_CPU: list[float] = []
"""Per game: this process's CPU seconds per call through the trio bridge alone."""

STREAM_CPU: dict[str, list[float]] = {"grpcio's call": [], "threads": []}
"""Per game: this process's CPU seconds per decision through a DecideStream alone (the same
requests from trio, one stream per bot; only when the bots offer the stream), on grpcio's
integrated call (:class:`CallStream`, what the referee uses) and on its public streaming call
(:class:`ThreadedStream`, the fallback)."""

SWITCHES: list[tuple[float, float]] = []
"""Per game: this process's voluntary context switches (a thread going to sleep: each hand-off
between threads, each wait for the bot) per decision in the referee's game and per bare call.
A count, which the machine's load hardly moves."""


THREADS: dict[str, float] = {"decisions": 0}
"""This process's CPU seconds in the referee's games, by kind of thread (trio's, grpc's channel
polling threads, grpc's own I/O threads, the rest), and the decisions: summed over the games
(a thread's CPU time is counted in clock ticks, too coarse for one game)."""
_TICKS = os.sysconf("SC_CLK_TCK")


def _waits() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_nvcsw


def _thread_cpu() -> dict[int, tuple[str, float]]:
    """Each thread of this process: its name (``comm``) and CPU seconds so far."""
    found = {}
    for task in os.listdir("/proc/self/task"):
        try:
            with open(f"/proc/self/task/{task}/stat", "rb") as f:
                text = f.read()
        except OSError:  # ended meanwhile
            continue
        name = text[text.index(b"(") + 1 : text.rindex(b")")].decode()
        fields = text.rsplit(b")", 1)[1].split()
        found[int(task)] = (name, (int(fields[11]) + int(fields[12])) / _TICKS)
    return found


def _add_by_kind(before: dict[int, tuple[str, float]], decisions: int) -> None:
    """Add the CPU seconds since ``before`` to :data:`THREADS`, by kind of thread."""
    python = {t.native_id: t.name for t in threading.enumerate()}
    trio_thread = threading.main_thread().native_id
    kinds = THREADS
    kinds["decisions"] += decisions
    for tid, (name, cpu) in _thread_cpu().items():
        used = cpu - before.get(tid, (name, 0.0))[1]
        if tid == trio_thread:
            kind = "trio's"
        elif name == "event_engine":
            kind = "grpc's I/O"
        elif tid in python and "hegemon" not in python[tid]:
            kind = "grpc's polling"  # a channel's thread (the only Python threads but ours)
        else:
            kind = "the rest"
        kinds[kind] = kinds.get(kind, 0.0) + used


async def measure() -> tuple[list[float], list[float]]:
    time_control = TimeControl(startup=20, decision=5, bank=600)
    command = python_command("trivial", ROOT / "benchmarks" / "trivial_bot.py")
    links = [BotLink(command, time_control) for _ in range(SEATS)]
    for link in links:
        assert await link.open(), link.startup_error
        if UNARY:  # as to a bot that does not offer DecideStream
            link.hello.decide_stream = False
    referee_costs, bare_costs = [], []
    sent: list[tuple[BotLink, Any]] = []
    for link in links:
        build = link.decide_bytes

        def recording(*args, _build=build, _link=link):
            request = _build(*args)
            sent.append((_link, request))
            return request

        link.decide_bytes = recording  # type: ignore[method-assign]  # records every request
    try:
        for run in range(RUNS):
            sent.clear()
            game = Game(RULES, SEATS, seed=run)
            referee = Referee(game, links, f"bench-{run}", time_control)
            started, cpu, waits = time.perf_counter(), time.process_time(), _waits()
            threads = _thread_cpu()
            result = await referee.play()
            _add_by_kind(threads, result.decisions)
            referee_costs.append((time.perf_counter() - started) / result.decisions)
            referee_cpu = (time.process_time() - cpu) / result.decisions
            referee_waits = (_waits() - waits) / result.decisions
            # the bare calls: the same requests to the same bots, a plain blocking stub (the
            # referee leaves every bot paused after a game: let them run for these)
            for link in links:
                await link.resume()
            messages = [(link, DecideRequest.FromString(data)) for link, data in sent]
            started, cpu, waits = time.perf_counter(), time.process_time(), _waits()
            for link, request in messages:
                link.stub.Decide(request, timeout=5)
            bare_costs.append((time.perf_counter() - started) / len(sent))
            CPU.append((referee_cpu, (time.process_time() - cpu) / len(sent)))
            SWITCHES.append((referee_waits, (_waits() - waits) / len(sent)))
            started, cpu = time.perf_counter(), time.process_time()
            for link, request in messages:
                await bridge.call(link.stub.Decide, request, 5)
            BRIDGE.append((time.perf_counter() - started) / len(sent))
            BRIDGE_CPU.append((time.process_time() - cpu) / len(sent))
            if all(link.streams for link in links):
                for kind, figures in STREAM_CPU.items():
                    figures.append(await stream_alone(links, sent, kind))
    finally:
        for link in links:
            await link.close()
    return referee_costs, bare_costs


async def stream_alone(links: list[BotLink], sent: list[tuple[BotLink, Any]], kind: str) -> float:
    """CPU seconds per decision of ``sent`` asked again through streams of ``kind`` alone."""
    streams = {
        id(link): CallStream(link.channel)
        if kind == "grpcio's call"
        else ThreadedStream(link.stub.DecideStream)
        for link in links
    }
    cpu = time.process_time()
    for link, request in sent:
        await streams[id(link)].ask(request)
    used = (time.process_time() - cpu) / len(sent)
    for stream in streams.values():
        stream.close()
    return used


def report() -> None:
    referee_costs, bare_costs = trio.run(measure)
    ref = statistics.median(referee_costs) * 1e3
    bare = statistics.median(bare_costs) * 1e3
    # each game is compared with its own bare calls, made right after it: on a shared machine
    # the load drifts between games, less within one
    ratios = [r / b for r, b in zip(referee_costs, bare_costs, strict=True)]
    print(f"referee: {ref:.3f} ms per decision (median of {RUNS} games)")
    print(f"bare grpcio unary call, same bot and socket: {bare:.3f} ms")
    print(f"per game: {' '.join(f'{r:.2f}' for r in ratios)}")
    floor = statistics.median(b / bare for b, bare in zip(BRIDGE, bare_costs, strict=True))
    print(
        f"the trio bridge alone, same requests: {statistics.median(BRIDGE) * 1e3:.3f} ms per "
        f"call: ratio {floor:.2f} (the floor of a referee that did nothing else)"
    )
    ref_cpu = statistics.median(r for r, _ in CPU) * 1e3
    bare_cpu = statistics.median(b for _, b in CPU) * 1e3
    print(
        f"CPU time of this process: referee {ref_cpu:.3f} ms per decision, bare {bare_cpu:.3f} ms "
        f"per call: ratio {statistics.median(r / b for r, b in CPU):.2f} (load-robust)"
    )
    transports = f"the trio bridge alone {statistics.median(BRIDGE_CPU) * 1e3:.3f} ms per call"
    for kind, figures in STREAM_CPU.items():
        if figures:
            transports += f", a DecideStream ({kind}) {statistics.median(figures) * 1e3:.3f} ms"
    print(f"CPU time of this process, the transport alone: {transports}")
    ref_waits = statistics.median(r for r, _ in SWITCHES)
    bare_waits = statistics.median(b for _, b in SWITCHES)
    split = ", ".join(
        f"{kind} {THREADS.get(kind, 0.0) / THREADS['decisions'] * 1e3:.3f}"
        for kind in ("trio's", "grpc's polling", "grpc's I/O", "the rest")
    )
    print(f"the referee's CPU by thread, ms per decision (all games): {split}")
    print(
        f"voluntary context switches of this process: referee {ref_waits:.2f} per decision, "
        f"bare {bare_waits:.2f} per call (a count: load-robust)"
    )
    print(f"rpc: overhead ratio {statistics.median(ratios):.2f}")


@contextlib.contextmanager
def never_frozen() -> Iterator[None]:
    """Bots are neither frozen nor thawed around their decisions."""
    pause, resume = Ceiling.pause, Ceiling.resume
    Ceiling.pause = lambda self, soon=False: False  # type: ignore[method-assign]
    Ceiling.resume = lambda self: None  # type: ignore[method-assign]
    try:
        yield
    finally:
        Ceiling.pause, Ceiling.resume = pause, resume  # type: ignore[method-assign]


@contextlib.contextmanager
def blocking_calls() -> Iterator[None]:
    """Every call blocks trio's thread until its answer (no future, no other thread)."""
    call = bridge.call

    async def blocking(method: Any, request: Any, timeout: float, **kwargs: Any) -> Any:  # noqa: ASYNC109
        kwargs.pop("patience", None)
        return method(request, timeout=timeout, **kwargs)

    bridge.call = blocking
    try:
        yield
    finally:
        bridge.call = call


WAYS: dict[str, list[Any]] = {
    "as it is": [],
    "never frozen": [never_frozen],
    "blocking calls": [blocking_calls],
    "both": [never_frozen, blocking_calls],
}


def parts() -> None:
    """Each way's ratio and CPU per decision, the ways alternating (twice over)."""
    figures: dict[str, list[tuple[float, float]]] = {way: [] for way in WAYS}
    for _ in range(2):
        for way, changes in WAYS.items():
            CPU.clear()
            BRIDGE.clear()
            with contextlib.ExitStack() as stack:
                for change in changes:
                    stack.enter_context(change())
                referee_costs, bare_costs = trio.run(measure)
            ratio = statistics.median(r / b for r, b in zip(referee_costs, bare_costs, strict=True))
            figures[way].append((ratio, statistics.median(r for r, _ in CPU) * 1e3))
    for way, runs in figures.items():
        print(
            f"{way:>15}: ratio {' '.join(f'{r:.2f}' for r, _ in runs)}; referee CPU "
            f"{' '.join(f'{c:.3f}' for _, c in runs)} ms per decision"
        )


class _AnsweredHere(DecideStream):
    """A stream whose bot is the trivial bot's answer function, called on each request's bytes."""

    def __init__(self) -> None:
        super().__init__()
        sys.path.insert(0, str(ROOT / "benchmarks"))
        self.cheapest = importlib.import_module("trivial_bot").cheapest

    def _send(self, request: Any) -> None:
        data = request if isinstance(request, bytes) else request.SerializeToString()
        read = DecideRequest.FromString(data)
        action = self.cheapest(read)
        self._read_reply(DecideReply(game_id=read.game_id, action=action, number=read.number))

    def _end_call(self) -> None:
        pass


class _LinkHere(BotLink):
    """A link to the trivial bot in this process, through :class:`_AnsweredHere`."""

    def __init__(self, time_control: TimeControl) -> None:
        super().__init__(BotCommand("trivial", ("in-process",)), time_control)
        self.hello = HelloReply(name="trivial", protocol_version=1, decide_stream=True)

    async def start_game(self, start: Any, timeout: float) -> None:  # noqa: ASYNC109
        return None

    async def end_game(self, game_id: str, *args: Any) -> None:
        self._streams.pop(game_id, None)

    def _stream(self, game_id: str) -> DecideStream:
        found = self._streams.get(game_id)
        if found is None:
            found = self._streams[game_id] = _AnsweredHere()
        return found


def no_socket(games: int = 15) -> None:
    """The referee's own CPU per decision with no transport (see ``--no-socket``)."""
    time_control = TimeControl(decision=5, bank=600)

    async def play() -> list[float]:
        links = [_LinkHere(time_control) for _ in range(SEATS)]
        costs = []
        for run in range(games):
            game = Game(RULES, SEATS, seed=run)
            cpu = time.thread_time()
            result = await Referee(game, links, f"here-{run}", time_control).play()
            costs.append((time.thread_time() - cpu) / result.decisions)
        return costs

    costs = trio.run(play, clock=trio.testing.MockClock())
    print(
        f"the referee's own work, no socket: {statistics.median(costs) * 1e6:.1f} us CPU a "
        f"decision (median of {games} games; least {min(costs) * 1e6:.1f})"
    )


def main() -> None:
    steady.settle()  # as the arena's runner process does before its first game
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--parts", action="store_true", help="say where the ratio goes")
    parser.add_argument("--unary", action="store_true", help="Decide calls, not DecideStream")
    parser.add_argument("--no-socket", action="store_true", help="the referee's own work alone")
    args = parser.parse_args()
    if args.no_socket:
        no_socket()
    elif args.parts:
        parts()
    else:
        report()


if __name__ == "__main__":
    main()
