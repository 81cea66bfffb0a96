"""``hegemon train``: train a policy against a bot (:mod:`hegemon.env.train`), with a progress
bar, and write a bot folder that plays it: ``bot.py`` (a :class:`hegemon.sdk.PolicyBot`),
``policy.npz`` and ``learning-curve.png``. ``hegemon bench``, ``hegemon play --bot`` and
``hegemon bot add`` take the folder as they take any bot.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer

from .common import bot_spec_problem, check_seats, console, fail, parse_rules, rules_option
from .new import NAME, class_name

BOT_PY = '''"""{name}: a policy trained by `hegemon train` ({summary}); it plays policy.npz."""

from hegemon.sdk import PolicyBot


class {cls}(PolicyBot):
    name = "{name}"
    version = "{games}"
    policy_file = "policy.npz"


if __name__ == "__main__":
    {cls}.main()
'''

TURN_LIMIT_NOTE = "rules without a turn limit get {limit} rounds, as in hegemon bench"


def train_command(
    rules: str = rules_option(),
    option: list[str] = typer.Option([], "--set", help="Override a rule option: NAME=VALUE."),
    players: int = typer.Option(
        4,
        "--players",
        help="Seats per game; the learner takes every other seat, the opponent the rest.",
    ),
    opponent: str = typer.Option(
        "random", "--opponent", help="The bot to learn against: a sample bot, a .py file or folder."
    ),
    minutes: float = typer.Option(5.0, "--minutes", help="Train for about this long."),
    games: int | None = typer.Option(
        None,
        "--games",
        help="Train for exactly this many games instead (with --seed: the same policy file "
        "every time).",
        show_default=False,
    ),
    seed: int = typer.Option(0, "--seed", help="Seeds every game and every sampled action."),
    batch: int = typer.Option(8, "--batch", help="Games per update of the network."),
    workers: int = typer.Option(1, "--workers", help="Processes that play the games."),
    hidden: int = typer.Option(64, "--hidden", help="Units of the network's hidden layer."),
    out: Path = typer.Option(Path("trained-bot"), "--out", help="The bot folder to write."),
    name: str | None = typer.Option(
        None, "--name", help="The bot's name (default: the folder's).", show_default=False
    ),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar."),
) -> None:
    """Train a policy against a bot; write a bot that plays it: a small network learns by
    masked policy gradient (numpy, on this CPU), saved in a bot folder with bot.py, policy.npz
    and learning-curve.png."""
    from hegemon.env.train import TrainConfig
    from hegemon.sample_bots.local import python_bot

    from ..bench import TURN_LIMIT

    rule_set = parse_rules(rules, option)
    if rule_set.turn_limit == 0 and not any(
        o.partition("=")[0].strip() == "turn_limit" for o in option
    ):
        rule_set = parse_rules(rules, [*option, f"turn_limit={TURN_LIMIT}"])
    check_seats(rule_set, players)
    if python_bot(opponent) is None:
        fail(
            bot_spec_problem(
                opponent,
                f"{opponent}: --opponent must be a sample bot or a Python bot's file or folder",
            )
        )
    name = name or out.name
    if not NAME.match(name):
        fail(f"{name!r} is not a bot name: a letter, then letters, digits, - or _ (--name)")
    for flag, value in (("--batch", batch), ("--workers", workers), ("--hidden", hidden)):
        if value < 1:
            fail(f"{flag} must be at least 1")
    if (games is not None and games < 1) or minutes <= 0:
        fail("--games and --minutes must be positive")
    if out.exists() and not out.is_dir():
        fail(f"{out}: exists and is not a folder (--out)")
    summary = f"{rule_set.preset}, {players} players, against {opponent}, seed {seed}"
    config = TrainConfig(
        rule_set,
        players,
        opponent,
        seed=seed,
        games=games,
        minutes=None if games is not None else minutes,
        batch=batch,
        workers=workers,
        hidden=(hidden,),
        meta={"rules": rule_set.preset, "players": players, "opponent": opponent, "seed": seed},
    )
    console.print(f"[bold]train[/] {summary}", highlight=False)
    result = _run(config, games, minutes, quiet)
    out.mkdir(parents=True, exist_ok=True)
    result.network.save(out / "policy.npz")
    played = result.network.meta["games"]
    (out / "bot.py").write_text(
        BOT_PY.format(name=name, cls=class_name(name), summary=summary, games=played),
        encoding="utf-8",
    )
    _curve(result.curve, out / "learning-curve.png", summary)
    last = result.curve[-1] if result.curve else None
    if last is not None:
        console.print(
            f"{played} games in {result.seconds / 60:.1f} min ({result.cpu_seconds / 60:.1f} "
            f"CPU-min) · last batch: won {last.wins:.0%}, mean place score {last.score:+.2f}, "
            f"{last.share:.0%} of the map at the end",
            highlight=False,
        )
    console.print(f"wrote {out}/ (bot.py, policy.npz, learning-curve.png)", highlight=False)


def _run(config: Any, games: int | None, minutes: float, quiet: bool) -> Any:
    """Train with a progress bar over games (``--games``) or seconds (``--minutes``)."""
    from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

    from hegemon.env.train import train

    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        TextColumn("{task.fields[status]}"),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=console, disable=quiet, transient=True) as bar:
        total = games if games is not None else 60 * minutes
        task = bar.add_task("training", total=total, status="")

        def report(progress: Any) -> None:
            done = progress.games if games is not None else progress.seconds
            bar.update(
                task,
                completed=done,
                status=f"{progress.games} games · won {progress.wins:.0%} · "
                f"{progress.share:.0%} of the map",
            )

        return train(config, report)


def _curve(curve: list[Any], path: Path, title: str) -> None:
    from hegemon.env.curve import draw_curve

    draw_curve(
        {
            "share of games won": [(p.games, p.wins) for p in curve],
            "place (1 = first, 0 = last)": [(p.games, (p.score + 1) / 2) for p in curve],
            "share of the map at the end": [(p.games, p.share) for p in curve],
        },
        path,
        f"learning curve: {title}",
        "games played",
        y_range=(0.0, 1.0),
    )
