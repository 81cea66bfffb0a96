"""``hegemon map compose|show`` (seed 003 "PREPARAZIONE DEL GIOCO": "Scegliete 6 quadranti e
disponeteli in modo da formare il piano di gioco")."""

from __future__ import annotations

import json

from PIL import Image
from typer.testing import CliRunner

from hegemon.leaderboard.cli.app import app
from hegemon.referee import make_rules
from hegemon.referee.compose import EXAMPLE

runner = CliRunner()


def test_compose_prints_the_layout_and_writes_a_map_that_a_game_can_use(tmp_path):
    out = tmp_path / "world.json"
    result = runner.invoke(
        app,
        [
            "map",
            "compose",
            "--tiles",
            "Delta,Tau,Epsilon,Omega,Alfa,Sigma",
            "--players",
            "5",
            "--out",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    assert "Delta" in result.output and "60 territories, total value 175" in result.output
    assert f"map: {EXAMPLE}" in result.output
    data = json.loads(out.read_text())
    assert data["name"] == EXAMPLE and data["layout"][0] == ["Delta", "Tau", "Epsilon"]
    assert make_rules("classic", {"map": data["name"]}).map == EXAMPLE


def test_compose_refuses_a_bad_layout_saying_why():
    result = runner.invoke(
        app, ["map", "compose", "--tiles", "Tau,Alfa,Epsilon,Omega,Delta,Sigma", "--players", "7"]
    )
    assert result.exit_code != 0
    result = runner.invoke(
        app, ["map", "compose", "--tiles", "Tau,Alfa,Epsilon,Omega,Delta,Sigma", "--players", "4"]
    )
    assert result.exit_code == 2
    assert "Tau east sector 1 is land but Alfa west sector 1 is sea" in result.output


def test_compose_from_a_seed_is_repeatable_and_show_draws_it(tmp_path):
    first = runner.invoke(app, ["map", "compose", "--players", "3", "--seed", "11"])
    again = runner.invoke(app, ["map", "compose", "--players", "3", "--seed", "11"])
    assert first.exit_code == 0 and first.output == again.output
    spec = next(line[5:] for line in first.output.splitlines() if line.startswith("map: "))
    png = tmp_path / "world.png"
    result = runner.invoke(app, ["map", "show", spec, "--png", str(png)])
    assert result.exit_code == 0, result.output
    with Image.open(png) as image:
        assert image.format == "PNG" and image.size[0] > image.size[1]


def test_rules_shows_the_deck_each_preset_plays():
    """Seed 003: "Un mazzo da 44 carte speciali" — ``hegemon rules`` says what the deck holds."""
    master = runner.invoke(app, ["rules", "risiko-master-base"], env={"COLUMNS": "200"})
    assert master.exit_code == 0, master.output
    assert "Cards: Risiko! Master's 44 (risiko-master.json), showing no territory" in master.output
    assert "14 cavalry (3 with +1, 1 with +2)" in master.output and "2 wild" in master.output
    classic = runner.invoke(app, ["rules", "classic"], env={"COLUMNS": "200"})
    assert "Cards: 44, one per territory and 2 wild: 14 infantry, 14 cavalry" in classic.output
