"""The referee's requests are byte-identical across refactors of the codec: every preset's game
between the sample bots, played through the match runner's own link (:class:`BotLink`: its
StartGame, Decide and EndGame requests, its view deltas, legal answers and stream numbers),
hashes to the digest main's code gave (``EXPECTED``; remake with ``python
tests/engine/test_wire_digests.py`` and say why in the commit).

Only the socket is left out: each request goes through a :class:`DecideStream` whose bytes are
handed to the bot's real servicer in this process (what a bot on the other end would read),
under trio's mock clock, so that the time fields are the same in every run. Half the seats
opted in to view deltas and legal answers (as the SDK's Hello says, plus ``legal_answers``),
the other half to neither; one seat answers one decision illegally, so that an error text and
a full view after a fault are on the wire too.
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path
from typing import Any

import pytest
import trio
import trio.testing

ROOT = Path(__file__).resolve().parent.parent.parent
if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))

from hegemon.referee.arbiter import GameStart  # noqa: E402
from hegemon.referee.game import Game  # noqa: E402
from hegemon.referee.rules import PRESETS, make_rules  # noqa: E402
from hegemon.referee.runner import stream  # noqa: E402
from hegemon.referee.runner.link import BotLink  # noqa: E402
from hegemon.referee.runner.match import Referee  # noqa: E402
from hegemon.referee.runner.process import BotCommand  # noqa: E402
from hegemon.referee.timecontrol import TimeControl  # noqa: E402
from hegemon.referee.wire import bot_pb2 as pb  # noqa: E402
from hegemon.referee.wire import codec  # noqa: E402
from hegemon.sample_bots.aggressive import AggressiveBot  # noqa: E402
from hegemon.sample_bots.continental import ContinentalBot  # noqa: E402
from hegemon.sample_bots.planner import PlannerBot  # noqa: E402
from hegemon.sample_bots.random import RandomBot  # noqa: E402
from hegemon.sdk.server import BotServicer  # noqa: E402

TURN_LIMIT = 15
SEED = 7
TIME = TimeControl(decision=2.0, bank=30.0, increment=0.25)
WRONG_AT = 5
"""Seat 1 answers its fifth decision with a claim of no territory (refused: a strike)."""


class TapStream(stream.DecideStream):
    """A DecideStream whose other end is a bot's servicer in this process: each request's bytes
    (as :func:`stream.encode` puts them on the wire) are hashed, read back by the bot and
    answered at once."""

    def __init__(self, tap: Tap) -> None:
        super().__init__()
        self.tap = tap

    def _send(self, request: Any) -> None:
        data = stream.encode(request)
        self.tap.digest.update(b"decide %d\n" % len(data) + data)
        read = pb.DecideRequest.FromString(data)
        # what protobuf itself would write for it: a unary Decide sends exactly these bytes
        assert read.SerializeToString() == data, "the request's bytes are not protobuf's"
        reply = self.tap.servicer.Decide(read, None)
        self.tap.asked += 1
        if self.tap.wrong and self.tap.asked == WRONG_AT:
            reply.action.CopyFrom(pb.Action(claim=pb.Claim(territory=-1)))
        reply.number = read.number
        assert self._read_reply(reply) is None

    def _end_call(self) -> None:
        pass


class Tap(BotLink):
    """A BotLink to a sample bot in this process, through :class:`TapStream`."""

    def __init__(self, bot: Any, digest: Any, *, opt_in: bool, wrong: bool) -> None:
        super().__init__(BotCommand(bot.name, ("in-process",)), TIME)
        self.servicer = BotServicer(bot)
        self.digest = digest
        self.wrong = wrong
        self.asked = 0
        hello = self.servicer.Hello(pb.HelloRequest(), None)
        hello.view_deltas = opt_in
        hello.legal_answers = opt_in
        self.hello = hello

    async def start_game(self, start: GameStart, timeout: float) -> Any:  # noqa: ASYNC109
        request = self.start_request(start)
        # a map field (the rule set's options) has no order of its own: hashed in protobuf's
        # deterministic order
        self.digest.update(b"start\n" + request.SerializeToString(deterministic=True))
        self._known.pop((start.game_id, start.seat), None)
        reply = self.servicer.StartGame(request, None)
        return codec.policies_from_proto(reply.policies) if reply.HasField("policies") else None

    def _stream(self, game_id: str) -> stream.DecideStream:
        found = self._streams.get(game_id)
        if found is None:
            found = self._streams[game_id] = TapStream(self)
        return found

    async def end_game(
        self,
        game_id: str,
        places: tuple[int, ...] | None,
        reason: str,
        timeout: float,  # noqa: ASYNC109
    ) -> None:
        self._end_stream(game_id)
        request = codec.end_game_request(game_id, places, reason)
        self.digest.update(b"end\n" + request.SerializeToString())
        self.servicer.EndGame(request, None)


def wire_digest(preset: str) -> str:
    """The SHA-256 of every request of one game of ``preset``, and the start of its record's
    (the same game was played)."""
    rules = make_rules(preset, {"turn_limit": TURN_LIMIT})
    seats = 2 if rules.two_player != "off" else 4
    kinds = [RandomBot, AggressiveBot, ContinentalBot, PlannerBot]
    links = [
        Tap(kinds[(SEED + i) % 4](), hashlib.sha256(), opt_in=i % 2 == 0, wrong=i == 1)
        for i in range(seats)
    ]
    game = Game(rules, seats, SEED)
    referee = Referee(game, links, f"wire-{preset}", TIME)
    result = trio.run(referee.play, clock=trio.testing.MockClock())
    assert result.decisions > 50, "a game too short to pin anything"
    assert any(fault.kind == "illegal" for fault in result.faults), "no error text was sent"
    # one digest a seat (trio starts the seats' games in no fixed order), then all in seat order
    digest = hashlib.sha256(" ".join(link.digest.hexdigest() for link in links).encode())
    return digest.hexdigest()[:40] + " " + hashlib.sha256(result.record.encode()).hexdigest()[:12]


EXPECTED: dict[str, str] = {
    "classic": "5bafa0337fa4ebe4a5abfa3f87369c42e693bb45 733a831a8ae9",
    "classic-2004": "836a89dc14457a957d419c09c1e3309ea79f7ec7 4261d3dba090",
    "classic-2000": "6f0850085fe16d9a501d0f769db2d53d6f913a5d 494640a1e43a",
    "mission-2000": "278b9d4bd79df01c288f6926b8d36c64fcdf6995 20c9a47adfdc",
    "capital-2000": "2bf3779bdf1a8172ffc975c8b8286045559929d6 73c22b380eee",
    "mission-2004": "c1567957da17c3f7d4928a8eeaf08b592975823e 12418b790e7e",
    "team-2004": "df6c92b735081cf1627c74eff162b662bf9e2a68 7757b9b925b5",
    "two-player-2000": "2786aa553898a8a19ae9fb7781b8fec39016c1c7 0cb4e7abf066",
    "two-player-capital-2000": "8347d1d652f27f96c426472337e27874d4a7766d 289b584b6787",
    "two-player-classic": "b5422fe922b667ddd988446a698d23310f4c93b9 2c3a02a4549d",
    "two-player-2004-passive": "59839814c5ae4cde25fd7e61ab989389954cb31a 1c62c4091ad3",
    "two-player-2004-active": "d419db3d332d7c685f36c586b04de2fa0e66fe2a d351f07af8b1",
    "risiko-master-base": "6e64be3a7731b16c76ae8e3717df05d852f50f9b 8c328b5d6d04",
    "risiko-master-expert": "014019e44c4ab4cd43c0088b9c520c7be3492fae 2424e66fb8f5",
    "risiko-master-master": "c4c624bbf92b24ea7fa3f8401c206f84bbb65828 d98271e912f1",
}
"""Each preset's digests, from main's code (889e58c)."""


@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_request_of_a_game_is_byte_identical_to_mains(preset):
    assert wire_digest(preset) == EXPECTED[preset], (
        f"{preset}: the bytes the referee sends changed; if on purpose, remake EXPECTED "
        "(python tests/engine/test_wire_digests.py) and say why"
    )


if __name__ == "__main__":
    for name in PRESETS:
        print(f"    {name!r}: {wire_digest(name)!r},")
