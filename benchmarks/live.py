"""The live page's cost on the web server: CPU seconds a minute, per spectator.

    python benchmarks/live.py [--spectators 0,1,10,50] [--seconds 20] [--pace 50]

Builds a throw-away arena (one season, a match per level), starts the real web server in its
own process (``make_app`` on uvicorn, as ``hegemon web`` serves it, with the live streams'
limits raised: every spectator here comes from 127.0.0.1), and for each number of spectators:
plays a real game's record into the match's ``live_games`` row as a runner does
(:class:`hegemon.leaderboard.live.feed.LiveFeed`'s writes: every ``FLUSH`` second, ``--pace``
decisions a second), opens that many clients on the game's server-sent events, and reads the
server process's CPU time (``/proc``) over ``--seconds``. Prints per level the server's CPU
seconds a minute in all and per spectator, and the bytes each spectator received.

The cost of a game watched by anyone (a replay of the record so far per runner write) is paid
once, whatever the number of spectators: the difference between levels is the spectators'.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import httpx

from hegemon.leaderboard.live import rows
from hegemon.leaderboard.live.feed import FLUSH, dump, public_lines
from hegemon.leaderboard.store import MatchRow, SeasonRow, Store
from hegemon.referee import Game, make_rules
from hegemon.referee.policies import attack_happy_action
from hegemon.referee.record import Recorder

SERVER = """
import sys, uvicorn
from hegemon.leaderboard.live.watch import StreamLimits
from hegemon.leaderboard.store import Store
from hegemon.leaderboard.web.server import make_app
store = Store(sys.argv[1], create=False)
app = make_app(store)
app.state.live_streams = StreamLimits(per_address=100_000, total=100_000)
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[2]), log_level="warning")
"""

SEATS = ["alpha", "bravo", "charlie", "delta"]


def game_lines(seed: int = 7) -> list[dict]:
    """A long real game's record lines (the engine's attack-happy play, 4 seats)."""
    import random

    game = Game(make_rules("classic", {"turn_limit": 40}), len(SEATS), seed)
    recorder = Recorder(game, {"game_id": "live-bench", "seats": SEATS, "map": "classic"})
    rng = random.Random(seed)
    while not game.over:
        recorder.apply(attack_happy_action(game, rng))
    return recorder.lines


def build(store: Store, matches: int, seed: int) -> list[int]:
    """A season of ``matches`` matches (the live rows need them); their ids."""
    rules = make_rules("classic", {"turn_limit": 40})
    with store.session(write=True) as s:
        season = SeasonRow(name="live", preset=rules.preset, options=rules.options(),
                           players=len(SEATS), games=matches, startup_time=20, decision_time=1,
                           time_bank=60, max_strikes=5, seed=1, status="running")  # fmt: skip
        s.add(season)
        s.flush()
        made = [
            MatchRow(season_id=season.id or 0, number=n + 1, seats=[], seed=seed)
            for n in range(matches)
        ]
        s.add_all(made)
        s.flush()
        return [m.id or 0 for m in made]


class Runner(threading.Thread):
    """Writes the record so far of one match as a runner does, until the record ends or
    ``stop`` is set; then ends the row."""

    def __init__(self, store: Store, match_id: int, lines: list[dict], pace: int):
        super().__init__(daemon=True)
        self.store, self.match_id, self.lines, self.pace = store, match_id, lines, pace
        self.stop = threading.Event()

    def run(self) -> None:
        rows.begin(self.store, self.match_id, 1, f"live #{self.match_id}", SEATS)
        sent = decisions = 0
        actions = [i for i, line in enumerate(self.lines) if line["type"] == "action"]
        while not self.stop.wait(FLUSH):
            decisions = min(len(actions), decisions + int(self.pace * FLUSH))
            upto = actions[decisions - 1] + 1 if decisions else 2
            chunk = public_lines(self.lines[sent:upto])
            sent = upto
            rows.append(self.store, self.match_id, dump(chunk), decisions)
        rows.end(self.store, self.match_id)


def spectate(url: str, got: list[int]) -> None:
    """One spectator: read the stream to its end; ``got``: the bytes received, appended."""
    size = 0
    try:
        with httpx.stream("GET", url, timeout=120) as response:
            for chunk in response.iter_bytes():
                size += len(chunk)
    except httpx.HTTPError:
        pass
    got.append(size)


def cpu(pid: int) -> float:
    """CPU seconds (user + system) the process ``pid`` has used."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--spectators", default="0,1,10,50")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--pace", type=int, default=50, help="decisions the game plays a second")
    args = parser.parse_args()
    levels = [int(n) for n in args.spectators.split(",")]
    lines = game_lines()
    total = sum(1 for line in lines if line["type"] == "action")
    print(f"game: {total} decisions, played at {args.pace} a second; {args.seconds:g} s a level")
    with tempfile.TemporaryDirectory() as tmp:
        db = str(Path(tmp) / "arena.db")
        with Store(db) as store:
            matches = build(store, len(levels), seed=7)
            port = 20000 + os.getpid() % 20000
            server = subprocess.Popen([sys.executable, "-c", SERVER, db, str(port)])
            base = f"http://127.0.0.1:{port}"
            try:
                for _ in range(300):
                    try:
                        httpx.get(base + "/api/live", timeout=5)
                        break
                    except httpx.HTTPError:
                        time.sleep(0.1)
                used = {
                    level: measure(store, server.pid, base, match_id, level, lines, args)
                    for level, match_id in zip(levels, matches, strict=True)
                }
                if 1 in used and max(used) > 1:
                    most = max(used)
                    added = (used[most] - used[1]) / (most - 1)
                    print(f"each spectator beyond the first: {added:.3f} CPU-s/min (1 -> {most})")
            finally:
                server.terminate()
                server.wait(30)
    return 0


def measure(store: Store, pid: int, base: str, match_id: int, spectators: int,
            lines: list[dict], args: argparse.Namespace) -> float:  # fmt: skip
    """Print (and return) the server's CPU seconds a minute with ``spectators`` on a game."""
    runner = Runner(store, match_id, lines, args.pace)
    runner.start()
    got: list[int] = []
    events = f"{base}/live/{match_id}/events"
    while httpx.get(events.replace("/events", ""), timeout=30).status_code != 200:
        time.sleep(0.2)  # the row's first write
    readers = [threading.Thread(target=spectate, args=(events, got)) for _ in range(spectators)]
    for reader in readers:
        reader.start()
    time.sleep(2 * FLUSH)  # every stream open
    start, used = time.monotonic(), cpu(pid)
    time.sleep(args.seconds)
    used, span = cpu(pid) - used, time.monotonic() - start
    runner.stop.set()
    runner.join()
    for reader in readers:
        reader.join()
    per_minute = used * 60 / span
    each = f"{per_minute / spectators:.3f}" if spectators else "-"
    received = sum(got) // max(1, len(got))
    print(
        f"{spectators:3d} spectators: server {per_minute:.2f} CPU-s/min in all, "
        f"{each} CPU-s/min per spectator; {received:,} bytes to each"
    )
    return per_minute


if __name__ == "__main__":
    sys.exit(main())
