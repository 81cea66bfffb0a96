"""A bot that misuses DecideStream on purpose, chosen by its first argument (the stream's
fault tests: tests/runner/test_stream.py).

    python stream_hostile.py MODE [--address ADDR]

Modes: stream_only (answers on the stream; a unary Decide is refused), unary_only (does not
offer the stream, and refuses it), flood (each answer followed by thousands nobody asked
for), half_close (ends the stream instead of answering), stall (reads every request, answers
none), late (its first answer comes after the deadline, the rest in time).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import grpc

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from hegemon.referee.wire import bot_pb2 as pb
from hegemon.sdk import Bot, run
from hegemon.sdk import server as sdk_server

MODE = sys.argv[1]
Servicer = sdk_server.BotServicer
honest_stream = Servicer.DecideStream
hello = Servicer.Hello


honest_decide = Servicer.Decide


def refuse(self, request, context):
    if context is None:  # called by the SDK's own DecideStream: that is the stream
        return honest_decide(self, request, context)
    context.abort(grpc.StatusCode.UNIMPLEMENTED, f"{MODE}: not this way")
    raise AssertionError("unreachable: abort raises")


def flood(self, requests, context):
    for reply in honest_stream(self, requests, context):
        yield reply
        for n in range(5000):  # numbers never sent, as fast as the bot can
            yield pb.DecideReply(game_id=reply.game_id, number=reply.number + 1_000_000 + n)


def half_close(self, requests, context):
    next(requests)  # the first request, never answered
    yield from ()


def stall(self, requests, context):
    for _request in requests:
        pass


def late(self, requests, context):
    first = True
    for reply in honest_stream(self, requests, context):
        if first:
            # 0.7 s of CPU: past the 0.5 s deadline (the referee moves on and freezes the bot
            # till it asks again); the rest of it fits within the next decision's
            spin_until = time.process_time() + 0.7
            while time.process_time() < spin_until:
                pass
            first = False
        yield reply


if MODE == "stream_only":
    Servicer.Decide = refuse  # type: ignore[method-assign]
elif MODE == "unary_only":
    Servicer.DecideStream = refuse  # type: ignore[method-assign]

    def unary_hello(self, request, context):
        reply = hello(self, request, context)
        reply.decide_stream = False
        return reply

    Servicer.Hello = unary_hello  # type: ignore[method-assign]
else:
    Servicer.DecideStream = {  # type: ignore[method-assign]
        "flood": flood,
        "half_close": half_close,
        "stall": stall,
        "late": late,
    }[MODE]


class StreamBot(Bot):
    name = f"stream-{MODE}"


run(StreamBot(), list(sys.argv[2:]))
