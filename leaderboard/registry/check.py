"""The check game a bot plays before it is registered (``hegemon bot add``, ``bot check``)."""

from __future__ import annotations

import tempfile
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from hegemon.referee.bottext import no_paths

from .sources import BotSource, RegistryError, command_in

CHECK_OPPONENTS = ("random", "random")
CHECK_SEED = 1
CHECK_TURN_LIMIT = 10


@dataclass
class CheckResult:
    """The check game's outcome for the checked bot (seat 0)."""

    ok: bool
    reason: str  # why it failed, one line ("" if ok)
    place: int | None = None
    places: tuple[int, ...] = ()
    finish_reason: str = ""
    decisions: int = 0  # decisions the checked bot answered
    duration: float = 0.0
    faults: list[dict[str, Any]] = field(default_factory=list)  # the checked bot's faults
    record: str = ""  # the game record (JSON lines)
    log: str = ""  # what the checked bot wrote to stdout/stderr (capped)

    def summary(self) -> str:
        if not self.ok:
            return f"refused: {self.reason}"
        return (
            f"passed: place {self.place} of {len(self.places)}, {self.decisions} decisions "
            f"answered, {self.finish_reason}, {self.duration:.1f} s"
        )


FAULT_NAMES = {
    "startup": "start-up failure",
    "crash": "crash",
    "timeout": "timeout",
    "illegal": "illegal action",
    "protocol": "protocol error",
    "memory": "memory ceiling",
    "processes": "process limit",
    "cpu": "CPU ceiling",
}


def check_time_control() -> Any:
    """The check game's limits: exactly a season's defaults (start-up, decision, bank, the
    sandbox's ceiling — ``hegemon season create`` without time options), except that the first
    fault ends the check (no strikes: any fault refuses the bot anyway)."""
    from hegemon.referee.timecontrol import TimeControl

    return replace(TimeControl(), max_strikes=0)


async def check_command_async(
    command: Any,
    *,
    seed: int = CHECK_SEED,
    turn_limit: int | None = None,
    time_control: Any = None,
) -> CheckResult:
    """Play the check game (trio): ``command`` in seat 0 against :data:`CHECK_OPPONENTS`,
    ``turn_limit`` rounds (default :data:`CHECK_TURN_LIMIT`)."""
    from hegemon.leaderboard.botspec import BotSpecError, resolve
    from hegemon.referee.rules import make_rules
    from hegemon.referee.runner.session import play_one

    try:
        opponents = [resolve(spec, f"{spec}#{i + 1}") for i, spec in enumerate(CHECK_OPPONENTS)]
    except BotSpecError as exc:
        raise RegistryError(f"cannot run the check game: {exc}") from None
    rules = make_rules("classic", {"turn_limit": turn_limit or CHECK_TURN_LIMIT})
    result = await play_one(
        [command, *opponents], rules, seed, time_control or check_time_control(), None, "check"
    )
    own = [f for f in result.faults if f.seat == 0]
    others = [f for f in result.faults if f.seat != 0]
    faults = [
        {"seat": f.seat, "bot": f.bot, "kind": f.kind, "detail": f.detail, "decision": f.decision}
        for f in own
    ]
    answered = result.seats[0].decisions
    common: dict[str, Any] = {
        "places": tuple(result.places),
        "finish_reason": result.reason,
        "decisions": answered,
        "duration": result.duration,
        "faults": faults,
        "record": result.record,
        "log": no_paths(_own_log(result.logs), getattr(command, "cwd", None)),
    }
    if own:
        first = own[0]
        detail = " ".join(first.detail.split())
        at = f", at decision {first.decision}" if first.kind not in ("startup", "crash") else ""
        reason = f"{FAULT_NAMES.get(first.kind, first.kind)}: {detail}{at}"
        return CheckResult(False, reason, result.places[0], **common)
    if others:
        first = others[0]
        raise RegistryError(
            f"the check game itself failed (sample bot {first.bot}: {first.kind}: "
            f"{' '.join(first.detail.split())})"
        )
    return CheckResult(True, "", result.places[0], **common)


def _own_log(logs: list[bytes | None]) -> str:
    """The checked bot's (seat 0's) output during the game, as text."""
    return (logs[0] or b"").decode("utf-8", "replace") if logs else ""


def check_command(command: Any, **kwargs: Any) -> CheckResult:
    """:func:`check_command_async` from synchronous code."""
    import trio

    return trio.run(lambda: check_command_async(command, **kwargs))


def check_source(source: BotSource, name: str = "candidate", **kwargs: Any) -> CheckResult:
    """Check a bot as it would run once registered: from a fresh copy of its files."""
    with tempfile.TemporaryDirectory(prefix="hegemon-check-") as tmp:
        folder = Path(tmp) / "bot"
        folder.mkdir()
        source.copy_to(folder)
        return check_command(command_in(source.command, folder, name), **kwargs)
