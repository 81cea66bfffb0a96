"""What a person sees of an environment: the board as text, and in a notebook the replay viewer
of a finished game (the page ``hegemon replay --html`` writes), never a running game's seed."""

from __future__ import annotations

import html

import numpy as np

from hegemon.env import aec, single
from tests.helpers.env import play_aec, random_choice


def test_render_is_the_public_board_as_text():
    env = aec("classic", 3, options={"turn_limit": 2}, render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert text is not None
    assert text.startswith("classic on classic, round 0")
    assert env.game.pending is not None
    assert f"seat {env.game.pending.player} to decide: claim" in text
    assert "Alaska -:0" in text  # every territory, free before the claims


def test_a_finished_game_shows_the_replay_viewer():
    env = aec("classic", 3, options={"turn_limit": 2})
    env.reset(seed=1)
    running = env._repr_html_()
    assert running is not None
    assert running.startswith("<pre>") and "replay-data" not in running
    assert "seed" not in running  # an unfinished game's seed is a secret
    play_aec(env, random_choice(np.random.default_rng(0)))
    page = html.unescape(env._repr_html_() or "")
    assert "<iframe srcdoc=" in page and 'id=replay-data type="application/json"' in page
    assert '"seat_0"' in page and "turn limit" in page


def test_the_single_environment_shows_its_game_too():
    env = single("classic", ["random", "random"], options={"turn_limit": 2}, render_mode="ansi")
    try:
        obs, _ = env.reset(seed=4)
        assert "to decide" in (env.render() or "")
        choose = random_choice(np.random.default_rng(0))
        while True:
            obs, _, terminated, truncated, _ = env.step(choose(obs["action_mask"]))
            if terminated or truncated:
                break
        page = html.unescape(env._repr_html_() or "")
    finally:
        env.close()
    assert 'id=replay-data type="application/json"' in page
    assert '"learner"' in page and '"random"' in page
