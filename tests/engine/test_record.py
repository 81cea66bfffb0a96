"""Game records: byte-identical for the same seeds, replayed exactly, and every tampering is
reported at its first difference."""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path

import pytest

from hegemon.referee import Attack, Forfeit, Game, IllegalAction, Pass, make_rules
from hegemon.referee.policies import random_action
from hegemon.referee.record import FORMAT, Recorder, RecordError, parse, replay, seed_hash
from tests.helpers.game import aggressive_action

FORMAT_1_RECORD = Path(__file__).parent.parent / "records" / "format1-classic-seed3.jsonl"


def record(
    preset="classic",
    seed=5,
    policy_seed=9,
    rounds=20,
    policy=aggressive_action,
    forfeit_at=None,
    **extra,
):
    game = Game(make_rules(preset, {"turn_limit": rounds}), 4, seed)
    rec = Recorder(game, extra=extra)
    rng = random.Random(policy_seed)
    steps = 0
    while not game.over:
        steps += 1
        if steps == forfeit_at:
            rec.apply(Forfeit(game.current, "timed out"))
        else:
            rec.apply(policy(game, rng))
    return rec


@pytest.fixture(scope="module")
def text():
    return record().text()


def lines_of(text):
    return [json.loads(line) for line in text.splitlines()]


def dump(lines):
    return "".join(
        json.dumps(line, separators=(",", ":"), ensure_ascii=False) + "\n" for line in lines
    )


def first_line(lines, predicate):
    return next(i for i, line in enumerate(lines) if predicate(line))


# ---------------------------------------------------------------------- the record
@pytest.mark.parametrize("preset", ["classic", "classic-2004", "classic-2000"])
@pytest.mark.parametrize("policy", [random_action, aggressive_action])
def test_same_seeds_same_bytes_and_replay(preset, policy):
    a = record(preset, policy=policy).text()
    b = record(preset, policy=policy).text()
    assert a == b
    verdict = replay(a)
    assert verdict.ok, verdict.message
    assert verdict.game is not None and verdict.game.over
    assert verdict.actions == sum(1 for line in lines_of(a) if line["type"] == "action")
    assert record(preset, seed=6, policy=policy).text() != a
    assert record(preset, policy_seed=10, policy=policy).text() != a


def test_record_layout(text):
    lines = lines_of(text)
    head = lines[0]
    assert head["type"] == "header" and head["format"] == FORMAT
    assert head["players"] == 4 and head["seed_hash"] == seed_hash(5)
    # commit, then reveal: the header holds the seed's hash only, the result line the seed
    assert "seed" not in head and head["seed_public"] is True  # 5 is found by search
    assert lines[-1]["seed"] == 5
    assert head["rules"]["preset"] == "classic" and head["rules"]["turn_limit"] == 20
    assert lines[1]["type"] == "opening" and lines[1]["events"]
    actions = lines[2:-1]
    assert [a["n"] for a in actions] == list(range(len(actions)))
    assert all(a["type"] == "action" for a in actions)
    assert lines[-1]["type"] == "result" and sorted(lines[-1]["places"]) == [1, 2, 3, 4]
    assert text.endswith("\n")
    assert all(
        ": " not in line and ", " not in line
        for line in text.splitlines()
        if '"reason"' not in line
    )


def test_extra_header_keys_are_kept():
    rec = record(rounds=1, names=["a", "b", "c", "d"])
    head = lines_of(rec.text())[0]
    assert head["names"] == ["a", "b", "c", "d"]
    assert replay(rec.text()).ok


def test_forfeits_are_recorded_and_replayed():
    rec = record(forfeit_at=200)
    lines = lines_of(rec.text())
    forfeits = [
        line for line in lines if line["type"] == "action" and line["action"][0] == "forfeit"
    ]
    assert len(forfeits) == 1 and forfeits[0]["action"][2] == "timed out"
    verdict = replay(rec.text())
    assert verdict.ok, verdict.message


def test_refused_actions_are_not_recorded():
    game = Game(make_rules("classic"), 4, 1)
    rec = Recorder(game)
    before = rec.text()
    with pytest.raises(IllegalAction):
        rec.apply(Attack(0, 1, 1))
    assert rec.text() == before


def test_recorder_refuses_actions_after_the_end():
    rec = record(rounds=1)
    before = rec.text()
    with pytest.raises(IllegalAction):
        rec.apply(Pass())
    assert rec.text() == before


# ---------------------------------------------------------------------- tampering
def test_tampered_dice_are_reported_at_their_line(text):
    lines = lines_of(text)
    i = first_line(lines, lambda ln: any(e["event"] == "battle" for e in ln.get("events", [])))
    events = lines[i]["events"]
    j = next(k for k, e in enumerate(events) if e["event"] == "battle")
    events[j]["attack_dice"] = [6] * len(events[j]["attack_dice"])
    events[j]["attacker_losses"] = 0
    original = lines_of(text)[i]["events"][j]
    if original == events[j]:
        events[j]["defend_dice"] = [1] * len(events[j]["defend_dice"])
    verdict = replay(dump(lines))
    assert not verdict.ok
    assert verdict.message.startswith(f"line {i + 1}: event {j} differs")


def test_tampered_action_is_reported_at_its_line(text):
    lines = lines_of(text)
    i = first_line(lines, lambda ln: ln["type"] == "action" and ln["action"][0] == "attack")
    lines[i]["action"][3] = 4  # four dice: the engine refuses
    verdict = replay(dump(lines))
    assert not verdict.ok
    assert verdict.message.startswith(f"line {i + 1}: the engine refuses")


def test_a_different_legal_action_is_reported_at_its_line(text):
    lines = lines_of(text)
    i = first_line(lines, lambda ln: ln["type"] == "action" and ln["action"][0] == "claim")
    claimed = lines[i]["action"][1]
    lines[i]["action"][1] = next(
        t
        for t in range(42)
        if t != claimed and all(ln["action"] != ["claim", t] for ln in lines[2:i])
    )
    verdict = replay(dump(lines))
    assert not verdict.ok
    assert verdict.message.startswith(f"line {i + 1}: event 0 differs")


def test_a_deleted_line_is_reported(text):
    lines = lines_of(text)
    del lines[10]
    verdict = replay(dump(lines))
    assert not verdict.ok and verdict.message.startswith("line 11:")


def test_an_extra_action_after_the_end_is_reported(text):
    lines = lines_of(text)
    extra = dict(lines[-2], n=lines[-2]["n"] + 1)
    lines.insert(len(lines) - 1, extra)
    verdict = replay(dump(lines))
    assert not verdict.ok and verdict.message.startswith(f"line {len(lines) - 1}:")


def test_tampered_result_is_reported(text):
    lines = lines_of(text)
    lines[-1]["places"] = list(reversed(lines[-1]["places"]))
    verdict = replay(dump(lines))
    assert not verdict.ok and "places differ" in verdict.message
    assert verdict.message.startswith(f"line {len(lines)}:")


def test_a_missing_result_is_reported(text):
    lines = lines_of(text)[:-1]
    verdict = replay(dump(lines))
    assert not verdict.ok and "result" in verdict.message


def test_a_result_before_the_end_is_reported(text):
    lines = lines_of(text)
    result = lines.pop()
    lines.insert(20, result)
    verdict = replay(dump(lines))
    assert not verdict.ok and verdict.message.startswith("line 21:")


def test_tampered_player_is_reported(text):
    lines = lines_of(text)
    lines[5]["player"] = (lines[5]["player"] + 1) % 4
    verdict = replay(dump(lines))
    assert not verdict.ok and verdict.message.startswith("line 6: recorded player")


def test_tampered_seed_is_reported(text):
    lines = lines_of(text)
    lines[-1]["seed"] += 1
    verdict = replay(dump(lines))
    assert not verdict.ok and "seed hash" in verdict.message
    lines[0]["seed_hash"] = seed_hash(lines[-1]["seed"])
    verdict = replay(dump(lines))
    assert not verdict.ok and verdict.message.startswith("line 2: set-up differs")


def test_seed_hash_is_the_documented_formula():
    assert seed_hash(7) == hashlib.sha256(b"hegemon-seed:7").hexdigest()


def test_a_drawn_seed_is_secret_a_short_one_public():
    big = (1 << 128) | 12345
    rec = record(seed=big, rounds=2)
    lines = lines_of(rec.text())
    assert lines[0]["seed_public"] is False and lines[-1]["seed"] == big
    assert replay(rec.text()).ok
    lines[0]["seed_public"] = True
    verdict = replay(dump(lines))
    assert not verdict.ok and "seed_public" in verdict.message


def test_a_record_without_its_seed_does_not_verify(text):
    lines = lines_of(text)
    del lines[-1]["seed"]
    verdict = replay(dump(lines))
    assert not verdict.ok and "does not reveal the seed" in verdict.message
    verdict = replay(dump(lines[:-1]))
    assert not verdict.ok and "no result line" in verdict.message


def test_format_1_records_still_replay():
    """Records written before keyed chance (seed in the header, one Mersenne Twister)."""
    text = FORMAT_1_RECORD.read_text(encoding="utf-8")
    head = lines_of(text)[0]
    assert head["format"] == "hegemon-record/1" and head["seed"] == 3
    verdict = replay(text)
    assert verdict.ok, verdict.message
    lines = lines_of(text)
    lines[0]["seed"], lines[0]["seed_hash"] = 4, seed_hash(4)
    assert not replay(dump(lines)).ok


def test_tampered_rules_are_reported(text):
    lines = lines_of(text)
    lines[0]["rules"]["fortify"] = "teleport"
    verdict = replay(dump(lines))
    assert (
        not verdict.ok and verdict.message.startswith("line 1:") and "teleport" in verdict.message
    )
    lines[0]["rules"]["fortify"] = "adjacent"
    lines[0]["rules"]["defender_dice"] = "max"
    verdict = replay(dump(lines))
    assert not verdict.ok and "events" in verdict.message


@pytest.mark.parametrize(
    "bad, where",
    [
        ("", "line 1"),
        ("not json\n", "line 1"),
        ('{"type":"header","format":"other/9"}\n', "format"),
        ('{"no":"type"}\n', "line 1"),
        ('{"type":"action"}\n', "header"),
    ],
)
def test_unreadable_records(bad, where):
    verdict = replay(bad)
    assert not verdict.ok and where in verdict.message
    if bad.strip():
        with pytest.raises(RecordError):
            parse(bad)


def test_a_broken_line_in_the_middle(text):
    raw = text.splitlines()
    raw[7] = raw[7][:-5]
    verdict = replay("\n".join(raw) + "\n")
    assert not verdict.ok and verdict.message.startswith("line 8: not JSON")


@pytest.mark.parametrize(
    "action",
    [["attack", 1, 2], ["fly", 3], "pass", ["place", [[1, 2, 3]]], ["claim", True], ["claim", 1.0]],
)
def test_malformed_actions_in_a_record(text, action):
    lines = lines_of(text)
    lines[4]["action"] = action
    verdict = replay(dump(lines))
    assert not verdict.ok and verdict.message.startswith("line 5:")
