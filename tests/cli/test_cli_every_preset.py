"""Every referee command ends cleanly on every preset: ``hegemon play`` (real bot processes),
then ``verify``, ``replay``, ``logs`` and ``replay --html`` of its record, each through the
CLI, the two-player editions' neutral seats included (they once ended ``play`` in a traceback)."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from hegemon.leaderboard.cli import app as APP
from hegemon.referee.game import Game, GameSetupError
from hegemon.referee.rules import PRESETS, make_rules

runner = CliRunner()
BOTS = ("planner", "random", "aggressive", "continental")


def run(*args: object):
    result = runner.invoke(APP, [str(a) for a in args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result


def fewest_players(preset: str) -> tuple[int, int]:
    """The smallest player count the engine accepts for ``preset``, and the seats of its
    games (a two-player game's neutral colours have seats too)."""
    for players in range(2, 7):
        try:
            game = Game(make_rules(preset, {}), players, 0)
        except GameSetupError:
            continue
        return players, len(game.players)
    raise AssertionError(f"{preset}: no player count from 2 to 6")


def rows(table: str) -> list[list[str]]:
    """The body rows of the first rich table in ``table``, as lists of cell texts."""
    return [
        [cell.strip() for cell in line.split("│")[1:-1]]
        for line in table.splitlines()
        if line.startswith("│")
    ]


def expected_rows(bots: list[str], seats: int) -> list[list[str]]:
    """(seat, bot) of each row of the final table: the bots, then a two-player game's
    neutral colours."""
    shown = [[str(seat), bot] for seat, bot in enumerate(bots)]
    return shown + [[str(seat), "neutral"] for seat in range(len(bots), seats)]


@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_command_ends_cleanly_on_the_preset(preset, tmp_path, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    players, all_seats = fewest_players(preset)
    seats = list(BOTS[:players])
    record = tmp_path / "game.jsonl"
    bots = [arg for bot in seats for arg in ("--bot", bot)]
    played = run(
        "play", "--rules", preset, *bots, "--set", "turn_limit=2", "--record", record, "-q"
    )
    assert played.exit_code == 0, played.output
    final = rows(played.output.partition("game over")[2])
    assert [row[:2] for row in final] == expected_rows(seats, all_seats), played.output

    verified = run("verify", record)
    assert verified.exit_code == 0 and "OK, matches" in verified.output, verified.output

    replayed = run("replay", record)
    assert replayed.exit_code == 0, replayed.output
    final = rows(replayed.output.partition("final position")[2])
    assert [row[:2] for row in final] == expected_rows(seats, all_seats), replayed.output

    logs = run("logs", record)
    assert logs.exit_code == 0, logs.output
    assert all(f"== seat {seat}" in logs.output for seat in range(players)), logs.output

    page = tmp_path / "game.html"
    viewer = run("replay", record, "--html", page)
    assert viewer.exit_code == 0, viewer.output
    assert '<script id=replay-data type="application/json">' in page.read_text(encoding="utf-8")
