"""Terminal output for games: live progress while playing, the result, and turn-by-turn replays
(``hegemon play`` and ``hegemon replay``; the events in words:
:mod:`hegemon.referee.viewer.words`)."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.live import Live
from rich.table import Table

from hegemon.referee.actions import action_from_list
from hegemon.referee.bottext import terminal_text
from hegemon.referee.notes import read_line
from hegemon.referee.record import game_from_record, parse, record_seed
from hegemon.referee.runner import botlog
from hegemon.referee.viewer.words import EventWords

PLACE_NAMES = {1: "1st", 2: "2nd", 3: "3rd"}


def ordinal(place: int) -> str:
    return PLACE_NAMES.get(place, f"{place}th")


def standings(game: Any, names: list[str], title: str, faults: list[int] | None = None) -> Table:
    """A table of every seat: territories, armies, cards, and status."""
    totals = [0] * len(game.players)  # neutral colours' seats too
    for t, p in enumerate(game.owner):
        if p >= 0:
            totals[p] += game.armies[t]
    table = Table(title=title, title_justify="left")
    for column in ("seat", "bot", "territories", "armies", "cards", "status"):
        table.add_column(
            column, justify="right" if column in ("territories", "armies", "cards") else "left"
        )
    if faults is not None:
        table.add_column("faults", justify="right")
    for p in game.players:
        status = (
            "eliminated"
            if p.eliminated
            else "forfeited"
            if p.forfeited
            else "to move"
            if game.pending is not None and game.pending.player == p.seat
            else ""
        )
        if game.places is not None and p.seat < len(game.places):
            status = ordinal(game.places[p.seat]) + (f" ({status})" if p.forfeited else "")
        colour = p.seat >= game.player_count  # a two-player game's neutral colour: no bot
        row = [
            str(p.seat),
            "neutral" if colour or p.seat >= len(names) else terminal_text(names[p.seat]),
            str(game.territory_count[p.seat]),
            str(totals[p.seat]),
            str(len(p.cards)),
            status,
        ]
        if faults is not None:
            row.append(str(faults[p.seat]) if p.seat < len(faults) else "")
        table.add_row(*row)
    return table


class LiveBoard:
    """Live progress of one game (round, territories and armies per seat), ten times a second."""

    def __init__(self, names: list[str], console: Console, enabled: bool = True):
        self.names = names
        self.console = console
        self.enabled = enabled and console.is_terminal
        self._live: Live | None = None
        self._last = 0.0

    def __enter__(self) -> LiveBoard:
        if self.enabled:
            self._live = Live(console=self.console, refresh_per_second=10, transient=True)
            self._live.__enter__()
        return self

    def __exit__(self, *exc: Any) -> None:
        if self._live is not None:
            self._live.__exit__(*exc)

    def update(self, referee: Any) -> None:
        self.names = list(referee.names)  # the bots' own names, known once they said Hello
        now = time.monotonic()
        if self._live is None or now - self._last < 0.1:
            return
        self._last = now
        game = referee.game
        self._live.update(
            standings(
                game, self.names, f"round {game.round}", [len(s.faults) for s in referee.seats]
            )
        )

    def final(self, result: Any, record_path: Path, log_dir: Path | None = None) -> None:
        """The final standings, every fault in one line, and for each faulted seat the last
        lines of its log (kept in ``log_dir``)."""
        game = result.game
        self.names = record_seats(result.record) or self.names
        self.console.print(
            standings(
                game,
                self.names,
                f"game over: {result.reason} after round {game.round}",
                [len(s.faults) for s in result.seats],
            )
        )
        for fault, times in repeats(result.faults):
            again = f" ({times} times)" if times > 1 else ""
            self.console.print(
                f"  fault · seat {fault.seat} ({self.names[fault.seat]}) · {fault.kind}{again}: "
                f"{fault.detail}",
                highlight=False,
                markup=False,
            )  # the detail is the bot's text
        self.show_fault_logs(result, log_dir)
        self.console.print(  # a path is never wrapped: it must stay copyable
            f"record: {record_path}  ({result.decisions} decisions in {result.duration:.1f} s)",
            highlight=False,
            markup=False,
            soft_wrap=True,
        )

    def show_fault_logs(self, result: Any, log_dir: Path | None, lines: int = 10) -> None:
        """The last ``lines`` lines each faulted seat's bot wrote."""
        for seat in sorted({f.seat for f in result.faults}):
            data = result.logs[seat] if seat < len(result.logs) else None
            if data is None:
                continue
            last = botlog.tail(data.decode("utf-8", "replace"), lines)
            where = f" ({botlog.seat_log(log_dir, seat)})" if log_dir is not None else ""
            said = f"the last {len(last)} lines of its log" if last else "its log is empty"
            self.console.print(
                f"seat {seat} ({self.names[seat]}): {said}{where}",
                highlight=False,
                markup=False,
                soft_wrap=True,
            )
            for line in last:
                self.console.print(f"  | {line}", highlight=False, markup=False, soft_wrap=True)


def repeats(faults: list[Any]) -> list[tuple[Any, int]]:
    """Faults with runs of the same seat, kind and detail (the strike count aside) counted
    once: (the last of the run, how many)."""
    runs: list[tuple[Any, int]] = []
    for fault in faults:
        key = (fault.seat, fault.kind, fault.detail.split(" (strike ")[0])
        if runs:
            last, times = runs[-1]
            if (last.seat, last.kind, last.detail.split(" (strike ")[0]) == key:
                runs[-1] = (fault, times + 1)
                continue
        runs.append((fault, 1))
    return runs


def record_seats(record: str) -> list[str]:
    """The seat labels in a record's header ([] if it has none)."""
    try:
        head = json.loads(record.partition("\n")[0])
    except ValueError:
        return []
    seats = head.get("seats") if isinstance(head, dict) else None
    return [str(s) for s in seats] if isinstance(seats, list) else []


_RICH = {"orange": "orange1", "grey": "grey50"}  # the palette's names rich spells otherwise


def note_text(line: dict[str, Any], board: Any, names: list[str], decision: int) -> str:
    """A record's note line on ``decision`` (counted as the replay viewer's #d=N) as one line
    of the terminal (the bot's text made inert)."""
    note = read_line(line, board.size)
    seat = line.get("seat")
    who = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else f"seat {seat}"
    parts = [f"      [dim]note · decision {decision} ·[/] {who}: "]
    parts.append(terminal_text(note["text"]) or "(no text)")
    for m in note["marks"]:
        where = board.territories[m["t"]].name
        if "to" in m:
            where += " → " + board.territories[m["to"]].name
        label = f" {m['label']}" if "label" in m else ""
        style = _RICH.get(m["colour"], m["colour"])
        parts.append(f" [{style}]\\[{terminal_text(where + label)} · {m['colour']}][/]")
    parts.extend(f" [red](dropped: {terminal_text(d)})[/]" for d in note["dropped"])
    return "".join(parts)


def show_replay(text: str, console: Console, delay: float = 0.0) -> None:
    """Print a recorded game turn by turn, with the standings at the end."""
    lines = parse(text)
    head = lines[0]
    game = game_from_record(lines)
    seats = head.get("seats") or [f"seat {i}" for i in range(game.player_count)]
    seats += ["neutral"] * (len(game.players) - len(seats))  # a two-player game's colours
    names = [terminal_text(n) for n in seats]  # a record's names: a bot's words
    words = EventWords.of(game.board, names)
    console.print(
        f"[bold]{terminal_text(game.rules.preset)}[/] · seed {record_seed(lines)} · "
        + ", ".join(f"{i}: {n}" for i, n in enumerate(names))
    )
    turn_events: list[dict[str, Any]] = []
    turn_notes: list[str] = []
    turn_owner = -1
    turn_round = 0
    decisions = 0

    def flush() -> None:
        if turn_owner >= 0 and turn_events:
            said = words.turn(turn_events)
            if said:
                console.print(
                    f"round {turn_round:>3} · [bold]{names[turn_owner]}[/]: " + "; ".join(said)
                )
                if delay:
                    time.sleep(delay)
        for noted in turn_notes:
            console.print(noted, highlight=False)
        turn_notes.clear()

    for line in lines[1:]:
        if line["type"] == "note":  # a seat's notes: printed after the turn they were made in
            turn_notes.append(note_text(line, game.board, names, decisions + 1))
            continue
        if line["type"] != "action":
            continue
        decisions += 1
        game.apply(action_from_list(line["action"]))
        for e in line["events"]:
            if e["event"] == "turn_started":
                flush()
                turn_events, turn_owner, turn_round = [], e["player"], e["round"]
            turn_events.append(e)
    flush()
    console.print(
        standings(
            game, names, "final position" if game.over else "position at the end of the record"
        )
    )
