"""Records written before a forfeit's reason was its fault kind alone carry ``kind: detail``
(the bot's own error) in the forfeit action and its event. Shown publicly — the record, the
replay data and the game page — they say the kind only, and the redacted record still
verifies; the seat's owner keeps the detail in the fault line."""

from __future__ import annotations

import json
import random

from hegemon.leaderboard.web.links import Links
from hegemon.leaderboard.web.pages import game_page
from hegemon.leaderboard.web.visibility import redact_record, redact_replay
from hegemon.referee import Forfeit, Game, make_rules
from hegemon.referee.policies import attack_happy_action
from hegemon.referee.record import Recorder, replay
from hegemon.referee.viewer.replay import replay_data

SECRET = "RuntimeError: the owner's secret opening book (bot.py:12)"
SEATS = ["a@v1", "b@v1", "c@v1"]


def older_record() -> str:
    """A finished game whose last seat was forfeited as the referee once recorded it."""
    game = Game(make_rules("classic", {"turn_limit": 4}), 3, 12345)
    recorder = Recorder(game, {"game_id": "older", "seats": SEATS, "map": "classic"})
    rng = random.Random(1)
    while not game.over:
        if len(game.history) == 30:
            fault = {"type": "fault", "seat": 2, "fault": "crash", "detail": SECRET, "n": 30}
            recorder.lines.append(fault)
            recorder.apply(Forfeit(2, f"crash: {SECRET}"))
            continue
        recorder.apply(attack_happy_action(game, rng))
    return recorder.text()


def test_an_older_records_forfeit_is_public_by_its_kind_only_and_still_verifies():
    text = older_record()
    assert replay(text).ok and text.count(SECRET) == 3  # the fault, the forfeit, its event
    public = redact_record(text, {2})
    assert SECRET not in public and replay(public).ok
    assert '["forfeit",2,"crash"]' in public and '"reason":"crash"' in public
    kept = [a for a, b in zip(text.splitlines(), public.splitlines(), strict=True) if a == b]
    assert len(kept) == len(text.splitlines()) - 2  # only the fault and the forfeit lines
    data = redact_replay(replay_data(text, "older"), {2})
    assert SECRET not in json.dumps(data)
    info = {"id": 1, "season": "s", "number": 1, "seats": SEATS, "faults": []}
    assert SECRET not in game_page(data, info, Links())


def test_the_detail_is_in_the_fault_line_alone_and_the_forfeit_says_its_kind():
    text = older_record()
    assert redact_record(text, {0, 1}).count(SECRET) == 3  # another seat's view: all of it
    data = replay_data(text, "older")
    faults = [e for s in data["steps"] for e in s["ev"] if e["k"] == "fault"]
    assert len(faults) == 1 and SECRET in faults[0]["t"]
    forfeits = [e["t"] for s in data["steps"] for e in s["ev"] if e["k"] == "forfeited"]
    assert len(forfeits) == 1 and forfeits[0].endswith("forfeited: crash")
