"""A bot that misbehaves on purpose, chosen by its first argument (for the fault tests).

    python misbehave.py MODE [--address ADDR]

Modes: never_starts, crash_at_start, crash_mid_game, exit_quietly, sleeper, illegal_forever,
huge_answer, raises, spy (writes every request it gets to $SPY_FILE as length-prefixed bytes).
"""

from __future__ import annotations

import os
import struct
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from hegemon.referee.actions import Attack
from hegemon.sdk import Bot, run
from hegemon.sdk import server as sdk_server

MODE = sys.argv[1]
MID_GAME = 25  # decisions before a mid-game fault


class Misbehaving(Bot):
    name = f"misbehave-{MODE}"
    answered = 0

    def decide(self, view, decision):
        self.answered += 1
        if MODE == "crash_mid_game" and self.answered >= MID_GAME:
            os._exit(17)
        if MODE == "exit_quietly" and self.answered >= MID_GAME:
            os._exit(0)
        if MODE == "sleeper":
            time.sleep(5)
        if MODE == "illegal_forever":
            return Attack(0, 0, 99)
        if MODE == "raises":
            raise RuntimeError("the bot's own bug")
        return super().decide(view, decision)


if MODE == "never_starts":
    time.sleep(3600)
if MODE == "crash_at_start":
    sys.exit(3)
if MODE == "huge_answer":
    from hegemon.referee.wire import bot_pb2 as pb

    HUGE = pb.DecideReply(game_id="x" * 50_000_000)  # a 50 MB answer, built once: in time

    def huge_decide(self, request, context):
        return HUGE

    sdk_server.BotServicer.Decide = huge_decide  # type: ignore[method-assign]  # on purpose
if MODE == "spy":
    spy_path = os.environ["SPY_FILE"]
    original = sdk_server.BotServicer.Decide
    started = sdk_server.BotServicer.StartGame

    def keep(kind: bytes, request) -> None:
        data = request.SerializeToString()
        with open(spy_path, "ab") as f:
            f.write(kind + struct.pack(">I", len(data)) + data)

    def spying_decide(self, request, context):
        keep(b"D", request)
        return original(self, request, context)

    def spying_start(self, request, context):
        keep(b"S", request)
        return started(self, request, context)

    sdk_server.BotServicer.Decide = spying_decide  # type: ignore[method-assign]  # a spy, on purpose
    sdk_server.BotServicer.StartGame = spying_start  # type: ignore[method-assign]  # a spy too

run(Misbehaving(), list(sys.argv[2:]))
