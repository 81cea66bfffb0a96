"""The replay viewer: a game record turned into one self-contained HTML file.

:func:`replay_data` re-runs the engine on the record's actions (the record is checked as it
goes) and keeps, per decision, the territories that changed, each event as text and the cards
in every hand. An event that a seat could not see in full (another seat's drawn card, the
detail of another seat's fault) carries a second, redacted text — the one that seat was shown
(:func:`hegemon.referee.events.redact`). The viewer's seat selector shows a seat's view with
only its own hand and the redacted texts; "full" shows everything (a finished game's record,
seed included, is public).

A team game (``team-2004``) shares territories: besides each territory's primary seat
(``owner``/``armies``) the data lists every other seat's armies there (``stacks``, and a fourth
item of a change), which the viewer draws as "3+2". Armies on the board are public in every
seat's view; ``teams`` gives each seat's team (the viewer groups allies and their colours).

What the viewer shows beyond the board: a battle's entry carries ``"b"`` (source, target, the
dice of both sides, attacker, defender) for the arrow and the dice; Risiko! Master's
``points`` (:func:`_points`) and its production centres (``initial["centres"]``, and ``"c"``
in a step that changes them) for the points race and the centres drawn on the map.

A bot's notes on a decision (the record's private ``note`` lines) come as the step's ``notes``:
per note its seat ``s``, ``text``, ``marks`` and ``dropped``, checked again here
(:func:`hegemon.referee.notes.read_line`). They are the seat's owner's: every page that is not
the owner's removes them (:func:`hegemon.leaderboard.web.visibility.redact_replay`).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from markupsafe import Markup

from hegemon.referee.actions import Bribe, Capital, action_from_list
from hegemon.referee.editions.master import victory_threshold
from hegemon.referee.editions.teams import on as team_game
from hegemon.referee.editions.teams import team_of
from hegemon.referee.events import EVENT_TYPES, Event, Forfeited, fault_kind, private_to, redact
from hegemon.referee.game import Game, IllegalAction
from hegemon.referee.notes import read_line
from hegemon.referee.record import (
    RecordError,
    game_from_header,
    game_from_record,
    parse,
    record_seed,
)

from .embed import script_json
from .layout import map_data
from .words import EventWords

__all__ = ["replay_data", "replay_html", "static_text", "write_replay_html"]


STATIC_DIR = Path(__file__).parent / "static"


def static_text(name: str) -> str:
    """A file of the viewer's static assets (``replay.js``, ``style.css``, …)."""
    return (STATIC_DIR / name).read_text(encoding="utf-8")


def _event(data: dict[str, Any]) -> Event:
    cls = EVENT_TYPES[data["event"]]
    fields = {k: v for k, v in data.items() if k != "event"}
    for k, v in fields.items():
        if isinstance(v, list):
            fields[k] = tuple(tuple(x) if isinstance(x, list) else x for x in v)
    return cls(**fields)


def _entry(words: EventWords, data: dict[str, Any]) -> dict[str, Any]:
    """An event as ``{"k": kind, "t": full text}``, plus ``"r"`` (what every seat but ``"s"``
    was shown) when some seats saw less."""
    event = _event(data)
    if isinstance(event, Forfeited):  # an older record's reason may hold the fault's detail
        data = replace(event, reason=fault_kind(event.reason)).to_dict()
    entry: dict[str, Any] = {"k": data["event"], "t": words.event(data)}
    private = private_to(event)  # a drawn card, a chosen capital
    if private >= 0:
        entry["r"] = words.event(redact(event, -1).to_dict())
        entry["s"] = private
    if data["event"] == "battle":  # the viewer draws the attack: source → target, the dice
        entry["b"] = [data[k] for k in ("source", "target", "attack_dice", "defend_dice")]
        entry["b"] += [data["attacker"], data["defender"]]
    return entry


def _points(game: Game) -> dict[str, Any] | None:
    """Risiko! Master's points race, if the game plays one: each territory's points (its value,
    or 1 when half the territories win), the points and whole quadrants that win, and whether
    production centres are built."""
    rules, board = game.rules, game.board
    if rules.victory == "conquest" and not rules.centre_production:
        return None
    by_value = rules.victory == "values"
    values = [t.value if by_value else 1 for t in board.territories]
    threshold = victory_threshold(board.total_value()) if by_value else (board.size + 1) // 2
    return {
        "victory": rules.victory,
        "values": values,
        "threshold": threshold if rules.victory != "conquest" else None,
        "quadrants": rules.victory_quadrants,
        "centres": bool(rules.centre_production),
    }


def _hands(game: Game) -> list[list[str]]:
    return [[game.board.card_label(c) for c in p.cards] for p in game.players]


def _stacks(game: Game) -> list[list[list[int]]]:
    """Per territory: [seat, armies] of every seat with armies there besides its primary
    seat, in seat order (team games share territories)."""
    out: list[list[list[int]]] = [[] for _ in range(game.board.size)]
    for t, held in game.stacks.items():
        out[t] = [[s, n] for s, n in sorted(held.items()) if n > 0 and s != game.owner[t]]
    return out


def replay_data(text: str, title: str | None = None, seed: int | None = None) -> dict[str, Any]:
    """Everything the viewer draws, from a record's text (raises :class:`RecordError` if the
    engine does not reproduce the record). ``seed``: the game's, for a record so far (a game
    in play, :mod:`hegemon.leaderboard.live`), which does not reveal it (its data's ``seed``
    is None then)."""
    lines = parse(text)
    head = lines[0]
    game = game_from_record(lines) if seed is None else game_from_header(head, seed)
    board = game.board
    seats = [str(s) for s in head.get("seats") or []]
    seats += [f"seat {i}" for i in range(len(seats), game.player_count)]
    words = EventWords.of(board, seats)
    owner, armies = list(game.owner), list(game.armies)
    hands = _hands(game)
    initial: dict[str, Any] = {"owner": list(owner), "armies": list(armies)}
    teams = team_game(game.rules)
    stacks = _stacks(game) if teams else []
    if teams:
        initial["stacks"] = stacks
    centres = list(game.centres)
    initial["centres"] = list(centres)
    steps: list[dict[str, Any]] = []
    pending_faults: list[dict[str, Any]] = []
    pending_notes: list[dict[str, Any]] = []  # a seat's notes on the decision that follows
    opening: list[dict[str, Any]] = []
    result: dict[str, Any] | None = None
    for number, line in enumerate(lines[1:], 2):
        kind = line["type"]
        if kind == "opening":
            opening = [_entry(words, e) for e in line.get("events") or []]
        elif kind == "fault":
            seat = int(line.get("seat", -1))
            text_full = f"fault: {words.s(seat)} — {line.get('fault')}: {line.get('detail', '')}"
            entry: dict[str, Any] = {
                "k": "fault",
                "t": text_full,
                "r": f"fault: {words.s(seat)} — {line.get('fault')}",
            }
            entry["s"] = seat
            pending_faults.append(entry)
        elif kind == "note":
            pending_notes.append({"s": int(line.get("seat", -1)), **read_line(line, board.size)})
        elif kind == "action":
            try:
                action = action_from_list(line.get("action"))
                events = game.apply(action)
            except (ValueError, IllegalAction) as exc:
                raise RecordError(f"line {number}: the engine refuses the action: {exc}") from None
            got = [e.to_dict() for e in events]
            if got != line.get("events"):
                raise RecordError(f"line {number}: the engine's events differ from the record")
            changes: list[list[Any]] = []
            now = _stacks(game) if teams else stacks
            for t in range(board.size):
                moved = game.owner[t] != owner[t] or game.armies[t] != armies[t]
                if moved or (teams and now[t] != stacks[t]):
                    # a team game's change also carries the territory's other stacks
                    changes.append([t, game.owner[t], game.armies[t], *([now[t]] if teams else [])])
                    owner[t], armies[t] = game.owner[t], game.armies[t]
            stacks = now
            step: dict[str, Any] = {
                "p": line.get("player"),
                "a": words.action(line["action"]),
                "r": game.round,
                "ev": pending_faults + [_entry(words, e) for e in got],
                "ch": changes,
            }
            pending_faults = []
            if pending_notes:  # private to their seat: see visibility.redact_replay
                step["notes"], pending_notes = pending_notes, []
            held = _hands(game)
            if held != hands:
                step["h"] = held
                hands = held
            if isinstance(action, Capital):  # secret to the others until captured
                step["ar"] = "chooses a secret capital"
            if isinstance(action, Bribe):  # bribe cards are face down: only their count shows
                step["ar"] = f"bribes {words.s(action.neutral)} with {len(action.cards)} card(s)"
            if game.centres != centres:
                centres = list(game.centres)
                step["c"] = list(centres)
            if any(e["event"] == "turn_started" for e in got):
                step["turn"] = 1
            steps.append(step)
        elif kind == "result":
            result = {"places": line.get("places"), "reason": line.get("reason")}
    if pending_faults and steps:
        steps[-1]["ev"].extend(pending_faults)
    return {
        "title": title or str(head.get("game_id") or "game"),
        "seats": seats,
        "rules": head.get("rules"),
        "teams": [team_of(s) for s in range(len(seats))] if teams else None,
        "points": _points(game),
        "seed": record_seed(lines) if seed is None else None,
        "map": map_data(board),
        "initial": initial,
        "opening": opening,
        "steps": steps,
        "result": result,
        "final": {
            "owner": list(game.owner),
            "armies": list(game.armies),
            **({"stacks": _stacks(game)} if teams else {}),
        },
    }


def replay_html(text: str, title: str | None = None) -> str:
    """The whole viewer for a record's text, as one HTML page with nothing to fetch."""
    from .templating import fragment  # here: Jinja2 is not needed to read a record's data

    data = replay_data(text, title)
    page = fragment(
        "replay.html",
        title=data["title"],
        style=Markup(static_text("style.css")),  # our own files, inlined as they are
        script=Markup(static_text("replay.js")),
        replay_json=Markup(script_json(data)),  # inert in a <script>: see .embed
    )
    # plain text: Markup would escape again whatever a caller puts in it (html.escape included)
    return str(page) + "\n"


def write_replay_html(record_path: str | Path, out_path: str | Path) -> Path:
    """Write the viewer of the record at ``record_path`` to ``out_path``; returns ``out_path``."""
    record = Path(record_path)
    out = Path(out_path)
    out.write_text(replay_html(record.read_text(encoding="utf-8"), record.stem), encoding="utf-8")
    return out
