"""A member's challenge never starves a ladder: a real runner (``hegemon arena --no-web``)
over a ladder with its queue filled and a challenge waiting plays three ladder turns for each
challenge turn, so when the challenge finishes the ladder has had at least 70 % of the games
(counted, not timed); and the turn policy itself, over many turns and several ladders."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from sqlmodel import col, select

from hegemon.leaderboard.accounts.users import get_user
from hegemon.leaderboard.challenges import Ask, make_challenge
from hegemon.leaderboard.challenges.turns import COMPETITION_TURNS, Turns
from hegemon.leaderboard.ladder import fill_queue
from hegemon.leaderboard.store import (
    CHALLENGE,
    FINISHED,
    LADDER,
    GameRow,
    MatchRow,
    SeasonRow,
    Store,
)
from tests.helpers.challenges import LADDER as LADDER_NAME
from tests.helpers.challenges import challenge_arena
from tests.helpers.league import ROOT, env_for, hegemon_argv, using_home, wait_for

SHARE = 0.7
"""The least share of the games the ladder keeps while a challenge plays (issue 35)."""


def row(season_id: int, kind: str) -> SeasonRow:
    return SeasonRow(
        id=season_id, name=f"{kind}{season_id}", preset="classic", options={}, players=2,
        games=0, startup_time=1, decision_time=1, time_bank=1, max_strikes=1, seed=1, kind=kind,
    )  # fmt: skip


def test_ladders_keep_three_turns_in_four_and_challenges_take_the_rest():
    ladders = [row(1, LADDER), row(2, LADDER)]
    challenges = [row(3, CHALLENGE), row(4, CHALLENGE)]
    turns = Turns()
    served = [turns.next([*ladders, *challenges]) for _ in range(400)]
    kinds = [s.kind if s else None for s in served]
    assert kinds.count(LADDER) / len(kinds) >= COMPETITION_TURNS / (COMPETITION_TURNS + 1)
    assert kinds[: COMPETITION_TURNS + 1] == [LADDER] * COMPETITION_TURNS + [CHALLENGE]
    by_id = [s.id for s in served if s]
    assert abs(by_id.count(1) - by_id.count(2)) <= 1  # ladders in turn
    assert abs(by_id.count(3) - by_id.count(4)) <= 1  # challenges in turn
    # nothing else waiting: the challenges take every turn; nothing at all: None
    assert {turns.next(challenges).kind for _ in range(5)} == {CHALLENGE}  # type: ignore[union-attr]
    assert turns.next([]) is None


def finished_games(store: Store, season_id: int) -> list[GameRow]:
    with store.session() as s:
        return list(
            s.exec(
                select(GameRow)
                .join(MatchRow, col(MatchRow.id) == col(GameRow.match_id))
                .where(col(MatchRow.season_id) == season_id)
            ).all()
        )


@pytest.mark.slow
def test_a_runner_plays_the_ladder_between_a_challenges_turns(tmp_path: Path):
    home = tmp_path / "home"
    home.mkdir()
    challenge_arena(home)
    with using_home(home), Store() as store:
        ann = get_user(store, "ann")
        asked = make_challenge(store, ann, Ask("annbot", games=4, vs=("planner",)))
        ladder = store.season_by_name(LADDER_NAME)
        assert ladder is not None and ladder.id is not None
        assert fill_queue(store, ladder) > 0  # the ladder waits too when the runner starts
        log = (tmp_path / "runner.log").open("w")
        runner = subprocess.Popen(
            hegemon_argv("arena", "--no-web", "--workers", "1"),
            cwd=ROOT, env=env_for(home), stdout=log, stderr=subprocess.STDOUT,
        )  # fmt: skip
        try:

            def challenge_done() -> bool:
                season = store.get_season(asked.season_id)
                return season is not None and season.status == FINISHED

            wait_for("the challenge's games", challenge_done, timeout=600)
        finally:
            runner.terminate()
            runner.wait(60)
            log.close()
        season = store.get_season(asked.season_id)
        assert season is not None and season.finished_at is not None
        played = finished_games(store, asked.season_id)
        ladder_games = [
            g for g in finished_games(store, ladder.id) if g.finished_at <= season.finished_at
        ]
    assert len(played) == 4  # the challenge is not starved either
    share = len(ladder_games) / (len(ladder_games) + len(played))
    assert share >= SHARE, (len(ladder_games), len(played), (tmp_path / "runner.log").read_text())
