"""The root ``hegemon`` typer app: every command and group, wired in one place.

==================  ==========================================================
module              commands
==================  ==========================================================
:mod:`.play`        ``rules``, ``play``, ``replay``, ``verify`` (single games)
:mod:`.games`       ``games``, ``games download`` (listing and fetching played games)
:mod:`.bot`         ``bot add|list|check|remove``
:mod:`.new`         ``new`` (a starter bot folder)
:mod:`.bench`       ``bench`` (one bot version against another, SPRT)
:mod:`.season`      ``season create|list|run|status``
:mod:`.ladder`      ``ladder create|list|status``
:mod:`.event`       ``event create|show|list|run``
:mod:`.leaderboard` ``leaderboard``
:mod:`.demo`        ``demo``
:mod:`.doctor`      ``doctor``
:mod:`.web`         ``web``, ``report`` (the web pages, served or as files)
:mod:`.map`         ``map compose|show`` (Risiko! Master worlds from tiles)
:mod:`.user`        ``user add|invite|list|disable|enable|token|tokens|revoke``, ``game void``
:mod:`.submit`      ``login``, ``logout``, ``submit`` (bots over HTTP)
:mod:`.me`          ``me`` (your bots in the arena you signed in to)
:mod:`.team`        ``team create|invite|accept|leave|remove|show`` (teams over HTTP)
:mod:`.pin`         ``pin``, ``unpin`` (the version of your bot that plays)
:mod:`.arena`       ``arena`` (web, runners, matchmaker at once)
:mod:`.runner`      ``runner`` (over HTTP), ``runner-token create|list|revoke``
:mod:`.train`       ``train`` (a learned policy, written as a bot folder)
==================  ==================================================="""

from __future__ import annotations

import os
import sys

import typer

from .lazy import LazyCommand, LazyGroup

COMMANDS: tuple[LazyCommand, ...] = (
    (
        "rules",
        ".play:rules_command",
        "List the rule-set presets, or show one preset's options",
    ),
    ("play", ".play:play_command", "Play one game between bots, with live progress"),
    ("replay", ".play:replay_command", "Show a recorded game turn by turn in the terminal"),
    ("verify", ".play:verify_command", "Replay a game record through the engine"),
    (
        "games",
        ".games:games_app",
        "List the finished games, and download their records and your logs.",
    ),
    ("new", ".new:new_command", "Create a starter bot folder: a working bot, a test, a README."),
    ("bot", ".bot:bot_app", "Register, list, check and remove bots."),
    ("bench", ".bench:bench_command", "Play NEW against OLD until an SPRT decides"),
    ("train", ".train:train_command", "Train a policy against a bot; write a bot that plays it"),
    ("season", ".season:season_app", "Create, run and follow league seasons."),
    ("ladder", ".ladder:ladder_app", "Create and follow ladders: seasons that never end."),
    (
        "event",
        ".event:event_app",
        "Create, run and follow final events: the top of a ladder plays a final.",
    ),
    (
        "leaderboard",
        ".leaderboard:leaderboard_command",
        "The leaderboard: rating ± interval, games, wins, mean place",
    ),
    (
        "demo",
        ".demo:demo_command",
        "The tour: register the four sample bots, play a short 4-player season",
    ),
    (
        "doctor",
        ".doctor:doctor_command",
        "Check bubblewrap, the uid pool, seccomp, cgroups",
    ),
    (
        "logs",
        ".logs:logs_command",
        "Show what the bots of a game wrote to stdout and stderr",
    ),
    ("map", ".map:map_app", "Compose Risiko! Master worlds from tiles, and draw maps."),
    ("user", ".user:user_app", "Add, invite, list and disable users; their API tokens."),
    ("game", ".user:game_app", "Admin actions on played games (void one)."),
    (
        "db",
        ".db:db_app",
        "The arena database's upkeep: move older games' local records and logs into it.",
    ),
    ("web", ".web:web", "Serve the leaderboards, bots, games and replays as web pages"),
    ("report", ".web:report", "Write the web pages as static files"),
    ("login", ".submit:login_command", "Sign in to an arena"),
    ("logout", ".submit:logout_command", "Forget the stored token of `hegemon login`"),
    ("submit", ".submit:submit_command", "Submit a bot to the arena you signed in to"),
    ("me", ".me:me_command", "Your bots in the arena you signed in to: states, ranks, faults"),
    ("team", ".team:team_app", "Make teams, invite and remove members, accept and leave."),
    ("pin", ".pin:pin_command", "Choose the version of your bot that plays in new ladder games"),
    ("unpin", ".pin:unpin_command", "Let your bot's newest active version play again"),
    ("challenge", ".challenge:challenge_command", "Unrated test games of your bot"),
    ("arena", ".arena:arena_command", "Run an arena"),
    ("runner", ".runner:runner_command", "Play an arena's matches over HTTP, with a runner token"),
    (
        "runner-token",
        ".runner:token_app",
        "Make, list and revoke the tokens runners on other machines join with.",
    ),
)


class Hegemon(LazyGroup):
    lazy_commands = COMMANDS


app = typer.Typer(
    name="hegemon",
    cls=Hegemon,
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    # Plain help and errors: typer's rich formatting imports rich.markdown, pygments and more,
    # a third of a --help's time; plain text wraps to the terminal just as well.
    rich_markup_mode=None,
)


@app.callback()
def hegemon() -> None:
    """A tournament referee and bot arena for the Risk family of world-conquest games."""


def main() -> None:
    """The ``hegemon`` console script."""
    if os.environ.get("HEGEMON_PASSWORD_COST"):  # a setting for tests: refused where it is not
        from ..accounts.passwords import refused_cost

        refused = refused_cost(os.environ)
        if refused is not None:
            sys.exit(f"hegemon: {refused}")
    app()
