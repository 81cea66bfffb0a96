"""The learning environments play every game to an end (issue 32): a rule set without a round
limit gets the referee's default one, and each game has the default decision limit, so an
episode of agents that never attack ends (truncated) rather than running for ever."""

from __future__ import annotations

from hegemon.env import aec, single
from hegemon.referee.limits import DEFAULT_DECISION_LIMIT, DEFAULT_ROUND_LIMIT
from hegemon.sdk import Bot


def test_both_environments_bound_every_game() -> None:
    multi = aec("classic", players=3, seed=1)
    assert multi.rules.turn_limit == DEFAULT_ROUND_LIMIT
    multi.reset(seed=1)
    assert multi.game.decision_limit == DEFAULT_DECISION_LIMIT
    alone = single("classic", [Bot(), Bot()])
    try:
        assert alone.rules.turn_limit == DEFAULT_ROUND_LIMIT
        alone.reset(seed=1)
        assert alone.game.decision_limit == DEFAULT_DECISION_LIMIT
    finally:
        alone.close()
    own = aec("classic", players=3, options={"turn_limit": 4})
    assert own.rules.turn_limit == 4
