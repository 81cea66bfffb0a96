"""The referee's commands: ``hegemon rules``, ``verify``, ``replay``, ``play``: one game at a time,
no database."""

from __future__ import annotations

from pathlib import Path

import typer

from .common import (
    bot_spec_problem,
    clock_option,
    console,
    decision_time_option,
    fail,
    html_option,
    parse_rules,
    quiet_option,
    rules_option,
    sandbox_ready,
    startup_time_option,
    time_bank_option,
    time_control_of,
    time_option,
)
from .records import checked_record_text, read_record


def rules_command(
    preset: str | None = typer.Argument(None, help="A preset to show; omit to list them all."),
    option: list[str] = typer.Option(
        [], "--set", help="Override an option: NAME=VALUE (repeatable)."
    ),
) -> None:
    """List the rule-set presets, or show one preset's options and values."""
    from rich.table import Table

    from hegemon.referee.rules import OPTIONS, PRESET_HELP, PRESETS

    if preset is None:
        table = Table(title="Rule sets", show_lines=False)
        table.add_column("preset", style="bold", no_wrap=True)
        table.add_column("description")
        for name in PRESETS:
            table.add_row(name, PRESET_HELP.get(name, ""))
        console.print(table)
        console.print(
            "Show one: [bold]hegemon rules PRESET[/]; override options with --set NAME=VALUE."
        )
        return
    rules = parse_rules(preset, option)
    changed = rules.overridden()
    table = Table(title=f"{preset}: {PRESET_HELP.get(preset, '')}")
    table.add_column("option", style="bold", no_wrap=True)  # typed in --set
    table.add_column("value")
    table.add_column("allowed")
    table.add_column("meaning")
    for name, value in rules.options().items():
        shown = f"[yellow]{value}[/] (set)" if name in changed else str(value)
        table.add_row(name, shown, OPTIONS[name].allowed(), OPTIONS[name].help)
    console.print(table)
    from hegemon.referee.compose import map_board
    from hegemon.referee.decks import board_deck

    console.print(f"Cards: {board_deck(map_board(rules.map))}", highlight=False)


def verify_command(record: Path = typer.Argument(..., help="A game record (.jsonl).")) -> None:
    """Replay a game record through the engine; report the first difference, or that it matches."""
    from hegemon.referee.record_check import checked_replay

    text = read_record(record)
    verdict = checked_replay(text)
    if not verdict.ok:
        fail(f"{record}: DIFFERS: {verdict.message}", code=1)
    console.print(f"{record}: OK, {verdict.message}")


def play_command(
    bot: list[str] = typer.Option(
        ...,
        "--bot",
        help="A seat: sample bot name, file, folder, "
        '"command line" or host:port. Repeat for each seat.',
    ),
    rules: str = rules_option(),
    option: list[str] = typer.Option([], "--set", help="Override a rule option: NAME=VALUE."),
    seed: int | None = typer.Option(
        None,
        "--seed",
        help="Game seed, to reproduce a game: recorded as public "
        "(default: 128 secret random bits).",
    ),
    game_id: str | None = typer.Option(
        None,
        "--game-id",
        help="The game id the bots are told (it seeds their own randomness): with --seed, "
        "reproduces a recorded game (default: a fresh random id).",
    ),
    record: Path | None = typer.Option(None, "--record", help="Where to write the game record."),
    log_dir: Path | None = typer.Option(
        None,
        "--log-dir",
        help="Where to keep each seat's log, seat-N.log (default: RECORD.logs/ beside the record).",
        show_default=False,
    ),
    force: bool = typer.Option(False, "--force", help="Overwrite an existing record."),
    allow_faults: bool = typer.Option(
        False, "--allow-faults", help="Exit 0 even when a seat faulted."
    ),
    html: Path | None = html_option("Also write the game's replay viewer to this HTML file."),
    decision_time: float = decision_time_option(),
    time_bank: float = time_bank_option(),
    time: str | None = time_option(),
    startup_time: float = startup_time_option(),
    clock: str = clock_option(),
    quiet: bool = quiet_option("No live progress."),
) -> None:
    """Play one game between bots, with live progress; print places, faults (with the last
    lines of a faulted bot's log) and the record path. Exits 1 when a seat faulted. Every game
    ends: rules that set no round limit get the referee's default one (it says so)."""
    import trio

    from hegemon.leaderboard.botspec import BotSpecError, resolve
    from hegemon.leaderboard.cli.progress import LiveBoard
    from hegemon.referee.chance import new_seed
    from hegemon.referee.game import Game, GameSetupError
    from hegemon.referee.limits import round_limit_note
    from hegemon.referee.runner.botlog import logs_dir
    from hegemon.referee.runner.labels import number_duplicates
    from hegemon.referee.runner.session import new_game_id, play_one

    rule_set = parse_rules(rules, option)
    try:
        Game(rule_set, len(bot), 0)  # the engine's word on the player count
    except GameSetupError as exc:
        fail(f"{exc}; got {len(bot)} --bot")
    commands = []
    for spec in bot:
        try:
            commands.append(resolve(spec))
        except BotSpecError as exc:
            fail(bot_spec_problem(spec, str(exc)))
    if any(c.remote is None for c in commands):
        sandbox_ready()
    time_control = time_control_of(time, startup_time, decision_time, time_bank, clock=clock)
    if seed is not None and seed < 0:
        fail("--seed must be a non-negative integer")
    game_seed = new_seed() if seed is None else seed
    game_id = game_id or new_game_id()  # never the seed: a bot sees its game id
    record_path = record or Path("records") / f"{game_id}.jsonl"
    if record_path.exists() and not force:
        fail(f"{record_path} exists: give another --record, or --force to overwrite it")
    logs = log_dir or logs_dir(record_path)
    from hegemon.referee.record import seed_hash

    console.print(
        f"[bold]{rule_set.preset}[/] · {len(commands)} seats · "
        f"seed hash {seed_hash(game_seed)[:16]}…"
    )
    note = round_limit_note(rule_set)  # every game ends: the runner bounds it (referee.limits)
    if note:
        console.print(note, highlight=False)
    live = LiveBoard(number_duplicates([c.name for c in commands]), console, enabled=not quiet)
    with live:
        result = trio.run(
            play_one,
            commands,
            rule_set,
            game_seed,
            time_control,
            record_path,
            game_id,
            live.update,
            None,  # each seat is labelled by its bot's Hello name
            logs,
        )
    live.final(result, record_path, logs)
    console.print(f"seed {game_seed}")
    if html is not None:
        from .web import replay_html

        replay_html(record_path, html)
    faulted = sorted({f.seat for f in result.faults})
    if faulted and not allow_faults:
        seats = ", ".join(str(s) for s in faulted)
        fail(
            f"seat {seats} faulted (see above; hegemon logs {record_path}); "
            "--allow-faults exits 0 all the same",
            code=1,
        )


def replay_command(
    record: Path = typer.Argument(
        ...,
        help="A game record (.jsonl); with --at, also a game number on the arena you signed in "
        "to (hegemon login).",
    ),
    delay: float = typer.Option(0.0, "--delay", help="Seconds to pause after each turn."),
    html: Path | None = html_option(
        "Write the replay viewer (one self-contained HTML file) instead of printing the game."
    ),
    at: int | None = typer.Option(
        None,
        "--at",
        help="A decision's number: ask --bot what it answers there, in that seat's exact view, "
        "beside what was played.",
        show_default=False,
    ),
    bot: str | None = typer.Option(
        None,
        "--bot",
        help="With --at: the bot to ask (a file, folder, sample bot or command), in the sandbox.",
        show_default=False,
    ),
    play_on: bool = typer.Option(
        False, "--play-on", help="With --at: then play the game on from there with --bot."
    ),
    vs: list[str] = typer.Option(
        [],
        "--vs",
        help="With --play-on: the other seats' bots, in seat order (or once for all of them).",
    ),
    seed: int | None = typer.Option(
        None,
        "--seed",
        help="With --play-on: the seed of the chance from there on (default: fresh).",
        show_default=False,
    ),
    decision_time: float = decision_time_option(),
    time_bank: float = time_bank_option(),
    time: str | None = time_option(),
    startup_time: float = startup_time_option(),
    clock: str = clock_option(),
) -> None:
    """Show a recorded game turn by turn in the terminal, or write its replay viewer; with
    --at N --bot PATH, ask a bot what it answers at decision N (and --play-on from there)."""
    if at is not None or bot is not None or play_on or vs:
        if at is None or bot is None:
            fail("--at N and --bot PATH go together (and --play-on, --vs need both)")
        if vs and not play_on:
            fail("--vs names the other seats of --play-on")
        if seed is not None and seed < 0:
            fail("--seed must be a non-negative integer")
        from .replay_at import run

        time_control = time_control_of(time, startup_time, decision_time, time_bank, clock=clock)
        run(
            str(record),
            at,
            bot,
            play_on=play_on,
            vs=vs,
            seed=seed,
            time_control=time_control,
            out=console,
        )
        return
    if html is not None:
        from .web import replay_html

        replay_html(record, html)
        return
    from hegemon.leaderboard.cli.progress import show_replay

    show_replay(checked_record_text(record), console, delay)
