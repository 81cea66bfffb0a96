"""DecideStream with real bot processes and real gRPC: a bot that offers the stream is asked
through it, one that does not through Decide, and a bot that floods, stalls, half-closes or
answers late on its stream gets its named fault while the other seats play on."""

from __future__ import annotations

import sys

import pytest
import trio

from hegemon.leaderboard.botspec import resolve
from hegemon.referee.record import replay
from hegemon.referee.runner.link import BotLink
from hegemon.referee.runner.process import BotCommand
from hegemon.referee.runner.stream import HALF_CLOSED
from hegemon.referee.timecontrol import TimeControl
from tests.helpers.processes import BOTS
from tests.runner.test_runner import assert_all_gone, play, started_pids

__all__ = ["started_pids"]


def streaming(mode: str) -> BotCommand:
    return BotCommand(f"stream-{mode}", (sys.executable, str(BOTS / "stream_hostile.py"), mode))


@pytest.mark.parametrize("mode", ["stream_only", "unary_only"])
def test_a_bot_is_asked_the_way_it_offers(mode, started_pids):
    # each bot refuses the other way: a single call made the wrong way would be a fault
    result = play([streaming(mode), resolve("random"), resolve("aggressive")], seed=2)
    assert result.faults == []
    assert result.seats[0].decisions > 10
    assert replay(result.record).ok
    assert_all_gone(started_pids)


HOSTILE = [
    # mode, the fault that puts the seat out, words of its detail
    ("flood", "protocol", "DecideStream reply number"),
    ("half_close", "protocol", HALF_CLOSED),
    ("stall", "timeout", ""),
]


@pytest.mark.parametrize("mode,kind,words", HOSTILE)
def test_a_hostile_stream_gets_its_named_fault(mode, kind, words, started_pids):
    result = play([streaming(mode), resolve("random"), resolve("aggressive")], seed=3)
    seat = result.seats[0]
    assert seat.out == kind
    assert {f.kind for f in seat.faults} == {kind}
    assert all(words in f.detail for f in seat.faults), seat.faults
    assert result.seats[1].faults == [] and result.seats[2].faults == []
    assert result.seats[1].decisions > 0 and result.seats[2].decisions > 0
    assert replay(result.record).ok
    assert_all_gone(started_pids)


def test_a_late_answer_is_dropped_not_taken_for_the_next(started_pids):
    # the late answer arrives while the referee waits for the next request's: were it taken
    # for that one, the seat would have an illegal or protocol fault beside its one timeout
    result = play([streaming("late"), resolve("random"), resolve("aggressive")], seed=3)
    seat = result.seats[0]
    assert [f.kind for f in seat.faults] == ["timeout"]
    assert seat.out == ""
    assert seat.decisions > 10
    assert_all_gone(started_pids)


@pytest.mark.parametrize("name", ["random", "node"])
def test_the_sdk_and_the_node_sample_offer_the_stream(name, started_pids):
    async def offers() -> bool:
        link = BotLink(resolve(name), TimeControl(startup=20))
        try:
            assert await link.open(), link.startup_error
            return link.streams
        finally:
            await link.close()

    assert trio.run(offers)
    assert_all_gone(started_pids)
