"""Every game ends (issue 32): bots that never attack (the SDK's default answers) cannot hold a
runner. A ladder's games end at its round limit and a second ladder on the same single runner
gets its games; ``hegemon play`` of three such bots ends at the default round limit; a ladder
made without a limit gets the default and says so; ``bench`` ends such games too."""

from __future__ import annotations

import json
import signal
import subprocess
from pathlib import Path

import pytest

from hegemon.leaderboard.registry import add_bot
from hegemon.leaderboard.store import DONE, Store
from hegemon.referee.limits import DEFAULT_ROUND_LIMIT
from hegemon.referee.record_check import checked_replay
from tests.helpers.league import (  # noqa: F401  (home, store: fixtures)
    ROOT,
    hegemon,
    home,
    one_line_error,
    start_hegemon,
    store,
    wait_for,
)

PASSIVE = ROOT / "tests" / "bots" / "passive.py"


def passive_copies(folder: Path, count: int) -> list[Path]:
    """``count`` bots that never attack, each its own file (a version is its content)."""
    paths = []
    for n in range(count):
        path = folder / f"passive{n}.py"
        path.write_text(PASSIVE.read_text() + f"\n# copy {n}\n")
        paths.append(path)
    return paths


def result_of(record: str) -> dict:
    return json.loads(record.strip().splitlines()[-1])


def test_a_ladder_gets_the_default_round_limit_and_says_so(home: Path, store: Store) -> None:
    created = hegemon("ladder", "create", "lad", "--players", "3", home=home)
    assert created.returncode == 0, created.stderr
    assert f"games end after {DEFAULT_ROUND_LIMIT} rounds" in created.stdout
    ladder = store.season_by_name("lad")
    assert ladder is not None and ladder.rule_set().turn_limit == DEFAULT_ROUND_LIMIT
    helped = hegemon("ladder", "create", "--help", home=home)
    assert "--round-limit" in helped.stdout and str(DEFAULT_ROUND_LIMIT) in helped.stdout
    own = hegemon("ladder", "create", "own", "--set", "turn_limit=30", home=home)
    assert "games end after 30 rounds" in own.stdout
    error = one_line_error(hegemon("ladder", "create", "bad", "--round-limit", "0", home=home))
    assert "--round-limit must be at least 1" in error
    twice = hegemon("ladder", "create", "x", "--round-limit", "9", "--set", "turn_limit=8")
    assert "give the round limit once" in one_line_error(twice)


@pytest.mark.timeout(600)
def test_a_ladder_of_bots_that_never_attack_ends_its_games_and_another_ladder_plays(
    home: Path, store: Store, tmp_path: Path
) -> None:
    """One runner (``--workers 1``), two ladders of the same three never-attacking bots: the
    first ladder's games end at its round limit, and the second gets games of its own."""
    for n, path in enumerate(passive_copies(tmp_path, 3)):
        add_bot(store, f"passive{n}", str(path), check=False)
    for name in ("first", "second"):
        made = hegemon("ladder", "create", name, "--players", "3", "--round-limit", "6", home=home)
        assert made.returncode == 0, made.stderr
    first, second = store.season_by_name("first"), store.season_by_name("second")
    assert first is not None and first.id is not None
    assert second is not None and second.id is not None
    log = tmp_path / "arena.log"
    arena = start_hegemon("arena", "--workers", "1", "--no-web", home=home, log=log)
    try:
        wait_for(
            "a game of each ladder",
            lambda: store.matches(first.id, DONE) and store.matches(second.id, DONE),  # type: ignore[arg-type]
            timeout=400,
        )
    finally:
        arena.send_signal(signal.SIGTERM)
        try:
            arena.wait(120)
        except subprocess.TimeoutExpired:
            arena.kill()
            arena.wait()
    for ladder in (first, second):
        assert ladder.id is not None
        for _, game in store.games(ladder.id):
            assert game.finish_reason == "turn limit", log.read_text()
            record = (home / game.record_path).read_text()
            verdict = checked_replay(record)
            assert verdict.ok, verdict.message
            assert verdict.game is not None and verdict.game.rules.turn_limit == 6
            assert result_of(record)["places"] == [1, 1, 1]  # nobody attacked: a tie


def test_play_of_three_bots_that_never_attack_ends_at_the_default_round_limit(
    tmp_path: Path,
) -> None:
    bots = ["--bot", str(PASSIVE)] * 3
    record = tmp_path / "game.jsonl"
    played = hegemon("play", *bots, "--record", str(record), "-q", timeout=600)
    assert played.returncode == 0, played.stdout + played.stderr
    assert f"sets no round limit: the game ends after {DEFAULT_ROUND_LIMIT} rounds" in (
        played.stdout
    )
    text = record.read_text()
    assert result_of(text)["reason"] == "turn limit"
    verdict = checked_replay(text)
    assert verdict.ok and verdict.game is not None
    assert verdict.game.rules.turn_limit == DEFAULT_ROUND_LIMIT
    assert verdict.game.round == DEFAULT_ROUND_LIMIT + 1  # it played every round, no more


def test_bench_of_bots_that_never_attack_ends_whatever_the_rules_say(tmp_path: Path) -> None:
    new, old = passive_copies(tmp_path, 2)
    args = ("bench", str(new), str(old), "--max-games", "2", "--set", "turn_limit=0", "-q")
    benched = hegemon(*args, timeout=300)
    assert benched.returncode == 0, benched.stdout + benched.stderr
    assert "no decision after 2 games" in benched.stdout
