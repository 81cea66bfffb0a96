"""``hegemon bench NEW OLD``: one bot version against another until a sequential probability
ratio test (SPRT, as fishtest and cutechess-cli run it) says which hypothesis holds.

The match design (deals played twice with the seats swapped) is :mod:`hegemon.leaderboard.bench`;
the statistics are :mod:`hegemon.leaderboard.sprt`.
"""

from __future__ import annotations

import secrets
from typing import Any

import typer

from .common import bot_spec_problem, check_seats, console, fail, parse_rules, rules_option


def _describe(sprt: Any, pairs: int, faults: int) -> str:
    """The live line: games, score, Elo ± interval, LLR against its bounds."""
    from ..sprt import estimate

    est = estimate(sprt.samples)
    return (
        f"games {2 * pairs} · score {est.score:.3f} · {est.text()} · "
        f"LLR {sprt.llr:+.2f} ({sprt.lower:+.2f}, {sprt.upper:+.2f})"
        + (f" · faults {faults}" if faults else "")
    )


def bench_command(
    new: str = typer.Argument(..., help="The new version: a file, folder or sample bot."),
    old: str = typer.Argument(..., help="The version to beat: a file, folder or sample bot."),
    rules: str = rules_option(),
    option: list[str] = typer.Option([], "--set", help="Override a rule option: NAME=VALUE."),
    players: int = typer.Option(
        4, "--players", help="Seats per game, alternating NEW/OLD (2 with a two-player rule set)."
    ),
    elo0: float = typer.Option(0.0, "--elo0", help="H0: NEW is at most this much stronger."),
    elo1: float = typer.Option(20.0, "--elo1", help="H1: NEW is at least this much stronger."),
    alpha: float = typer.Option(0.05, "--alpha", help="Chance of accepting H1 wrongly."),
    beta: float = typer.Option(0.05, "--beta", help="Chance of accepting H0 wrongly."),
    max_games: int = typer.Option(
        2000, "--max-games", help="Stop here if the test has not decided."
    ),
    seed: int | None = typer.Option(
        None, "--seed", help="Match seed (every deal derives from it; default: random)."
    ),
    processes: bool = typer.Option(
        False,
        "--processes",
        help="Run Python bots as sandboxed processes too (default: in this process, faster; "
        "other bots always run as processes). Both modes play the same games: same deals, "
        "same game ids.",
    ),
    quiet: bool = typer.Option(
        False, "--quiet", "-q", help="No score line a pair (the live line on a terminal)."
    ),
) -> None:
    """Play NEW against OLD until an SPRT decides: pairs of games on one deal with the seats
    swapped, a live score with its 95% interval, and the Elo difference at the end. Rules
    without a turn limit get one of 100 rounds (--set turn_limit=N)."""
    from rich.live import Live

    from hegemon.referee.limits import bounded
    from hegemon.sample_bots.local import python_bot

    from ..bench import (
        TURN_LIMIT,
        identical,
        play_pair_local,
        play_pair_processes,
        run_match,
        support,
    )
    from ..sprt import Sprt, estimate

    rule_set = parse_rules(rules, option)
    endless = rule_set.turn_limit == 0
    rule_set = bounded(rule_set, TURN_LIMIT)
    check_seats(rule_set, players)
    if max_games < 2:
        fail("--max-games must be at least 2 (one deal, played twice)")
    try:
        sprt = Sprt(support(players), elo0, elo1, alpha, beta)
    except ValueError as exc:
        fail(f"{exc} (--elo0, --elo1, --alpha, --beta)")
    match_seed = secrets.randbits(128) if seed is None else seed
    if match_seed < 0:
        fail("--seed must be a non-negative integer")
    play = _player(new, old, rule_set, players, processes, play_pair_local, python_bot)
    if play is None:
        play = _process_player(new, old, rule_set, players, play_pair_processes)
    console.print(
        f"[bold]bench[/] {new} (NEW) vs {old} (OLD) · {rule_set.preset} · {players} seats · "
        f"SPRT elo0={elo0:g} elo1={elo1:g} alpha={alpha:g} beta={beta:g}",
        highlight=False,
    )
    if endless:
        console.print(
            f"{rule_set.preset} has no turn limit: games end after {TURN_LIMIT} rounds "
            "(--set turn_limit=N to change; every game ends)",
            highlight=False,
        )
    faults = 0

    with Live(console=console, auto_refresh=False, transient=True) as live:

        def show(result: Any) -> None:
            nonlocal faults
            faults += result.faults
            if quiet:
                return
            line = _describe(sprt, len(sprt.samples), faults)
            if console.is_terminal:
                live.update(line, refresh=True)
            else:  # a log or a pipe: a line a pair, as cutechess-cli prints a line a game
                console.print(line, highlight=False)

        results = run_match(play, sprt, match_seed, max_games // 2, show)
    est = estimate(sprt.samples)
    console.print(_describe(sprt, len(sprt.samples), faults), highlight=False)
    verdict = {
        "H1": f"H1 accepted: NEW is stronger by at least {elo1:g} Elo",
        "H0": f"H0 accepted: NEW is not stronger than {elo0:g} Elo",
        None: f"no decision after {2 * len(sprt.samples)} games (--max-games)",
    }[sprt.verdict]
    console.print(f"[bold]{verdict}[/]", highlight=False)
    if identical(results):
        console.print(
            f"Elo difference: none measurable: the versions played identically on all "
            f"{len(results)} deals (the same places seat for seat in both games of each)",
            highlight=False,
        )
    else:
        console.print(f"Elo difference: {est.text()} (95%), {2 * est.n} games", highlight=False)


def _player(
    new: str, old: str, rules: Any, players: int, processes: bool, play: Any, python_bot: Any
) -> Any:
    """``play(seed, deal)`` in this process when both bots are Python bots, else None."""
    if processes:
        return None
    factories = [python_bot(new), python_bot(old)]
    if None in factories:
        return None
    for spec, factory in zip((new, old), factories, strict=True):
        try:
            factory()  # a bot that cannot start (say, a bad policy file) fails here, in one line
        except Exception as exc:
            fail(f"{spec}: {exc}")
    return lambda seed, deal: play(factories, rules, players, seed, deal)


def _process_player(new: str, old: str, rules: Any, players: int, play: Any) -> Any:
    """``play(seed, deal)`` with both bots as sandboxed processes."""
    import trio

    from hegemon.leaderboard.botspec import BotSpecError, resolve
    from hegemon.referee.timecontrol import TimeControl

    commands = []
    for spec, label in ((new, "new"), (old, "old")):
        try:
            commands.append(resolve(spec, label))
        except BotSpecError as exc:
            fail(bot_spec_problem(spec, str(exc)))
    time = TimeControl()
    return lambda seed, deal: trio.run(play, commands, rules, players, seed, deal, time)
