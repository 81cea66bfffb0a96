"""A mistyped bot gets a "did you mean": ``play --bot``, ``bot check`` and ``bot add`` suggest
the sample bot it is nearest; ``bot remove`` suggests a registered bot's name."""

from __future__ import annotations

import pytest

from tests.helpers.league import hegemon, home, one_line_error  # noqa: F401


def test_play_suggests_a_sample_bot(home):
    out = hegemon("play", "--bot", "random", "--bot", "plannr", "--bot", "random", home=home)
    line = one_line_error(out)
    assert out.returncode == 2 and "plannr" in line and "did you mean 'planner'?" in line
    assert not list(home.rglob("*.jsonl")), "no game was played"


@pytest.mark.slow
def test_bot_check_and_add_suggest_a_sample_bot(home):
    out = hegemon("bot", "check", "agressive", home=home)
    assert "did you mean 'aggressive'?" in one_line_error(out) and out.returncode == 2
    out = hegemon("bot", "add", "mine", "continentl", home=home)
    assert "did you mean 'continental'?" in one_line_error(out)
    # a path, a --command, or nothing near a sample's name: no suggestion
    for args in (["./plannr"], ["zzzzzz"], ["plannr", "--command", "python nothing.py"]):
        out = hegemon("bot", "check", *args, home=home)
        assert out.returncode != 0 and "did you mean" not in out.stderr, out.stderr


def test_bot_remove_suggests_a_registered_bot(home):
    from hegemon.leaderboard.registry import add_bot
    from hegemon.leaderboard.store import Store

    store = Store(None)
    try:
        add_bot(store, "champion", "random", check=False)
    finally:
        store.close()
    out = hegemon("bot", "remove", "champoin", home=home)
    assert "unknown bot 'champoin'" in (line := one_line_error(out))
    assert "did you mean 'champion'?" in line
    assert hegemon("bot", "remove", "champion", home=home).returncode == 0
