"""The ``hegemon`` command line: one typer app gathering the referee's and the league's commands."""

from __future__ import annotations

import typer

from hegemon.referee import cli as referee_cli

from . import cli_bots, cli_league, cli_seasons

app = typer.Typer(
    name="hegemon",
    help="A tournament referee and bot arena for the Risk family of world-conquest games.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
referee_cli.register(app)
cli_bots.register(app)
cli_seasons.register(app)
cli_league.register(app)


def main() -> None:
    app()
