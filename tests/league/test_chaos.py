"""Chaos: ``hegemon season run`` (the real CLI, a real subprocess, real sandboxed bots) is
SIGKILLed at moments drawn from a fixed ``random.Random(seed)``, again and again, then run to
completion. After every kill the database is consistent and every committed game stays as it
was; the runner's bots die with it (nobody kills them for it: their sandboxes do); at the end
the season is finished with every match played exactly once and every record verifying.
"""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import time
from pathlib import Path

import pytest

from hegemon.referee.record import replay
from tests.helpers.league import descendants, env_for, hegemon, start_hegemon, wait_gone

pytestmark = pytest.mark.slow

SEED = 20241129
KILLS = 8
SEASON = "chaos"
GAMES = 12


def db_state(db: Path) -> dict:
    """The season's matches and games, checked for consistency."""
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=30)
    try:
        assert con.execute("pragma integrity_check").fetchone()[0] == "ok"
        season_id, status = con.execute(
            "select id, status from seasons where name = ?", (SEASON,)
        ).fetchone()
        matches = con.execute(
            "select id, number, status from matches where season_id = ?", (season_id,)
        ).fetchall()
        games = con.execute(
            "select g.id, g.match_id, m.number, m.status, g.record_path, g.places "
            "from games g join matches m on m.id = g.match_id where m.season_id = ?",
            (season_id,),
        ).fetchall()
    finally:
        con.close()
    assert len(matches) == GAMES
    assert {s for _, _, s in matches} <= {"pending", "claimed", "done", "void"}
    per_match: dict[int, int] = {}
    for _, match_id, _, _, _, _ in games:
        per_match[match_id] = per_match.get(match_id, 0) + 1
    assert all(n == 1 for n in per_match.values()), "a match has two stored games"
    done = {mid for mid, _, s in matches if s == "done"}
    assert set(per_match) == done, "a game without a done match, or a done match without a game"
    committed = {}
    for game_id, _, number, _, record_path, places in games:
        record = Path(record_path)
        assert record.is_file(), f"game {number}: its record {record} is missing"
        committed[number] = (game_id, places, record.stat().st_size)
    return {
        "status": status,
        "committed": committed,
        "counts": {
            s: sum(1 for _, _, x in matches if x == s)
            for s in ("pending", "claimed", "done", "void")
        },
    }


def cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def wait_for_bots(runner, bots: set[int], timeout: float = 120.0) -> None:
    """Until the runner has bot processes (collected into ``bots``) or has ended."""
    deadline = time.monotonic() + timeout  # a guard against hanging, not a time assertion
    while runner.poll() is None and time.monotonic() < deadline:
        found = descendants(runner.pid)
        if any(b"--address" in cmdline(pid) for pid in found):  # a bot's sandbox is up
            bots.update(found)
            return
        time.sleep(0.05)


def test_sigkill_at_random_moments_then_the_season_completes_once(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    env = env_for(home)
    env.pop("HEGEMON_SANDBOX", None)
    for name, spec in (("rando", "random"), ("brute", "aggressive"), ("mapper", "continental")):
        out = hegemon("bot", "add", name, spec, home=home, env=env)
        assert out.returncode == 0, out.stdout + out.stderr
    out = hegemon(
        "season",
        "create",
        SEASON,
        "--bots",
        "rando,brute,mapper",
        "--players",
        "3",
        "--games",
        str(GAMES),
        "--seed",
        "7",
        "--set",
        "turn_limit=6",
        "--decision-time",
        "5",
        "--time-bank",
        "120",
        home=home,
        env=env,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    db = home / "arena.db"

    rng = random.Random(SEED)
    seen: dict[int, tuple] = {}
    killed_mid_game = 0
    for k in range(KILLS):
        log = tmp_path / f"run-{k}.log"
        runner = start_hegemon(
            "season", "run", SEASON, "-j", "2", "--quiet", home=home, env=env, log=log
        )
        bots: set[int] = set()
        if k % 2 == 0:
            # every other kill lands while bots play: how long the runner takes to start
            # them depends on the machine's load, so their arrival is awaited, not timed
            wait_for_bots(runner, bots)
        delay = rng.uniform(0.2, 4.0) if k % 2 else rng.uniform(0.0, 1.5)
        deadline = time.monotonic() + delay
        while time.monotonic() < deadline and runner.poll() is None:
            bots.update(descendants(runner.pid))
            time.sleep(0.05)
        bots.update(descendants(runner.pid))
        if runner.poll() is None:
            os.kill(runner.pid, signal.SIGKILL)
            killed_mid_game += bool(bots)
        runner.wait(30)
        # nobody stops the dead runner's bots: --die-with-parent and their PID namespaces do
        left = wait_gone(sorted(bots), timeout=10)
        assert not left, f"kill {k}: bot processes outlived the runner: {left}"
        state = db_state(db)
        for number, game in seen.items():
            assert state["committed"].get(number) == game, (
                f"kill {k}: committed game {number} was changed or played again"
            )
        seen.update(state["committed"])
        if state["status"] == "finished":
            break
    assert killed_mid_game >= 3, "the kills never caught bots at work: the test proves little"

    out = hegemon("season", "run", SEASON, "-j", "2", "--quiet", home=home, env=env, timeout=600)
    assert out.returncode == 0, out.stdout + out.stderr
    state = db_state(db)
    assert state["status"] == "finished"
    assert state["counts"]["done"] == GAMES and state["counts"]["claimed"] == 0
    assert state["counts"]["pending"] == 0 and state["counts"]["void"] == 0
    for number, game in seen.items():
        assert state["committed"][number] == game
    records = sorted((home / "records").rglob("*.jsonl"))
    assert len(records) == GAMES, records
    for record in records:
        text = record.read_text()
        assert replay(text).ok, f"{record} does not verify"
        assert (
            '"sandbox":"bubblewrap"' in text.splitlines()[0] or "bubblewrap" in text.splitlines()[0]
        )
    status = hegemon("season", "status", SEASON, home=home, env=env)
    assert status.returncode == 0, status.stderr
