"""The HTML pages, drawn from the dicts of :mod:`hegemon.leaderboard.web.data` (the same the JSON
API returns). Plain HTML with inline SVG charts, one stylesheet and one small script; a
:class:`Links` decides where links point (the server's paths, or the static report's files)."""

from __future__ import annotations

import html
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, urlencode

from ..boards.stored import thin
from .embed import script_json
from .replay import REPLAY_BODY

COLOURS = ["#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2",
           "#7f7f7f", "#bcbd22", "#17becf"]  # fmt: skip


def esc(value: Any) -> str:
    return html.escape(str(value), quote=True)


@dataclass(frozen=True)
class Links:
    """Where pages link to: ``static`` gives the report's file names, else the server's paths."""

    static: bool = False

    def _file(self, name: str) -> str:
        return name if self.static else "/" + name

    def home(self) -> str:
        return "index.html" if self.static else "/"

    def asset(self, name: str) -> str:
        return f"static/{name}" if self.static else f"/static/{name}"

    def season(self, name: str) -> str:
        return f"season-{quote(name, safe='')}.html" if self.static else f"/season/{quote(name)}"

    def bots(self) -> str:
        return self._file("bots.html") if self.static else "/bots"

    def bot(self, bot_id: int) -> str:
        return f"bot-{bot_id}.html" if self.static else f"/bot/{bot_id}"

    def games(self, **filters: Any) -> str:
        if self.static:
            return "games.html"
        query = urlencode({k: v for k, v in filters.items() if v not in (None, "")})
        return "/games" + (f"?{query}" if query else "")

    def game(self, game_id: int) -> str:
        return f"game-{game_id}.html" if self.static else f"/game/{game_id}"

    def record(self, game_id: int) -> str:
        return f"game-{game_id}.jsonl" if self.static else f"/api/games/{game_id}/record"

    def log(self, game_id: int, seat: int) -> str:
        """One seat's log of a game (plain text)."""
        if self.static:
            return f"game-{game_id}-seat-{seat}.log"
        return f"/api/games/{game_id}/logs/{seat}"

    def api(self, path: str) -> str | None:
        return None if self.static else f"/api/{path}"


NO_ICON = '<link rel=icon href="data:,">'  # no favicon request (and no 404 in the console)


def page(title: str, body: str, links: Links, api: str | None = None, extra_head: str = "") -> str:
    """A whole page: the top bar, ``body``, and a link to its JSON (``api``)."""
    api_link = f' · <a href="{esc(api)}">JSON</a>' if api else ""
    nav = (
        f'<header class=top><strong><a href="{links.home()}">hegemon</a></strong>'
        f'<a href="{links.home()}">leaderboards</a><a href="{links.bots()}">bots</a>'
        f'<a href="{links.games()}">games</a>'
        + ("" if links.static else '<a href="/api">API</a>')
        + "</header>"
    )
    return (
        "<!doctype html>\n<html lang=en><head><meta charset=utf-8>"
        '<meta name=viewport content="width=device-width, initial-scale=1">'
        f"<title>{esc(title)} · hegemon</title>"
        f'<link rel=stylesheet href="{links.asset("style.css")}">{NO_ICON}{extra_head}</head>'
        f"<body>{nav}<main><h1>{esc(title)}</h1>{body}"
        f"<p class=note>hegemon arena{api_link}</p></main>"
        f'<script src="{links.asset("app.js")}"></script></body></html>\n'
    )


def _num(value: Any, digits: int = 1) -> str:
    return "" if value is None else f"{value:.{digits}f}"


def board_table(board: dict[str, Any], links: Links, ids: dict[str, int]) -> str:
    head = (
        "<tr><th>rank</th><th class=l>bot</th><th>version</th><th>rating</th><th>± interval</th>"
        "<th>games</th><th>wins</th><th>mean place</th><th>faults</th><th>P(&gt;next)</th></tr>"
    )
    rows = []
    for r in board["rows"]:
        low_high = r["interval"]
        interval = f"{low_high[0]:.0f} – {low_high[1]:.0f}" if low_high else ""
        bot_id = ids.get(r["label"])
        name = f'<a href="{links.bot(bot_id)}">{esc(r["bot"])}</a>' if bot_id else esc(r["bot"])
        if r.get("provisional"):
            name += ' <abbr class=prov title="provisional: few games yet">?</abbr>'
        rows.append(
            f'<tr data-bot="{esc(r["label"])}"><td>{r["rank"]}</td><td class=l>{name}</td>'
            f"<td>v{r['version']}</td><td class=rating>{_num(r['rating'])}</td><td>{interval}</td>"
            f"<td class=games>{r['games']}</td><td class=wins>{r['wins']}</td>"
            f"<td>{r['mean_place']:.2f}</td><td class=faults>{r['faults']}</td>"
            f"<td>{_num(r['p_stronger_than_next'], 2)}</td></tr>"
        )
    # a failed rating fit: the board without intervals (or ratings), and why
    unrated = (
        f"<p class='note unrated'>Ratings {esc(board['unrated'])}</p>" if "unrated" in board else ""
    )
    table = f'<table class="data board sortable">{head}{"".join(rows)}</table>'
    return f"{unrated}<div class=scroll>{table}</div>"


def crosstable(board: dict[str, Any]) -> str:
    labels = [r["label"] for r in board["rows"]]
    cells = {(c["row"], c["column"]): c for c in board.get("crosstable") or []}
    if not labels or not cells:
        return ""
    head = "<tr><th class=l></th>" + "".join(f"<th>{esc(x)}</th>" for x in labels) + "</tr>"
    rows = []
    for a in labels:
        tds = []
        for b in labels:
            c = cells.get((a, b))
            tds.append(
                "<td>—</td>" if c is None
                else f'<td title="{c["ahead"]:g} of {c["games"]}">{c["share"]:.2f}</td>'
            )  # fmt: skip
        rows.append(f"<tr><th class=l>{esc(a)}</th>{''.join(tds)}</tr>")
    return f'<div class=scroll><table class="data cross">{head}{"".join(rows)}</table></div>'


def meaning(m: dict[str, str], keys: tuple[str, ...]) -> str:
    return "".join(f"<p class=note>{esc(m[k])}</p>" for k in keys)


BOARD_NOTES = ("rating", "interval", "p_next", "provisional", "mean_place", "faults")


def line_chart(series: list[dict[str, Any]], x_label: str = "game") -> str:
    """An inline SVG line chart of ``[{"bot": label, "points": [[x, y], ...]}]``."""
    series = [{"bot": s["bot"], "points": thin(s["points"])} for s in series]
    points = [p for s in series for p in s["points"]]
    if not points:
        return "<p class=note>No games yet.</p>"
    width, height, left, bottom, top, right = 900, 320, 50, 30, 10, 160
    x0, x1 = min(p[0] for p in points), max(p[0] for p in points)
    y0, y1 = min(p[1] for p in points), max(p[1] for p in points)
    x1 = x1 if x1 > x0 else x0 + 1
    pad = max((y1 - y0) * 0.05, 5)
    y0, y1 = y0 - pad, y1 + pad

    def sx(x: float) -> float:
        return left + (x - x0) / (x1 - x0) * (width - left - right)

    def sy(y: float) -> float:
        return top + (y1 - y) / (y1 - y0) * (height - top - bottom)

    parts = [
        f'<svg class=chart viewBox="0 0 {width} {height}" role=img aria-label="rating history">',
        f"<line x1={left} y1={height - bottom} x2={width - right} y2={height - bottom} "
        'stroke="#999"/>',
        f'<line x1={left} y1={top} x2={left} y2={height - bottom} stroke="#999"/>',
    ]
    for i in range(5):
        y = y0 + (y1 - y0) * i / 4
        parts.append(f"<text x=4 y={sy(y) + 4:.1f}>{y:.0f}</text>")
        parts.append(
            f'<line x1={left} y1={sy(y):.1f} x2={width - right} y2={sy(y):.1f} stroke="#eee"/>'
        )
    parts.append(f"<text x={left} y={height - 8}>{x0}</text>")
    parts.append(f"<text x={width - right - 30} y={height - 8}>{x_label} {x1}</text>")
    for i, s in enumerate(series):
        colour = COLOURS[i % len(COLOURS)]
        path = " ".join(f"{sx(x):.1f},{sy(y):.1f}" for x, y in s["points"])
        parts.append(
            f'<polyline fill=none stroke="{colour}" stroke-width=2 points="{path}">'
            f"<title>{esc(s['bot'])}</title></polyline>"
        )
        parts.append(
            f'<text x={width - right + 8} y={top + 14 + 16 * i} style="fill:{colour}">'
            f"{esc(s['bot'])}</text>"
        )
    parts.append("</svg>")
    return "".join(parts)


def _progress(p: dict[str, Any]) -> str:
    share = 100 * p["done"] / p["total"] if p["total"] else 100
    return (
        f'<div class=progress><div style="width:{share:.1f}%"></div></div>'
        f"<p class=progress-text>{p['done']} of {p['total']} games played · {p['playing']} "
        f"playing · {p['pending']} waiting · {p['void']} void · "
        f"arena faults {p['arena_faults']}</p>"
    )


# ---------------------------------------------------------------------------------- pages
def index_page(seasons: dict[str, Any], all_time: dict[str, Any], ids: dict[str, int],
               links: Links) -> str:  # fmt: skip
    rows = "".join(
        f'<tr><td class=l><a href="{links.season(s["name"])}">{esc(s["name"])}</a></td>'
        f"<td class=l>{esc(s['rules'])}</td><td>{s['players']}</td>"
        f"<td>{s['progress']['done']} / {s['progress']['total']}</td>"
        f"<td class=l>{esc(s['status'])}</td></tr>"
        for s in seasons["seasons"]
    )
    body = [
        "<h2>Seasons</h2><div class=scroll><table class='data seasons sortable'>"
        "<tr><th class=l>season</th><th class=l>rules</th><th>players</th><th>games</th>"
        f"<th class=l>status</th></tr>{rows}</table></div>",
    ]
    for board in all_time["boards"]:
        body.append(
            f"<h2>{esc(board['title'])}</h2><p class=note>{board['games']} games from "
            f"{esc(', '.join(board['seasons']))}; only games of the same rules and turn limit "
            "are pooled.</p>" + board_table(board, links, ids)
        )
    body.append(meaning(all_time["meaning"], BOARD_NOTES))
    return page("Leaderboards", "".join(body), links, links.api("leaderboard"))


def season_tables(data: dict[str, Any], ids: dict[str, int], links: Links) -> str:
    """The season's board, rating chart and crosstable: they change only with a new game."""
    board = data["board"]
    return (
        f"<h2>Leaderboard</h2><p class=note>{board['games']} games · {esc(board['method'])}</p>"
        + board_table(board, links, ids)
        + meaning(data["meaning"], BOARD_NOTES)
        + "<h2>Rating history</h2>"
        + line_chart(data["history"]["series"])
        + meaning(data["meaning"], ("elo",))
        + "<h2>Crosstable</h2>"
        + crosstable(board)
        + meaning(data["meaning"], ("crosstable",))
    )


def season_live(data: dict[str, Any], tables: str) -> str:
    """The part of the season page that a running season refreshes (``tables``: from
    :func:`season_tables`)."""
    return _progress(data["progress"]) + tables


def season_page(data: dict[str, Any], tables: str, links: Links) -> str:
    s = data["season"]
    live = s["status"] != "finished" and not links.static
    attrs = f' data-live="{esc(links.season(s["name"]))}/live"' if live else ""
    body = (
        f"<p>{esc(s['rules'])} · {s['players']} players a game · seed {s['seed']} · "
        f"status <span class=status>{esc(s['status'])}</span> · "
        f'<a href="{links.games(season=s["name"])}">games</a></p>'
        f"<div id=live{attrs}>{season_live(data, tables)}</div>"
    )
    return page(f"Season {s['name']}", body, links, links.api(f"seasons/{quote(s['name'])}"))


def bots_page(data: dict[str, Any], links: Links) -> str:
    rows = "".join(
        f'<tr><td class=l><a href="{links.bot(b["id"])}">{esc(b["label"])}</a></td>'
        f"<td class=l>{esc(b['language'])}</td><td class=l>{esc(b['added_at'] or '')}</td></tr>"
        for b in data["bots"]
    )
    body = (
        "<div class=scroll><table class='data sortable'><tr><th class=l>bot</th>"
        f"<th class=l>language</th><th class=l>added</th></tr>{rows}</table></div>"
    )
    return page("Bots", body, links, links.api("bots"))


def bot_page(data: dict[str, Any], links: Links, ids: dict[str, int]) -> str:
    b = data["bot"]
    versions = ", ".join(
        f'<a href="{links.bot(v["id"])}">{esc(v["label"])}</a>' for v in data["versions"]
    )
    season_rows = "".join(
        f'<tr><td class=l><a href="{links.season(s["season"])}">{esc(s["season"])}</a>'
        + (f"<p class='note unrated'>Ratings {esc(s['unrated'])}</p>" if "unrated" in s else "")
        + "</td>"
        + (
            f"<td>{s['row']['rank']}</td><td>{_num(s['row']['rating'])}</td><td>{s['row']['games']}</td>"
            f"<td>{s['row']['wins']}</td><td>{s['row']['mean_place']:.2f}</td>"
            if s["row"]
            else "<td colspan=5>no games</td>"
        )
        + "</tr>"
        for s in data["seasons"]
    )
    seats = "".join(
        f"<tr><td>{s['seat']}</td><td>{s['games']}</td><td class=l>"
        + ", ".join(f"{p}: {n}" for p, n in s["places"].items())
        + "</td></tr>"
        for s in data["by_seat"]
    )
    h2h = "".join(
        f"<tr><td class=l>{esc(h['opponent'])}</td><td>{h['games']}</td><td>{h['ahead']:g}</td>"
        f"<td>{h['share']:.2f}</td></tr>"
        for h in data["head_to_head"]
    )
    faults = "".join(
        f'<tr><td class=l><a href="{links.game(f["game"])}">{esc(f["season"])} #{f["number"]}</a>'
        f"</td><td class=l>{esc(f['kind'])}</td><td class=l>{esc(f['detail'] or '')}</td>"
        + (
            f'<td class=l><a class=log href="{links.log(f["game"], f["seat"])}">'
            f"seat {f['seat']} log</a></td>"
            if f.get("log")
            else "<td class=l>—</td>"
        )
        + "</tr>"
        for f in data["faults"]
    )
    series = [{"bot": h["season"], "points": h["points"]} for h in data["history"] if h["points"]]
    body = (
        f"<p>{esc(b['language'])} · versions: {versions} · "
        f'<a href="{links.games(bot=b["label"])}">games</a></p>'
        f"<p class=note>command: <code>{esc(' '.join(b['command']))}</code></p>"
        "<h2>Seasons</h2><div class=scroll><table class='data sortable'><tr><th class=l>season</th>"
        "<th>rank</th><th>rating</th><th>games</th><th>wins</th><th>mean place</th></tr>"
        f"{season_rows}</table></div>"
        + meaning(data["meaning"], ("rating",))
        + "<h2>Rating over time</h2>"
        + line_chart(series)
        + meaning(data["meaning"], ("elo",))
        + "<h2>Results by seat</h2><div class=scroll><table class=data><tr><th>seat</th>"
        f"<th>games</th><th class=l>place: count</th></tr>{seats}</table></div>"
        "<h2>Head to head</h2><div class=scroll><table class='data sortable'><tr>"
        "<th class=l>opponent</th><th>games</th><th>finished ahead</th><th>share</th></tr>"
        f"{h2h}</table></div>"
        "<h2>Faults</h2><p class=note>What the bot's faults said, and its log of that game "
        "(what it wrote to stdout and stderr, capped).</p><div class=scroll><table "
        "class='data faults'><tr><th class=l>game</th><th class=l>kind</th>"
        f"<th class=l>detail</th><th class=l>log</th></tr>{faults}</table></div>"
    )
    return page(f"Bot {b['label']}", body, links, links.api(f"bots/{b['id']}"))


def games_page(data: dict[str, Any], links: Links, filters: dict[str, Any],
               choices: dict[str, list[str]]) -> str:  # fmt: skip
    rows = []
    for g in data["games"]:
        order = sorted(range(len(g["seats"])), key=lambda i: g["places"][i])
        result = ", ".join(f"{g['places'][i]}. {esc(g['seats'][i])}" for i in order)
        faults = ", ".join(f"{esc(f.get('kind'))} (seat {f.get('seat')})" for f in g["faults"])
        rows.append(
            f'<tr><td class=l><a href="{links.game(g["id"])}">{esc(g["season"])} #{g["number"]}</a>'
            f"</td><td class=l>{result}</td><td class=l>{esc(g['reason'])}</td>"
            f"<td class=l>{faults}</td></tr>"
        )
    form = ""
    if not links.static:

        def select(name: str, options: list[str]) -> str:
            opts = "".join(
                f"<option{' selected' if filters.get(name) == o else ''}>{esc(o)}</option>"
                for o in options
            )
            return (
                f'<label>{name} <select name={name}><option value="">any</option>'
                f"{opts}</select></label>"
            )

        form = (
            "<form class=filters method=get>"
            + select("season", choices["season"])
            + select("bot", choices["bot"])
            + select("rule_set", choices["rule_set"])
            + select("fault", ["yes", "no"])
            + "<button>filter</button></form>"
        )
    shown = len(data["games"])
    body = (
        form
        + f"<p class=note>{shown} of {data['total']} games shown.</p>"
        + "<div class=scroll><table class='data games sortable'><tr><th class=l>game</th>"
        "<th class=l>result</th><th class=l>ended by</th><th class=l>faults</th></tr>"
        + "".join(rows)
        + "</table></div>"
    )
    return page("Games", body, links, links.api("games"))


def game_page(replay: dict[str, Any], info: dict[str, Any], links: Links) -> str:
    """A game's replay viewer inside the site (the same viewer as ``replay --html``)."""
    body = (
        f'<p><a href="{links.season(info["season"])}">{esc(info["season"])}</a> game '
        f'#{info["number"]} · <a href="{links.record(info["id"])}">record (JSON lines)</a></p>'
        + REPLAY_BODY
        + f'<script id=replay-data type="application/json">{script_json(replay)}</script>'
        + f'<script src="{links.asset("replay.js")}"></script>'
    )
    return page(f"Game {info['season']} #{info['number']}", body, links,
                links.api(f"games/{info['id']}"))  # fmt: skip


API_DOC = [
    ("/api/leaderboard", "the all-time boards: one per rule set and turn limit"),
    ("/api/seasons", "every season with its progress"),
    ("/api/seasons/{name}", "a season: board with crosstable, progress, rating history"),
    ("/api/seasons/{name}/history", "a season's incremental Elo of each bot after each game"),
    ("/api/bots", "every registered bot version"),
    (
        "/api/bots/{id}",
        "a bot: versions, seasons, rating history, results by seat, head to head, faults",
    ),
    ("/api/games?season=&bot=&rule_set=&fault=yes|no&limit=&offset=", "finished games, filtered"),
    ("/api/games/{id}", "a game: its match, result, faults and the replay data"),
    ("/api/games/{id}/record", "a game's record as stored (JSON lines)"),
    ("/api/games/{id}/logs/{seat}", "what a seat's bot wrote to stdout/stderr (text, capped)"),
]


def api_page(links: Links) -> str:
    rows = "".join(f"<tr><td class=l><code>{esc(p)}</code></td><td class=l>{esc(d)}</td></tr>"
                   for p, d in API_DOC)  # fmt: skip
    body = (
        "<p>Every page has a JSON twin: GET these paths (read-only; JSON unless said). "
        "Ratings are on the Elo scale; see the notes under each leaderboard.</p>"
        f"<div class=scroll><table class=data><tr><th class=l>path</th><th class=l>what</th></tr>"
        f"{rows}</table></div>"
    )
    return page("JSON API", body, links)
