"""Duplicate seasons without memory: a bot never meets a deal it has already played.

The memoriser bot (tests/bots/memoriser.py) fingerprints each game's deal and looks it up in its
process memory and in a file of its temporary folder; its first answer tells whether it
recognised the deal. In a real duplicate season (real processes, the season runner, a database)
it never does. The same bot in one process across two games of one seed does: the test has the
power to fail.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
import trio

from hegemon.leaderboard.registry import add_bot
from hegemon.leaderboard.seasons.runner import SeasonRunner
from hegemon.leaderboard.seasons.schedule import make_schedule
from hegemon.leaderboard.store import SeasonRow, Store
from hegemon.referee.rules import make_rules
from hegemon.referee.runner.process import BotCommand
from hegemon.referee.runner.session import link_pool, play_game
from hegemon.referee.timecontrol import TimeControl
from tests.helpers.league import register_samples, saved_id

MEMORISER = Path(__file__).resolve().parent.parent / "bots" / "memoriser.py"
RULES = make_rules("classic", {"setup": "deal", "turn_limit": 2})
TIME = TimeControl(startup=20, decision=10, bank=120)


def first_answers(record: str, seat: int) -> str:
    """``new`` or ``recognised``: what the memoriser's first placement in a record says."""
    lines = [json.loads(line) for line in record.splitlines()]
    owner = {}
    for event in lines[1]["events"]:
        if event["event"] == "dealt":
            for t in event["territories"]:
                owner[t] = event["player"]
    mine = sorted(t for t, s in owner.items() if s == seat)
    action = next(
        line["action"]
        for line in lines
        if line["type"] == "action" and line["player"] == seat and line["action"][0] == "place"
    )
    placed = action[1][0][0]
    assert placed in (mine[0], mine[-1])
    return "recognised" if placed == mine[-1] and len(mine) > 1 else "new"


def test_a_memoriser_recognises_a_repeated_deal_in_one_process():
    """The control: the same process, the same seed twice: the second deal is recognised."""
    command = BotCommand("memoriser", (sys.executable, str(MEMORISER)))
    others = [BotCommand(f"m{i}", (sys.executable, str(MEMORISER))) for i in (1, 2)]

    async def main() -> list[str]:
        said = []
        async with link_pool(TIME, restart_per_game=False) as pool:
            for rotation in range(2):
                seats = [command, *others]
                seats = seats[rotation:] + seats[:rotation]
                result = await play_game(pool, seats, RULES, 1234, f"control-{rotation}")
                said.append(first_answers(result.record, seats.index(command)))
        return said

    assert trio.run(main) == ["new", "recognised"]


@pytest.mark.slow
def test_a_duplicate_season_gives_no_memory_between_rotations(tmp_path, monkeypatch):
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HEGEMON_HOME", str(home))
    monkeypatch.delenv("HEGEMON_DB", raising=False)
    with Store() as store:
        bots = [
            add_bot(store, "memoriser", str(MEMORISER), check=False).bot,
            *register_samples(store, ("random", "aggressive", "continental")),
        ]
        ids = [saved_id(b) for b in bots]
        schedule = make_schedule(ids, 4, 8, seed=77, duplicate=True)
        assert len({m.seed for m in schedule}) == 2  # two tables of four rotations
        season = store.create_season(
            SeasonRow(
                name="dup",
                preset=RULES.preset,
                options=RULES.options(),
                players=4,
                games=len(schedule),
                startup_time=TIME.startup,
                decision_time=TIME.decision,
                time_bank=TIME.bank,
                max_strikes=5,
                seed=77,
                keep_memory=True,  # the season would keep processes: duplicate overrides it
                duplicate=True,
            ),
            ids,
            schedule,
        )
        trio.run(SeasonRunner(store, season, concurrency=1).run)
    said = []
    for match in schedule:
        record = (home / "records" / "dup" / f"{match.number}.jsonl").read_text()
        said.append(first_answers(record, match.seats.index(ids[0])))
    assert said == ["new"] * len(schedule)
