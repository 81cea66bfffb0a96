"""Records from outside are checked before use: real records (a classic game with a fault and a
forfeit, a two-player game with its neutral colour, a format-1 record), mutated — cut short,
a field of the wrong type, nested thousands deep, numbers thousands of digits long, headers
that are wrong — and given to ``hegemon verify``, ``replay`` and ``replay --html``, which never
end in a traceback: each plays the record or refuses it with one line naming the first bad
line."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from hegemon.leaderboard.cli import app as APP
from hegemon.referee import Game, make_rules
from hegemon.referee.policies import attack_happy_action
from hegemon.referee.record import Recorder
from tests.helpers.web import play_record

runner = CliRunner()
RECORDS = Path(__file__).resolve().parent.parent / "records"


def two_player_record(seed: int) -> str:
    """A complete two-player game's record: its header names the neutral colour's seat."""
    game = Game(make_rules("two-player-2000", {"turn_limit": 2}), 2, seed)
    recorder = Recorder(game, {"game_id": "duel", "seats": ["a", "b", "neutral"]})
    rng = random.Random(seed)
    while not game.over:
        recorder.apply(attack_happy_action(game, rng))
    return recorder.text()


REAL = [
    play_record(11, ["alpha", "beta", "gamma"], turn_limit=2, forfeit_at=40),
    two_player_record(5),
    (RECORDS / "format1-classic-seed3.jsonl").read_text(encoding="utf-8"),
]

ODD_VALUES: list[object] = [
    None,
    True,
    -1,
    1.5,
    "abc",
    "",
    [],
    {},
    [[]],
    {"type": "header"},
    2**70,
    "²",
]


def huge_number(digits: int) -> str:
    return "9" * digits


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


@st.composite
def mutated(draw: st.DrawFn) -> str:
    """A real record with one mutation."""
    text = draw(st.sampled_from(REAL))
    lines = text.splitlines()
    how = draw(
        st.sampled_from(["truncate", "value", "nest", "huge", "header", "drop", "swap", "raw"])
    )
    at = draw(st.integers(0, len(lines) - 1))
    if how == "truncate":
        return text[: draw(st.integers(0, len(text)))]
    if how in ("drop", "swap"):
        other = draw(st.integers(0, len(lines) - 1))
        if how == "drop":
            del lines[at]
        else:
            lines[at], lines[other] = lines[other], lines[at]
        return "\n".join(lines) + "\n"
    if how == "raw":  # a line that is not a JSON object at all
        lines[at] = draw(st.sampled_from(["", "{", "[1, 2]", "null", '"header"', "\x00", "{}"]))
        return "\n".join(lines) + "\n"
    if how == "header":
        at = 0
    line = json.loads(lines[at])
    key = draw(st.sampled_from(sorted(line)))
    placeholder = "@@MUTATED@@"
    if how in {"value", "header"}:
        line[key] = draw(st.sampled_from(ODD_VALUES))
        if isinstance(line[key], list) and line[key] == [] and draw(st.booleans()):
            del line[key]
        lines[at] = json.dumps(line)
    else:  # nest or huge: text json.dumps could not write (too deep, too many digits)
        line[key] = placeholder
        raw = nested(draw(st.sampled_from([20, 5000, 200_000]))) if how == "nest" else None
        raw = raw or huge_number(draw(st.sampled_from([25, 400, 5000])))
        lines[at] = json.dumps(line).replace(json.dumps(placeholder), raw)
    return "\n".join(lines) + "\n"


def check(*args: str) -> None:
    """Run ``hegemon ARGS``: it succeeds, or fails with one line; never a traceback."""
    result = runner.invoke(APP, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        f"hegemon {' '.join(args)} raised {result.exception!r}"
    )
    assert "Traceback" not in result.output
    if result.exit_code != 0:
        said = [line for line in result.output.splitlines() if line.strip()]
        assert len(said) == 1, result.output
        assert "line " in said[0] or "not a hegemon game record" in said[0], said[0]


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("fuzzed")


@settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(text=mutated())
def test_a_mutated_record_is_played_or_refused_in_one_line(folder, text, monkeypatch):
    monkeypatch.setenv("COLUMNS", "4000")  # one error line stays one line
    record = folder / "fuzzed.jsonl"
    record.write_text(text, encoding="utf-8")
    check("verify", str(record))
    check("replay", str(record))
    check("replay", str(record), "--html", str(folder / "fuzzed.html"))


def test_verify_refuses_seats_that_are_not_a_list(tmp_path):
    lines = REAL[0].splitlines()
    head = json.loads(lines[0])
    head["seats"] = "abc"
    record = tmp_path / "game.jsonl"
    record.write_text("\n".join([json.dumps(head), *lines[1:]]) + "\n", encoding="utf-8")
    result = runner.invoke(APP, ["verify", str(record)])
    assert result.exit_code == 1
    assert 'line 1: "seats" must be a list of strings' in result.output


def test_the_real_records_pass(tmp_path):
    for number, text in enumerate(REAL):
        record = tmp_path / f"{number}.jsonl"
        record.write_text(text, encoding="utf-8")
        for args in (["verify"], ["replay"], ["replay", "--html", str(tmp_path / "r.html")]):
            result = runner.invoke(APP, [*args[:1], str(record), *args[1:]])
            assert result.exit_code == 0, result.output
