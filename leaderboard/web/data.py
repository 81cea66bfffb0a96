"""What every page shows, as plain JSON-ready dicts: the JSON API returns these as they are and
the HTML pages are drawn from them, so a page never shows what the API does not.

Every figure comes from :mod:`hegemon.leaderboard.boards` (boards with their crosstables
and the incremental Elo history, stored in the database with the fit and brought up to date
with the games added since). :class:`Arena` also keeps
each page's figures in memory until a game is added to its seasons.
"""

from __future__ import annotations

import json
import threading
from collections import Counter, defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sqlmodel import col, func, select

from hegemon.leaderboard import boards
from hegemon.leaderboard.ratings import PROVISIONAL_GAMES
from hegemon.leaderboard.store import DONE, BotRow, GameRow, MatchRow, SeasonRow, Store

from .params import database_id

MEANING = {
    "rating": "Rating: Plackett–Luce strength on the Elo scale (mean 1500; +400 ≈ 10× as likely "
    "to finish ahead of a given bot).",
    "interval": "± interval: the 95 % bootstrap interval of the rating (games and the prior's "
    "virtual games reweighted at random in each resample).",
    "p_next": "P(>next): share of bootstrap resamples in which the bot rates above the next row.",
    "provisional": f"?: provisional — fewer than {PROVISIONAL_GAMES} games, the rating rests "
    "mostly on the prior.",
    "mean_place": "Mean place: average finishing place (1 = won; a tie takes the best place).",
    "faults": "Faults: startup failures, crashes, time-outs, illegal answers and protocol errors.",
    "elo": "Rating history: incremental Elo (K = 32), game by game in schedule order.",
    "crosstable": "Crosstable: share of the games two bots played together in which the row "
    "bot finished ahead of the column bot (a tie counts one half).",
}


def _rules_key(season: SeasonRow) -> str:
    """Seasons whose games may be pooled: same preset and every option (turn limit included)."""
    return season.preset + " " + json.dumps(season.options, sort_keys=True)


def _rules_label(season: SeasonRow) -> str:
    limit = season.options.get("turn_limit")
    return f"{season.preset}, turn limit {limit}" if limit else season.preset


def _season_dict(season: SeasonRow) -> dict[str, Any]:
    return {
        "id": season.id,
        "name": season.name,
        "rule_set": season.preset,
        "rules": _rules_label(season),
        "players": season.players,
        "games": season.games,
        "status": season.status,
        "seed": season.seed_shown(),
        "created_at": season.created_at.isoformat() if season.created_at else None,
        "finished_at": season.finished_at.isoformat() if season.finished_at else None,
    }


def _progress_dict(store: Store, season_id: int) -> dict[str, Any]:
    p = store.progress(season_id)
    return {
        "total": p.total,
        "done": p.done,
        "pending": p.pending,
        "playing": p.claimed,
        "void": p.void,
        "arena_faults": p.attempts,
        "workers": p.workers,
    }


class Arena:
    """Read-only views of one arena database, with the fitted boards cached."""

    def __init__(self, store: Store):
        self.store = store
        self._cache: dict[Any, tuple[Any, Any]] = {}
        self._lock = threading.Lock()
        self._making: dict[Any, threading.Lock] = {}

    # ------------------------------------------------------------------ plumbing
    def version(self, season_ids: list[int]) -> int:
        """Changes whenever a game of these seasons is stored: the count of their finished
        matches (a game is stored with its match's status ``done``, in one transaction, and
        never removed), read from the (season, status) index alone."""
        with self.store.session() as s:
            count = s.exec(
                select(func.count())
                .select_from(MatchRow)
                .where(col(MatchRow.season_id).in_(season_ids), col(MatchRow.status) == DONE)
            ).one()
        return int(count or 0)

    def cached(self, key: Any, version: Any, make: Callable[[], Any]) -> Any:
        """``make()``'s value, kept until ``version`` changes. Requests that need the same
        value while it is being made wait for it rather than make it again."""
        with self._lock:
            key_lock = self._making.setdefault(key, threading.Lock())
        with key_lock:
            hit = self._cache.get(key)
            if hit is not None and hit[0] == version:
                return hit[1]
            value = make()
            self._cache[key] = (version, value)
            return value

    def warm(self) -> None:
        """Fit every board now (a server does this at start, so no visitor waits for it)."""
        self.all_time()
        for season in self.store.seasons():
            self.season_page(season)
        self.games(limit=1)

    def season_games(self, season: SeasonRow) -> list[boards.PlayedGame]:
        """The season's finished games in schedule order (:func:`boards.load_games`)."""
        season_id = season.id
        assert season_id is not None
        return self.cached(
            ("games", season_id),
            self.version([season_id]),
            lambda: boards.load_games(self.store, season_id),
        )

    def season(self, name_or_id: str | int) -> SeasonRow | None:
        season_id = database_id(name_or_id)
        if season_id is not None:
            found = self.store.get_season(season_id)
            if found is not None:
                return found
        return self.store.season_by_name(str(name_or_id))

    # ------------------------------------------------------------------ leaderboards
    def seasons(self) -> dict[str, Any]:
        seasons = self.store.seasons()
        return {
            "seasons": [
                {**_season_dict(s), "progress": _progress_dict(self.store, s.id)}
                for s in seasons
                if s.id is not None
            ]
        }

    def season_board(self, season: SeasonRow) -> dict[str, Any]:
        """The season's board with its crosstable (Plackett–Luce, bootstrap from its seed)."""
        assert season.id is not None

        def make() -> dict[str, Any]:
            board = boards.board(self.store, season, with_crosstable=True)
            return boards.board_dict(board)

        board = self.cached(("season", season.id), self.version([season.id]), make)
        return {"season": _season_dict(season), "board": board, "meaning": MEANING}

    def all_time(self) -> dict[str, Any]:
        """One board per rule set and turn limit, pooling every season played under it."""
        groups: dict[str, list[SeasonRow]] = defaultdict(list)
        for s in self.store.seasons():
            groups[_rules_key(s)].append(s)
        shown = []
        for key in sorted(groups):
            seasons = groups[key]
            ids = [s.id for s in seasons if s.id is not None]

            def make(seasons: list[SeasonRow] = seasons, key: str = key) -> dict[str, Any] | None:
                board = boards.pooled_board(
                    self.store,
                    seasons,
                    title=f"all time · {_rules_label(seasons[0])}",
                    preset=seasons[0].preset,
                    seed=boards.board_seed(f"hegemon all-time:{key}"),
                    with_crosstable=True,
                )
                if not board.games:
                    return None
                data = boards.board_dict(board)
                data["rules"] = _rules_label(seasons[0])
                data["seasons"] = [s.name for s in seasons]
                return data

            board = self.cached(("all", key), self.version(ids), make)
            if board is not None:
                shown.append(board)
        return {"boards": shown, "meaning": MEANING}

    def season_history(self, season: SeasonRow) -> dict[str, Any]:
        """Each bot's incremental Elo after each of its games, games in schedule order (kept
        with the season's stored board: :func:`boards.history`)."""
        season_id = season.id
        assert season_id is not None

        def make() -> dict[str, Any]:
            return boards.history(self.store, season)

        return self.cached(("history", season_id), self.version([season_id]), make)

    def season_page(self, season: SeasonRow) -> dict[str, Any]:
        assert season.id is not None
        data = self.season_board(season)
        data["progress"] = _progress_dict(self.store, season.id)
        chart = self.cached(
            ("chart", season.id),
            self.version([season.id]),
            lambda: boards.history(self.store, season, full=False),
        )
        data["history"] = {
            "games": chart["games"],
            "series": chart["series"],
            "note": "at most about 300 points a bot; every point: /api/seasons/{name}/history",
        }
        return data

    # ------------------------------------------------------------------ games
    def games(
        self,
        season: str | None = None,
        bot: str | None = None,
        rule_set: str | None = None,
        fault: bool | None = None,
        limit: int = 100,
        offset: int = 0,
    ) -> dict[str, Any]:
        """Finished games, newest first, filtered; ``bot`` is a name or ``name@vN``."""
        bot_ids: set[int] | None = None
        if bot:
            name, _, version = bot.partition("@v")
            bot_ids = {
                b.id
                for b in self.store.bots(name)
                if b.id is not None and (not version or str(b.version) == version)
            }
        # seats and faults are JSON columns: filter a (cached) light scan, then read the page
        ids = [
            game_id
            for game_id, seats, faulty in self._scan(season, rule_set)
            if (bot_ids is None or bot_ids.intersection(seats))
            and (fault is None or faulty == fault)
        ]
        total = len(ids)
        wanted = ids[offset : offset + limit]
        page: list[Any] = []
        with self.store.session() as s:
            for i in range(0, len(wanted), 500):
                chunk = wanted[i : i + 500]
                page.extend(
                    s.exec(
                        select(MatchRow, GameRow, SeasonRow.name)
                        .join(GameRow, col(GameRow.match_id) == col(MatchRow.id))
                        .join(SeasonRow, col(SeasonRow.id) == col(MatchRow.season_id))
                        .where(col(GameRow.id).in_(chunk))
                        .order_by(col(GameRow.id).desc())
                    ).all()
                )
        labels = {b.id: b.label for b in self.store.bots()}
        return {
            "total": int(total),
            "offset": offset,
            "games": [
                {
                    "id": game.id,
                    "season": season_name,
                    "number": match.number,
                    "seats": [labels.get(b, f"bot#{b}") for b in match.seats],
                    "places": game.places,
                    "reason": game.finish_reason,
                    "faults": game.faults,
                    "decisions": game.decisions,
                    "finished_at": game.finished_at.isoformat() if game.finished_at else None,
                }
                for match, game, season_name in page
            ],
        }

    def _scan(self, season: str | None, rule_set: str | None) -> list[tuple[int, set[int], bool]]:
        """(game id, bot ids seated, had a fault) of every finished game of ``season`` /
        ``rule_set`` (None: any), newest first; kept until a game is added anywhere."""
        where = []
        if season:
            where.append(col(SeasonRow.name) == season)
        if rule_set:
            where.append(col(SeasonRow.preset) == rule_set)

        def make() -> list[tuple[int, set[int], bool]]:
            with self.store.session() as s:
                rows = s.exec(
                    select(GameRow.id, MatchRow.seats, GameRow.faults)
                    .join(MatchRow, col(GameRow.match_id) == col(MatchRow.id))
                    .join(SeasonRow, col(SeasonRow.id) == col(MatchRow.season_id))
                    .where(*where)
                    .order_by(col(GameRow.id).desc())
                ).all()
            return [(int(g or 0), set(seats), bool(faults)) for g, seats, faults in rows]

        with self.store.session() as s:
            count, newest = s.exec(
                select(func.count(col(GameRow.id)), func.coalesce(func.max(col(GameRow.id)), 0))
            ).one()
        return self.cached(("scan", season, rule_set), (count, newest), make)

    def game(self, game_id: int) -> tuple[GameRow, MatchRow, str] | None:
        with self.store.session() as s:
            row = s.exec(
                select(GameRow, MatchRow, SeasonRow.name)
                .join(MatchRow, col(MatchRow.id) == col(GameRow.match_id))
                .join(SeasonRow, col(SeasonRow.id) == col(MatchRow.season_id))
                .where(GameRow.id == game_id)
            ).first()
        return None if row is None else (row[0], row[1], row[2])

    def withheld(self, match: MatchRow) -> bool:
        """Whether ``match``'s game is kept out of sight: in a duplicate season, every rotation
        of a table plays the same dice seed, so one rotation's record (its seed revealed)
        would give the deal away to the rotations still to play."""
        with self.store.session() as s:
            duplicate = s.exec(
                select(SeasonRow.duplicate).where(SeasonRow.id == match.season_id)
            ).one()
            if not duplicate:
                return False
            open_rotations = s.exec(
                select(func.count(col(MatchRow.id))).where(
                    col(MatchRow.season_id) == match.season_id,
                    col(MatchRow.table_number) == match.table_number,
                    col(MatchRow.status) != DONE,
                )
            ).one()
        return bool(open_rotations)

    def record_text(self, game_id: int) -> str | None:
        """A game's record (its seed revealed), or None: no such game, no record kept, or
        withheld (:meth:`withheld`)."""
        found = self.game(game_id)
        if found is None or self.withheld(found[1]):
            return None
        path = Path(found[0].record_path)
        return path.read_text(encoding="utf-8") if path.is_file() else None

    @staticmethod
    def _log_path(record_path: str, seat: int) -> Path:
        """Where the runner kept one seat's log of a game (beside its record)."""
        from hegemon.referee.runner.botlog import logs_dir, seat_log

        return seat_log(logs_dir(Path(record_path)), seat)

    def seat_log_text(self, game_id: int, seat: int) -> str | None:
        """What the bot in ``seat`` of a game wrote to stdout and stderr (capped), if kept."""
        found = self.game(game_id)
        if found is None or not found[0].record_path or not 0 <= seat < len(found[1].seats):
            return None
        if self.withheld(found[1]):
            return None
        path = self._log_path(found[0].record_path, seat)
        return path.read_text(encoding="utf-8", errors="replace") if path.is_file() else None

    # ------------------------------------------------------------------ bots
    def bots(self) -> dict[str, Any]:
        return {
            "bots": [
                {
                    "id": b.id,
                    "name": b.name,
                    "version": b.version,
                    "label": b.label,
                    "language": b.language,
                    "added_at": b.added_at.isoformat() if b.added_at else None,
                }
                for b in self.store.bots()
            ]
        }

    def bot(self, bot: BotRow) -> dict[str, Any]:
        """Versions, rating over time per season, results by seat, head-to-head and faults."""
        assert bot.id is not None
        seasons = self.store.seasons_using_bot(bot.id)
        version = (
            self.version([s.id for s in seasons if s.id is not None]),
            len(self.store.bots(bot.name)),
        )
        return self.cached(("bot", bot.id), version, lambda: self._bot(bot, seasons))

    def _bot(self, bot: BotRow, seasons: list[SeasonRow]) -> dict[str, Any]:
        assert bot.id is not None
        versions = [
            {
                "id": v.id,
                "label": v.label,
                "added_at": v.added_at.isoformat() if v.added_at else None,
            }
            for v in self.store.bots(bot.name)
        ]
        labels = {b.id: b.label for b in self.store.bots()}
        by_seat: dict[int, Counter[int]] = defaultdict(Counter)
        ahead: dict[str, float] = defaultdict(float)
        met: Counter[str] = Counter()
        history: list[dict[str, Any]] = []
        ratings: list[dict[str, Any]] = []
        for season in seasons:
            games = [g for g in self.season_games(season) if bot.id in g.seats]
            for g in games:
                seat = g.seats.index(bot.id)
                by_seat[seat][g.places[seat]] += 1
            cross = boards.crosstable(games)
            for (a, b), (won, n) in cross.items():
                if a == bot.id:
                    ahead[labels.get(b, f"bot#{b}")] += won
                    met[labels.get(b, f"bot#{b}")] += n
            series = self.season_history(season)["series"]
            points: list[Any] = next((s["points"] for s in series if s["bot"] == bot.label), [])
            history.append({"season": season.name, "points": points})
            board = self.season_board(season)["board"]
            row = next((r for r in board["rows"] if r["label"] == bot.label), None)
            ratings.append({"season": season.name, "row": row})
            if "unrated" in board:  # the season's rating fit failed: say why
                ratings[-1]["unrated"] = board["unrated"]
        faults: list[dict[str, Any]] = []
        rows: list[Any] = []
        with self.store.session() as s:
            for season in seasons:
                # only the games where this bot's seat has a fault (the rows say which)
                numbers = [
                    g.number
                    for g in self.season_games(season)
                    if any(0 <= f < len(g.seats) and g.seats[f] == bot.id for f in g.faults)
                ]
                for i in range(0, len(numbers), 500):
                    rows.extend(
                        s.exec(
                            select(GameRow, MatchRow, SeasonRow.name)
                            .join(MatchRow, col(MatchRow.id) == col(GameRow.match_id))
                            .join(SeasonRow, col(SeasonRow.id) == col(MatchRow.season_id))
                            .where(
                                col(MatchRow.season_id) == season.id,
                                col(MatchRow.number).in_(numbers[i : i + 500]),
                            )
                            .order_by(col(GameRow.id))
                        ).all()
                    )
        for game, match, season_name in rows:
            seats, number = match.seats, match.number
            for f in game.faults or []:
                seat = f.get("seat", -1) if isinstance(f, dict) else -1
                if 0 <= seat < len(seats) and seats[seat] == bot.id:
                    faults.append(
                        {
                            "game": game.id,
                            "season": season_name,
                            "number": number,
                            "seat": seat,
                            "kind": f.get("kind"),
                            "detail": f.get("detail"),
                            # no record kept (an empty path): no logs either
                            "log": bool(game.record_path)
                            and self._log_path(game.record_path, seat).is_file(),
                        }
                    )
        return {
            "bot": {
                "id": bot.id,
                "label": bot.label,
                "name": bot.name,
                "version": bot.version,
                "language": bot.language,
                "source": bot.source,
                "command": bot.command,
            },
            "versions": versions,
            "seasons": ratings,
            "history": history,
            "by_seat": [
                {
                    "seat": seat,
                    "places": {str(p): n for p, n in sorted(c.items())},
                    "games": sum(c.values()),
                }
                for seat, c in sorted(by_seat.items())
            ],
            "head_to_head": [
                {
                    "opponent": o,
                    "ahead": ahead[o],
                    "games": met[o],
                    "share": round(ahead[o] / met[o], 3),
                }
                for o in sorted(met)
            ],
            "faults": faults,
            "meaning": MEANING,
        }
