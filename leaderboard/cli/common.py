"""What every ``hegemon`` command shares: the consoles, :func:`fail`, the ``--db``, ``--rules``
and time-control options, and opening the league database with one clear error line.

``hegemon --help`` must stay fast: the database, the engine and the match runner are imported
inside the commands that use them, never at module level.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar, cast

import typer
from rich.console import Console

from .. import paths

if TYPE_CHECKING:
    from hegemon.referee.timecontrol import TimeControl

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


def default_time() -> TimeControl:
    """The default time control (``TIME``): every ``--startup-time``, ``--decision-time``,
    ``--time-bank`` and ``--max-strikes`` default comes from here. Imported when first asked
    for, since importing the engine would slow every command's ``--help``."""
    # TimeControl is the one home of the time-control defaults.
    from hegemon.referee.timecontrol import TimeControl

    return TimeControl()


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


def suggest(word: str, choices: Iterable[str]) -> str:
    """`` (did you mean 'x'?)`` for the choices nearest a mistyped ``word``, else ""."""
    close = difflib.get_close_matches(word, list(choices), n=2, cutoff=0.6)
    if not close:
        return ""
    return " (did you mean " + " or ".join(f"'{c}'" for c in close) + "?)"


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


TIME_FLAGS = {
    "clock": "--clock",
    "startup": "--startup-time",
    "decision": "--decision-time",
    "bank": "--time-bank (or --time)",
    "increment": "--time's increment",
    "max_strikes": "--max-strikes",
}
"""The option that sets each :class:`TimeControl` field, for error messages."""


def time_control_of(
    time: str | None,
    startup: float,
    decision: float,
    bank: float,
    **others: Any,
) -> Any:
    """The :class:`TimeControl` of the time options, or fail with one clear line."""
    kind = type(default_time())
    try:
        if time is not None:
            return kind.parse(time, startup=startup, decision=decision, **others)
        return kind(startup=startup, decision=decision, bank=bank, **others)
    except ValueError as exc:
        message = str(exc)
        for field_name, flag in TIME_FLAGS.items():
            message = message.replace(f"TimeControl.{field_name} ", f"{flag} ")
        fail(message)


def html_option(help: str) -> Any:
    """``--html FILE``: the replay viewer, one self-contained HTML file."""
    return typer.Option(None, "--html", help=help, show_default=False)


def quiet_option(help: str) -> Any:
    return typer.Option(False, "--quiet", "-q", help=help)


def parse_rules(preset: str, overrides: list[str]) -> Any:
    """The rule set of ``--rules`` and ``--set``, or fail with the engine's reason."""
    from hegemon.referee.rules import OPTIONS, PRESETS, RulesError, make_rules, parse_overrides

    try:
        return make_rules(preset, parse_overrides(overrides))
    except RulesError as exc:
        hint = suggest(preset, PRESETS) if preset not in PRESETS else ""
        for override in overrides:
            name = override.partition("=")[0].strip()
            if not hint and name not in OPTIONS:
                hint = suggest(name, OPTIONS)
        fail(f"{exc}{hint}")


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


def new_season(
    name: str,
    rules: Any,
    players: int,
    schedule: list[Any],
    seed: int,
    time: Any = None,
    **more: Any,
) -> SeasonRow:
    """A season (not stored yet) playing ``schedule`` under ``rules`` and the time control
    ``time``; ``more``: its other settings (``keep_memory``, ``duplicate``)."""
    from ..store import SeasonRow

    clock = time.clock if time is not None else "cpu"  # a season's bots run as processes
    time = time or default_time()
    return SeasonRow(
        name=name,
        preset=rules.preset,
        options=rules.options(),
        players=players,
        games=len(schedule),
        startup_time=time.startup,
        decision_time=time.decision,
        time_bank=time.bank,
        time_increment=time.increment,
        time_clock=clock,
        max_strikes=time.max_strikes,
        seed=seed,
        **more,
    )


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
