"""Where the pages link to: the server's paths, or the static report's files."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, urlencode

from markupsafe import Markup


@dataclass(frozen=True)
class Links:
    """Where pages link to: ``static`` gives the report's file names, else the server's paths.
    ``account``: the top bar's account links (HTML) for the viewer of a served page."""

    static: bool = False
    account: Markup = Markup("")  # noqa: RUF009 (immutable: a str)

    def _file(self, name: str) -> str:
        return name if self.static else "/" + name

    def home(self) -> str:
        return "index.html" if self.static else "/"

    def asset(self, name: str) -> str:
        return f"static/{name}" if self.static else f"/static/{name}"

    def season(self, name: str) -> str:
        return f"season-{quote(name, safe='')}.html" if self.static else f"/season/{quote(name)}"

    def event(self, name: str) -> str:
        """A final event's page (the static report has none: its season's)."""
        return self.season(name) if self.static else f"/event/{quote(name)}"

    def team(self, name: str) -> str | None:
        """A team's page; None in the static report (it has none)."""
        return None if self.static else f"/teams/{quote(name)}"

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


SERVED = Links(static=False)
"""The server's links, for a viewer without account links."""
