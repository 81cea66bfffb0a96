"""The bridge from trio to grpcio (referee/runner/bridge.py), against a real bot process that
never answers a decision: a call given up — by a trio cancel or by running out of patience —
lets trio go on at once, is cancelled (so it holds up neither the bot's next call nor the
link's closing), and leaves no thread of grpc's behind once the link is closed. Against a
sample bot, calls one after another share one grpc polling thread."""

from __future__ import annotations

import sys
import textwrap
import threading

import pytest
import trio

from hegemon.leaderboard.botspec import resolve
from hegemon.referee.runner import bridge
from hegemon.referee.runner.link import BotLink
from hegemon.referee.runner.process import BotCommand
from hegemon.referee.timecontrol import TimeControl
from hegemon.referee.wire import bot_pb2

TC = TimeControl(startup=15, decision=2.0, bank=20.0)
STALLER = textwrap.dedent("""
    import os, threading
    from concurrent import futures
    import grpc
    from hegemon.referee.wire import bot_pb2 as pb, bot_pb2_grpc as pbg

    class Staller(pbg.BotServicer):
        def Hello(self, request, context):
            return pb.HelloReply(name="staller", protocol_version=1)

        def Decide(self, request, context):
            threading.Event().wait()  # never answers

    server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
    pbg.add_BotServicer_to_server(Staller(), server)
    server.add_insecure_port(os.environ["HEGEMON_BOT_ADDRESS"])
    server.start()
    server.wait_for_termination()
""")
HELLO = bot_pb2.HelloRequest(protocol_version=1)
NEVER = 600.0  # the given-up decision's own gRPC deadline: far beyond the test
SHARED = ("hegemon-ceiling", "Trio thread")  # threads kept for the process: every bot's watcher,
# trio's idle worker threads


async def until(condition, limit: float = 30) -> None:
    with trio.fail_after(limit):  # a guard against hanging, not a measure of speed
        while not condition():  # noqa: ASYNC110 - threads we cannot await
            await trio.sleep(0.02)


async def give_up_then_say_hello(stop_waiting) -> tuple[str, set[threading.Thread]]:
    """Open the staller, give up a decision with ``stop_waiting(decide)``, then ask for its
    name on the same link; the threads this left running once the link is closed."""
    before = set(threading.enumerate())
    link = BotLink(BotCommand("staller", (sys.executable, "-c", STALLER)), TC)
    assert await link.open(), link.startup_error
    try:
        await link.resume()
        await stop_waiting(link.stub.Decide)
        with trio.fail_after(NEVER / 10):  # held up behind the given-up call, it would hang
            hello = await bridge.call(link.stub.Hello, HELLO, NEVER)
    finally:
        await link.close()

    def left() -> set[threading.Thread]:
        fresh = set(threading.enumerate()) - before
        return {t for t in fresh if t.is_alive() and not t.name.startswith(SHARED)}

    await until(lambda: not left())
    return hello.name, left()


def test_a_cancelled_call_lets_trio_go_on_and_the_bot_still_answers():
    async def cancel(decide) -> None:
        with trio.move_on_after(0.2) as scope:
            await bridge.call(decide, bot_pb2.DecideRequest(), NEVER)
        assert scope.cancelled_caught

    name, left = trio.run(give_up_then_say_hello, cancel)
    assert name == "staller"
    assert left == set()


def test_a_call_out_of_patience_is_given_up_and_the_bot_still_answers():
    async def run_out(decide) -> None:
        waits = iter([0.05, 0.05])  # two short waits, then no more patience
        with pytest.raises(bridge.OutOfPatience):
            await bridge.call(
                decide, bot_pb2.DecideRequest(), NEVER, patience=lambda: next(waits, None)
            )

    name, left = trio.run(give_up_then_say_hello, run_out)
    assert name == "staller"
    assert left == set()


def test_calls_one_after_another_start_no_thread_each(monkeypatch):
    """A sync grpc channel starts a polling thread whenever a call begins with none in flight;
    the link's standing health stream keeps one alive, so a game's sequential decisions do not
    each pay for a new thread (without it: one thread per call)."""
    started: list[str] = []
    start = threading.Thread.start

    def counted(thread: threading.Thread) -> None:
        started.append(thread.name)
        start(thread)

    async def twenty_calls() -> int:
        link = BotLink(resolve("random"), TC)
        assert await link.open(), link.startup_error
        try:
            await link.resume()
            monkeypatch.setattr(threading.Thread, "start", counted)
            for _ in range(20):
                await bridge.call(link.stub.Hello, HELLO, 10)
            monkeypatch.undo()
        finally:
            await link.close()
        return len(started)

    assert trio.run(twenty_calls) <= 1, started
