"""What a competition's pages say about its bots' processes: whether a bot's process (and so
anything it keeps in memory or in its own files) lives on from one game to the next, and why
a seat's log of a game may be empty. The rule is the runner's
(:mod:`hegemon.leaderboard.seasons.runner`): processes are reused between games unless the
competition was made with ``--restart-per-game`` or is a duplicate one."""

from __future__ import annotations

from hegemon.leaderboard.store import SeasonRow


def keeps_process(season: SeasonRow) -> bool:
    """Whether the runner reuses a bot's process from one game of ``season`` to the next."""
    return season.keep_memory and not season.duplicate


def process_note(season: SeasonRow) -> str:
    """One sentence for the competition's page: do bots keep their process between games?"""
    kind = "ladder" if season.is_ladder else "season"
    if keeps_process(season):
        return (
            f"Bots keep their process between games: the runner reuses a bot's process from "
            f"one game of this {kind} to the next, so it may remember earlier games (in memory "
            "or its own files). A new process starts when the old one died, has used half its "
            "CPU allowance, or the runner restarts."
        )
    why = "duplicate tables" if season.duplicate else "--restart-per-game"
    return (
        f"Every bot starts a new process for each game of this {kind} ({why}): nothing it "
        "keeps in memory lasts from one game to the next."
    )


def empty_log_note(season: SeasonRow) -> str:
    """What a seat's log says when the bot wrote nothing in that game."""
    if keeps_process(season):
        return (
            "(nothing written in this game. The bot's process is reused between games here, "
            "so what it printed when it started is in the log of the first game that process "
            "played, not in this one.)\n"
        )
    return (
        "(nothing written in this game: the bot's process started for this game and wrote "
        "nothing to stdout or stderr.)\n"
    )
