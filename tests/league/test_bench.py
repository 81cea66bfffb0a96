"""``hegemon bench``: seats and scores of a pair of games on one deal, the SPRT stopping early
on a clearly stronger bot with an Elo difference that a longer match confirms, and the
process path."""

from __future__ import annotations

import math
import re
import subprocess
import sys
from pathlib import Path

import pytest

from hegemon.leaderboard.bench import (
    TURN_LIMIT,
    bench_game_id,
    game_points,
    identical,
    pair_scale,
    play_pair_local,
    run_match,
    score_pair,
    seatings,
    support,
)
from hegemon.leaderboard.sprt import Sprt, estimate
from hegemon.referee import make_rules
from hegemon.sample_bots.local import python_bot

HEGEMON = [str(Path(sys.executable).parent / "hegemon")]


def test_a_pair_swaps_every_seat_and_scores_each_couple():
    assert seatings(4) == ((0, 1, 0, 1), (1, 0, 1, 0))
    assert seatings(3) == ((0, 1, 0), (1, 0, 1))
    # NEW in seats 0 and 2 finished 1st and 4th: ahead of OLD's 2nd and 3rd once each.
    assert game_points((1, 2, 4, 3), (0, 1, 0, 1)) == 4
    assert game_points((1, 1, 3), (0, 1, 0)) == 1 + 0  # level with OLD, then behind it
    assert pair_scale(4) == 16 and pair_scale(3) == 8
    assert support(3) == [k / 8 for k in range(9)]
    won = score_pair(0, 4, [(1, 3, 2, 4), (3, 1, 4, 2)], faults=0)
    assert won.score == 1.0


@pytest.mark.slow
def test_bench_stops_early_on_a_stronger_bot_and_a_longer_match_agrees():
    out = subprocess.run(
        [*HEGEMON, "bench", "continental", "random", "--players", "3", "--seed", "1", "-q"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert out.returncode == 0, out.stderr
    assert "H1 accepted" in out.stdout, out.stdout
    found = re.search(
        r"Elo difference: ([+-][\d.]+) ± ([\d.]+) Elo \(95%\), (\d+) games", out.stdout
    )
    assert found, out.stdout
    elo, margin, games = float(found[1]), float(found[2]), int(found[3])
    assert games < 120  # well before --max-games (2000)
    # A match twice as long on other deals, never stopping: the same difference.
    new, old = python_bot("continental"), python_bot("random")
    assert new is not None and old is not None
    factories = [new, old]
    rules = make_rules("classic")
    sprt = Sprt(support(3))
    run_match(
        lambda seed, deal: play_pair_local(factories, rules, 3, seed, deal),
        sprt,
        seed=2,
        max_pairs=games,
        stop=False,
    )
    long = estimate(sprt.samples)
    assert long.n == games
    assert abs(long.elo - elo) <= math.hypot(margin, long.margin), (elo, margin, long)
    assert long.low > 20  # the longer match too says: stronger by more than elo1


@pytest.mark.parametrize("spec", ["random", "sample_bots/minimal.py"])
def test_python_bots_load_in_process(spec):
    factory = python_bot(spec)
    assert factory is not None and factory().decide is not None


def test_bench_plays_bot_processes(tmp_path):
    out = subprocess.run(
        [
            *HEGEMON,
            "bench",
            "random",
            "random",
            "--processes",
            "--players",
            "3",
            "--max-games",
            "2",
            "--set",
            "turn_limit=3",
            "--seed",
            "5",
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr
    assert "no decision after 2 games" in out.stdout


SHORT = ("--set", "turn_limit=3", "--seed", "5")


def test_bench_into_a_log_says_the_score_after_every_pair():
    """Into a pipe or a log (a CI job, ``nohup``) the live line drew nothing, so a bench of
    hundreds of games said nothing until it ended; now a line a pair, as cutechess-cli does."""
    out = subprocess.run(
        [*HEGEMON, "bench", "random", "random", "--players", "3", "--max-games", "4", *SHORT],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    said = [n for n, line in enumerate(lines) if line.startswith(("games 2 ·", "games 4 ·"))]
    verdict = next(n for n, line in enumerate(lines) if "no decision after 4 games" in line)
    assert [lines[n][:7] for n in said] == ["games 2", "games 4", "games 4"], out.stdout
    assert said[1] < verdict, out.stdout


def bench(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*HEGEMON, "bench", *args, "-q"], capture_output=True, text=True, timeout=600
    )


def test_two_copies_of_a_bot_do_not_replay_each_other_in_process():
    """Both games of a deal used to share the seed *and* the game id in this process, so two
    copies of a bot that seeds its choices from the game id replayed each other seat for seat
    ("-0.0 ± 0.0 Elo"); as processes every game had a fresh id."""
    assert bench_game_id(7, 0) != bench_game_id(7, 1)
    assert bench_game_id(7, 0) == bench_game_id(7, 0)
    factory = python_bot("random")
    assert factory is not None
    rules = make_rules("classic", {"turn_limit": 8})
    results = [play_pair_local([factory, factory], rules, 3, 100 + d, d) for d in range(3)]
    assert not identical(results)


def test_versions_that_play_identically_are_named_so_not_given_zero_plus_minus_zero():
    out = bench(
        "sample_bots/minimal.py",
        "sample_bots/minimal.py",
        "--players",
        "3",
        "--max-games",
        "4",
        "--set",
        "turn_limit=5",
        "--seed",
        "3",
    )
    assert out.returncode == 0, out.stderr
    assert "the versions played identically on all 2 deals" in " ".join(out.stdout.split())
    assert "± 0.0" not in out.stdout


def test_rules_without_a_turn_limit_get_one_so_random_bots_finish():
    """``hegemon bench random random`` (classic has no turn limit) died after two minutes with
    a LocalFault traceback."""
    out = bench("random", "random", "--players", "3", "--max-games", "2", "--seed", "1")
    assert out.returncode == 0, out.stderr
    assert "Traceback" not in out.stderr
    text = " ".join(out.stdout.split())
    assert f"games end after {TURN_LIMIT} rounds" in text
    assert "no decision after 2 games" in text
