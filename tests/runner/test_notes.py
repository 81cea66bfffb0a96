"""A bot's notes and marks on its decisions, with real bot processes over real gRPC (issue 34
item 1): a Python bot (the SDK's ``view.note``/``view.mark``) and the Node sample bot write
them; the record keeps them as their seat's private ``note`` lines, bounded and inert; no other
seat ever receives them; a malformed mark is dropped with a reason, never a fault."""

from __future__ import annotations

import json
import sys

import pytest
import trio

from hegemon.leaderboard.botspec import resolve
from hegemon.referee.notes import (
    CUT,
    GAME_BYTES,
    NOTE_BYTES,
    PALETTE,
    Budget,
    Jotting,
    Mark,
    clean,
    read_line,
)
from hegemon.referee.record import replay
from hegemon.referee.rules import make_rules
from hegemon.referee.runner.process import BotCommand
from hegemon.referee.runner.session import play_one
from hegemon.referee.timecontrol import TimeControl
from hegemon.referee.wire import bot_pb2 as pb
from hegemon.sample_bots.aggressive import AggressiveBot
from hegemon.sdk import play_local
from tests.bots.noter import SECRET
from tests.helpers.league import env_for, hegemon
from tests.helpers.node import NODE, _install
from tests.helpers.processes import BOTS, read_spy, spy

TIME = TimeControl(startup=20, decision=2, bank=60)
NODE_WORDS = ("enemy neighbours", "outnumbers")  # what the Node bot's notes say


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory):
    """One classic game: the noter (seat 0), the Node bot (seat 1) and a spy that keeps every
    message it is sent (seat 2). Returns (record lines, the spy's messages)."""
    if NODE is None:  # scripts/system-packages installs it: its absence is a broken set-up
        pytest.fail(
            "the notes tests need Node.js: run scripts/system-packages (apt-get install nodejs npm)"
        )
    _install()
    spy_file = tmp_path_factory.mktemp("notes") / "spy.bin"
    noter = BotCommand("noter", (sys.executable, str(BOTS / "noter.py")))
    result = trio.run(
        play_one,
        [noter, resolve("node"), spy(spy_file)],
        make_rules("classic", {"turn_limit": 8}),
        3,
        TIME,
        None,
        None,
    )
    assert replay(result.record).ok
    return result, [json.loads(x) for x in result.record.splitlines()], read_spy(spy_file)


def notes_of(lines: list[dict], seat: int) -> list[dict]:
    return [x for x in lines if x["type"] == "note" and x["seat"] == seat]


def test_both_bots_notes_are_kept_as_their_seats_lines_before_the_action(game):
    result, lines, _ = game
    assert not [f for f in result.faults if f.seat in (0, 1)], result.faults
    python, node = notes_of(lines, 0), notes_of(lines, 1)
    assert python and node, "a bot's notes were not recorded"
    assert all(SECRET in x["text"] for x in python)
    assert any(word in x["text"] for x in node for word in NODE_WORDS)
    assert any(m.get("to") is not None for x in node for m in x.get("marks", []))
    # each note comes right before the action it explains, of its own seat
    for i, line in enumerate(lines):
        if line["type"] == "note":
            action = next(x for x in lines[i + 1 :] if x["type"] in ("action", "fault"))
            assert action.get("player", action.get("seat")) == line["seat"]
    assert not notes_of(lines, 2), "a bot that writes no notes got note lines"


def test_notes_are_inert_and_bounded_and_bad_marks_are_dropped_not_faults(game):
    result, lines, _ = game
    python = notes_of(lines, 0)
    for x in python:
        assert len(x["text"].encode()) <= NOTE_BYTES
        assert not any(not ch.isprintable() for ch in x["text"])
        for mark in x.get("marks", []):
            assert 0 <= mark["t"] < 42 and mark["colour"] in PALETTE
            assert all(ch.isprintable() for ch in mark.get("label", ""))
        assert any("no such territory" in d for d in x["dropped"])
        assert any("'chartreuse': not one of" in d for d in x["dropped"])
    assert any(x["text"].endswith(CUT) for x in python), "no note was cut at its limit"
    assert "\x1b" not in result.record and "\\u001b" not in result.record
    assert result.seats[0].strikes == 0  # a malformed mark is never a fault


def test_no_other_seat_ever_receives_a_note(game):
    _, _, messages = game
    decides = [m for kind, m in messages if isinstance(m, pb.DecideRequest)]
    assert decides, "the spy was never asked"
    for message in messages:
        raw = message[1].SerializeToString()
        assert SECRET.encode() not in raw
        assert not any(word.encode() in raw for word in NODE_WORDS)


# ------------------------------------------------------------------ the limits, as pure rules
def test_a_game_keeps_at_most_64_kib_of_a_seats_notes_and_says_so_once():
    budget = Budget()
    kept = [clean(Jotting("é" * 500), 42, budget) for _ in range(80)]  # 1000 bytes each
    texts = [k.get("text", "") for k in kept if k]
    assert sum(len(t.encode()) for t in texts) <= GAME_BYTES
    cut = [t for t in texts if t.endswith(CUT)]
    assert len(cut) == 1 and cut[0].encode().decode() == cut[0]  # no character split
    reasons = [d for k in kept if k for d in k.get("dropped", [])]
    assert reasons == [f"note text over the game's limit of {GAME_BYTES} bytes"]
    # marks still count after the text ran out: they are not text
    after = clean(Jotting("more", (Mark(3, 4, "x", "blue"),)), 42, budget)
    assert after == {"marks": [{"t": 3, "to": 4, "label": "x", "colour": "blue"}]}


def test_a_record_from_anywhere_shows_only_well_formed_marks_and_inert_text():
    line = {
        "type": "note",
        "seat": 0,
        "text": "ok\x1b[2J\u202e",
        "marks": [
            {"t": 1, "colour": "red", "label": "a\nb"},
            {"t": 99},
            {"t": True},
            {"t": 2, "to": -1},
            {"t": 2, "colour": "javascript:alert(1)"},
            "not a mark",
        ],
        "dropped": ["\x00why"],
    }
    shown = read_line(line, 42)
    assert shown["text"] == "ok [2J "
    assert shown["marks"] == [
        {"t": 1, "label": "a b", "colour": "red"},
        {"t": 2, "colour": "yellow"},
    ]
    assert shown["dropped"] == [" why"]


# ------------------------------------------------------------------ hegemon replay prints them
def test_hegemon_replay_prints_each_note_after_its_turn_inert(game, tmp_path):
    result, lines, _ = game
    record = tmp_path / "noted.jsonl"
    record.write_text(result.record, encoding="utf-8")
    wide = {**env_for(tmp_path), "COLUMNS": "2000"}  # one line per note, unwrapped
    shown = hegemon("replay", str(record), env=wide)
    assert shown.returncode == 0, shown.stderr
    out = shown.stdout
    noted = [x for x in out.splitlines() if "note · decision" in x]
    assert len(noted) == len(notes_of(lines, 0)) + len(notes_of(lines, 1))
    assert SECRET in out and "noter: " in out and "outnumbers" in out
    assert "no such territory" in out  # the dropped marks' reasons
    assert "\x1b[2J" not in out and "<script>alert(1)</script>" in out  # as text, no escape


def test_a_pressed_attack_keeps_only_the_notes_of_the_decision_asked():
    """A bot with ``press_attacks`` is asked about boards it imagines: what it writes there is
    not its note (else every pressed attack would carry dozens of them)."""

    class Pressing(AggressiveBot):
        def decide(self, view, decision):
            view.note(f"asked {decision.kind.value}")
            return super().decide(view, decision)

    assert Pressing.press_attacks
    bots = [Pressing(), AggressiveBot(), AggressiveBot()]
    result = play_local(bots, "classic", seed=2, options={"turn_limit": 10})
    notes = [json.loads(x) for x in result.record.splitlines() if x.startswith('{"type":"note"')]
    assert any(n["text"] == "asked attack" for n in notes)
    assert all(n["text"].count("asked") == 1 for n in notes)


def test_a_mark_of_any_shape_from_a_bot_in_this_process_is_dropped_never_a_fault():
    class Careless(AggressiveBot):
        def decide(self, view, decision):
            view.mark(1.5, label="half")  # no territory has a fractional index
            view.mark(True)  # nor is a bool one
            view.mark("Atlantis")  # no such name: logged by the SDK, left out
            view.note(None)  # anything is text
            return super().decide(view, decision)

    bots = [Careless(), AggressiveBot(), AggressiveBot()]
    result = play_local(bots, "classic", seed=2, options={"turn_limit": 3}, strict=True)
    notes = [json.loads(x) for x in result.record.splitlines() if x.startswith('{"type":"note"')]
    assert notes and all(n["text"] == "None" and "marks" not in n for n in notes)
    assert all(len(n["dropped"]) == 2 for n in notes)
    assert "mark on territory 1.5: no such territory (0..41)" in notes[0]["dropped"]
