"""The root ``hegemon`` typer app: every command and group, wired in one place.

=================  ==========================================================
module             commands
=================  ==========================================================
:mod:`.play`       ``rules``, ``play``, ``replay``, ``verify`` (single games)
:mod:`.bot`        ``bot add|list|check|remove``
:mod:`.season`     ``season create|list|run|status``
:mod:`.leaderboard` ``leaderboard``
:mod:`.demo`       ``demo``
:mod:`.doctor`     ``doctor``
:mod:`.web`        ``web``, ``report`` (the web pages, served or as files)
:mod:`.map`        ``map compose|show`` (Risiko! Master worlds from tiles)
=================  ==========================================================
"""

from __future__ import annotations

import typer

from . import demo, doctor, leaderboard, play, web
from .bot import bot_app
from .map import map_app
from .season import season_app

app = typer.Typer(
    name="hegemon",
    help="A tournament referee and bot arena for the Risk family of world-conquest games.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
app.command("rules")(play.rules_command)
app.command("play")(play.play_command)
app.command("replay")(play.replay_command)
app.command("verify")(play.verify_command)
app.add_typer(bot_app, name="bot")
app.add_typer(season_app, name="season")
app.add_typer(map_app, name="map")
app.command("leaderboard")(leaderboard.leaderboard_command)
app.command("demo")(demo.demo_command)
app.command("doctor")(doctor.doctor_command)
app.command("web")(web.web)
app.command("report")(web.report)


def main() -> None:
    """The ``hegemon`` console script."""
    app()
