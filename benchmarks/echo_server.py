"""A gRPC server that answers every ``Decide`` with the same prepared reply and thinks not at all:
the floor of what one decision's round trip costs over grpcio, whatever the referee or the bot
does. Used by benchmarks/overhead.py. It serves the standard health service too, as the SDK
does, so the client can hold the same standing ``Watch`` stream the referee holds on every bot.

Run as ``python benchmarks/echo_server.py unix:PATH``; it prints ``ready``, then, for each line
read on stdin, its own CPU seconds so far; it stops at end of input.
"""

from __future__ import annotations

import sys
import time
from concurrent import futures
from pathlib import Path

import grpc
from grpc_health.v1 import health, health_pb2_grpc

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from hegemon.referee.wire import bot_pb2 as pb

REPLY = pb.DecideReply(action=pb.Action(pass_=pb.Pass())).SerializeToString()


def _same(request: bytes, context: grpc.ServicerContext) -> bytes:
    return REPLY


def main() -> None:
    handler = grpc.method_handlers_generic_handler(
        "hegemon.v1.Bot",
        {"Decide": grpc.unary_unary_rpc_method_handler(_same)},  # bytes in, bytes out
    )
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
    server.add_generic_rpc_handlers((handler,))
    health_pb2_grpc.add_HealthServicer_to_server(health.HealthServicer(), server)
    server.add_insecure_port(sys.argv[1])
    server.start()
    print("ready", flush=True)
    for _ in sys.stdin:
        print(time.process_time(), flush=True)
    server.stop(None)


if __name__ == "__main__":
    main()
