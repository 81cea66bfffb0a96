"""``hegemon train``: train a policy (:mod:`hegemon.env.train`) — imitation of a teacher bot,
then policy gradient against a pool of bots and its own past checkpoints — with a live progress
line, and write a bot folder that plays it: ``bot.py`` (a :class:`hegemon.sdk.PolicyBot`),
``policy.npz`` (the best evaluated network) and ``learning-curve.png``. The run's own files
(``checkpoint.npz``, ``best.npz``, ``evaluations.csv``, the pool's past checkpoints) go to a
folder beside it (``--run``), from which ``--resume`` continues. ``hegemon bench``,
``hegemon play --bot`` and ``hegemon bot add`` take the bot folder as they take any bot.
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
    sample = False  # its likeliest step, as the evaluations played it


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
        help="Seats per game; the learner takes every other seat, the opponents the rest.",
    ),
    opponent: list[str] = typer.Option(
        ["random"],
        "--opponent",
        help="A bot to learn against (repeat for a pool): a sample bot, a .py file or folder.",
    ),
    teacher: str | None = typer.Option(
        None,
        "--teacher",
        help="Imitate this bot first (e.g. planner): it labels every decision.",
        show_default=False,
    ),
    imitation: int = typer.Option(0, "--imitation", help="Updates of imitation (with --teacher)."),
    minibatches: int = typer.Option(
        256, "--minibatches", help="Imitation: minibatches of 256 labelled steps an update."
    ),
    self_play: int = typer.Option(
        0, "--self-play", help="Every N updates a past checkpoint joins the opponents (0: never)."
    ),
    evaluate_every: int = typer.Option(
        10, "--evaluate-every", help="Evaluate every K updates (0: never)."
    ),
    against: str = typer.Option("aggressive", "--against", help="The bot evaluations play."),
    pairs: int = typer.Option(8, "--pairs", help="Pairs of games per evaluation."),
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
    hidden: list[int] = typer.Option(
        [64], "--hidden", help="Units of a hidden layer (repeat for more layers)."
    ),
    head: int = typer.Option(
        0,
        "--head",
        help="Units of a territory head: one score per territory from weights shared by all "
        "(0: none).",
    ),
    rate: float = typer.Option(3e-3, "--rate", help="The optimiser's learning rate."),
    out: Path = typer.Option(Path("trained-bot"), "--out", help="The bot folder to write."),
    run: Path | None = typer.Option(
        None,
        "--run",
        help="The run's folder: checkpoints, evaluations.csv (default: OUT-run).",
        show_default=False,
    ),
    resume: bool = typer.Option(False, "--resume", help="Continue from the run's checkpoint."),
    start: Path | None = typer.Option(
        None,
        "--start",
        help="Begin from this policy file's network (e.g. one trained for other rules).",
        show_default=False,
    ),
    name: str | None = typer.Option(
        None, "--name", help="The bot's name (default: the folder's).", show_default=False
    ),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress line."),
) -> None:
    """Train a policy against a bot; write a bot that plays it: a small network (numpy, on
    this CPU) imitates a teacher bot, then learns by policy gradient against a pool of bots
    and its own past checkpoints, evaluated as it goes; the bot folder (bot.py, policy.npz,
    learning-curve.png) plays the best evaluated network."""
    from hegemon.env.checkpoint import save_policy
    from hegemon.env.train import TrainConfig
    from hegemon.sample_bots.local import python_bot

    from ..bench import TURN_LIMIT

    rule_set = parse_rules(rules, option)
    if rule_set.turn_limit == 0 and not any(
        o.partition("=")[0].strip() == "turn_limit" for o in option
    ):
        rule_set = parse_rules(rules, [*option, f"turn_limit={TURN_LIMIT}"])
    check_seats(rule_set, players)
    for flag, bot in [*(("--opponent", o) for o in opponent), ("--against", against)] + (
        [("--teacher", teacher)] if teacher else []
    ):
        if python_bot(bot) is None:
            fail(
                bot_spec_problem(
                    bot, f"{bot}: {flag} must be a sample bot or a Python bot's file or folder"
                )
            )
    name = name or out.name
    if not NAME.match(name):
        fail(f"{name!r} is not a bot name: a letter, then letters, digits, - or _ (--name)")
    for flag, value in (
        ("--batch", batch),
        ("--workers", workers),
        ("--pairs", pairs),
        ("--minibatches", minibatches),
    ):
        if value < 1:
            fail(f"{flag} must be at least 1")
    if min(hidden) < 1 or head < 0:
        fail("--hidden must be at least 1, --head at least 0")
    if min(imitation, self_play, evaluate_every) < 0:
        fail("--imitation, --self-play and --evaluate-every must not be negative")
    if (games is not None and games < 1) or minutes <= 0 or rate <= 0:
        fail("--games, --minutes and --rate must be positive")
    if start is not None:
        _check_start(start, rule_set, players)
    run = run or out.with_name(f"{out.name}-run")
    for folder, flag in ((out, "--out"), (run, "--run")):
        if folder.exists() and not folder.is_dir():
            fail(f"{folder}: exists and is not a folder ({flag})")
    pool = " + ".join(opponent) + (" + its past checkpoints" if self_play else "")
    taught = f"imitating {teacher}, " if teacher else ""
    summary = f"{rule_set.preset}, {players} players, {taught}against {pool}, seed {seed}"
    config = TrainConfig(
        rule_set,
        players,
        opponent[0],
        seed=seed,
        games=games,
        minutes=None if games is not None else minutes,
        batch=batch,
        workers=workers,
        hidden=tuple(hidden),
        head=head,
        rate=rate,
        meta={"rules": rule_set.preset, "players": players, "opponent": pool, "seed": seed},
        pool=tuple(opponent),
        teacher=teacher,
        imitation=imitation if teacher else 0,
        minibatches=minibatches,
        snapshot_every=self_play,
        evaluate_every=evaluate_every,
        evaluation_pairs=pairs,
        evaluate_against=against,
        out=run,
        resume=resume,
        start=start,
    )
    console.print(f"[bold]train[/] {summary}", highlight=False)
    result = _run(config, against, quiet)
    out.mkdir(parents=True, exist_ok=True)
    save_policy(result.network, out / "policy.npz")
    played = result.network.meta["games"]
    (out / "bot.py").write_text(
        BOT_PY.format(name=name, cls=class_name(name), summary=summary, games=played),
        encoding="utf-8",
    )
    _curve(result, run, out / "learning-curve.png", summary)
    total = result.curve[-1].games if result.curve else played
    console.print(
        f"{total} games in {result.seconds / 60:.1f} min ({result.cpu_seconds / 60:.1f} "
        f"CPU-min) · {_kept(run, against)}",
        highlight=False,
        soft_wrap=True,
    )
    kept = ", ".join(sorted(p.name for p in run.iterdir()))
    console.print(
        f"wrote {out}/ (bot.py, policy.npz, learning-curve.png) and {run}/ ({kept})",
        highlight=False,
        soft_wrap=True,
    )


def _check_start(start: Path, rules: Any, players: int) -> None:
    """Fail with one line unless ``start`` is a policy file for this map."""
    from hegemon.referee.encoding import layout_of
    from hegemon.referee.game import Game
    from hegemon.sdk.network import Network, PolicyFileError

    try:
        network = Network.load(start)
    except PolicyFileError as exc:
        fail(f"{exc} (--start)")
    layout = layout_of(Game(rules, players, seed=0).board)
    if (network.observations, network.actions) != (layout.features, layout.actions):
        fail(f"{start}: a policy for another map or encoding (--start)")


def _kept(run: Path, against: str) -> str:
    """Which network the bot plays: the best evaluated one (a resumed run's earlier
    evaluations too), or the last."""
    from hegemon.env.evaluation import read_rows
    from hegemon.env.train import EVALUATIONS

    evaluations = read_rows(run / EVALUATIONS)
    if not evaluations:
        return "not evaluated: the bot plays the last network"
    best = max(evaluations, key=lambda e: e.score)
    return f"kept the best evaluation: {best.score:.3f} against {against} at update {best.update}"


def _run(config: Any, against: str, quiet: bool) -> Any:
    """Train, with a live progress line after every game and every update."""
    from hegemon.env.train import train

    if quiet:
        return train(config)
    if not console.is_terminal:  # a log: a line after the first game and every update
        shown = [-1]

        def report(progress: Any) -> None:
            if progress.updates != shown[0]:
                shown[0] = progress.updates
                console.print(progress.line(against), highlight=False, soft_wrap=True)

        return train(config, report)
    with console.status("training: the first game is being played") as status:
        return train(config, lambda p: status.update(p.line(against)))


def _curve(result: Any, run: Path, path: Path, title: str) -> None:
    """The learning curve: every evaluation's score, and the policy's agreement with its
    teacher, against the games played."""
    from hegemon.env.curve import draw_curve
    from hegemon.env.evaluation import read_rows
    from hegemon.env.train import EVALUATIONS

    evaluations = read_rows(run / EVALUATIONS)  # a resumed run's earlier evaluations too
    series = {
        f"score against {e}": [(r.games, r.score) for r in evaluations if r.opponent == e]
        for e in dict.fromkeys(r.opponent for r in evaluations)
    }
    series["share of games won (training)"] = [(p.games, p.wins) for p in result.curve]
    if any(p.agreement is not None for p in result.curve):
        series["teacher's steps it would take"] = [(p.games, p.agreement) for p in result.curve]
    draw_curve(
        series,
        path,
        f"learning curve: {title}",
        "games played",
        y_range=(0.0, 1.0),
        window=1,
        y_label="score, share",
    )
