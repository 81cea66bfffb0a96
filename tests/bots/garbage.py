"""A raw gRPC server that answers Hello properly and then garbage bytes to every Decide."""

from __future__ import annotations

import signal
import sys
from concurrent import futures
from pathlib import Path

import grpc

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from hegemon.referee.wire import bot_pb2 as pb

SERVICE = "hegemon.v1.Bot"


def hello(request: bytes, context) -> bytes:
    return pb.HelloReply(name="garbage", version="1", protocol_version=1).SerializeToString()


def empty(request: bytes, context) -> bytes:
    return b""


def garbage(request: bytes, context) -> bytes:
    return b"\xff\xfe\x00garbage\x07\x08" * 3


handlers = {
    "Hello": grpc.unary_unary_rpc_method_handler(hello),
    "StartGame": grpc.unary_unary_rpc_method_handler(empty),
    "Decide": grpc.unary_unary_rpc_method_handler(garbage),
    "EndGame": grpc.unary_unary_rpc_method_handler(empty),
}
server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(SERVICE, handlers),))
server.add_insecure_port(sys.argv[sys.argv.index("--address") + 1])
server.start()
signal.signal(signal.SIGTERM, lambda *_: server.stop(0))
server.wait_for_termination()
