"""A trained policy in the arena: ``hegemon train`` writes a bot folder whose PolicyBot plays
as a real bot process (the runner, its sandbox, gRPC) and in ``hegemon bench``; a policy file
that cannot be used is one line, never a traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from hegemon.sdk import PolicyBot, PolicyFileError, play_local
from hegemon.sdk.network import Network
from tests.helpers.league import hegemon, one_line_error

TWO_SHORT = ("--rules", "two-player-classic", "--set", "turn_limit=3")
"""Two-player classic, three rounds: games of seconds."""


@pytest.fixture(scope="module")
def trained(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A bot folder trained for two games of three rounds (seconds)."""
    folder = tmp_path_factory.mktemp("train") / "learned"
    options = ("--players", "2", "--games", "2", "--batch", "1")
    done = hegemon("train", *TWO_SHORT, *options, "--out", str(folder))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "2 games" in done.stdout
    return folder


@pytest.mark.slow
def test_training_writes_a_bot_folder_with_its_policy_and_learning_curve(trained):
    assert {p.name for p in trained.iterdir()} >= {"bot.py", "policy.npz", "learning-curve.png"}
    assert (trained / "learning-curve.png").read_bytes().startswith(b"\x89PNG")
    network = Network.load(trained / "policy.npz")
    assert network.meta["games"] == 2 and network.meta["rules"] == "two-player-classic"


@pytest.mark.slow
def test_the_trained_policy_plays_as_a_bot_process_over_grpc(trained, tmp_path):
    record = tmp_path / "game.jsonl"
    seats = ("--bot", str(trained), "--bot", "random")
    done = hegemon("play", *TWO_SHORT, *seats, "--seed", "3", "--record", str(record))
    # exit 0: the game ended and no seat faulted (a refused or failed answer exits 1)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "learned" in done.stdout
    assert record.is_file()


@pytest.mark.slow
def test_bench_takes_the_trained_bot_in_a_two_player_rule_set(trained):
    match = ("--players", "2", "--max-games", "2", "--seed", "1", "-q")
    done = hegemon("bench", str(trained), "random", *TWO_SHORT, *match)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "games 2" in done.stdout


def test_bench_refuses_two_players_where_the_rules_need_three():
    line = one_line_error(hegemon("bench", "random", "random", "--players", "2"))
    assert "is for 3 to 6 players, not 2" in line


@pytest.mark.parametrize(
    ("content", "says"),
    [
        (b"not a zip archive", "not a numpy .npz archive"),
        (None, "no such file"),
        ("missing-meta", "no meta"),
        ("bad-shape", "w1 takes 5 inputs"),
    ],
)
def test_a_policy_file_that_cannot_be_used_is_one_line(tmp_path, content, says):
    folder = tmp_path / "bot"
    folder.mkdir()
    (folder / "bot.py").write_text(
        "from hegemon.sdk import PolicyBot\n\n\n"
        "class Broken(PolicyBot):\n"
        '    name = "broken"\n\n\n'
        'if __name__ == "__main__":\n'
        "    Broken.main()\n"
    )
    policy = folder / "policy.npz"
    if isinstance(content, bytes):
        policy.write_bytes(content)
    elif content == "missing-meta":
        np.savez(policy, w0=np.zeros((3, 4)), b0=np.zeros(4))
    elif content == "bad-shape":
        arrays = Network.initial(3, 2, (4,)).arrays()
        arrays["w1"] = np.zeros((5, 2))
        np.savez(policy, **arrays)
    done = subprocess.run(
        [sys.executable, str(folder / "bot.py")], capture_output=True, text=True, timeout=60
    )
    line = one_line_error(done)
    assert line.startswith("broken: ") and says in line, line
    with pytest.raises(PolicyFileError, match=says):
        PolicyBot(policy)


def test_a_saved_network_loads_as_it_was_and_plays_a_game(tmp_path):
    from hegemon.referee import make_rules
    from hegemon.referee.encoding import layout_of
    from hegemon.referee.game import Game

    layout = layout_of(Game(make_rules("classic"), 3, seed=0).board)
    network = Network.initial(layout.features, layout.actions, (8,), np.random.default_rng(1))
    network.meta["note"] = "kept"
    loaded = Network.load(network.save(tmp_path / "p.npz"))
    assert loaded.meta["note"] == "kept"
    for (w, b), (w2, b2) in zip(network.weights, loaded.weights, strict=True):
        assert np.array_equal(w, w2) and np.array_equal(b, b2)
    from hegemon.sample_bots.random import RandomBot

    result = play_local(
        [PolicyBot(loaded), RandomBot(), RandomBot()],
        "classic",
        seed=5,
        options={"turn_limit": 3},
        strict=True,  # the first illegal answer raises
    )
    assert sorted(result.places) == [1, 2, 3]
    assert result.decisions[0] > 0


def test_a_policy_for_another_map_says_so():
    from hegemon.sample_bots.random import RandomBot

    bot = PolicyBot(Network.initial(10, 4, (4,)))
    with pytest.raises(Exception, match="reads 10 numbers"):
        play_local([bot, RandomBot(), RandomBot()], "classic", seed=1, strict=True)
