"""``hegemon replay GAME --at N --bot PATH [--play-on]``: a new version of a bot in the seat of a
recorded decision — what it answers there beside what was played, and the game played on.

``GAME`` is a record file, or the number of a game on the arena you signed in to (``hegemon
login``): its record is fetched with your token, as its replay page would show it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from rich.console import Console

from hegemon.referee.bottext import printable

from .common import bot_spec_problem, fail, sandbox_ready
from .records import read_record

LOG_LINES = 20
"""The last lines of the probed bot's output shown (its debug prints at that position)."""


def record_text(game: str) -> str:
    """The record of ``game``: a file, else a game number on the signed-in arena."""
    path = Path(game)
    if path.exists() or not game.isdigit():
        return read_record(path)
    return fetch_arena_record(int(game))


def fetch_arena_record(number: int) -> str:
    """Game ``number``'s record from the arena of ``hegemon login``, or fail with one line."""
    import httpx

    from .credentials import load

    signed_in = load()
    if signed_in is None:
        fail(f"no file named {number}, and you are not signed in to an arena (hegemon login URL)")
    url = f"{signed_in.url.rstrip('/')}/api/games/{number}/record"
    try:
        response = httpx.get(
            url, headers={"Authorization": f"Bearer {signed_in.token}"}, timeout=60
        )
    except httpx.HTTPError as exc:
        fail(f"cannot reach {signed_in.url}: {type(exc).__name__}")
    if response.status_code == 404:
        fail(f"game {number} is not on {signed_in.url} (or is not finished)")
    if response.status_code != 200:
        fail(f"{signed_in.url} refused game {number}'s record: HTTP {response.status_code}")
    return str(response.text)


def run(
    game: str,
    at: int,
    bot: str,
    *,
    play_on: bool,
    vs: list[str],
    seed: int | None,
    time_control: Any,
    out: Console,
) -> None:
    """Ask ``bot`` the decision ``at`` of ``game``; with ``play_on`` play the game on."""
    import trio

    from hegemon.leaderboard.botspec import BotSpecError, resolve
    from hegemon.leaderboard.cli.progress import note_text
    from hegemon.referee.actions import action_to_list
    from hegemon.referee.chance import new_seed
    from hegemon.referee.notes import note_line
    from hegemon.referee.record import RecordError
    from hegemon.referee.replaying import position_at
    from hegemon.referee.runner.probe import ask_at
    from hegemon.referee.viewer.words import EventWords

    if at < 0:
        fail("--at must be a decision number, 0 or more")
    try:
        position = position_at(record_text(game), at)
    except RecordError as exc:
        fail(f"{game}: {exc}")
    players = len(position.seats)
    if play_on and len(vs) not in (1, players - 1):
        fail(f"--play-on needs the other {players - 1} seats: --vs BOT once for all, or once each")
    try:
        command = resolve(bot)
        others = [resolve(spec) for spec in vs]
    except BotSpecError as exc:
        fail(bot_spec_problem(bot, str(exc)))
    if command.remote is None or any(c.remote is None for c in others):
        sandbox_ready()
    words = EventWords.of(position.game.board, position.seats)
    pending = position.game.pending
    assert pending is not None  # position_at returns a bot's decision
    out.print(
        f"{game}, decision {position.n} of {position.actions}: seat {position.seat} "
        f"({words.s(position.seat)}) to {pending.kind.name.lower()} in round "
        f"{position.game.round}",
        highlight=False,
    )
    out.print(f"  played:     {words.action(action_to_list(position.played))}", highlight=False)
    for kept in position.notes:  # the original bot's own note, where the record keeps it
        out.print(note_text(kept, position.game.board, position.seats, position.n))
    probe = trio.run(ask_at, position, command, time_control)
    if probe.action is None:
        out.print(f"  {probe.bot}: no answer ({probe.failure})", highlight=False)
    else:
        said = words.action(action_to_list(probe.action))
        same = " (the same)" if probe.action == position.played else ""
        verdict = f" — illegal: {probe.illegal}" if probe.illegal else same
        out.print(f"  {probe.bot}: {said}{verdict}", highlight=False)
    if probe.note is not None:
        mine = note_line(position.seat, position.n, probe.note)
        names = [*position.seats]
        names[position.seat] = probe.bot
        out.print(note_text(mine, position.game.board, names, position.n))
    # what the bot wrote, less the sandbox's own line about how it was started
    written = [line for line in probe.log.splitlines() if line.strip()]
    shown = [line for line in written if not line.startswith("hegemon: ")][-LOG_LINES:]
    if shown:
        out.print(f"  what {probe.bot} wrote:", highlight=False)
        for line in shown:
            out.print(f"  | {printable(line)}", highlight=False, markup=False, soft_wrap=True)
    if not play_on:
        return
    seats = [others[0]] * (players - 1) if len(others) == 1 else list(others)
    seats.insert(position.seat, command)
    play_seed = new_seed() if seed is None else seed
    from hegemon.referee.runner.probe import play_on as play_game_on

    result = trio.run(play_game_on, position, seats, play_seed, time_control)
    names = json.loads(result.record.partition("\n")[0])["seats"]  # the bots' own names
    order = sorted(range(len(result.places)), key=lambda p: result.places[p])
    standings = ", ".join(f"{result.places[p]}. {names[p]} (seat {p})" for p in order)
    out.print(
        f"played on from decision {position.n} with fresh chance: {result.reason} after "
        f"{result.decisions} more decisions; {standings}",
        highlight=False,
        soft_wrap=True,
    )
    for fault in result.faults:
        out.print(f"  seat {fault.seat} ({fault.bot}) faulted: {fault.kind}", highlight=False)
