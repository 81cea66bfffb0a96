"""Length-prefixed frames over a pipe: how the web server and its fitting process talk."""

from __future__ import annotations

import struct
from typing import IO

_LENGTH = struct.Struct(">I")


def write_frame(stream: IO[bytes], payload: bytes) -> None:
    """Write one frame and flush it."""
    stream.write(_LENGTH.pack(len(payload)) + payload)
    stream.flush()


def read_frame(stream: IO[bytes]) -> bytes | None:
    """The next frame, or None once the other end has closed the pipe."""
    head = stream.read(_LENGTH.size)
    if len(head) < _LENGTH.size:
        return None
    (size,) = _LENGTH.unpack(head)
    payload = stream.read(size)
    return payload if len(payload) == size else None
