"""A team bot's news goes to every member of its team, over a real ``hegemon arena`` (its
checker) on a real SQLite file: a version checked, the bot's faults and a final event's results
are told to each member, whoever submitted the version, and a member removed from the team is
told nothing more. An outsider is never told."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlmodel import col, select

from hegemon.leaderboard.accounts.teams import accept, create_team, invite, remove
from hegemon.leaderboard.accounts.tokens import create_token
from hegemon.leaderboard.accounts.users import add_user
from hegemon.leaderboard.notify.events import CHECKED, FAULTS, RESULTS, event_results, group_faults
from hegemon.leaderboard.store import BotRow, NoticeRow, Store, utcnow
from tests.helpers.league import wait_for
from tests.helpers.web import store_season
from tests.helpers.web_server import running_web
from tests.web.test_account_abuse import bot_archive
from tests.web.test_teams import submit

PASSWORD = "a long enough password"
MEMBERS = ("olga", "mel", "pat")  # olga owns the team greens; pat is removed half-way
OUTSIDER = "nick"


def told(store: Store, names: dict[int, str], kind: str) -> dict[str, list[str]]:
    """User name (``names``: by id) → the titles of their notices of ``kind``, oldest first."""
    with store.session() as s:
        rows = s.exec(
            select(NoticeRow).where(col(NoticeRow.kind) == kind).order_by(col(NoticeRow.id))
        ).all()
    found: dict[str, list[str]] = {}
    for row in rows:
        found.setdefault(names[row.user_id], []).append(row.title)
    return found


@pytest.mark.slow
def test_a_team_bots_news_goes_to_every_member_and_not_after_removal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home"
    monkeypatch.setenv("HEGEMON_HOME", str(home))
    monkeypatch.delenv("HEGEMON_DB", raising=False)
    with Store() as store:
        season = store_season(store, home / "records", "league", 6, seed=11)
        assert season.id is not None
        faulty = next((m, g) for m, g in store.games(season.id) if g.faults)
        faulted = faulty[0].seats[faulty[1].faults[0]["seat"]]
        users = {u: add_user(store, u, PASSWORD, "member") for u in (*MEMBERS, OUTSIDER)}
        names = {row.id: u for u, row in users.items() if row.id is not None}
        team = create_team(store, users["olga"], "greens")
        for member in ("mel", "pat"):
            invite(store, users["olga"], "greens", member)
            accept(store, users[member], "greens")
        with store.session(write=True) as s:  # the bot that faulted is the team's
            bot = s.get(BotRow, faulted)
            assert bot is not None
            bot.owner_id, bot.team_id = users["olga"].id, team.id
        group_faults(store, utcnow())  # (the arena's notifier would, in its loop)
        faults = told(store, names, FAULTS)
        token = create_token(store, users["mel"].id or 0, "test")[1]
    first, second = (
        bot_archive(tmp_path / f"v{v}", f"print('v{v} never says hello')\n") for v in (1, 2)
    )
    with running_web(home, tmp_path / "arena.log", ("arena", "--workers", "1")) as url:
        with Store(str(home / "arena.db")) as store:
            # mel submits the team's bot: its check is told to all three members
            assert submit(url, token, "greens-bot", first, "greens").status_code == 201
            wait_for("v1's check told", lambda: len(told(store, names, CHECKED)) == 3)
            remove(store, users["olga"], "greens", "pat")
            assert submit(url, token, "greens-bot", second, "greens").status_code == 201
            wait_for(
                "v2's check told", lambda: len(told(store, names, CHECKED).get("olga", [])) == 2
            )
            checked = told(store, names, CHECKED)
    assert checked == {
        "olga": ["greens-bot@v1 was refused", "greens-bot@v2 was refused"],
        "mel": ["greens-bot@v1 was refused", "greens-bot@v2 was refused"],
        "pat": ["greens-bot@v1 was refused"],  # removed before v2's check
    }
    assert set(faults) == set(MEMBERS)  # the faults of the team's bot: each member
    with Store(str(home / "arena.db")) as store:
        event_results(store, "final", [(faulted, 1)])
        assert set(told(store, names, RESULTS)) == {"olga", "mel"}  # pat was removed
