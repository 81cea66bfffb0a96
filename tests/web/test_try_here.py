"""A game's page offers its bot's owner (and the admins) the command that asks a new version
the decision shown — ``hegemon replay GAME --at N --bot PATH`` — and follows the viewer as it
moves; a visitor or another member gets no such offer. A real server, real HTTP, Chromium."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import httpx
import pytest

from hegemon.leaderboard.accounts.users import add_user
from hegemon.leaderboard.store import BotRow, Store
from tests.helpers.web import browser, sign_in, store_season, tab  # noqa: F401 - fixtures
from tests.helpers.web_server import serving

PASSWORDS = {"own": "the owner's long password", "other": "another member's password"}
OFFER = "try your bot here"


@dataclass
class Site:
    url: str
    game: int  # a game in which own's bot sits


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Iterator[Site]:
    from hegemon.leaderboard.web.server import make_app

    home = tmp_path_factory.mktemp("try-home")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("HEGEMON_HOME", str(home))
        mp.delenv("HEGEMON_DB", raising=False)
        store = Store()
        season = store_season(store, home / "records", "league", games=3, seed=4)
        assert season.id is not None
        users = {name: add_user(store, name, pw, "member") for name, pw in PASSWORDS.items()}
        match, game = store.games(season.id)[0]
        with store.session(write=True) as s:
            bot = s.get(BotRow, match.seats[1])
            assert bot is not None
            bot.owner_id = users["own"].id
            s.add(bot)
        try:
            with serving(make_app(store)) as url:
                assert game.id is not None
                yield Site(url, game.id)
        finally:
            store.close()


def page_for(site: Site, name: str | None) -> str:
    with httpx.Client(base_url=site.url, follow_redirects=True, timeout=60) as c:
        if name is not None:
            form = c.get("/login").text
            token = form.split('name=csrf value="')[1].split('"')[0]
            signed = c.post(
                "/login", data={"name": name, "password": PASSWORDS[name], "csrf": token}
            )
            assert signed.status_code == 200, signed.text
        return c.get(f"/game/{site.game}").text


def test_only_a_seats_owner_is_offered_the_command(site):
    assert OFFER in page_for(site, "own")
    assert f"hegemon replay {site.game} --at 0 --bot PATH" in page_for(site, "own")
    assert OFFER not in page_for(site, "other")  # no seat of theirs in this game
    assert OFFER not in page_for(site, None)


def test_the_command_follows_the_decision_shown(site, tab):
    page = tab.open(f"{site.url}/login", "login")
    sign_in(page, "own", PASSWORDS["own"])
    page.wait_for_url(f"{site.url}/**")
    page = tab.open(f"{site.url}/game/{site.game}#d=7", "game-try")
    command = page.locator("#rp-try")
    assert command.inner_text() == f"hegemon replay {site.game} --at 7 --bot PATH"
    page.keyboard.press("ArrowRight")
    assert command.inner_text() == f"hegemon replay {site.game} --at 8 --bot PATH"
    assert tab.errors == []
