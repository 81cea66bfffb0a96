"""The backstops on a game's length (:mod:`hegemon.referee.limits`): a rule set without a round
limit gets the default one, and a game with a decision limit ends there, ranked as at a round
limit, in a record that replays (and fails to, if its limit is changed)."""

from __future__ import annotations

import json

from hegemon.referee.limits import (
    CUT_SHORT,
    DECISION_LIMIT_REASON,
    DEFAULT_ROUND_LIMIT,
    bounded,
)
from hegemon.referee.record import replay
from hegemon.referee.record_check import checked_replay
from hegemon.referee.rules import make_rules
from hegemon.sdk import Bot, play_local


def test_rules_without_a_round_limit_get_the_default_and_others_keep_theirs() -> None:
    assert bounded(make_rules("classic")).turn_limit == DEFAULT_ROUND_LIMIT
    assert bounded(make_rules("classic"), 40).turn_limit == 40
    assert bounded(make_rules("classic", {"turn_limit": 7})).turn_limit == 7
    assert make_rules("classic").turn_limit == 0  # the engine's rules stay the board game's


def test_a_game_ends_at_its_decision_limit_ranked_as_at_a_round_limit() -> None:
    # stopped while claiming (seats 0 and 1 hold 7 territories, seat 2 six): not all tied
    played = play_local([Bot(), Bot(), Bot()], "classic", seed=3, decision_limit=20)
    game = played.game
    assert game is not None
    assert played.reason == DECISION_LIMIT_REASON in CUT_SHORT
    assert len(game.history) == 20 and len(set(played.places)) > 1
    # ranked as at a round limit: territories, then armies
    key = {
        p: (
            game.territory_count[p],
            sum(a for t, a in enumerate(game.armies) if game.owner[t] == p),
        )
        for p in range(3)
    }
    for a in range(3):
        for b in range(3):
            assert (played.places[a] < played.places[b]) == (key[a] > key[b])
    head = json.loads(played.record.splitlines()[0])
    assert head["decision_limit"] == 20
    verdict = checked_replay(played.record)
    assert verdict.ok, verdict.message


def test_a_record_whose_decision_limit_was_changed_does_not_replay() -> None:
    # bots that never attack, under rules without a round limit: only the decision limit
    played = play_local([Bot(), Bot(), Bot()], "classic", seed=4, decision_limit=250)
    assert played.reason == DECISION_LIMIT_REASON
    lines = played.record.splitlines()
    for changed in (251, 0):
        head = json.loads(lines[0])
        head["decision_limit"] = changed
        text = "\n".join([json.dumps(head, separators=(",", ":")), *lines[1:]]) + "\n"
        assert not replay(text).ok
    head = json.loads(lines[0])
    head["decision_limit"] = "many"
    text = "\n".join([json.dumps(head), *lines[1:]]) + "\n"
    assert checked_replay(text).message == 'line 1: "decision_limit" must be an integer'


def test_a_game_without_a_decision_limit_records_none() -> None:
    played = play_local([Bot(), Bot(), Bot()], "classic", seed=5, options={"turn_limit": 2})
    assert "decision_limit" not in json.loads(played.record.splitlines()[0])
    assert played.reason == "turn limit"
