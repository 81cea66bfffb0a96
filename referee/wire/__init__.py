"""The wire between the referee and every bot: the code ``scripts/gen-protos`` generates from
protos/hegemon/v1/bot.proto (``bot_pb2``, ``bot_pb2_grpc``) and the codec between its messages
and the engine's objects.

It sits below both sides (docs/design.md "Layout"): the match runner speaks it to bots, the SDK's
server to the referee; it imports only the rules engine. A Python bot that speaks the protocol
without the SDK imports its messages from here (``from hegemon.referee.wire import bot_pb2``).
"""

from . import bot_pb2, bot_pb2_grpc, codec
from .codec import PROTOCOL_VERSION, ProtocolError

__all__ = ["PROTOCOL_VERSION", "ProtocolError", "bot_pb2", "bot_pb2_grpc", "codec"]
