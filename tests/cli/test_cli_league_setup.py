"""``hegemon bot …`` and ``hegemon season create|list``: results, and one clear line for every
mistake a user can make, with nothing written."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hegemon.leaderboard.cli import app as APP
from hegemon.leaderboard.registry import add_bot
from hegemon.leaderboard.store import Store
from tests.helpers.league import saved_id

runner = CliRunner()


def run(*args: str):
    return runner.invoke(APP, [str(a) for a in args])


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("HEGEMON_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("HEGEMON_DB", raising=False)
    monkeypatch.setenv("COLUMNS", "200")
    return tmp_path / "home"


@pytest.fixture
def league(home):
    """Five registered bots (sample random under five names; the check is skipped here)."""
    with Store() as store:
        for name in ("a", "b", "c", "d", "e"):
            add_bot(store, name, "random", check=False)
    return home


def counts() -> tuple[int, int, int]:
    with Store() as store:
        seasons = store.seasons()
        matches = sum(len(store.matches(saved_id(s))) for s in seasons)
        return len(seasons), matches, len(store.bots())


def assert_one_line_error(result, *fragments: str) -> None:
    assert result.exit_code != 0, result.output
    lines = [ln for ln in result.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ")
    for fragment in fragments:
        assert fragment in lines[0], lines[0]


# ---------------------------------------------------------------------------------- bots
def test_bot_add_list_and_again(home):
    result = run("bot", "add", "random", "random")
    assert result.exit_code == 0, result.output
    assert "registered random v1" in result.stdout and "check passed" in result.stdout
    again = run("bot", "add", "random", "random")
    assert again.exit_code == 0 and "already registered as random v1" in again.stdout
    listed = run("bot", "list")
    assert listed.exit_code == 0
    assert "random" in listed.stdout and "v1" in listed.stdout and "python" in listed.stdout


def test_bot_add_refuses_a_crashing_bot(home, tmp_path):
    bad = tmp_path / "crash.py"
    bad.write_text("import sys; sys.exit(3)\n")
    result = run("bot", "add", "crash", bad)
    assert_one_line_error(result, "crash is refused: start-up failure", "exit code 3")
    assert counts() == (0, 0, 0)


@pytest.mark.parametrize(
    "args, fragment",
    [
        (["bot", "add", "x", "no/such/path"], "no such file or folder"),
        (["bot", "add", "bad name", "random"], "bad bot name"),
        (["bot", "remove", "ghost"], "unknown bot 'ghost'"),
        (["bot", "check", "no/such/path"], "no such file or folder"),
    ],
)
def test_bot_errors(league, args, fragment):
    assert_one_line_error(run(*args), fragment)
    assert counts() == (0, 0, 5)


def test_bot_check(home, tmp_path):
    record = tmp_path / "check.jsonl"
    result = run("bot", "check", "random", "--record", record)
    assert result.exit_code == 0, result.output
    assert "check passed" in result.stdout
    assert record.read_text().startswith("{")
    bad = tmp_path / "crash.py"
    bad.write_text("import sys; sys.exit(3)\n")
    assert_one_line_error(run("bot", "check", bad), "check failed: start-up failure")
    assert not (home / "arena.db").exists()  # checking registers nothing


def test_bot_remove(league):
    assert (
        run(
            "season",
            "create",
            "s",
            "--bots",
            "a,b,c",
            "--players",
            "3",
            "--games",
            "3",
            "--seed",
            "1",
        ).exit_code
        == 0
    )
    assert_one_line_error(run("bot", "remove", "a"), "a@v1 plays in season s")
    result = run("bot", "remove", "e")
    assert result.exit_code == 0 and "removed e v1" in result.stdout
    assert counts() == (1, 3, 4)


# ---------------------------------------------------------------------------------- seasons
def test_season_create_and_list(league):
    result = run(
        "season",
        "create",
        "spring",
        "--rules",
        "classic",
        "--set",
        "turn_limit=50",
        "--bots",
        "a,b,c,d,e",
        "--players",
        "4",
        "--games",
        "20",
        "--seed",
        "1",
        "--decision-time",
        "1.5",
        "--time-bank",
        "30",
        "--restart-per-game",
    )
    assert result.exit_code == 0, result.output
    assert "created season spring" in result.stdout and "20 games" in result.stdout
    with Store() as store:
        season = store.season_by_name("spring")
        assert season is not None
        assert season.options["turn_limit"] == 50 and season.players == 4 and season.seed == 1
        assert (season.decision_time, season.time_bank, season.keep_memory) == (1.5, 30, False)
        assert [b.name for b in store.season_bots(saved_id(season))] == ["a", "b", "c", "d", "e"]
        assert len(store.matches(saved_id(season))) == 20
    dup = run(
        "season",
        "create",
        "dup",
        "--bots",
        "a@v1,b,c",
        "--players",
        "3",
        "--games",
        "10",
        "--seed",
        "2",
        "--duplicate",
    )
    assert dup.exit_code == 0, dup.output
    assert "12 games (rounded up from 10" in dup.stdout
    listed = run("season", "list")
    assert listed.exit_code == 0
    assert "spring" in listed.stdout and "dup" in listed.stdout and "0/20" in listed.stdout
    assert "1 (public)" in listed.stdout  # a chosen seed is public: anyone can recompute games


def test_a_season_has_a_chess_clock_and_a_secret_seed_by_default(league):
    """``--time 90+0.5``: a 90 s bank and half a second back per answered decision. Without
    --seed the season's seed is 128 secret bits, never printed before the season is finished,
    and its games' seeds are secret too."""
    from hegemon.referee.record import seed_is_public

    result = run(
        "season",
        "create",
        "clock",
        "--bots",
        "a,b,c",
        "--players",
        "3",
        "--games",
        "3",
        "--time",
        "90+0.5",
    )
    assert result.exit_code == 0, result.output
    assert "time 90+0.5" in result.stdout and "seed secret" in result.stdout
    with Store() as store:
        season = store.season_by_name("clock")
        assert season is not None
        assert (season.time_bank, season.time_increment) == (90, 0.5)
        assert season.time_control().increment == 0.5
        assert season.seed >= 1 << 128 and str(season.seed) not in result.stdout
        assert not any(seed_is_public(m.seed) for m in store.matches(saved_id(season)))
        listed = run("season", "list")
        assert "secret" in listed.stdout and str(season.seed) not in listed.stdout


def test_a_revealed_secret_seed_is_listed_whole_within_80_columns(league, monkeypatch):
    """Once a season is finished its 39-digit seed is shown, on a line of its own: the table
    still fits 80 columns and the seed is never cut (it is copied by hand to replay)."""
    from hegemon.leaderboard.store import FINISHED, SeasonRow

    created = run("season", "create", "done", "--bots", "a,b,c", "--players", "3", "--games", "3")
    assert created.exit_code == 0, created.output
    with Store() as store:
        season = store.season_by_name("done")
        assert season is not None
        with store.session(write=True) as s:  # as the runner leaves it when the last game ends
            row = s.get(SeasonRow, saved_id(season))
            assert row is not None
            row.status = FINISHED
    monkeypatch.setenv("COLUMNS", "80")  # read when the console starts: a process of its own
    cli = "from hegemon.leaderboard.cli.app import main; main()"
    listed = subprocess.run(
        [sys.executable, "-c", cli, "season", "list"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert f"seed of done: {season.seed}" in listed.stdout
    assert max(len(line) for line in listed.stdout.splitlines()) <= 80, listed.stdout


@pytest.mark.parametrize(
    "args, fragment",
    [
        (["--bots", "a,b,zed,d"], "unknown bot 'zed' (registered: a, b, c, d, e)"),
        (["--bots", "a@v2,b,c,d"], "bot a has no version 2"),
        (["--rules", "monopoly"], "unknown rule set 'monopoly'"),
        (["--set", "dice=7"], "unknown option 'dice'"),
        (["--set", "fortify=teleport"], "option fortify: 'teleport' is not allowed"),
        (["--set", "turn_limit"], "must look like NAME=VALUE"),
        (["--players", "7"], "is for 3 to 6 players, not 7"),
        (["--players", "2"], "is for 3 to 6 players, not 2"),
        (["--players", "6"], "6 players per game need at least 6 different bots"),
        (["--bots", "a,b,a,c"], "--bots lists a@v1 twice"),
        (["--games", "0"], "--games must be at least 1"),
        (["--decision-time", "0"], "--decision-time must be positive"),
        (["--time", "60+x"], "bad time control '60+x'"),
        (["--time", "0+1"], "--time-bank (or --time) must be positive"),
        (["--seed", "-1"], "--seed must be between 0 and"),
        (["--name-taken"], "a season named 'taken' already exists"),
    ],
)
def test_season_create_errors(league, args, fragment):
    assert (
        run(
            "season",
            "create",
            "taken",
            "--bots",
            "a,b,c",
            "--players",
            "3",
            "--games",
            "3",
            "--seed",
            "1",
        ).exit_code
        == 0
    )
    before = counts()
    name = "taken" if args == ["--name-taken"] else "new"
    extra = [] if args == ["--name-taken"] else args
    base = {"--bots": "a,b,c,d,e", "--players": "4", "--games": "10", "--seed": "1"}
    flags = list(extra)
    for flag, value in base.items():
        if flag not in extra:
            flags += [flag, value]
    assert_one_line_error(run("season", "create", name, *flags), fragment)
    assert counts() == before


def test_season_create_without_any_bots(home):
    assert_one_line_error(
        run("season", "create", "s", "--bots", "a,b,c"), "no bots are registered yet"
    )
    assert not (home / "arena.db").exists()


def test_empty_lists(home):
    assert "no bots registered yet" in run("bot", "list").stdout
    assert "no seasons yet" in run("season", "list").stdout
    assert not (home / "arena.db").exists()


# ---------------------------------------------------------------------------------- databases
def test_corrupt_database_is_one_line(home, tmp_path):
    bad = tmp_path / "bad.db"
    bad.write_bytes(b"not a database at all" * 50)
    assert_one_line_error(run("bot", "list", "--db", bad), "file is not a database")
    assert_one_line_error(
        run("season", "create", "s", "--bots", "a,b,c", "--db", bad), "file is not a database"
    )
    assert bad.read_bytes() == b"not a database at all" * 50


def test_unreachable_database_is_one_line(home):
    result = run("season", "list", "--db", "postgresql://nobody@127.0.0.1:1/x")
    assert_one_line_error(result, "cannot open database postgresql://nobody@127.0.0.1:1/x")


def test_db_from_environment(league, tmp_path, monkeypatch):
    other = tmp_path / "other.db"
    monkeypatch.setenv("HEGEMON_DB", str(other))
    assert "no bots registered yet" in run("bot", "list").stdout
    monkeypatch.setenv("HEGEMON_DB", f"sqlite:///{Path(league) / 'arena.db'}")
    assert " a " in run("bot", "list").stdout


def test_errors_are_one_line_in_a_real_process(league, tmp_path):
    script = tmp_path / "app.py"
    script.write_text(
        f"import sys; sys.path[:0] = [{str(Path(__file__).parent)!r}, "
        f"{str(Path(__file__).parents[2])!r}]\n"
        "from test_cli_league_setup import APP\nAPP()\n"
    )
    proc = subprocess.run(
        [
            sys.executable,
            str(script),
            "season",
            "create",
            "x",
            "--bots",
            "a,zed,c",
            "--players",
            "3",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2
    assert proc.stderr.strip().count("\n") == 0
    assert proc.stderr.startswith("error: unknown bot 'zed'")
