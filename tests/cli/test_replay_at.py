"""``hegemon replay GAME --at N --bot PATH``: a bot put in a recorded decision's seat sees exactly
what the original bot saw there (its view and its whole history), answers in the sandbox, and
``--play-on`` plays the game on from there — real processes, real gRPC, real records."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.helpers.league import ROOT, hegemon, one_line_error

WITNESS = str(ROOT / "tests" / "bots" / "witness.py")
LINE = re.compile(r"witness told=(\d+) digest=\w+ hand=\[[\d, ]*\] missions=\[[\d, ]*\]")


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> Path:
    """A finished mission game: the witness in seat 0 against two aggressive bots."""
    folder = tmp_path_factory.mktemp("replay-at")
    record = folder / "game.jsonl"
    done = hegemon(
        "play",
        "--bot", WITNESS, "--bot", "aggressive", "--bot", "aggressive",
        "--rules", "mission-2004", "--set", "turn_limit=8", "--seed", "11",
        "--record", str(record), "-q",
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    return record


def actions(record: Path) -> list[dict]:
    """The record's actions, each with its decision number as the replay viewer counts them
    (``#d=N``: the position after N actions; a record's own ``n`` also counts fault lines)."""
    lines = [json.loads(raw) for raw in record.read_text().splitlines()]
    found = [line for line in lines if line["type"] == "action"]
    return [{**line, "n": i} for i, line in enumerate(found)]


def told_before(record: Path, n: int) -> int:
    """How many events every seat had been told before action ``n`` (the set-up's included)."""
    lines = [json.loads(raw) for raw in record.read_text().splitlines()]
    opening = next(line for line in lines if line["type"] == "opening")
    return len(opening["events"]) + sum(len(a["events"]) for a in actions(record)[:n])


def original_lines(record: Path) -> dict[int, str]:
    """The witness's line at each decision it was asked in the original game, by ``told``."""
    log = (record.parent / f"{record.stem}.logs" / "seat-0.log").read_text()
    return {int(m[1]): m[0] for m in LINE.finditer(log)}


def test_a_bot_at_a_recorded_decision_sees_exactly_what_the_original_saw(played):
    seen = original_lines(played)
    # the witness's last asked decision that holds cards: hand, missions and history all matter
    asked = [
        a["n"]
        for a in actions(played)
        if a["player"] == 0
        and told_before(played, a["n"]) in seen
        and "hand=[]" not in seen[told_before(played, a["n"])]
    ]
    n = asked[-1]
    out = hegemon("replay", str(played), "--at", str(n), "--bot", WITNESS)
    assert out.returncode == 0, out.stdout + out.stderr
    probed = LINE.search(out.stdout)
    assert probed is not None, out.stdout
    # the same events (count and digest), the same hand and missions as in the original game
    assert probed[0] == seen[told_before(played, n)]
    # a deterministic bot in its own seat answers what it played
    assert f"decision {n} of {len(actions(played))}: seat 0 (witness)" in out.stdout
    assert "(the same)" in out.stdout


def test_another_bot_is_asked_in_the_seat_and_its_answer_judged(played):
    n = next(a["n"] for a in actions(played) if a["player"] == 1 and a["action"][0] == "attack")
    out = hegemon("replay", str(played), "--at", str(n), "--bot", "random")
    assert out.returncode == 0, out.stdout + out.stderr
    lines = out.stdout.splitlines()
    assert "seat 1 (aggressive#1) to attack" in lines[0]
    assert lines[1].split(":", 1)[0].strip() == "played"
    assert lines[2].lstrip().startswith("random:") and "illegal" not in lines[2]


def test_play_on_plays_the_game_to_its_end_from_the_decision(played):
    n = next(a["n"] for a in actions(played) if a["player"] == 2 and a["action"][0] == "attack")
    out = hegemon(
        "replay", str(played), "--at", str(n), "--bot", "aggressive",
        "--play-on", "--vs", "aggressive", "--seed", "5",
    )  # fmt: skip
    assert out.returncode == 0, out.stdout + out.stderr
    ending = out.stdout.strip().splitlines()[-1]
    assert ending.startswith(f"played on from decision {n} with fresh chance:")
    seat = r"aggressive#\d \(seat \d\)"  # the bots' own names, numbered in the seats
    assert re.search(rf"1\. {seat}, 2\. {seat}, 3\. {seat}$", ending), ending


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--at", "99999", "--bot", "random"), "decision 99999 is not in this game"),
        (("--at", "3"), "--at N and --bot PATH go together"),
        (("--at", "3", "--bot", "random", "--vs", "random"), "--vs names the other seats"),
        (("--at", "3", "--bot", "no-such-bot"), "no-such-bot"),
        (("--at", "3", "--bot", "random", "--play-on", "--vs", "a", "--vs", "b", "--vs", "c"),
         "--play-on needs the other 2 seats"),
    ],
)  # fmt: skip
def test_bad_requests_are_one_line(played, args, message):
    assert message in one_line_error(hegemon("replay", str(played), *args))


def test_an_unfinished_game_keeps_its_chance_secret(played, tmp_path):
    unfinished = tmp_path / "unfinished.jsonl"
    unfinished.write_text("".join(played.read_text().splitlines(keepends=True)[:-1]))
    error = one_line_error(hegemon("replay", str(unfinished), "--at", "3", "--bot", "random"))
    assert "no result line" in error and "seed" in error


def test_the_original_note_and_the_new_versions_note_are_shown(tmp_path):
    noter = str(ROOT / "tests" / "bots" / "noter.py")
    record = tmp_path / "noted.jsonl"
    done = hegemon(
        "play", "--bot", noter, "--bot", "aggressive", "--bot", "aggressive",
        "--set", "turn_limit=3", "--seed", "4", "--record", str(record), "-q",
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    n = next(a["n"] for a in actions(record) if a["player"] == 0)
    out = hegemon("replay", str(record), "--at", str(n), "--bot", noter)
    assert out.returncode == 0, out.stdout + out.stderr
    notes = [line for line in out.stdout.splitlines() if f"note · decision {n} · noter" in line]
    # the one the original wrote (its decision counter: n // 3) and the one the new one writes
    assert len(notes) == 2, out.stdout
    assert "SECRET-NOTE-of-the-noter" in notes[0] and "SECRET-NOTE-of-the-noter 1 " in notes[1]
    assert "<script>" in notes[0] and "\x1b" not in out.stdout  # shown as text, made inert


def _recorded(preset: str, seed: int) -> str:
    """A finished game of ``preset`` (random legal play in-process, a few rounds)."""
    import random

    from hegemon.referee import Game, make_rules
    from hegemon.referee.policies import random_action
    from hegemon.referee.record import Recorder
    from tests.helpers.web import WORLD

    options: dict = {"turn_limit": 4}
    if preset.startswith("risiko-master"):
        options["map"] = WORLD
    players = 2 if preset.startswith("two-player") else 4
    game = Game(make_rules(preset, options), players, seed)
    seats = [f"bot{i}" for i in range(players)]
    recorder = Recorder(game, {"game_id": f"probe-{preset}", "seats": seats})
    rng = random.Random(seed)
    while not game.over:
        recorder.apply(random_action(game, rng))
    return recorder.text()


def test_every_edition_can_be_taken_up_at_a_decision():
    """On every preset a sandboxed bot is seated at a decision in the middle of a recorded game
    and answers it legally (its view, hand, missions, capitals, teams as the engine holds them)."""
    import trio

    from hegemon.leaderboard.botspec import resolve
    from hegemon.referee.replaying import position_at
    from hegemon.referee.rules import PRESETS
    from hegemon.referee.runner.probe import ask_at
    from hegemon.referee.timecontrol import TimeControl

    async def each() -> dict[str, str]:
        said = {}
        for preset in PRESETS:
            text = _recorded(preset, 3)
            total = sum(1 for line in text.splitlines() if '"type":"action"' in line)
            position = position_at(text, total // 2)
            probe = await ask_at(position, resolve("random"), TimeControl())
            said[preset] = probe.failure or probe.illegal or "ok"
        return said

    assert trio.run(each) == dict.fromkeys(PRESETS, "ok")
