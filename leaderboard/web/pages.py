"""The HTML pages, drawn from the dicts of :mod:`hegemon.leaderboard.web.data` (the same the JSON
API returns) by the Jinja2 templates in ``templates/`` (autoescaped: :mod:`.templating`). Plain
HTML, one stylesheet and one small script (which draws the charts from the data in the page);
a :class:`~.links.Links` decides where links point (the server's paths, or the report's files).
Each function here only gathers what its template shows."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl, quote, urlencode

from markupsafe import Markup

from hegemon.referee.viewer.embed import script_json

from ..boards.stored import thin
from .links import Links
from .templating import fragment, page

__all__ = ["Links", "Paging"]

BOARD_NOTES = ("rating", "interval", "p_next", "provisional", "mean_place", "faults")


def chart(
    series: list[dict[str, Any]], y_label: str, x_label: str = "game"
) -> dict[str, str] | None:
    """A line chart of ``[{"bot": label, "points": [[x, y], ...]}]`` in one rating system
    (``y_label`` names it on the chart), for app.js to draw as SVG from the figure's data;
    None when there is no point to draw."""
    series = [{"bot": s["bot"], "points": thin(s["points"])} for s in series]
    if not any(s["points"] for s in series):
        return None
    data = json.dumps(
        {"x": x_label, "y": y_label, "series": series}, separators=(",", ":"), ensure_ascii=False
    )
    return {"data": data, "x": x_label, "y": y_label}


def message_page(title: str, message: str, links: Links) -> str:
    """A page that only says ``message`` (not found, a bad record)."""
    return page("message.html", title, links, message=message)


# ---------------------------------------------------------------------------------- pages
def index_page(seasons: dict[str, Any], all_time: dict[str, Any], ids: dict[str, int],
               links: Links, playing: Markup | None = None) -> str:  # fmt: skip
    """The front page; ``playing``: the games in play's list (:mod:`.endpoints.live`)."""
    return page(
        "index.html", "Leaderboards", links, links.api("leaderboard"), playing=playing or "",
        seasons=seasons["seasons"], boards=all_time["boards"], ids=ids,
        notes=all_time["meaning"], board_notes=BOARD_NOTES,
    )  # fmt: skip


METHODS = {"pl": "Plackett–Luce", "elo": "incremental Elo"}


def _elo_label(board: dict[str, Any]) -> str:
    """The chart's rating system, told apart from the board's when they differ."""
    if board.get("method") == "elo":
        return "incremental Elo (the board's rating)"
    return "incremental Elo (not the board's Plackett–Luce rating)"


def _history_title(board: dict[str, Any]) -> str:
    """The chart's heading: which rating it draws, said before the chart is read."""
    if board.get("method") == "elo":
        return "Rating history"
    return "Incremental Elo history — another rating than the board's"


def board_caption(board: dict[str, Any], progress: dict[str, Any] | None) -> str:
    """The line above a board: how many games its ratings rest on, and, while a refit is on
    its way, how many more have been played since (the progress line counts those too)."""
    rated = board["games"]
    method = METHODS.get(board.get("method", ""), board.get("method", ""))
    played = (progress or {}).get("done", rated)
    if played > rated:
        return (
            f"rated from {rated} of the {played} games played · {method} "
            f"(the {played - rated} newest are being added)"
        )
    return f"rated from {rated} game{'s' if rated != 1 else ''} · {method}"


def _crosstable(board: dict[str, Any]) -> dict[str, Any] | None:
    """The board's crosstable as rows of cells (None: a cell never played), or None."""
    labels = [r["label"] for r in board["rows"]]
    cells = {(c["row"], c["column"]): c for c in board.get("crosstable") or []}
    if not labels or not cells:
        return None
    return {"labels": labels, "rows": [(a, [cells.get((a, b)) for b in labels]) for a in labels]}


def season_tables(data: dict[str, Any], ids: dict[str, int], links: Links) -> str:
    """The season's board, rating chart and crosstable: they change only with a new game."""
    board = data["board"]
    return fragment(
        "season_tables.html", board=board, links=links, ids=ids, notes=data["meaning"],
        board_notes=BOARD_NOTES, history=chart(data["history"]["series"], _elo_label(board)),
        history_title=_history_title(board), caption=board_caption(board, data.get("progress")),
        cross=_crosstable(board), faults=data.get("fault_groups", []),
    )  # fmt: skip


def season_live(data: dict[str, Any], tables: str) -> str:
    """The part of the season page that a running season refreshes (``tables``: from
    :func:`season_tables`)."""
    return fragment("season_live.html", progress=data["progress"], tables=Markup(tables))


def season_page(data: dict[str, Any], tables: str, links: Links) -> str:
    s = data["season"]
    live = s["status"] != "finished" and not links.static
    return page(
        "season.html", f"Season {s['name']}", links, links.api(f"seasons/{quote(s['name'])}"),
        s=s, live=f"{links.season(s['name'])}/live" if live else None,
        live_part=season_live(data, tables),
    )  # fmt: skip


def bots_page(data: dict[str, Any], links: Links) -> str:
    return page("bots.html", "Bots", links, links.api("bots"), bots=data["bots"])


def bot_page(
    data: dict[str, Any],
    links: Links,
    ids: dict[str, int],
    pin_csrf: str | None = None,
    owner: Markup | None = None,
) -> str:
    """A bot version's page; ``pin_csrf``: its owner's form choosing the version that plays;
    ``owner``: its owner's test games form."""
    b = data["bot"]
    series = [
        {"bot": f"{h['season']} · {h['version']}", "points": h["points"]}
        for h in data.get("versions_history", [])
    ]
    return page(
        "bot.html", f"Bot {b['label']}", links, links.api(f"bots/{b['id']}"),
        b=b, versions=data["versions"], seasons=data["seasons"], by_seat=data["by_seat"],
        head_to_head=data["head_to_head"], fault_groups=data["fault_groups"],
        faults=data["faults"], notes=data["meaning"], owner=owner,
        history=chart(series, "incremental Elo (one line per season and version)"),
        pin_csrf=pin_csrf,
    )  # fmt: skip


@dataclass(frozen=True)
class Paging:
    """Which page of the game list is shown: ``number`` (1 first, the newest games), ``size``
    games a page, and the request's query (its filters kept in the page links)."""

    number: int
    size: int
    query: str = ""

    def link(self, number: int) -> str:
        kept = [(k, v) for k, v in parse_qsl(self.query) if k != "page"]
        return "?" + urlencode([*kept, ("page", str(number))])

    def links(self, total: int) -> list[tuple[str, int, str]]:
        """The first, previous, nearby, next and last pages as ``(kind, number, link)``:
        kind "prev", "page", "here", "gap" or "next" (nothing for one page)."""
        last = max(1, -(-total // self.size))
        if last == 1:
            return []
        numbers = sorted({1, last, *range(max(1, self.number - 2), min(last, self.number + 2) + 1)})
        parts = []
        if self.number > 1:
            parts.append(("prev", self.number - 1, self.link(self.number - 1)))
        previous = 0
        for n in numbers:
            if n > previous + 1:
                parts.append(("gap", 0, ""))
            parts.append(("here" if n == self.number else "page", n, self.link(n)))
            previous = n
        if self.number < last:
            parts.append(("next", self.number + 1, self.link(self.number + 1)))
        return parts


def games_page(data: dict[str, Any], links: Links, filters: dict[str, Any],
               choices: dict[str, list[str]], paging: Paging | None = None) -> str:  # fmt: skip
    games = [
        {**g, "order": sorted(range(len(g["seats"])), key=lambda i: g["places"][i])}
        for g in data["games"]
    ]
    form = [] if links.static else [
        (name, choices[name]) for name in ("season", "bot", "rule_set")
    ] + [("fault", ["yes", "no"])]  # fmt: skip
    shown = len(games)
    first = data.get("offset", 0) + 1
    return page(
        "games.html", "Games", links, links.api("games"),
        games=games, form=form, filters=filters, total=data["total"],
        span=f"{first}–{first + shown - 1}" if shown else "none",
        pages=paging.links(data["total"]) if paging is not None else [],
    )  # fmt: skip


def game_page(
    replay: dict[str, Any],
    info: dict[str, Any],
    links: Links,
    admin: Markup | None = None,
    logs: Sequence[int] = (),
    try_here: bool = False,
    test: dict[str, Any] | None = None,
) -> str:
    """A game's replay viewer inside the site (the same viewer as ``replay --html``);
    ``admin``: the admins' actions on it, for an admin; ``logs``: the seats whose bot logs
    the viewer may read (linked); ``try_here``: offer the command that asks a new version of
    the viewer's bot the decision shown (``hegemon replay GAME --at N --bot PATH``); ``test``:
    the game is a challenge's (unrated, on no season's page) — ``{"url"}``: its page, or None
    for a viewer who may not open it."""
    return page(
        "game.html", f"Game {info['season']} #{info['number']}", links,
        links.api(f"games/{info['id']}"),
        info=info, seats=replay["seats"], logs=logs, admin=admin, try_here=try_here, test=test,
        replay_json=Markup(script_json(replay)),  # inert in a <script>: see .embed
    )  # fmt: skip


API_READS = [
    ("GET", "/api/leaderboard", "the all-time boards: one per rule set and turn limit"),
    ("GET", "/api/seasons", "every season and ladder with its progress"),
    ("GET", "/api/seasons/{name}", "a season: board with crosstable, progress, rating history"),
    ("GET", "/api/seasons/{name}/history", "a season's incremental Elo of each bot, game by game"),
    ("GET", "/api/bots", "every registered bot version"),
    (
        "GET",
        "/api/bots/{id}",
        "a bot: versions, seasons, rating history, results by seat, head to head, faults",
    ),
    ("GET", "/api/bots/{id}/history", "the rating history of every version of a bot, per season"),
    (
        "GET",
        "/api/games?season=&bot=&rule_set=&fault=yes|no&mine=1&limit=&offset=",
        "finished games, newest first (finished at, duration in seconds, rounds), filtered, "
        "a page at a time (total: how many); mine=1: only your bots' games (with your token)",
    ),
    ("GET", "/api/games/{id}", "a game: its match, result, faults and the replay data"),
    (
        "GET",
        "/api/teams/{name}",
        "a team: name, owner and bots (its members and invitations: for its members only)",
    ),
    (
        "GET",
        "/api/live",
        "the games in play, oldest first: each one's live page (url) and its stream of "
        "server-sent events (events), the decisions shown so far; delay: how many decisions "
        "the live pages stay behind",
    ),
    ("GET", "/api/games/{id}/record", "a game's record as stored (JSON lines)"),
    (
        "GET",
        "/api/games/{id}/logs/{seat}",
        "what a seat's bot wrote to stdout/stderr (text, capped; its owner and admins only); "
        "an empty log says why",
    ),
    ("GET", "/api/events", "the final events: format, status, winner"),
    (
        "GET",
        "/api/events/{name}",
        "a final event: entrants, rounds and tables (each game's id and places), standings, "
        "the seed's sha256 (the seed once it ended)",
    ),
]
"""The read endpoints ``/api`` documents: (method, path, what)."""

API_WRITES = [
    (
        "POST",
        "/api/tokens",
        'JSON {"name", "password", "token_name"} → 201 {"token", "id", "name", "user"}: a new '
        "API token (shown once; revoke it on your account page). What hegemon login does",
    ),
    ("GET", "/api/me", 'who the token is: {"name", "role"} (401 without one)'),
    (
        "GET",
        "/api/me/bots",
        "your own bots (an admin's too: only theirs): each version's state and reason, rank "
        "and rating on each ladder or season, the last games, faults grouped by kind",
    ),
    (
        "POST",
        "/api/bots/{name}/versions?command=&team=",
        "upload a bot: the body is one bot file or a folder packed as hegemon submit packs "
        "it (.tar.gz) → 201 a new version {id, state, url, …} (200: the same files already "
        "there); team=: a new bot for a team of yours. Quotas and limits refuse with a 4xx "
        "and one line",
    ),
    (
        "GET",
        "/api/versions/{id}",
        "one of your versions with its state and check log: poll it until state is no "
        "longer queued or checking",
    ),
    (
        "POST",
        "/api/bots/{name}/pin",
        'JSON {"version": N} → {"name", "pinned", "playing", "message"}: your bot plays version '
        "N in new ladder games (a rollback, or holding one when a newer passes its check); "
        '{"version": null} unpins it (its newest active version plays). What hegemon pin does',
    ),
    (
        "GET",
        "/api/notifications",
        'your notifications: {"unread", "notices"} (each as its webhook delivery says it, '
        'with "read")',
    ),
    ("GET", "/api/me/teams", 'your teams and invitations: {"teams", "invitations"}'),
    ("POST", "/api/teams", 'JSON {"name"} → 201: a new team, you its owner'),
    (
        "POST",
        "/api/teams/{name}/{action}",
        'action invite or remove (the owner; JSON {"user"}), accept (an invitation) or leave '
        '→ {"team", "done"}',
    ),
    (
        "POST",
        "/api/challenges",
        'test games on demand: JSON {"bot", "games", "vs": [names] (empty: its ladder '
        'neighbours), "version", "ladder"} → 201 the challenge {id, url, …}; unrated. Quotas '
        "(games a day, challenges in flight) refuse with a 429 and one line",
    ),
    (
        "GET",
        "/api/challenges/{id}",
        "one of your challenges: progress, each game with your version's place, each "
        "opponent, and against one opponent the SPRT of the run",
    ),
    (
        "GET",
        "/api/me/challenges",
        'your challenges, newest first: {"challenges": [{id, bot, opponents, games, done, '
        "finished, sprt (its line, against one opponent), url, …}]}. What hegemon me lists",
    ),
]
"""The endpoints that need a member's token: (method, path, what)."""

API_RUNNER = [
    (
        "POST",
        "/api/runner/claim",
        'JSON {"worker", "wait"} → a lease on the next match waiting (its season\'s rules and '
        "clock, the seats' bots and their archive digests, the seed, the lease's seconds), or "
        'none — after waiting up to "wait" seconds (at most 30) for one; 503 when too many '
        "claims wait; a retried claim gets the match it holds",
    ),
    (
        "POST",
        "/api/runner/heartbeat",
        'JSON {"worker", "match_id"} → the lease renewed; 409 when it was lost',
    ),
    (
        "POST",
        "/api/runner/release",
        'JSON {"worker", "match_id", "reason"} → the match given back (no reason: nothing '
        "counted; a reason: a runner fault, one attempt)",
    ),
    ("GET", "/api/runner/archives/{digest}", "a bot's files by their content digest (gzip'd tar)"),
    (
        "POST",
        "/api/runner/result",
        "the played game (record, logs, notes): the lease checked, the record re-verified, "
        "stored once; a stale post 409, one that does not verify 422, the same post again its "
        "first answer",
    ),
]
"""The endpoints that need a runner token (``hegemon runner-token create``): (method, path,
what)."""

API_DOC = API_READS + API_WRITES + API_RUNNER
"""Every endpoint ``/api`` documents (a test checks it against the route table)."""


def api_page(links: Links) -> str:
    return page(
        "api.html", "JSON API", links, reads=API_READS, writes=API_WRITES, runner=API_RUNNER
    )
