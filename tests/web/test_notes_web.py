"""A bot's notes and marks on an arena (issue 34 item 1), on a real server over real HTTP and
in headless Chromium: the bot's owner and the admins see them in the replay (in "this
decision" and on the map), nobody else does — not in the page, the replay data or the record."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from hegemon.leaderboard.accounts.users import add_user
from hegemon.leaderboard.store import BotRow
from hegemon.referee.notes import Budget, Jotting, Mark, clean, note_line
from tests.helpers.web import Page, browser, sign_in  # noqa: F401 (browser: a fixture)
from tests.helpers.web_server import served_seasons

PASSWORDS = {"ada": "ada's long admin password", "mel": "mel owns the noting bot", "olga": "o" * 12}
USER_OF = {"member": "olga", "owner": "mel", "admin": "ada"}
MINE = "MEL-NOTE why I attack <img src=x onerror=alert(1)>"
THEIRS = "OTHER-NOTE of a bot mel does not own"
SHOTS_ENV = "HEGEMON_SCREENS"  # a folder to keep the screenshots in (else the test's tmp folder)


@dataclass
class Site:
    url: str
    game: int
    decision: int  # the replay's #d=N of the decision mel's bot noted
    seat: int  # mel's bot's seat


def _add_notes(record: Path, seats: dict[int, str], owned: int) -> int:
    """Put a note (text and marks, cleaned as the referee does) before the first action of each
    seat of ``seats``; returns the replay's decision number (#d=N) of ``owned``'s."""
    lines = [json.loads(x) for x in record.read_text(encoding="utf-8").splitlines()]
    out, actions, first = [], 0, 0
    for line in lines:
        if line["type"] == "action" and line["player"] in seats:
            seat = line["player"]
            here = line["events"][0].get("territory", 0) if line["events"] else 0
            marks = (Mark(here, label="here", colour="red"), Mark(here, (here + 1) % 42, "next"))
            fields = clean(Jotting(seats.pop(seat), marks), 42, Budget())
            assert fields is not None
            out.append(note_line(seat, actions, fields))
            first = actions + 1 if seat == owned else first
        if line["type"] == "action":
            actions += 1
        out.append(line)
    record.write_text("".join(json.dumps(x) + "\n" for x in out), encoding="utf-8")
    return first


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    """``hegemon web`` over a season of real games, one of whose bots mel owns; its game 1
    has a note of mel's bot and one of another bot."""
    with served_seasons(tmp_path_factory.mktemp("notes-home"), {"league": 2}) as (url, store):
        users = {
            name: add_user(store, name, pw, "admin" if name == "ada" else "member")
            for name, pw in PASSWORDS.items()
        }
        season = store.seasons()[0]
        assert season.id is not None
        match, game = store.games(season.id)[0]
        seat, other = 0, next(s for s, b in enumerate(match.seats) if b != match.seats[0])
        with store.session(write=True) as s:
            bot = s.get(BotRow, match.seats[seat])
            assert bot is not None
            bot.owner_id = users["mel"].id
            s.add(bot)
        decision = _add_notes(Path(game.record_path), {seat: MINE, other: THEIRS}, seat)
        assert game.id is not None
        yield Site(url, game.id, decision, seat)


@contextmanager
def as_role(site: Site, role: str) -> Iterator[httpx.Client]:
    """A client of its own (cookies kept), signed in as ``role``'s user unless anonymous."""
    with httpx.Client(base_url=site.url, follow_redirects=False, timeout=60) as c:
        if role != "anonymous":
            _sign_in(c, USER_OF[role])
        yield c


def _sign_in(c: httpx.Client, name: str) -> None:
    form = c.get("/login").text
    csrf = form.split('name=csrf value="', 1)[1].split('"', 1)[0]
    answer = c.post("/login", data={"name": name, "password": PASSWORDS[name], "csrf": csrf})
    assert answer.status_code == 303, answer.text


@pytest.mark.parametrize("role", ["anonymous", "member", "owner", "admin"])
def test_a_bots_notes_only_for_its_owner_and_admins(site, role):
    with as_role(site, role) as c:
        replay = str(c.get(f"/api/games/{site.game}").json()["replay"])
        record = c.get(f"/api/games/{site.game}/record").text
        page = c.get(f"/game/{site.game}").text
    mine, theirs = role in ("owner", "admin"), role == "admin"
    for shown in (replay, record, page):
        assert ("MEL-NOTE" in shown) == mine
        assert ("OTHER-NOTE" in shown) == theirs
    # nothing of a hidden note is left: no note line, no empty notes in the replay
    assert ('"type":"note"' in record.replace(" ", "")) == mine
    assert ("'notes'" in replay) == mine
    assert '"type":"action"' in record.replace(" ", "")  # the game itself is public


def shots(tmp_path: Path) -> Path:
    kept = os.environ.get(SHOTS_ENV, "").strip()
    return Path(kept) if kept else tmp_path


def test_the_owner_sees_the_note_and_its_marks_in_the_replay(site, browser, tmp_path):
    tab = Page(browser, shots(tmp_path))
    try:
        page = tab.page
        page.goto(f"{site.url}/login")
        sign_in(page, "mel", PASSWORDS["mel"])
        page.wait_for_url(lambda url: "/login" not in url)
        shown = tab.open(f"{site.url}/game/{site.game}#d={site.decision}", "notes-owner")
        note = shown.text_content("#rp-events li.note")
        assert note is not None and MINE in note  # as text: the <img> is not an element
        assert shown.locator("#rp-events img").count() == 0
        assert "here" in note and "next" in note
        assert shown.locator("#rp-map .marks circle.mark-ring").count() == 1
        assert shown.locator("#rp-map .marks line.mark-arrow").count() == 1
        assert shown.get_attribute("#rp-map .mark-ring", "stroke") == "#e41a1c"  # red
        # one decision later the marks are gone: they belong to their decision
        shown.click("#rp-next")
        assert shown.locator("#rp-map .marks *").count() == 0
        # another seat's view of the game never shows this seat's note
        shown.click("#rp-prev")
        shown.select_option("#rp-seat", str((site.seat + 1) % 3))
        assert shown.locator("#rp-events li.note").count() == 0
        assert tab.errors == []
    finally:
        tab.close()


def test_a_visitor_sees_no_note_and_no_mark(site, browser, tmp_path):
    tab = Page(browser, shots(tmp_path))
    try:
        shown = tab.open(f"{site.url}/game/{site.game}#d={site.decision}", "notes-visitor")
        assert shown.locator("#rp-events li.note").count() == 0
        assert shown.locator("#rp-map .marks *").count() == 0
        assert "MEL-NOTE" not in shown.content()
    finally:
        tab.close()


def test_a_public_report_keeps_no_note_and_every_other_line_byte_for_byte(tmp_path):
    """What ``hegemon report`` without ``--private`` and every page not the owner's do with a
    record: each hidden seat's note lines left out, the rest of the record untouched."""
    from hegemon.leaderboard.web.visibility import redact_record, redact_replay
    from hegemon.referee.viewer.replay import replay_data
    from tests.helpers.web import play_record

    record = tmp_path / "game.jsonl"
    record.write_text(play_record(4, ["a", "b", "c"]), encoding="utf-8")
    _add_notes(record, {0: MINE, 1: THEIRS}, 0)
    text = record.read_text(encoding="utf-8")
    public = redact_record(text, {0, 1, 2})
    assert "MEL-NOTE" not in public and "OTHER-NOTE" not in public
    assert public.splitlines() == [x for x in text.splitlines() if '"type": "note"' not in x]
    only_b = redact_record(text, {0})
    assert "MEL-NOTE" not in only_b and "OTHER-NOTE" in only_b
    steps = redact_replay(replay_data(text), {0, 2})["steps"]
    assert [n["text"] for s in steps for n in s.get("notes", [])] == [THEIRS]
