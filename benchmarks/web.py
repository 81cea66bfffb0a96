"""Server time of the web pages over a big arena: 100 bots, 100,000 stored 4-player games.

    python benchmarks/web.py [--bots 100] [--games 100000] [--runs 7] [--bootstrap N]

Builds a throw-away SQLite arena (synthetic Plackett–Luce finishing orders, 1 game in 50 with a
fault; no records on disk), then times GET requests through the real ASGI application (routing,
database reads, the HTML) without a network in between, so the figures are the server's own
time. Cold: the season page as the first request after start, with no stored fit (the games
are counted, the board fitted with its bootstrap intervals and stored with its crosstable and
Elo chart); restart: the same after a restart (the stored fit is read: target well under 1 s);
added: the same after ``--added`` games were added (only those are read). Then every page's
first request and its warm time (the server keeps each page's figures until a game is added).
The last line, ``web: cold … · restart … · added … · warm …``, ends with the warm season
leaderboard page (target: under 300 ms).
"""

from __future__ import annotations

import argparse
import asyncio
import math
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sqlalchemy import insert
from sqlmodel import col, func, select

from hegemon.leaderboard.boards import fresh, stored
from hegemon.leaderboard.store import (
    BotRow,
    GameRow,
    MatchRow,
    SeasonBotRow,
    SeasonRow,
    Store,
    utcnow,
)
from hegemon.leaderboard.web.server import make_app
from hegemon.referee.rules import make_rules

PLAYERS = 4
SEED = 20261130


def build_arena(store: Store, bots: int, games: int) -> None:
    """One finished season of ``games`` games among ``bots`` bots, written in bulk."""
    rules = make_rules("classic", {"turn_limit": 60})
    with store.session(write=True) as s:
        rows = [
            BotRow(name=f"bot{i:03d}", version=1, command=["x"], content_hash=f"{i:064x}",
                language="python")
            for i in range(bots)
        ]  # fmt: skip
        s.add_all(rows)
        season = SeasonRow(name="big", preset=rules.preset, options=rules.options(),
                        players=PLAYERS, games=games, startup_time=20, decision_time=1,
                        time_bank=60, max_strikes=5, seed=SEED, status="finished")  # fmt: skip
        s.add(season)
        s.flush()
        assert season.id is not None
        ids = [b.id for b in rows if b.id is not None]
        s.add_all(
            SeasonBotRow(season_id=season.id, bot_id=b, position=i) for i, b in enumerate(ids)
        )
    add_games(store, games)


def add_games(store: Store, games: int, seed: int = SEED) -> None:
    """``games`` more finished games of season ``big`` (numbered after its last one)."""
    rng = random.Random(seed)
    with store.session(write=True) as s:
        season = s.exec(select(SeasonRow).where(SeasonRow.name == "big")).one()
        ids = list(
            s.exec(
                select(SeasonBotRow.bot_id)
                .where(SeasonBotRow.season_id == season.id)
                .order_by(col(SeasonBotRow.position))
            ).all()
        )
        bots = len(ids)
        strength = [1200.0 + 600.0 * i / max(bots - 1, 1) for i in range(bots)]
        log10 = math.log(10) / 400
        first = (
            s.exec(select(func.max(MatchRow.number)).where(MatchRow.season_id == season.id)).one()
            or 0
        ) + 1
        matches = []
        results = []
        for number in range(first, first + games):
            seats = rng.sample(range(bots), PLAYERS)
            # Gumbel-max: sorting by log-strength + Gumbel noise samples a Plackett–Luce order
            keyed = sorted(
                seats, key=lambda b: -(strength[b] * log10 - math.log(-math.log(rng.random())))
            )
            places = [keyed.index(b) + 1 for b in seats]
            late = {"seat": 0, "bot": "x", "kind": "timeout", "detail": "late"}
            results.append((places, [late] if number % 50 == 0 else []))
            matches.append(
                {"season_id": season.id, "number": number, "table_number": number,
                 "seats": [ids[b] for b in seats], "seed": number, "status": "done"}
            )  # fmt: skip
        s.execute(insert(MatchRow), matches)
        match_ids = s.exec(
            select(MatchRow.id)
            .where(MatchRow.season_id == season.id, col(MatchRow.number) >= first)
            .order_by(col(MatchRow.number))
        ).all()
        now = utcnow()
        s.execute(
            insert(GameRow),
            [
                {"match_id": m, "record_path": "", "places": p, "faults": f,
                 "finish_reason": "turn limit", "duration": 1.0, "decisions": 100,
                 "finished_at": now}
                for m, (p, f) in zip(match_ids, results, strict=True)
            ],
        )  # fmt: skip


async def get(app: Any, path: str) -> tuple[int, bytes]:
    """One GET through the ASGI application."""
    raw, _, query = path.partition("?")
    scope = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET",
        "scheme": "http", "path": raw, "raw_path": raw.encode(), "query_string": query.encode(),
        "root_path": "", "headers": [(b"host", b"bench")], "client": ("127.0.0.1", 1),
        "server": ("127.0.0.1", 80),
    }  # fmt: skip
    status = 0
    body = bytearray()

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = message["status"]
        elif message["type"] == "http.response.body":
            body.extend(message.get("body", b""))

    await app(scope, receive, send)
    return status, bytes(body)


def timed(app: Any, path: str) -> tuple[float, int]:
    start = time.perf_counter()
    status, body = asyncio.run(get(app, path))
    elapsed = time.perf_counter() - start
    if status != 200:
        raise SystemExit(f"{path}: HTTP {status}")
    return elapsed, len(body)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", type=int, default=100)
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--added", type=int, default=1000, help="games added after the fit")
    parser.add_argument(
        "--bootstrap",
        type=int,
        default=None,
        help="bootstrap resamples of the board fit (default: the leaderboard's own, 200 at "
        "this size); the warm page time does not depend on it",
    )
    args = parser.parse_args()
    if args.bootstrap is not None:
        for module in (fresh, stored):  # both fits (fresh and stored) ask it by this name
            module.__dict__["bootstrap_samples"] = lambda games: args.bootstrap
    with tempfile.TemporaryDirectory() as folder:
        with Store(Path(folder) / "arena.db") as store:
            start = time.perf_counter()
            build_arena(store, args.bots, args.games)
            print(f"arena: {args.bots} bots, {args.games} games "
                  f"(built in {time.perf_counter() - start:.1f} s)")  # fmt: skip
            built, _ = timed(make_app(store), "/season/big")
            print(f"cold: first request, no stored fit (board, crosstable and Elo chart "
                  f"counted, fitted and stored): {built:.2f} s")  # fmt: skip
            restart, _ = timed(make_app(store), "/season/big")
            print(f"restart: first request after a restart, stored fit read: "
                  f"{restart * 1000:.0f} ms")  # fmt: skip
            add_games(store, args.added, seed=SEED + 1)
            added, _ = timed(make_app(store), "/season/big")
            print(f"added: first request after {args.added} games were added (the stored "
                  f"counts take in the new games, then a refit): {added:.2f} s")  # fmt: skip
            app = make_app(store)
            start = time.perf_counter()
            app.state.arena.warm()
            print(f"every page's figures (as `hegemon web` makes them in the background at "
                  f"start): {time.perf_counter() - start:.1f} s")  # fmt: skip
            pages = {
                "season leaderboard": "/season/big",
                "all-time leaderboards": "/",
                "season JSON": "/api/seasons/big",
                "games list": "/games",
                "games, one bot": "/games?bot=bot042",
                "bot page": "/bot/42",
            }
            warm_season = 0.0
            for name, path in pages.items():
                cold, size = timed(app, path)
                warm = statistics.median(timed(app, path)[0] for _ in range(args.runs))
                print(
                    f"{name:22} {path:22} first {cold * 1000:8.0f} ms · then "
                    f"{warm * 1000:6.0f} ms (median of {args.runs}) · {size / 1024:.0f} KiB"
                )
                if path == "/season/big":
                    warm_season = warm
            print(f"web: cold {built:.2f} s · restart {restart * 1000:.0f} ms · added "
                  f"{added:.2f} s · warm {warm_season * 1000:.0f} ms")  # fmt: skip


if __name__ == "__main__":
    main()
