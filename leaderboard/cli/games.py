"""``hegemon games`` and ``hegemon games download``: the finished games of a database or of the
arena you signed in to, filtered, listed and fetched into a folder.

From an arena (``--arena``: the one of ``hegemon login``) the listing is the site's own
``/api/games``, paged, and every record and log comes through the site as you may see it: a
record's other seats' fault details are withheld, and a seat's log is fetched only where the
site gives it to you (your own bots' seats; an admin's, every seat). From a local database
(``--db``, the default) everything is yours to read.
"""

from __future__ import annotations

import csv
import io
import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any, Protocol

import typer

from .common import console, db_option, fail, open_store, store_exists

games_app = typer.Typer(
    help="List the finished games, and download their records and your logs.",
    no_args_is_help=False,
    invoke_without_command=True,
)

PAGE = 100
"""Games asked for per page of the listing."""

MAX_SCANNED = 20_000
"""The most games a listing reads to find its matches (filters the site cannot apply: the
result and the dates): a bound on what one command asks of an arena."""


@dataclass(frozen=True)
class Filters:
    """What a listing keeps: the site's own filters, then the result and the dates."""

    season: str | None = None
    bot: str | None = None
    rules: str | None = None
    faults: bool | None = None
    result: str | None = None  # "won", "lost" or a place ("2"), of --bot's seat
    since: date | None = None
    until: date | None = None
    mine: bool = False  # only games where one of the signed-in member's bots sat (the site's)

    def query(self) -> dict[str, str]:
        """The site's query parameters for the filters it applies itself."""
        found = {"season": self.season, "bot": self.bot, "rule_set": self.rules}
        query = {k: v for k, v in found.items() if v}
        if self.mine:
            query["mine"] = "1"
        if self.faults is not None:
            query["fault"] = "yes" if self.faults else "no"
        return query

    def keeps(self, game: dict[str, Any]) -> bool:
        """Does ``game`` (a listing's entry) pass the result and date filters?"""
        finished = str(game.get("finished_at") or "")[:10]
        if self.since is not None and (not finished or finished < self.since.isoformat()):
            return False
        if self.until is not None and (not finished or finished > self.until.isoformat()):
            return False
        if self.result is None:
            return True
        places = [p for s, p in zip(game["seats"], game["places"], strict=False) if self._mine(s)]
        if self.result == "won":
            return 1 in places
        if self.result == "lost":
            return bool(places) and 1 not in places
        return int(self.result) in places

    def _mine(self, label: str) -> bool:
        """Is a seat labelled ``label`` (``name@vN``, ``name@vN#2``) one of ``--bot``'s?"""
        assert self.bot is not None
        base = label.split("#", maxsplit=1)[0]
        return base == self.bot or base.split("@")[0] == self.bot


class Source(Protocol):
    """Where games come from: a page of the listing, a record, a seat's log."""

    where: str

    def page(self, query: dict[str, str], limit: int, offset: int) -> dict[str, Any]: ...
    def record(self, game_id: int) -> str | None: ...
    def log(self, game_id: int, seat: int) -> str | None: ...


class LocalSource:
    """A league database on this machine."""

    def __init__(self, db: str | None):
        from ..web.data import Arena

        self.store = open_store(db, create=False)
        self.arena = Arena(self.store)
        self.where = self.store.display

    def page(self, query: dict[str, str], limit: int, offset: int) -> dict[str, Any]:
        fault = query.get("fault")
        return self.arena.games(
            season=query.get("season"),
            bot=query.get("bot"),
            rule_set=query.get("rule_set"),
            fault=None if fault is None else fault == "yes",
            limit=limit,
            offset=offset,
        )

    def record(self, game_id: int) -> str | None:
        return self.arena.record_text(game_id)

    def log(self, game_id: int, seat: int) -> str | None:
        return self.arena.seat_log_text(game_id, seat)


class ArenaSource:
    """The arena of ``hegemon login``, through its API and the stored token."""

    def __init__(self, asked: str = "--arena") -> None:
        import httpx

        from .credentials import load

        signed_in = load()
        if signed_in is None:
            fail(f"{asked}: you are not signed in to an arena (hegemon login URL)")
        self.where = signed_in.url
        self.client = httpx.Client(
            base_url=signed_in.url.rstrip("/"),
            headers={"Authorization": f"Bearer {signed_in.token}"},
            timeout=60,
        )

    def get(self, path: str, **params: Any) -> Any:
        import httpx

        try:
            return self.client.get(path, params=params)
        except httpx.HTTPError as exc:
            fail(f"cannot reach {self.where}: {type(exc).__name__}")

    def json(self, path: str, what: str, **params: Any) -> Any:
        """The JSON at ``path``; anything but a 200 fails with one line saying why."""
        response = self.get(path, **params)
        if response.status_code == 401:
            fail(f"{self.where} did not take your token: sign in again (hegemon login URL)")
        if response.status_code != 200:
            fail(f"{self.where} refused {what}: {_error_of(response)}")
        return response.json()

    def page(self, query: dict[str, str], limit: int, offset: int) -> dict[str, Any]:
        found: dict[str, Any] = self.json(
            "/api/games", "the game list", **query, limit=limit, offset=offset
        )
        return found

    def record(self, game_id: int) -> str | None:
        response = self.get(f"/api/games/{game_id}/record")
        return str(response.text) if response.status_code == 200 else None

    def log(self, game_id: int, seat: int) -> str | None:
        response = self.get(f"/api/games/{game_id}/logs/{seat}")
        return str(response.text) if response.status_code == 200 else None  # not yours: 403


def _error_of(response: Any) -> str:
    """The one line an error answer of the site gives (its ``error``), else its status."""
    try:
        error = response.json().get("error")
    except (ValueError, AttributeError):
        error = None
    return str(error) if error else f"HTTP {response.status_code}"


def listing(source: Source, filters: Filters, limit: int) -> Iterator[dict[str, Any]]:
    """The games that pass ``filters``, newest first, at most ``limit`` of them."""
    found = scanned = 0
    offset = 0
    while found < limit and scanned < MAX_SCANNED:
        page = source.page(filters.query(), PAGE, offset)
        games = page.get("games") or []
        for game in games:
            scanned += 1
            if filters.keeps(game):
                found += 1
                yield game
                if found >= limit:
                    return
        offset += len(games)
        if not games or offset >= int(page.get("total", 0)):
            return


def _source(arena: bool, db: str | None) -> Source:
    if arena:
        return ArenaSource()
    if not store_exists(db):
        fail(
            "no games yet: no database here (give --db, or --arena for the arena you signed in to)"
        )
    return LocalSource(db)


def _filters(
    season: str | None,
    bot: str | None,
    rules: str | None,
    faults: bool | None,
    result: str | None,
    since: str | None,
    until: str | None,
    mine: bool = False,
) -> Filters:
    if result is not None:
        if bot is None:
            fail("--result is a result of --bot's seat: give --bot too")
        if result not in ("won", "lost") and not (result.isdigit() and 0 < int(result) < 100):
            fail(f"--result must be won, lost or a place (1, 2, …); got {result!r}")
    return Filters(
        season, bot, rules, faults, result, _day(since, "--since"), _day(until, "--until"), mine
    )


def _day(text: str | None, option: str) -> date | None:
    if text is None:
        return None
    try:
        return date.fromisoformat(text)
    except ValueError:
        fail(f"{option} must be a date, YYYY-MM-DD; got {text!r}")


# the options every subcommand shares (typer takes a function's defaults as its options)
SEASON = typer.Option(None, "--season", "--ladder", help="Only this season's or ladder's games.")
BOT = typer.Option(None, "--bot", help="Only games of this bot (NAME, or NAME@vN for a version).")
RULES = typer.Option(None, "--rules", help="Only games of this rule-set preset.")
FAULTS = typer.Option(
    None, "--faults/--no-faults", help="Only games with (or without) a fault.", show_default=False
)
RESULT = typer.Option(
    None, "--result", help="Only games where --bot's seat won, lost, or took this place (2, 3…)."
)
SINCE = typer.Option(None, "--since", help="Only games finished on or after this day (YYYY-MM-DD).")
UNTIL = typer.Option(None, "--until", help="Only games finished on or before this day.")
ARENA = typer.Option(
    False, "--arena", help="The arena you signed in to (hegemon login), not a local database."
)
MINE = typer.Option(
    False, "--mine", help="Only games where one of your bots sat (in the arena: implies --arena)."
)


def _row(game: dict[str, Any]) -> dict[str, Any]:
    order = sorted(range(len(game["places"])), key=lambda s: game["places"][s])
    return {
        "id": game["id"],
        "season": game.get("season"),
        "finished": str(game.get("finished_at") or "")[:19].replace("T", " "),
        "places": "; ".join(f"{game['places'][s]}. {game['seats'][s]}" for s in order),
        "reason": game.get("reason"),
        "decisions": game.get("decisions"),
        "faults": len(game.get("faults") or []),
    }


@games_app.callback()
def games_command(
    ctx: typer.Context,
    season: str | None = SEASON,
    bot: str | None = BOT,
    rules: str | None = RULES,
    faults: bool | None = FAULTS,
    result: str | None = RESULT,
    since: str | None = SINCE,
    until: str | None = UNTIL,
    mine: bool = MINE,
    limit: int = typer.Option(50, "--limit", help="At most this many games."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON (one object a game)."),
    as_csv: bool = typer.Option(False, "--csv", help="Print CSV."),
    arena: bool = ARENA,
    db: str | None = db_option(),
) -> None:
    """List the finished games, newest first, filtered (`hegemon games download DIR` fetches
    their records)."""
    if ctx.invoked_subcommand is not None:
        return
    if as_json and as_csv:
        fail("give --json or --csv, not both")
    if limit < 1:
        fail("--limit must be at least 1")
    chosen = _filters(season, bot, rules, faults, result, since, until, mine)
    source = _source(arena or mine, db)
    games = list(listing(source, chosen, limit))
    if as_json:
        print(json.dumps(games, indent=1))
        return
    rows = [_row(g) for g in games]
    if as_csv:
        out = io.StringIO()
        writer = csv.DictWriter(out, fieldnames=list(rows[0]) if rows else ["id"])
        writer.writeheader()
        writer.writerows(rows)
        print(out.getvalue(), end="")
        return
    from rich.table import Table

    table = Table(title=f"games · {source.where}", title_justify="left")
    for column in ("id", "season", "finished", "places", "reason", "decisions", "faults"):
        table.add_column(column, overflow="fold")
    for row in rows:
        table.add_row(*(str(row[c]) for c in row))
    console.print(table)
    if not rows:
        console.print("no games match", highlight=False)


@games_app.command("download")
def download_command(
    folder: Path = typer.Argument(..., help="Where to put the records (made if missing)."),
    season: str | None = SEASON,
    bot: str | None = BOT,
    rules: str | None = RULES,
    faults: bool | None = FAULTS,
    result: str | None = RESULT,
    since: str | None = SINCE,
    until: str | None = UNTIL,
    mine: bool = MINE,
    limit: int = typer.Option(100, "--limit", help="At most this many games."),
    max_bytes: int = typer.Option(
        256 * 2**20, "--max-bytes", help="Stop before the folder gains more than this many bytes."
    ),
    arena: bool = ARENA,
    db: str | None = db_option(),
) -> None:
    """Download the records of the games `hegemon games` lists (and the logs of the seats you
    may read) into FOLDER: game-ID.jsonl and game-ID.logs/seat-N.log. Files already there are
    kept, so a second run resumes where the first stopped."""
    if limit < 1:
        fail("--limit must be at least 1")
    if max_bytes < 1:
        fail("--max-bytes must be at least 1")
    chosen = _filters(season, bot, rules, faults, result, since, until, mine)
    source = _source(arena or mine, db)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        fail(f"cannot make {folder}: {exc.strerror or exc}")
    fetched = kept = logs = 0
    written = 0
    for game in listing(source, chosen, limit):
        path = folder / f"game-{game['id']}.jsonl"
        if path.exists():
            kept += 1
            continue
        text = source.record(int(game["id"]))
        if text is None:
            continue
        seat_logs = {seat: source.log(int(game["id"]), seat) for seat in range(len(game["seats"]))}
        size = len(text.encode()) + sum(len(t.encode()) for t in seat_logs.values() if t)
        if written + size > max_bytes:
            console.print(f"stopped at --max-bytes {max_bytes}", highlight=False)
            break
        for seat, log in seat_logs.items():
            if log:
                _write(folder / f"game-{game['id']}.logs" / f"seat-{seat}.log", log)
                logs += 1
        _write(path, text)  # last: a record present means its game is complete
        written += size
        fetched += 1
    console.print(
        f"{fetched} records downloaded ({written:,} bytes, {logs} seat logs) to {folder}"
        + (f"; {kept} already there" if kept else ""),
        highlight=False,
    )


def _write(path: Path, text: str) -> None:
    """Write ``text`` whole or not at all (a part file renamed into place)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    part = path.with_name(f".{path.name}.part")
    part.write_text(text, encoding="utf-8")
    os.replace(part, path)
