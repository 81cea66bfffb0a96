"""The referee's core and its time rules, with scripted fake bots under trio's mock clock.

Every game here runs on ``trio.testing.MockClock(autojump_threshold=0)``: a bot that "thinks"
for three seconds costs no real time, and every time the referee measures is exact, so the
rules of the clock are checked to the millisecond without ever reading the wall clock.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest
import trio
import trio.testing

from hegemon.referee import legal
from hegemon.referee.actions import Action, Pass
from hegemon.referee.arbiter import Arbiter, Ask, Failure, GameResult, GameStart
from hegemon.referee.decisions import Kind
from hegemon.referee.events import Event, Forfeited
from hegemon.referee.game import Game
from hegemon.referee.orders import Blitz, DefendPolicy, OccupyPolicy, Policies
from hegemon.referee.record import replay
from hegemon.referee.rules import make_rules
from hegemon.referee.timecontrol import TimeControl

RULES = make_rules("classic", {"turn_limit": 2})
TC = TimeControl(decision=2.0, bank=10.0, max_strikes=3)


class Scripted:
    """A fake bot. ``think(n)`` is how long it takes over its n-th decision (from 0);
    ``answer(n, game)`` what it answers (default: the engine's default action)."""

    def __init__(
        self,
        name: str = "fake",
        think: Callable[[int], float] = lambda n: 0.0,
        answer: Callable[[int, Game], Action | Failure] | None = None,
        start_delay: float = 0.0,
        end_delay: float = 0.0,
    ):
        self.name = name
        self.think = think
        self.answer = answer or (lambda n, game: game.default_action())
        self.start_delay = start_delay
        self.end_delay = end_delay
        self.asks: list[Ask] = []
        self.calls: list[str] = []
        self.game: Game | None = None
        self.alive = True
        self.startup_error = ""
        self.discarded = False
        self.ended = False

    @staticmethod
    def encode_event(event: Event) -> Any:
        return event

    async def start_game(
        self,
        start: GameStart,
        timeout: float,  # noqa: ASYNC109 - the Seat protocol's signature
    ) -> Failure | Policies | None:
        self.calls.append("start_game")
        self.game = start.game
        await trio.sleep(self.start_delay)
        return None

    async def decide(self, ask: Ask) -> Action | Blitz | Failure:
        self.calls.append("decide")
        n = len(self.asks)
        self.asks.append(ask)
        await trio.sleep(self.think(n))
        assert self.game is not None
        return self.answer(n, self.game)

    async def end_game(
        self,
        game_id: str,
        places: tuple[int, ...] | None,
        reason: str,
        timeout: float,  # noqa: ASYNC109 - the Seat protocol's signature
    ) -> None:
        self.calls.append("end_game")
        await trio.sleep(self.end_delay)
        self.ended = True

    async def resume(self) -> None:
        self.calls.append("resume")

    async def pause(self) -> None:
        self.calls.append("pause")

    def discard(self) -> None:
        self.discarded = True


def play(bots: list[Scripted], time_control: TimeControl = TC, seed: int = 1) -> GameResult:
    game = Game(RULES, len(bots), seed)
    arbiter = Arbiter(game, bots, "g", time_control)
    return trio.run(arbiter.play, clock=trio.testing.MockClock(autojump_threshold=0))


def fault_kinds(result: GameResult, seat: int) -> list[str]:
    return [f.kind for f in result.seats[seat].faults]


def test_quick_bots_play_a_whole_game_that_replays():
    result = play([Scripted(), Scripted(), Scripted()])
    assert result.faults == [] and sorted(result.places)[0] == 1
    assert replay(result.record).ok
    assert result.duration == 0  # nobody thought: no time passed


def test_a_late_answer_is_a_strike_with_the_default_and_the_reason_comes_next():
    late = Scripted(think=lambda n: 3.0 if n == 0 else 0.1)
    result = play([late, Scripted(), Scripted()])
    first, second = late.asks[0], late.asks[1]
    assert first.deadline == 2.0 and first.bank == 10.0 and first.error == ""
    assert second.strikes == 1 and second.error.startswith("late: no answer within 2.000 s")
    assert second.bank == 8.0  # the whole deadline came out of the bank
    assert fault_kinds(result, 0) == ["timeout"]
    assert result.seats[0].out == ""
    assert result.seats[0].decisions == len(late.asks) - 1  # all but the late one answered
    # the late seat's first decision got the engine's default, as the record shows
    assert replay(result.record).ok


def test_an_empty_bank_forfeits_the_seat_on_time():
    staller = Scripted(think=lambda n: 100.0)
    tc = TimeControl(decision=2.0, bank=5.0, max_strikes=10)
    result = play([staller, Scripted(), Scripted()], tc)
    # 5 -> 3 -> 1, then the deadline is the last second of the bank
    assert [a.deadline for a in staller.asks] == [2.0, 2.0, 1.0]
    assert fault_kinds(result, 0) == ["timeout", "timeout", "timeout"]
    assert result.seats[0].out == "timeout"
    assert result.seats[0].faults[-1].detail == "time bank of 5 s used up"
    assert staller.discarded and not staller.ended


def test_one_strike_over_the_limit_forfeits():
    illegal = Scripted(answer=lambda n, game: Pass())  # never legal while claiming
    result = play([illegal, Scripted(), Scripted()])
    assert fault_kinds(result, 0) == ["illegal"] * 4  # max_strikes 3: the 4th forfeits
    assert result.seats[0].out == "illegal"
    assert "(strike 4, limit 3)" in result.seats[0].faults[-1].detail
    assert [a.strikes for a in illegal.asks] == [0, 1, 2, 3]
    assert all("pass is not allowed" in a.error for a in illegal.asks[1:])
    assert result.places[0] == 3


def test_a_forfeited_seats_armies_stay_on_the_board_as_neutral():
    seen: dict[str, Any] = {}

    def crash_in_turn(n: int, game: Game) -> Action | Failure:
        if game.round >= 1:
            seen["crashes"] = seen.get("crashes", 0) + 1
            seen["owned"] = {t: game.armies[t] for t, p in enumerate(game.owner) if p == 0}
            return Failure("crash", "the bot process ended (exit code 1)")
        return game.default_action()

    crasher = Scripted(answer=crash_in_turn)
    game = Game(RULES, 3, 1)
    after: dict[str, Any] = {}

    def on_progress(arbiter: Arbiter) -> None:
        if "owned" in seen and "owned" not in after:
            after["owned"] = {t: game.armies[t] for t, p in enumerate(game.owner) if p == 0}

    arbiter = Arbiter(game, [crasher, Scripted(), Scripted()], "g", TC, on_progress=on_progress)
    result = trio.run(arbiter.play, clock=trio.testing.MockClock(autojump_threshold=0))
    assert result.seats[0].out == "crash"
    assert seen["owned"] and after["owned"] == seen["owned"]
    assert game.players[0].neutral and game.players[0].forfeited
    assert seen["crashes"] == 1  # never asked again
    assert replay(result.record).ok


def test_the_increment_is_added_after_every_decision_answered_in_time():
    steady = Scripted(think=lambda n: 1.0 if n != 2 else 5.0)
    tc = TimeControl(decision=2.0, bank=10.0, increment=0.5, max_strikes=10)
    play([steady, Scripted(), Scripted()], tc)
    banks = [a.bank for a in steady.asks[:5]]
    # -1 +0.5, -1 +0.5, late: -2 and no increment, then -1 +0.5 again
    assert banks == [10.0, 9.5, 9.0, 7.0, 6.5]


def test_with_an_increment_a_long_game_never_runs_out_of_time():
    """An honest bot using most of each increment plays any number of decisions."""
    honest = Scripted(think=lambda n: 0.09)
    tc = TimeControl.parse("1+0.1", decision=2.0)
    result = play([honest, Scripted(), Scripted()], tc)
    assert result.faults == [] and len(honest.asks) > 20
    assert honest.asks[-1].bank > 1.0  # it gained 0.01 s per decision


def test_a_forfeit_says_its_kind_only_and_its_detail_stays_in_the_fault_line(tmp_path):
    secret = "Traceback: my secret strategy table"
    folder = str(tmp_path / "bot")  # a path of this machine, which no record may name
    crasher = Scripted(
        answer=lambda n, game: Failure("crash", f"process ended: {secret} at {folder}/notes")
    )
    other = Scripted()
    result = play([crasher, other, Scripted()])
    notices = [e for a in other.asks for e in a.events if type(e) is Forfeited]
    assert [(e.player, e.reason) for e in notices] == [(0, "crash")]
    lines = [json.loads(line) for line in result.record.splitlines()]
    forfeit = [line for line in lines if line.get("action", [""])[0] == "forfeit"]
    assert forfeit[0]["action"] == ["forfeit", 0, "crash"]
    assert [e["reason"] for e in forfeit[0]["events"] if e["event"] == "forfeited"] == ["crash"]
    # the detail only in the fault line (the owner's), without the machine's path
    holding = [line["type"] for line in lines if secret in json.dumps(line)]
    assert holding == ["fault"]
    assert folder not in result.record and f"{secret} at notes" in result.record
    assert result.faults[0].detail == f"process ended: {secret} at notes"


def test_a_protocol_error_is_a_strike_and_the_bot_is_told():
    garbled = Scripted(
        answer=lambda n, game: (
            Failure("protocol", "protocol error: no action set")
            if n == 0
            else game.default_action()
        )
    )
    result = play([garbled, Scripted(), Scripted()])
    assert fault_kinds(result, 0) == ["protocol"]
    assert garbled.asks[1].error == "protocol error: no action set"
    assert garbled.asks[1].strikes == 1


def test_every_ask_start_and_end_is_between_resume_and_pause():
    bot = Scripted()
    play([bot, Scripted(), Scripted()])
    calls = bot.calls
    assert calls[:3] == ["resume", "start_game", "pause"]
    assert calls[-3:] == ["resume", "end_game", "pause"]
    for i, call in enumerate(calls):
        if call in ("decide", "start_game", "end_game"):
            assert calls[i - 1] == "resume" and calls[i + 1] == "pause", calls[i - 1 : i + 2]


def test_start_game_and_end_game_are_bounded():
    hangs = Scripted(start_delay=math.inf)
    deaf = Scripted(end_delay=math.inf)
    tc = TimeControl(decision=2.0, bank=10.0, start_game=3.0, end_game=1.5)
    result = play([hangs, deaf, Scripted(), Scripted()], tc)
    assert result.seats[0].out == "startup"
    assert "no answer within 3 s" in result.seats[0].faults[0].detail
    assert hangs.asks == []
    assert result.seats[1].faults == [] and not deaf.ended
    assert result.seats[1].setup_time == 1.5  # EndGame given up on after its bound
    assert result.duration == 3.0 + 1.5  # only the bounds: every decision was instant


def test_a_bot_that_never_started_is_forfeited_before_the_game():
    dead = Scripted()
    dead.alive, dead.startup_error = False, "no Hello within 10 s"
    result = play([dead, Scripted(), Scripted()])
    assert result.seats[0].out == "startup" and dead.calls == []
    assert result.seats[0].faults[0].detail == "no Hello within 10 s"


def test_a_game_whose_every_bot_failed_to_start_ends_with_every_fault_recorded():
    """The forfeits of the first seats end the game; the last failed seat is still recorded
    (it used to crash the referee: a forfeit applied to a finished game)."""
    dead = [Scripted(name=f"dead{i}") for i in range(3)]
    for bot in dead:
        bot.alive, bot.startup_error = False, "no Hello within 10 s"
    result = play(dead)
    assert result.game.over
    assert [seat.out for seat in result.seats] == ["startup"] * 3
    assert all(bot.discarded for bot in dead)


def test_a_staller_adds_no_more_than_the_stated_bound_to_a_game():
    tc = TimeControl(decision=2.0, bank=6.0, increment=0.25, max_strikes=1000)
    honest = play([Scripted(), Scripted(), Scripted()], tc)
    staller = Scripted(think=lambda n: 1.9)  # always just in time
    stalled = play([staller, Scripted(), Scripted()], tc)
    assert stalled.seats[0].out == "timeout"  # its bank ran out in the end
    added = stalled.duration - honest.duration
    assert 0 < added <= tc.max_seat_wall_time(len(staller.asks))
    assert stalled.seats[0].think_time == pytest.approx(6.0 + 0.25 * stalled.seats[0].decisions)


# ---------------------------------------------------------------------- TimeControl
def test_time_control_parses_bank_and_increment():
    assert TimeControl.parse("60+0.1") == TimeControl(bank=60.0, increment=0.1)
    assert TimeControl.parse(" 90 ") == TimeControl(bank=90.0)
    assert TimeControl.parse("30+1", decision=5.0).decision == 5.0
    assert str(TimeControl.parse("60+0.1")) == "60+0.1" and str(TimeControl()) == "60"
    for bad in ("", "abc", "60+", "+1", "60+1+2", "inf", "-5", "0+1", "60+-1"):
        with pytest.raises(ValueError):
            TimeControl.parse(bad)


def test_the_most_one_seat_adds_to_a_game():
    wall = TimeControl(
        startup=10, start_game=10, end_game=2, decision=2, bank=60, increment=0.1, clock="wall"
    )
    fixed = 10 + 10 + 2 + 0.5
    assert wall.max_seat_wall_time(0) == fixed
    assert wall.max_seat_wall_time(10) == pytest.approx(fixed + 20)  # each decision at most 2 s
    assert wall.max_seat_wall_time(20_000) == pytest.approx(fixed + 60 + 2000)  # bank + increments
    assert TimeControl(bank=60, clock="wall").max_seat_wall_time(1_000_000) == fixed + 60
    # the CPU clock: a sleeping bot spends no bank, so each decision may take its backstop of
    # idle time (3 deadlines + 1 s), and a bot waiting for a CPU up to four backstops
    cpu = replace(wall, clock="cpu")
    assert cpu.backstop(2) == 3 * 2 + 1
    assert cpu.max_seat_wall_time(10) == pytest.approx(fixed + 10 * 4 * (3 * 2 + 1))


class Ordering(Scripted):
    """A fake bot with standing policies that blitzes every attack it can to the end."""

    async def start_game(
        self,
        start: GameStart,
        timeout: float,  # noqa: ASYNC109 - the Seat protocol's signature
    ) -> Failure | Policies | None:
        await super().start_game(start, timeout)
        return Policies(DefendPolicy.MOST, OccupyPolicy.ALL)

    async def decide(self, ask: Ask) -> Action | Blitz | Failure:
        answer = await super().decide(ask)
        pending = ask.view.pending
        if pending is not None and pending.kind is Kind.ATTACK:
            options = legal.attacks(ask.view, pending.player)
            if options:
                source, target, most = options[0]
                return Blitz(source, target, most, until=1)
        return answer


def test_orders_are_charged_once_and_earn_no_increment():
    """Each answer, order or not, takes its thinking time from the bank and earns one
    increment; the decisions the orders answer take nothing and earn nothing."""
    tc = TimeControl(decision=2.0, bank=100.0, increment=0.5, max_strikes=3)
    rules = make_rules("classic", {"turn_limit": 4})
    bots = [Ordering(think=lambda n: 0.25) for _ in range(3)]
    game = Game(rules, 3, 2)
    result = trio.run(
        Arbiter(game, bots, "g", tc).play, clock=trio.testing.MockClock(autojump_threshold=0)
    )
    assert result.faults == [] and result.automatic > 0
    for seat, bot in zip(result.seats, bots, strict=True):
        assert seat.asked == len(bot.asks) == seat.decisions
        assert seat.bank == pytest.approx(100.0 - 0.25 * seat.asked + 0.5 * seat.asked)
    assert sum(s.automatic for s in result.seats) == result.automatic
    assert len(game.history) == result.decisions + result.automatic
    assert replay(result.record).ok
