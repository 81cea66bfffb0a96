"""What every page shows, as plain JSON-ready dicts: the JSON API returns these as they are and
the HTML pages are drawn from them, so a page never shows what the API does not.

Every figure comes from :mod:`hegemon.leaderboard.boards` (boards with their crosstables
and the incremental Elo history, stored in the database with the fit and brought up to date
with the games added since). :class:`Arena` also keeps
each page's figures in memory until a game is added to its seasons.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from sqlmodel import col, func, select

from hegemon.leaderboard import boards
from hegemon.leaderboard.ratings import PROVISIONAL_GAMES
from hegemon.leaderboard.store import DONE, FINISHED, BotRow, GameRow, MatchRow, SeasonRow, Store

from .fault_groups import group_faults, kinds_by_bot
from .fits import pooled_board_data, season_board_data, season_history_data
from .fitter import Fitter, FitterError
from .params import database_id
from .rounds import record_rounds

log = logging.getLogger(__name__)

REFRESH_GAP = 5.0
"""Seconds at least between two background refreshes of one value (a board's refit costs a
second or more of CPU: a ladder storing a game a second would keep a core busy refitting)."""

MEANING = {
    "rating": "Rating: Plackett–Luce strength on the Elo scale (mean 1500; +400 ≈ 10× as likely "
    "to finish ahead of a given bot).",
    "interval": "± interval: the central 95 % of the rating's posterior (the prior's spread "
    "itself learnt from the games).",
    "p_next": "P(>next): posterior probability that the bot is stronger than the next row of its "
    "group.",
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
        "kind": season.kind,
        "seed": season.seed_shown(),
        "created_at": season.created_at.isoformat() if season.created_at else None,
        "finished_at": season.finished_at.isoformat() if season.finished_at else None,
    }


def _progress_dict(store: Store, season: SeasonRow) -> dict[str, Any]:
    assert season.id is not None
    p = store.progress(season.id)
    return {
        "ladder": season.is_ladder,  # never ends: ``total`` is the games made so far
        "total": p.total,
        "done": p.done,
        "pending": p.pending,
        "playing": p.claimed,
        "void": p.void,
        "arena_faults": p.attempts,
        "workers": p.workers,
    }


def _still_playing(season: SeasonRow) -> bool:
    """May the season's board be shown a little out of date while a newer one is fitted?
    Not once it is finished: its page stops following it then, so it must show the final one."""
    return season.status != FINISHED


class Arena:
    """Read-only views of one arena database, with the fitted boards cached; with a
    ``fitter``, a board brought up to date in the background is refitted in its process."""

    def __init__(self, store: Store, fitter: Fitter | None = None):
        self.store = store
        self.fitter = fitter
        self._cache: dict[Any, tuple[Any, Any]] = {}
        self._lock = threading.Lock()
        self._making: dict[Any, threading.Lock] = {}
        self._refreshing: set[Any] = set()
        self._refreshed: dict[Any, float] = {}  # key → when its last background refresh ended
        self._rounds: dict[int, int | None] = {}  # game id → its rounds (a game never changes)
        self.generation = 0
        """Counts the values made again in the background (:meth:`cached`'s ``stale_ok``): a
        page drawn from the values is current while this and the database are unchanged. A
        value made for a request is not counted: it is made again only when the database
        changed (its version is read from it), which a page's key sees already; counting it
        made every page twice after each new game (once for the commit, once for the values
        the first page made for it)."""

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

    def cached(
        self,
        key: Any,
        version: Any,
        make: Callable[[], Any],
        *,
        stale_ok: bool = False,
        refit: Callable[[Fitter], Any] | None = None,
    ) -> Any:
        """``make()``'s value, kept until ``version`` changes. Requests that need the same
        value while it is being made wait for it rather than make it again.

        ``stale_ok``: once there is a value, a request never waits for a new one: it gets the
        value there is while one thread makes the new one (a refit of a board takes a second
        or more, and a running ladder adds games faster than that: every request would wait),
        at most every :data:`REFRESH_GAP` seconds: a refresh asked for sooner is started when
        the gap has passed (a cached page drawn from the stale value is then made again, as
        :attr:`generation` changes, without waiting for another request to ask). That
        background refresh is ``refit(fitter)`` when there is a :attr:`fitter`."""
        with self._lock:
            hit = self._cache.get(key)
            if stale_ok and hit is not None:
                if hit[0] != version and key not in self._refreshing:
                    self._refreshing.add(key)
                    since = time.monotonic() - self._refreshed.get(key, -REFRESH_GAP)
                    refresh = threading.Timer(
                        max(0.0, REFRESH_GAP - since),
                        self._refresh,
                        (key, version, self._elsewhere(refit, make)),
                    )
                    refresh.daemon = True
                    refresh.start()
                return hit[1]
        return self._make(key, version, make)

    def _make(
        self, key: Any, version: Any, make: Callable[[], Any], background: bool = False
    ) -> Any:
        """``make()``'s value for ``version``, made once by whichever thread comes first
        (``background``: a refresh, which moves :attr:`generation`)."""
        with self._lock:
            key_lock = self._making.setdefault(key, threading.Lock())
        with key_lock:
            hit = self._cache.get(key)
            if hit is not None and hit[0] == version:
                return hit[1]
            value = make()
            with self._lock:
                self._cache[key] = (version, value)
                if background:
                    self.generation += 1
            return value

    def _elsewhere(
        self, refit: Callable[[Fitter], Any] | None, make: Callable[[], Any]
    ) -> Callable[[], Any]:
        """``refit`` in the fitting process, or ``make()`` here if there is none or it fails."""
        fitter = self.fitter
        if refit is None or fitter is None:
            return make

        def made_elsewhere() -> Any:
            try:
                return refit(fitter)
            except FitterError as exc:
                if fitter.closed:
                    raise
                log.warning("hegemon web: the fitting process failed (%s); fitting here", exc)
                return make()

        return made_elsewhere

    def _refresh(self, key: Any, version: Any, make: Callable[[], Any]) -> None:
        """Make the value of ``key`` for ``version`` in the background (see :meth:`cached`)."""
        try:
            self._make(key, version, make, background=True)
        except FitterError:  # the server is stopping
            pass
        except Exception:  # the next request tries again (and shows the error, if any)
            log.exception("hegemon web: refreshing %s failed", key[0])
        finally:
            with self._lock:
                self._refreshing.discard(key)
                self._refreshed[key] = time.monotonic()

    def labels(self) -> dict[int, str]:
        """Every bot id's ``name@vN`` (kept until a bot is added)."""
        with self.store.session() as s:
            count = s.exec(select(func.max(col(BotRow.id)))).one()
        return self.cached(("labels",), count, lambda: {b.id: b.label for b in self.store.bots()})

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
                {**_season_dict(s), "progress": _progress_dict(self.store, s)}
                for s in seasons
                if s.id is not None
            ]
        }

    def season_board(self, season: SeasonRow) -> dict[str, Any]:
        """The season's board with its crosstable (Plackett–Luce, bootstrap from its seed)."""
        assert season.id is not None

        season_id = season.id
        board = self.cached(
            ("season", season_id),
            self.version([season_id]),
            lambda: season_board_data(self.store, season),
            stale_ok=_still_playing(season),
            refit=lambda fitter: fitter.season_board(season_id),
        )
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
            title = f"all time · {_rules_label(seasons[0])}"
            seed = boards.board_seed(f"hegemon all-time:{key}")
            preset = seasons[0].preset
            make = partial(pooled_board_data, self.store, seasons, title, preset, seed)
            refit = partial(
                Fitter.pooled_board, season_ids=ids, title=title, preset=preset, seed=seed
            )
            board = self.cached(("all", key), self.version(ids), make, stale_ok=True, refit=refit)
            if board is not None:
                shown.append(
                    {
                        **board,
                        "rules": _rules_label(seasons[0]),
                        "seasons": [s.name for s in seasons],
                    }
                )
        return {"boards": shown, "meaning": MEANING}

    def season_history(self, season: SeasonRow) -> dict[str, Any]:
        """Each bot's incremental Elo after each of its games, games in schedule order (kept
        with the season's stored board: :func:`boards.history`)."""
        season_id = season.id
        assert season_id is not None

        return self.cached(
            ("history", season_id),
            self.version([season_id]),
            lambda: season_history_data(self.store, season),
            stale_ok=_still_playing(season),
            refit=lambda fitter: fitter.season_history(season_id),
        )

    def season_page(self, season: SeasonRow) -> dict[str, Any]:
        assert season.id is not None
        data = self.season_board(season)
        data["progress"] = _progress_dict(self.store, season)
        season_id = season.id
        # brought up to date with the board (stored with its fit): refitted in the fitting
        # process too, where it is a small read once the board's refit there has stored it
        chart = self.cached(
            ("chart", season_id),
            self.version([season_id]),
            lambda: season_history_data(self.store, season, full=False),
            stale_ok=_still_playing(season),
            refit=lambda fitter: fitter.season_history(season_id, full=False),
        )
        data["history"] = {
            "games": chart["games"],
            "series": chart["series"],
            "note": "at most about 300 points a bot; every point: /api/seasons/{name}/history",
        }
        data["fault_groups"] = self.season_faults(season)
        return data

    def season_faults(self, season: SeasonRow) -> list[dict[str, Any]]:
        """Each bot's faults in ``season`` grouped by cause (:func:`group_faults`):
        ``[{"bot": label, "faults": total, "groups": [...]}]``, most faults first."""
        season_id = season.id
        assert season_id is not None

        def make() -> list[dict[str, Any]]:
            with self.store.session() as s:
                rows = s.exec(
                    select(MatchRow.seats, GameRow.faults)
                    .join(GameRow, col(GameRow.match_id) == col(MatchRow.id))
                    .where(col(MatchRow.season_id) == season_id)
                ).all()
            labels = self.labels()
            shown = [
                {"bot": labels.get(b, f"bot#{b}"), "faults": len(k), "groups": group_faults(k)}
                for b, k in kinds_by_bot(
                    (list(seats), list(faults)) for seats, faults in rows
                ).items()
            ]
            return sorted(shown, key=lambda row: (-row["faults"], row["bot"]))

        return self.cached(("faults", season_id), self.version([season_id]), make)

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
        """Finished games, newest first (by id: the order they were stored, which games only
        ever add to, so pages are stable), filtered; ``bot`` is a name or ``name@vN``. Only
        the page asked for is read, unless a bot or fault filter needs the (cached) scan."""
        if bot or fault is not None:
            total, page = self._filtered(season, bot, rule_set, fault, limit, offset)
        else:
            total, page = self._page(season, rule_set, limit, offset)
        labels = self.labels()
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
                    "duration": game.duration,
                    "rounds": self.rounds(game),
                }
                for match, game, season_name in page
            ],
        }

    def rounds(self, game: GameRow) -> int | None:
        """The rounds ``game`` lasted (:func:`record_rounds`), read once per game."""
        assert game.id is not None
        if game.id not in self._rounds:
            self._rounds[game.id] = record_rounds(game.record_path)
        return self._rounds[game.id]

    @staticmethod
    def _where(season: str | None, rule_set: str | None) -> list[Any]:
        where = []
        if season:
            where.append(col(SeasonRow.name) == season)
        if rule_set:
            where.append(col(SeasonRow.preset) == rule_set)
        return where

    def _page(
        self, season: str | None, rule_set: str | None, limit: int, offset: int
    ) -> tuple[int, list[Any]]:
        """(how many games match, the page of them) straight from the database."""
        where = self._where(season, rule_set)
        with self.store.session() as s:
            count = select(func.count(col(GameRow.id)))
            if where:
                count = (
                    count.join(MatchRow, col(GameRow.match_id) == col(MatchRow.id))
                    .join(SeasonRow, col(SeasonRow.id) == col(MatchRow.season_id))
                    .where(*where)
                )
            total = s.exec(count).one()
            page = s.exec(
                select(MatchRow, GameRow, SeasonRow.name)
                .join(GameRow, col(GameRow.match_id) == col(MatchRow.id))
                .join(SeasonRow, col(SeasonRow.id) == col(MatchRow.season_id))
                .where(*where)
                .order_by(col(GameRow.id).desc())
                .limit(limit)
                .offset(offset)
            ).all()
        return int(total or 0), list(page)

    def _filtered(
        self,
        season: str | None,
        bot: str | None,
        rule_set: str | None,
        fault: bool | None,
        limit: int,
        offset: int,
    ) -> tuple[int, list[Any]]:
        """The same for a bot or fault filter: seats and faults are JSON columns, so a (cached)
        light scan is filtered, then the page read."""
        bot_ids: set[int] | None = None
        if bot:
            name, _, version = bot.partition("@v")
            bot_ids = {
                b.id
                for b in self.store.bots(name)
                if b.id is not None and (not version or str(b.version) == version)
            }
        ids = [
            game_id
            for game_id, seats, faulty in self._scan(season, rule_set)
            if (bot_ids is None or bot_ids.intersection(seats))
            and (fault is None or faulty == fault)
        ]
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
        return len(ids), page

    def _scan(self, season: str | None, rule_set: str | None) -> list[tuple[int, set[int], bool]]:
        """(game id, bot ids seated, had a fault) of every finished game of ``season`` /
        ``rule_set`` (None: any), newest first; kept until a game is added anywhere."""
        where = self._where(season, rule_set)

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
                    "state": b.state,
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
            tuple((v.id, v.state) for v in self.store.bots(bot.name)),  # a new one, a state
        )
        return self.cached(("bot", bot.id), version, lambda: self._bot(bot, seasons))

    def version_history(self, bot: BotRow) -> dict[str, Any]:
        """The rating history of every version of ``bot``'s name, in every season (or ladder)
        it played: ``{"bot": name, "history": [{"season", "version", "points"}, ...]}``,
        points as in :meth:`season_history` (a new version's line starts where it joined)."""
        history = []
        for version in self.store.bots(bot.name):
            assert version.id is not None
            for season in self.store.seasons_using_bot(version.id):
                series = self.season_history(season)["series"]
                points: list[Any] = next(
                    (s["points"] for s in series if s["bot"] == version.label), []
                )
                if points:
                    history.append(
                        {"season": season.name, "version": version.label, "points": points}
                    )
        return {"bot": bot.name, "history": history}

    def _bot(self, bot: BotRow, seasons: list[SeasonRow]) -> dict[str, Any]:
        assert bot.id is not None
        versions = [
            {
                "id": v.id,
                "label": v.label,
                "state": v.state,
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
            "versions_history": [
                {**h, "points": boards.thin(h["points"])}
                for h in self.version_history(bot)["history"]
            ],
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
            "fault_groups": group_faults(f["kind"] for f in faults),
            "meaning": MEANING,
        }
