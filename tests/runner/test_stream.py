"""DecideStream with real bot processes and real gRPC: a bot that offers the stream is asked
through it, one that does not through Decide, and a bot that floods, stalls, half-closes or
answers late on its stream gets its named fault while the other seats play on — on grpcio's
integrated call and on the public streaming call the runner falls back to alike. The stream
starts no thread of its own."""

from __future__ import annotations

import sys
import threading

import pytest
import trio

from hegemon.leaderboard.botspec import resolve
from hegemon.referee.game import Game
from hegemon.referee.record import replay
from hegemon.referee.runner import grpcall
from hegemon.referee.runner.link import BotLink
from hegemon.referee.runner.match import Referee
from hegemon.referee.runner.process import BotCommand
from hegemon.referee.runner.stream import HALF_CLOSED
from hegemon.referee.timecontrol import TimeControl
from tests.helpers.processes import BOTS
from tests.runner.test_runner import FAST, SHORT, assert_all_gone, play, started_pids

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


@pytest.fixture(params=["integrated call", "public call"])
def transport(request, monkeypatch):
    """Each stream test runs on grpcio's integrated call and on the public streaming call (the
    fallback where grpcio's internals differ)."""
    if request.param == "public call":
        monkeypatch.setattr(grpcall, "_READY", False)
    return request.param


@pytest.mark.parametrize("mode,kind,words", HOSTILE)
def test_a_hostile_stream_gets_its_named_fault(mode, kind, words, transport, started_pids):
    result = play([streaming(mode), resolve("random"), resolve("aggressive")], seed=3)
    seat = result.seats[0]
    assert seat.out == kind
    assert {f.kind for f in seat.faults} == {kind}
    assert all(words in f.detail for f in seat.faults), seat.faults
    assert result.seats[1].faults == [] and result.seats[2].faults == []
    assert result.seats[1].decisions > 0 and result.seats[2].decisions > 0
    assert replay(result.record).ok
    assert_all_gone(started_pids)


def test_a_late_answer_is_dropped_not_taken_for_the_next(transport, started_pids):
    # the late answer arrives while the referee waits for the next request's: were it taken
    # for that one, the seat would have an illegal or protocol fault beside its one timeout
    result = play([streaming("late"), resolve("random"), resolve("aggressive")], seed=3)
    seat = result.seats[0]
    assert [f.kind for f in seat.faults] == ["timeout"]
    assert seat.out == ""
    assert seat.decisions > 10
    assert_all_gone(started_pids)


def test_a_game_on_streams_starts_no_thread_per_stream(started_pids):
    # a thread per stream (the public call's request and reply threads) was two thread hops
    # more per decision: the integrated call's replies come through the channel's own thread
    async def game() -> tuple[int, list[int], int]:
        links = [BotLink(streaming("stream_only"), FAST) for _ in range(3)]
        try:
            for link in links:
                assert await link.open(), link.startup_error
            before = threading.active_count()
            counts: list[int] = []
            referee = Referee(
                Game(SHORT, 3, 5),
                links,
                "threads",
                FAST,
                on_progress=lambda _: counts.append(threading.active_count()),
            )
            result = await referee.play()
            assert result.faults == []
            return before, counts, result.seats[0].decisions
        finally:
            for link in links:
                await link.close()

    before, counts, decisions = trio.run(game)
    assert decisions > 10
    assert max(counts) == before, (before, max(counts))
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
