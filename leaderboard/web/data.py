"""What every page shows, as plain JSON-ready dicts: the JSON API returns these as they are and
the HTML pages are drawn from them, so a page never shows what the API does not.

Every figure comes from :mod:`hegemon.leaderboard.boards` (boards with their crosstables
and the incremental Elo history, stored in the database with the fit and brought up to date
with the games added since), read through :mod:`hegemon.leaderboard.store.pages`.
:class:`Arena` also keeps each page's figures in memory until a game is added to its seasons,
in the web server's one cache (:mod:`.kept`), which keeps its rendered pages too.
"""

from __future__ import annotations

import json
import logging
from collections import Counter, defaultdict
from collections.abc import Callable
from functools import partial
from typing import Any, TypeVar

from hegemon.leaderboard import boards
from hegemon.leaderboard.accounts.ownership import is_mine, member_teams
from hegemon.leaderboard.ratings import PROVISIONAL_GAMES
from hegemon.leaderboard.store import FINISHED, BotRow, GameRow, MatchRow, SeasonRow, Store
from hegemon.leaderboard.store import pages as queries
from hegemon.leaderboard.store.pins import pins_now, playing_now
from hegemon.leaderboard.store.teams import team_names

from . import stored
from .fault_groups import group_faults, kinds_by_bot
from .fits import pooled_board_data, season_board_data, season_history_data
from .fitter import Fitter, FitterError
from .kept import REFRESHED, Kept
from .params import database_id
from .playing import one_row_per_bot, version_marks, version_standing
from .processes import empty_log_note, keeps_process, process_note

log = logging.getLogger(__name__)
T = TypeVar("T")

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
        "keeps_process": keeps_process(season),
        "processes": process_note(season),
        "created_at": season.created_at.isoformat() if season.created_at else None,
        "finished_at": season.finished_at.isoformat() if season.finished_at else None,
    }


def progress_dict(store: Store, season: SeasonRow) -> dict[str, Any]:
    """How far ``season`` is: its games done, playing, pending, void (a ladder: never ends)."""
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
        self.kept = Kept(quiet=(FitterError,))  # a refit's FitterError: the server is stopping
        """The values the pages are drawn from (boards, charts, lists), each until its version
        changes (:mod:`.kept`)."""
        self._rounds: dict[int, int | None] = {}  # game id → its rounds (a game never changes)

    @property
    def generation(self) -> int:
        """Counts the values made again in the background (:attr:`.kept.Kept.generation`)."""
        return self.kept.generation

    # ------------------------------------------------------------------ plumbing
    def version(self, season_ids: list[int]) -> int:
        """Changes whenever a game of these seasons is stored
        (:func:`~hegemon.leaderboard.store.pages.finished_matches`)."""
        return queries.finished_matches(self.store, season_ids)

    def cached(
        self,
        key: Any,
        version: Any,
        make: Callable[[], T],
        *,
        stale_ok: bool = False,
        refit: Callable[[Fitter], T] | None = None,
    ) -> T:
        """``make()``'s value, kept until ``version`` changes; requests that need it while
        it is being made wait for it (:data:`.kept.CURRENT`). ``stale_ok``: once there is a
        value, a request never waits for a new one (:data:`.kept.REFRESHED`); the background
        refresh is ``refit(fitter)`` when there is a :attr:`fitter`."""
        if not stale_ok:
            return self.kept.get(key, version, make)
        return self.kept.get(key, version, make, REFRESHED, self._elsewhere(refit, make))

    def _elsewhere(
        self, refit: Callable[[Fitter], T] | None, make: Callable[[], T]
    ) -> Callable[[], T]:
        """``refit`` in the fitting process, or ``make()`` here if there is none or it fails."""
        fitter = self.fitter
        if refit is None or fitter is None:
            return make

        def made_elsewhere() -> T:
            try:
                return refit(fitter)
            except FitterError as exc:
                if fitter.closed:
                    raise
                log.warning("hegemon web: the fitting process failed (%s); fitting here", exc)
                return make()

        return made_elsewhere

    def labels(self) -> dict[int, str]:
        """Every bot id's ``name@vN`` (kept until a bot is added)."""
        newest = queries.newest_bot_id(self.store)
        return self.cached(
            ("labels",),
            newest,
            lambda: {b.id: b.label for b in self.store.bots() if b.id is not None},
        )

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
        """The season or ladder of this id or name (a member's challenge: None, it has no
        board; its owner's page is /challenge/{id})."""
        season_id = database_id(name_or_id)
        found = None if season_id is None else self.store.get_season(season_id)
        if found is None:
            found = self.store.season_by_name(str(name_or_id))
        return None if found is None or found.is_challenge else found

    # ------------------------------------------------------------------ leaderboards
    def seasons(self) -> dict[str, Any]:
        seasons = self.store.seasons()
        return {
            "seasons": [
                {**_season_dict(s), "progress": progress_dict(self.store, s)}
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
        if season.is_ladder:  # one row per bot: the version now playing
            labels = self.labels()
            playing = [labels[i] for i in playing_now(self.store).values() if i in labels]
            data["board"] = one_row_per_bot(data["board"], playing)
        data["progress"] = progress_dict(self.store, season)
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
            rows = queries.season_faults(self.store, season_id)
            labels = self.labels()
            shown = [
                {"bot": labels.get(b, f"bot#{b}"), "faults": len(k), "groups": group_faults(k)}
                for b, k in kinds_by_bot(rows).items()
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
        owner: int | None = None,
    ) -> dict[str, Any]:
        """Finished games, newest first (by id: the order they were stored, which games only
        ever add to, so pages are stable), filtered; ``bot`` is a name or ``name@vN``,
        ``owner`` a user id (only games where one of their or their teams' bots sat). Only the
        page asked for is read, unless a bot, owner or fault filter needs the (cached) scan."""
        if bot or fault is not None or owner is not None:
            total, page = self._filtered(season, bot, rule_set, fault, limit, offset, owner)
        else:
            total, page = queries.games_page(self.store, season, rule_set, limit, offset)
        labels = self.labels()
        self._read_rounds([game for _, game, _ in page])
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
        """The rounds ``game`` lasted (:func:`.stored.rounds`), read once per game."""
        assert game.id is not None
        self._read_rounds([game])
        return self._rounds[game.id]

    def _read_rounds(self, games: list[GameRow]) -> None:
        """Read the rounds of those of ``games`` not read yet, together."""
        self._rounds.update(
            stored.rounds(self.store, [g for g in games if g.id not in self._rounds])
        )

    def _filtered(
        self,
        season: str | None,
        bot: str | None,
        rule_set: str | None,
        fault: bool | None,
        limit: int,
        offset: int,
        owner: int | None = None,
    ) -> tuple[int, list[queries.GameListed]]:
        """The page of games for a bot, owner or fault filter: seats and faults are JSON
        columns, so a (cached) light scan is filtered, then the page read."""
        bot_ids: set[int] | None = None
        if bot:
            name, _, version = bot.partition("@v")
            bot_ids = {
                b.id
                for b in self.store.bots(name)
                if b.id is not None and (not version or str(b.version) == version)
            }
        if owner is not None:  # their own bots and their teams'
            with self.store.session() as s:
                teams = member_teams(s, owner)
            owned = {
                b.id for b in self.store.bots() if b.id is not None and is_mine(owner, b, teams)
            }
            bot_ids = owned if bot_ids is None else bot_ids & owned
        ids = [
            game_id
            for game_id, seats, faulty in self._scan(season, rule_set)
            if (bot_ids is None or bot_ids.intersection(seats))
            and (fault is None or faulty == fault)
        ]
        return len(ids), queries.games_by_id(self.store, ids[offset : offset + limit])

    def _scan(self, season: str | None, rule_set: str | None) -> list[tuple[int, set[int], bool]]:
        """(game id, bot ids seated, had a fault) of every finished game of ``season`` /
        ``rule_set`` (None: any), newest first; kept until a game is added anywhere."""
        return self.cached(
            ("scan", season, rule_set),
            queries.games_stored(self.store),
            lambda: queries.game_scan(self.store, season, rule_set),
        )

    def game(self, game_id: int) -> tuple[GameRow, MatchRow, str] | None:
        """A game, its match and its season's name (None: no such game)."""
        found = queries.game_listed(self.store, game_id)
        return None if found is None else (found[1], found[0], found[2])

    def withheld(self, match: MatchRow) -> bool:
        """Whether ``match``'s game is kept out of sight (a duplicate table still playing:
        :func:`~hegemon.leaderboard.store.pages.withheld`)."""
        return queries.withheld(self.store, match)

    def record_text(self, game_id: int) -> str | None:
        """A game's record (its seed revealed), or None: no such game, no record kept, or
        withheld (:meth:`withheld`)."""
        found = self.game(game_id)
        if found is None or self.withheld(found[1]):
            return None
        return stored.record_text(self.store, found[0])

    def logged_seats(self, game_id: int) -> set[int]:
        """The seats of a game whose bot's log is kept (:func:`.stored.logged`: an existence
        query, no log read), none if there is no such game or it is withheld."""
        found = self.game(game_id)
        if found is None or self.withheld(found[1]):
            return set()
        return stored.logged(self.store, found[0], range(len(found[1].seats)))

    def seat_log_text(self, game_id: int, seat: int) -> str | None:
        """What the bot in ``seat`` of a game wrote to stdout and stderr (capped), if kept; an
        empty log says why (:func:`.processes.empty_log_note`)."""
        found = self.game(game_id)
        if found is None or not 0 <= seat < len(found[1].seats):
            return None
        if self.withheld(found[1]):
            return None
        data = stored.log_bytes(self.store, found[0], seat)
        if data is None:
            return None
        from hegemon.referee.runner.botlog import bot_lines

        text = data.decode("utf-8", errors="replace")
        season = None if bot_lines(text) else self.store.get_season(found[1].season_id)
        return text if season is None else text + empty_log_note(season)

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
        chosen = (playing_now(self.store).get(bot.name), pins_now(self.store).get(bot.name))
        version = (
            self.version([s.id for s in seasons if s.id is not None]),
            tuple((v.id, v.state) for v in self.store.bots(bot.name)),  # a new one, a state
            chosen,  # the version that plays, the one pinned
        )
        return self.cached(("bot", bot.id), version, lambda: self._bot(bot, seasons, *chosen))

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

    def version_standings(self, version: BotRow) -> list[dict[str, Any]]:
        """``version``'s rank, rating and games on each board where it has games."""
        assert version.id is not None
        found = []
        for season in self.store.seasons_using_bot(version.id):
            standing = version_standing(self.season_board(season)["board"], version.label)
            if standing is not None:
                found.append({"season": season.name, **standing})
        return found

    def _bot(
        self, bot: BotRow, seasons: list[SeasonRow], playing: int | None, pinned: int | None
    ) -> dict[str, Any]:
        assert bot.id is not None
        versions = [
            {
                "id": v.id,
                "label": v.label,
                "version": v.version,
                "state": v.state,
                "marks": version_marks(v, playing, pinned),  # pinned, playing
                "standings": self.version_standings(v),
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
        rows: list[queries.GameListed] = []
        for season in seasons:
            assert season.id is not None
            # only the games where this bot's seat has a fault (the rows say which)
            numbers = [
                g.number
                for g in self.season_games(season)
                if any(0 <= f < len(g.seats) and g.seats[f] == bot.id for f in g.faults)
            ]
            rows.extend(queries.games_by_number(self.store, season.id, numbers))
        for match, game, season_name in rows:
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
                            "log": stored.has_log(self.store, game, seat),
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
                "team": None if bot.team_id is None else team_names(self.store).get(bot.team_id),
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
