"""The match runner with real bot processes and real gRPC over unix sockets.

Each fault is a real misbehaving process (tests/bots/): the game must finish, the other seats
must be unaffected, the fault must be named in the record, and no process may be left behind.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
import trio

from hegemon.leaderboard.botspec import resolve
from hegemon.referee.record import replay
from hegemon.referee.rules import make_rules
from hegemon.referee.runner import link as link_module
from hegemon.referee.runner import process as process_module
from hegemon.referee.runner.link import BotLink
from hegemon.referee.runner.process import BotCommand
from hegemon.referee.runner.session import link_pool, play_game, play_one
from hegemon.referee.timecontrol import TimeControl
from hegemon.referee.wire import bot_pb2 as pb
from tests.helpers.processes import BOTS, read_spy, spy

ROOT = Path(__file__).resolve().parent.parent.parent
FAST = TimeControl(startup=10, decision=0.5, bank=4.0, max_strikes=3)
SHORT = make_rules("classic", {"turn_limit": 12})


def misbehaving(mode: str) -> BotCommand:
    return BotCommand(f"bad-{mode}", (sys.executable, str(BOTS / "misbehave.py"), mode))


@pytest.fixture
def started_pids(monkeypatch):
    """Every bot process the runner starts during the test."""
    pids: list[int] = []
    original = process_module.spawn  # link imported it: link's name for it is patched below

    async def spawn(command, *args, **kwargs):
        bot = await original(command, *args, **kwargs)
        assert bot.process is not None
        pids.append(bot.process.pid)
        return bot

    monkeypatch.setattr(link_module, "spawn", spawn)
    return pids


def assert_all_gone(pids: list[int]) -> None:
    assert pids, "the test started no bot process"
    deadline = time.monotonic() + 5
    for pid in pids:
        while True:
            try:
                os.killpg(pid, 0)  # the bot's whole session (it is its own group leader)
            except ProcessLookupError:
                break
            if time.monotonic() > deadline:
                raise AssertionError(f"bot process group {pid} is still running")
            time.sleep(0.05)


def play(commands, rules=SHORT, seed=1, time_control=FAST, record=None, game_id=None):
    return trio.run(play_one, commands, rules, seed, time_control, record, game_id)


def record_lines(result):
    return [json.loads(line) for line in result.record.splitlines()]


SAMPLES = ["random", "aggressive", "continental", "planner"]
PAIRS = [(a, b) for i, a in enumerate(SAMPLES) for b in SAMPLES[i + 1 :]]


@pytest.mark.parametrize("first,second", PAIRS)
def test_every_pair_of_sample_bots_plays_a_full_game(first, second, started_pids):
    commands = [resolve(first), resolve(second), resolve(first), resolve(second)]
    result = play(
        commands,
        make_rules("classic", {"turn_limit": 25}),
        seed=11,
        time_control=TimeControl(decision=2, bank=60),
    )
    assert sorted(result.places)[0] == 1
    assert result.faults == []
    assert replay(result.record).ok
    assert_all_gone(started_pids)


def test_a_node_bot_plays_with_python_bots(started_pids):
    if not (ROOT / "sample_bots" / "node" / "node_modules").is_dir():
        pytest.fail("the Node.js bot's packages are not installed: run ./scripts/test")
    commands = [resolve("node"), resolve("random"), resolve("aggressive")]
    result = play(
        commands,
        make_rules("classic-2004", {"turn_limit": 20}),
        seed=5,
        time_control=TimeControl(decision=2, bank=60),
    )
    assert result.faults == []
    assert result.seats[0].decisions > 20
    assert replay(result.record).ok
    assert_all_gone(started_pids)


FAULTS = [
    # mode, the fault the record must name
    ("never_starts", "startup"),
    ("crash_at_start", "startup"),
    ("crash_mid_game", "crash"),
    ("exit_quietly", "crash"),
    ("sleeper", "timeout"),
    ("illegal_forever", "illegal"),
    ("huge_answer", "protocol"),
    ("raises", "protocol"),
]


@pytest.mark.parametrize("mode,kind", FAULTS)
def test_a_misbehaving_bot_is_contained(mode, kind, started_pids):
    # a 50 MB answer takes the bot's gRPC server a while to send on a loaded machine: a longer
    # deadline keeps its fault the refused message, not a timeout
    time_control = TimeControl(
        startup=3 if mode == "never_starts" else 10,
        decision=5.0 if mode == "huge_answer" else 0.5,
        bank=20.0 if mode == "huge_answer" else 4.0,
        max_strikes=3,
    )
    commands = [misbehaving(mode), resolve("random"), resolve("aggressive")]
    result = play(commands, seed=3, time_control=time_control)
    lines = record_lines(result)
    faults = [line for line in lines if line["type"] == "fault"]
    assert faults and all(f["seat"] == 0 for f in faults), faults
    assert faults[-1]["fault"] == kind, faults
    forfeits = [
        e
        for line in lines
        if line["type"] == "action"
        for e in line["events"]
        if e["event"] == "forfeited"
    ]
    assert [f["player"] for f in forfeits] == [0]
    assert result.places[0] == 3  # below every seat still in the game
    assert result.seats[1].faults == [] and result.seats[2].faults == []
    assert result.seats[1].decisions > 0 and result.seats[2].decisions > 0
    assert lines[-1]["type"] == "result"
    assert replay(result.record).ok
    assert_all_gone(started_pids)


def test_garbage_answers_are_protocol_faults(started_pids):
    garbage = BotCommand("garbage", (sys.executable, str(BOTS / "garbage.py")))
    result = play([garbage, resolve("random"), resolve("random")], seed=4)
    kinds = {f.kind for f in result.seats[0].faults}
    assert kinds == {"protocol"}
    assert result.seats[0].out == "protocol"
    assert result.seats[1].faults == [] and result.seats[2].faults == []
    assert_all_gone(started_pids)


def test_the_bot_is_told_why_its_answer_was_refused(tmp_path, started_pids):
    """A strike's reason reaches the bot in its next request."""
    spy_file = tmp_path / "spy.bin"
    time_control = TimeControl(startup=10, decision=0.5, bank=4.0, increment=0.25, max_strikes=3)
    result = play(
        [spy(spy_file), misbehaving("illegal_forever"), resolve("random")],
        seed=8,
        time_control=time_control,
    )
    assert result.seats[1].out == "illegal"
    assert any("attack" in f.detail for f in result.seats[1].faults)
    # the other bots hear of the forfeit by its kind only, never the refused bot's text
    messages = read_spy(spy_file)
    notices = [
        e.forfeited
        for _kind, m in messages
        if isinstance(m, pb.DecideRequest)
        for e in m.events
        if e.WhichOneof("kind") == "forfeited"
    ]
    assert [(n.player, n.reason) for n in notices] == [(1, "illegal")]
    # the record's forfeit too: the refused text is in the seat's fault lines (its owner's) alone
    lines = result.record.splitlines()
    assert '"reason":"illegal"}' in next(line for line in lines if "forfeited" in line)
    assert any("attack" in line for line in lines if line.startswith('{"type":"fault"'))
    # the clock each bot is told at the start, the increment included
    start = next(m for _kind, m in messages if isinstance(m, pb.StartGameRequest))
    clock = start.time_control
    assert (clock.decision_ms, clock.time_bank_ms, clock.increment_ms) == (500, 4000, 250)


def all_ints(message) -> list[int]:
    """Every integer anywhere in a message (recursively)."""
    found = []
    for field, value in message.ListFields():
        items = value if field.is_repeated else [value]
        if field.message_type is not None and field.message_type.GetOptions().map_entry:
            continue
        for item in items:
            if field.message_type is not None:
                found.extend(all_ints(item))
            elif isinstance(item, int) and not isinstance(item, bool):
                found.append(item)
    return found


def test_a_spy_bot_sees_only_its_own_view(tmp_path, started_pids):
    spy_file = tmp_path / "spy.bin"
    seed = 987654321987
    result = play(
        [spy(spy_file), resolve("aggressive"), resolve("aggressive")],
        rules=make_rules("classic", {"turn_limit": 30}),
        seed=seed,
    )
    messages = read_spy(spy_file)
    decides = [m for _kind, m in messages if isinstance(m, pb.DecideRequest)]
    assert decides and next(kind for kind, _ in messages) == b"S"
    # replay the true game alongside, to know everyone's real cards at each request
    lines = record_lines(result)
    drawn_by_others = []
    for line in lines:
        for e in line.get("events", []):
            if e["event"] == "card_drawn" and e["player"] != 0:
                drawn_by_others.append(e["card"])
    assert drawn_by_others, "the opponents drew no card: the test proves nothing"
    seen_other_draws = 0
    for request in decides:
        assert request.view.seat == 0
        assert request.decision.player == 0
        for event in request.events:
            if event.WhichOneof("kind") == "card_drawn" and event.card_drawn.player != 0:
                assert event.card_drawn.card == -1
                seen_other_draws += 1
        assert seed not in all_ints(request)
        assert len(request.view.hand) == request.view.seats[0].cards
    assert seen_other_draws > 0
    # the request fields hold no deck, discard or seed: the schema itself has no such field
    names = {f.name for f in pb.View.DESCRIPTOR.fields} | {
        f.name for f in pb.DecideRequest.DESCRIPTOR.fields
    }
    assert not names & {"deck", "discard", "seed", "hands", "deck_order"}


def test_same_seed_same_bots_give_a_byte_identical_record(tmp_path, started_pids):
    commands = [resolve("planner"), resolve("continental"), resolve("random")]
    rules = make_rules("classic-2000", {"turn_limit": 15})
    first = play(
        commands,
        rules,
        seed=77,
        time_control=TimeControl(decision=2, bank=60),
        record=tmp_path / "a.jsonl",
        game_id="same",  # the bots' own randomness follows the game id
    )
    second = play(
        commands,
        rules,
        seed=77,
        time_control=TimeControl(decision=2, bank=60),
        record=tmp_path / "b.jsonl",
        game_id="same",
    )
    assert (tmp_path / "a.jsonl").read_bytes() == (tmp_path / "b.jsonl").read_bytes()
    assert first.places == second.places
    assert_all_gone(started_pids)


def hegemon(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", "from hegemon.leaderboard.cli import main; main()", *args],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=cwd,
    )


def test_hegemon_play_writes_a_record_that_verifies_and_a_tampered_one_fails(tmp_path):
    record = tmp_path / "game.jsonl"
    out = hegemon(
        "play",
        "--bot",
        "random",
        "--bot",
        "aggressive",
        "--bot",
        "continental",
        "--seed",
        "7",
        "--set",
        "turn_limit=10",
        "--record",
        str(record),
        "--quiet",
    )
    assert out.returncode == 0, out.stderr
    assert str(record) in out.stdout and "1st" in out.stdout
    ok = hegemon("verify", str(record))
    assert ok.returncode == 0 and "OK" in ok.stdout
    lines = record.read_text().splitlines()
    for i, line in enumerate(lines):
        data = json.loads(line)
        battles = [e for e in data.get("events", []) if e["event"] == "battle"]
        if battles:
            die = battles[0]["attack_dice"][0]
            battles[0]["attack_dice"][0] = 1 if die == 6 else 6  # a die the engine did not roll
            lines[i] = json.dumps(data, separators=(",", ":"))
            break
    tampered = tmp_path / "tampered.jsonl"
    tampered.write_text("\n".join(lines) + "\n")
    bad = hegemon("verify", str(tampered))
    assert bad.returncode == 1
    assert "differs" in bad.stderr.lower() and f"line {i + 1}" in bad.stderr
    shown = hegemon("replay", str(record))
    assert shown.returncode == 0 and "round" in shown.stdout


@pytest.mark.parametrize(
    "args,message",
    [
        (["play", "--bot", "random", "--bot", "random"], "3 to 6 players"),
        (["play", "--bot", "random", "--bot", "nosuchbot", "--bot", "random"], "nosuchbot"),
        (
            ["play", "--bot", "random"] * 1
            + ["--bot", "random", "--bot", "random", "--rules", "nope"],
            "unknown rule set",
        ),
        (
            [
                "play",
                "--bot",
                "random",
                "--bot",
                "random",
                "--bot",
                "random",
                "--set",
                "fortify=sideways",
            ],
            "fortify",
        ),
        (["verify", "/no/such/record.jsonl"], "cannot read"),
    ],
)
def test_user_mistakes_get_one_clear_line(args, message):
    out = hegemon(*args)
    assert out.returncode != 0
    lines = [line for line in out.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and message in lines[0], out.stderr


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_a_remote_bot_by_host_and_port(started_pids):
    port = free_port()
    remote = subprocess.Popen(
        [sys.executable, "-m", "hegemon.sample_bots.aggressive", "--address", f"127.0.0.1:{port}"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        result = play(
            [resolve(f"127.0.0.1:{port}"), resolve("random"), resolve("random")],
            seed=9,
            time_control=TimeControl(startup=10, decision=2, bank=60),
        )
        assert result.seats[0].faults == []
        assert result.seats[0].decisions > 10
        assert remote.poll() is None  # the referee never stops a bot it did not start
    finally:
        remote.terminate()
        remote.wait(10)


def test_bot_processes_are_reused_between_games_unless_restarted(started_pids):
    commands = [resolve("random"), resolve("aggressive"), resolve("random")]

    async def two_games(restart: bool) -> None:
        async with link_pool(FAST, restart_per_game=restart) as pool:
            for n in range(2):
                await play_game(pool, commands, SHORT, seed=n, game_id=f"g{n}")

    trio.run(two_games, False)
    assert len(started_pids) == 3
    trio.run(two_games, True)
    assert len(started_pids) == 3 + 6
    assert_all_gone(started_pids)


def test_cancelling_a_game_stops_its_bots(started_pids):
    commands = [resolve("random"), resolve("random"), resolve("random")]

    async def cancelled() -> bool:
        with trio.move_on_after(1.5) as scope:
            await play_one(commands, make_rules("classic"), 1, TimeControl(decision=2, bank=60))
        return scope.cancelled_caught

    assert trio.run(cancelled)
    assert_all_gone(started_pids)


def test_a_link_lets_its_process_run_only_while_it_is_asked():
    """The core calls resume/pause around every call; a link forwards them to its process
    (sync or async), and a remote bot, which has none, is simply left alone."""

    class Freezable:
        def __init__(self) -> None:
            self.calls: list[str] = []

        async def resume(self) -> None:
            self.calls.append("resume")

        def pause(self, soon: bool = False) -> None:
            self.calls.append("pause soon" if soon else "pause")

    process = Freezable()
    local = BotLink(BotCommand("local", (sys.executable, "-c", "pass")), FAST)
    local.process = process  # type: ignore[assignment]
    remote = BotLink(BotCommand("remote", (), remote="127.0.0.1:1"), FAST)

    async def ask_both() -> None:
        for link in (local, remote):
            await link.resume()
            await link.pause()

    trio.run(ask_both)
    assert process.calls == ["resume", "pause soon"]  # frozen when another bot is asked


@pytest.mark.slow
def test_a_long_game_of_honest_bots_ends_without_a_time_forfeit(started_pids):
    """Tens of thousands of decisions on one clock (issue 8). Three random sample bots never
    finish a game by themselves, so a 1,000-round limit ends it after 20,000+ decisions; each
    seat has a bank of only 5 s but gets 0.01 s back per answer, more than an honest answer
    costs, so nobody runs out of time however long the game."""
    commands = [resolve("random") for _ in range(3)]
    clock = TimeControl.parse("5+0.01", decision=2)
    result = play(commands, make_rules("classic", {"turn_limit": 1000}), seed=5, time_control=clock)
    assert result.decisions >= 20_000, result.decisions
    assert result.faults == [] and not any(seat.out for seat in result.seats)
    assert result.reason in ("turn limit", "conquest")
    assert_all_gone(started_pids)
