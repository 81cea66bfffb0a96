"""What every ``hegemon`` command shares: the consoles, :func:`fail`, the ``--db``, ``--rules``
and time-control options, and opening the league database with one clear error line.

``hegemon --help`` must stay fast: the database, the engine and the match runner are imported
inside the commands that use them, never at module level.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar, cast

import typer
from rich.console import Console

from .. import paths
from ..seasons import setup
from ..seasons.setup import SetupError, default_time, suggest

if TYPE_CHECKING:
    from ..boards.model import Method
    from ..store import SeasonRow, Store

console = Console()
errors = Console(stderr=True)

INTERRUPTED = 130
"""The exit code of a command stopped by Ctrl-C or SIGTERM."""

DEFAULT_PRESET = "classic"
"""The rule set a game or season uses when ``--rules`` is not given."""

DEFAULT_METHOD = "pl"
"""The rating method of the boards when ``--method`` is not given."""


def __getattr__(name: str) -> Any:
    if name == "TIME":  # ``from .common import TIME``: the default, made on first use
        return default_time()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


T = TypeVar("T")

DB_HELP = (
    "The database: a file path or a URL (sqlite:///FILE, postgresql://USER@HOST/DB). "
    f"Default: ${paths.DB_ENV}, else ${paths.HOME_ENV}/{paths.DB_FILE} "
    f"(${paths.HOME_ENV} defaults to {paths.DEFAULT_HOME})."
)


def bot_spec_problem(spec: str, message: str, registered: Iterable[str] = ()) -> str:
    """``message`` (why ``spec`` names no bot) with a "did you mean" for a mistyped sample
    bot's name (or one of the ``registered`` names, where a command has the database open);
    for every command that takes a bot (``play --bot``, ``bench``, ``bot check``/``add``)."""
    from hegemon.sample_bots.names import NAMES

    if any(c in spec for c in "/ .:"):  # a path, a command or host:port: not a name
        return message
    return message + suggest(spec, dict.fromkeys((*NAMES, "node", *registered)))


def registered_names(store: Store) -> list[str]:
    """The names of the bots registered in ``store`` (sorted), for a "did you mean"."""
    return sorted({b.name for b in store.bots()})


def fail(message: str, code: int = 2) -> NoReturn:
    """Print one clear line to stderr and exit non-zero."""
    errors.print(f"[bold red]error:[/] {message}", highlight=False, soft_wrap=True)
    raise typer.Exit(code)


def sandbox_ready() -> None:
    """Refuse (one line) to start bots where no sandbox can keep the arena from them."""
    from hegemon.referee.runner.sandbox import SandboxError, resolve_mode

    try:
        resolve_mode()
    except SandboxError as exc:
        fail(str(exc))


# ---------------------------------------------------------------------------------- options
def db_option() -> Any:
    """``--db``: the league database."""
    return typer.Option(None, "--db", help=DB_HELP, show_default=False)


def rules_option() -> Any:
    """``--rules``: the rule-set preset."""
    return typer.Option(DEFAULT_PRESET, "--rules", help="Rule-set preset (see hegemon rules).")


def set_option() -> Any:
    """``--set NAME=VALUE``: override a rule option (repeatable)."""
    return typer.Option([], "--set", help="Override a rule option: NAME=VALUE (repeatable).")


def max_strikes_option() -> Any:
    """``--max-strikes``: late or illegal answers a seat may give per game."""
    return typer.Option(
        default_time().max_strikes,
        "--max-strikes",
        help="Late or illegal answers tolerated per game; one more disqualifies the seat.",
    )


def startup_time_option() -> Any:
    return typer.Option(
        default_time().startup, "--startup-time", help="Seconds for a bot to start."
    )


def decision_time_option() -> Any:
    return typer.Option(default_time().decision, "--decision-time", help="Seconds per decision.")


def time_bank_option() -> Any:
    return typer.Option(
        default_time().bank, "--time-bank", help="Seconds of thinking per seat per game."
    )


def time_option() -> Any:
    """``--time BANK+INCREMENT``: the bank and the increment in one chess-clock argument."""
    return typer.Option(
        None,
        "--time",
        help="Time control as BANK+INCREMENT seconds, e.g. 60+0.1: a bank per seat per game and "
        "what each answered decision adds back (overrides --time-bank).",
        show_default=False,
    )


def clock_option() -> Any:
    """``--clock cpu|wall``: what a decision's time is (see hegemon.referee.timecontrol)."""
    return typer.Option(
        "cpu",
        "--clock",
        help="What a decision's time is: cpu, the CPU time the bot's own processes used (a "
        "busy machine makes no bot late; a backstop on idle time stops one that sleeps), or "
        "wall, the wall time from request to answer.",
    )


def time_control_of(
    time: str | None,
    startup: float,
    decision: float,
    bank: float,
    **others: Any,
) -> Any:
    """The :class:`TimeControl` of the time options, or fail with one clear line
    (:func:`hegemon.leaderboard.seasons.setup.time_control`)."""
    try:
        return setup.time_control(time, startup, decision, bank, **others)
    except SetupError as exc:
        fail(str(exc))


def html_option(help: str) -> Any:
    """``--html FILE``: the replay viewer, one self-contained HTML file."""
    return typer.Option(None, "--html", help=help, show_default=False)


def quiet_option(help: str) -> Any:
    return typer.Option(False, "--quiet", "-q", help=help)


def parse_rules(preset: str, overrides: list[str]) -> Any:
    """The rule set of ``--rules`` and ``--set``, or fail with the engine's reason
    (:func:`hegemon.leaderboard.seasons.setup.rule_set`)."""
    try:
        return setup.rule_set(preset, overrides)
    except SetupError as exc:
        fail(str(exc))


def check_seats(rules: Any, players: int) -> None:
    """Fail with the engine's one line unless ``rules`` seat ``players`` players."""
    from hegemon.referee.errors import GameSetupError
    from hegemon.referee.game import Game

    try:
        Game(rules, players, seed=0)
    except GameSetupError as exc:
        fail(f"{exc} (--rules, --players)")


def rules_text(preset: str, options: dict[str, Any]) -> str:
    """``preset`` and the options that differ from the preset's, e.g. ``classic turn_limit=25``."""
    from hegemon.referee.rules import PRESETS

    base = PRESETS.get(preset, {})
    changed = {k: v for k, v in options.items() if k in base and base[k] != v}
    return preset + "".join(f" {k}={v}" for k, v in changed.items())


# ---------------------------------------------------------------------------------- the store
def open_store(db: str | None, create: bool = True) -> Store:
    """Open the league database or fail with one line. ``create=False``: a SQLite file that
    does not exist is an error (for commands that only read or need registered bots)."""
    from ..store import Store, StoreError

    try:
        return Store(db, create=create)
    except StoreError as exc:
        fail(str(exc))


def read_store(db: str | None, read: Callable[[Store], T]) -> T:
    """``read(store)`` on the existing database, closed after; a database error fails with one
    line."""
    from ..store import StoreError

    store = open_store(db, create=False)
    try:
        return read(store)
    except StoreError as exc:
        fail(str(exc))
    finally:
        store.close()


def store_exists(db: str | None) -> bool:
    """False only for a SQLite database file that does not exist (yet)."""
    from ..store import StoreError, database_url

    try:
        url = database_url(db)
    except StoreError as exc:
        fail(str(exc))
    if url.get_backend_name() != "sqlite" or not url.database or url.database == ":memory:":
        return True
    return Path(url.database).exists()


def find_season(store: Store, name: str) -> SeasonRow:
    """The season called ``name``, or fail with one line naming the seasons there are."""
    from ..store import StoreError

    try:
        season = store.season_by_name(name)
        if season is not None:
            return season
        names = [s.name for s in store.seasons()]
    except StoreError as exc:
        fail(str(exc))
    if not names:
        fail(
            f"no season named '{name}' (there are no seasons yet; create one with: "
            "hegemon season create NAME --bots …)"
        )
    shown = ", ".join(names[-10:]) + (" …" if len(names) > 10 else "")
    fail(f"no season named '{name}' (seasons: {shown})")


def check_method(value: str) -> Method:
    """A checked ``--method``: ``pl`` or ``elo``."""
    value = value.strip().lower()
    if value not in ("pl", "elo"):
        fail(f"--method must be pl (Plackett–Luce fit) or elo (incremental Elo); got {value!r}")
    return cast("Method", value)
