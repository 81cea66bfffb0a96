"""The bot protocol (protos/hegemon/v1/bot.proto): generated code and the engine codec."""

from . import bot_pb2, bot_pb2_grpc, codec
from .codec import PROTOCOL_VERSION, ProtocolError

__all__ = ["PROTOCOL_VERSION", "ProtocolError", "bot_pb2", "bot_pb2_grpc", "codec"]
