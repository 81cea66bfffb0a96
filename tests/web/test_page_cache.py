"""The season board and the game list are kept rendered between requests (.kept): on a real
server over real HTTP, a viewer is never served a page made for another who may see more, and
a new game shows at once (on SQLite and on PostgreSQL); the change token (.changes) moves with
every commit. A kept page is served without a thread only when get() would have served it."""

from __future__ import annotations

import contextlib
import functools
import re
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from sqlmodel import select

from hegemon.leaderboard.accounts.throttle import LoginThrottle, Throttle
from hegemon.leaderboard.accounts.users import add_user
from hegemon.leaderboard.store import BotRow, SeasonRow, Store
from hegemon.leaderboard.web.changes import Changes
from hegemon.leaderboard.web.kept import CURRENT, PREVIOUS, Kept
from tests.helpers.league import (  # noqa: F401 (fixtures)
    SeasonSpec,
    create_season,
    pg_server,
    pg_url,
    register_samples,
    using_home,
    wait_for,
)
from tests.helpers.web import play_matches
from tests.helpers.web_server import serving

PASSWORDS = {"ada": "ada's long admin password", "mel": "mel owns the first bot"}
CSRF = re.compile(r'name=csrf value="([^"]+)"')
LENIENT = LoginThrottle(Throttle(free=10_000), Throttle(free=10_000))
PLAYED = 4  # of the season's 8 games, before the tests play more


@dataclass
class Site:
    store: Store
    season: SeasonRow
    records: Path
    url: str


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    from hegemon.leaderboard.web.server import make_app

    with using_home(tmp_path_factory.mktemp("page-cache-home")) as home:
        store = Store()
        bots = register_samples(store)
        season = create_season(store, SeasonSpec(name="cached", games=8, seed=3), bots)
        play_matches(store, season, home / "records", "cached", limit=PLAYED)
        users = {name: add_user(store, name, pw, "admin" if name == "ada" else "member")
                 for name, pw in PASSWORDS.items()}  # fmt: skip
        with store.session(write=True) as s:
            bot = s.exec(select(BotRow).where(BotRow.id == bots[0].id)).one()
            bot.owner_id = users["mel"].id
        try:
            with serving(make_app(store, (), LENIENT)) as url:
                yield Site(store, season, home / "records", url)
        finally:
            store.close()


Browser = Callable[..., httpx.Client]


@pytest.fixture
def browser(site: Site) -> Iterator[Browser]:
    """Opens a browser of its own, signed in as the name given (none: anonymous)."""
    with contextlib.ExitStack() as opened:

        def open_as(name: str | None = None) -> httpx.Client:
            c = opened.enter_context(httpx.Client(base_url=site.url, timeout=60))
            if name is not None:
                token = CSRF.search(c.get("/login").text)
                assert token is not None
                form = {"name": name, "password": PASSWORDS[name], "csrf": token.group(1)}
                answer = c.post("/login", data=form)
                assert answer.status_code == 303, answer.text
            return c

        yield open_as


PAGES = ("/games", "/season/cached", "/season/cached/live", "/games?page=1&season=cached")


@pytest.mark.parametrize("first", ["mel", "ada"])
def test_a_page_made_for_a_signed_in_viewer_is_never_served_to_another(browser, first):
    signed, anonymous = browser(first), browser()
    other = browser("mel" if first == "ada" else "ada")
    for path in PAGES:
        mine = signed.get(path)
        assert mine.status_code == 200, mine.text
        # made for ``first`` (their name and links in the top bar), now kept
        assert f'href="/account">{first}<' in mine.text or path.endswith("/live")
        assert signed.get(path).text == mine.text
        theirs = anonymous.get(path).text
        assert f">{first}<" not in theirs and "/me/bots" not in theirs
        assert "/admin/users" not in theirs
        seen = other.get(path).text
        assert f">{first}<" not in seen
        if not path.endswith("/live"):  # the JSON part has no top bar
            assert "/admin/users" in seen if first == "mel" else "/admin/users" not in seen
            assert 'href="/login">sign in<' in theirs


def test_a_new_game_shows_at_once_on_the_kept_pages(site, browser):
    c = browser()
    before = c.get("/games").text
    assert c.get("/games").text == before  # kept
    done = re.search(r"games 1–(\d+) of (\d+)", before)
    assert done is not None
    played = int(done.group(2))
    season = c.get("/season/cached").text
    assert f"{played} of 8 games played" in season
    assert play_matches(site.store, site.season, site.records, "cached", limit=1) == 1
    assert f"games 1–{played + 1} of {played + 1}" in c.get("/games").text
    assert f"{played + 1} of 8 games played" in c.get("/season/cached").text
    # the board itself is refitted in the background: the kept page follows when it is
    board = f"<p class='note caption'>rated from {played + 1} games ·"
    wait_for(
        "the season's board to show the new game", lambda: board in c.get("/season/cached").text
    )


@contextlib.contextmanager
def made_slowly(cache: Kept, key: str, version: int, page: str) -> Iterator[None]:
    """The ``with`` block runs while another thread makes ``page`` (``key`` at ``version``,
    as a page is made: :data:`PREVIOUS`); the page is made by the time it ends."""
    making, release = threading.Event(), threading.Event()

    def slow() -> str:
        making.set()
        release.wait(60)
        return page

    maker = threading.Thread(target=lambda: cache.get(key, version, slow, PREVIOUS))
    maker.start()
    assert making.wait(60)
    try:
        yield
    finally:
        release.set()
        maker.join(60)


def test_a_page_being_made_again_serves_the_one_before_meanwhile():
    cache = Kept()
    assert cache.get("page", 1, lambda: "one", PREVIOUS) == "one"
    assert cache.get("page", 1, lambda: "never made", PREVIOUS) == "one"
    with made_slowly(cache, "page", 2, "two"):
        assert cache.get("page", 2, lambda: "made twice", PREVIOUS) == "one"  # not waited for
    assert cache.get("page", 2, lambda: "made twice", PREVIOUS) == "two"
    assert cache.get("other viewer", 2, lambda: "theirs", PREVIOUS) == "theirs"  # keys never mix


def test_a_figure_being_made_again_is_waited_for_never_the_one_before():
    """The figures a page is drawn from (bot labels, fault counts, the game scan) are kept with
    the same cache, but served CURRENT: a request that finds one out of date waits for the
    thread making it, and that thread's value is made once for both."""
    cache = Kept()
    cache.get("labels", 1, lambda: "one")
    got: list[str] = []
    with made_slowly(cache, "labels", 2, "two"):
        waiter = threading.Thread(
            target=lambda: got.append(cache.get("labels", 2, lambda: "made twice", CURRENT))
        )
        waiter.start()
        waiter.join(1)  # a negative cannot be awaited: a second is ages for a dict look-up
        assert got == []  # not served the one before: still waiting
    waiter.join(60)
    assert got == ["two"]


def test_a_page_ready_at_once_is_the_current_one_or_the_one_before_while_it_is_made():
    """What the server serves on its event loop without a thread (.kept.Kept.ready): never
    a page it would have had to make, never one that get() would not have given."""
    cache = Kept()
    assert cache.ready("page", 1) is None  # never made: the caller makes it
    cache.get("page", 1, lambda: "one", PREVIOUS)
    assert cache.ready("page", 1) == "one"
    assert cache.ready("page", 2) is None  # out of date, and nobody makes it: the caller does
    assert cache.ready("other viewer", 1) is None
    assert cache.ready("page", None) is None  # never kept
    with made_slowly(cache, "page", 2, "two"):
        assert cache.ready("page", 2) == "one"  # as get() would: the one before, not waited for
    assert cache.ready("page", 2) == "two"


def test_the_server_takes_its_start_up_objects_out_of_the_collectors_sight_once_warm(site):
    """``gc.freeze`` once the boards are fitted: a full collection walked the server's
    hundred thousand start-up objects again, every second or so under load, every request
    waiting (the p99 of benchmarks/web_load.py)."""
    import gc

    from hegemon.leaderboard.web.data import Arena
    from hegemon.leaderboard.web.server import warm_then_freeze

    gc.unfreeze()
    try:
        warm_then_freeze(Arena(site.store))
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()


def test_pages_kept_are_bounded_and_a_version_of_none_is_never_kept():
    cache = Kept(size=2)
    for n in range(3):
        cache.get(n, 1, functools.partial(str, f"page {n}"), PREVIOUS)
    assert cache.get(0, 1, lambda: "made again", PREVIOUS) == "made again"  # the oldest was dropped
    assert cache.get(2, 1, lambda: "made again", PREVIOUS) == "page 2"
    assert cache.get("x", None, lambda: "a", PREVIOUS) == "a"
    assert cache.get("x", None, lambda: "b", PREVIOUS) == "b"


COMMITS = iter(range(10**6))


def _commit_something(store: Store) -> None:
    add_user(store, f"user{next(COMMITS)}", "a password long enough", "member")


def test_the_change_token_moves_with_every_commit_on_sqlite(tmp_path):
    with Store(tmp_path / "arena.db") as store, Store(tmp_path / "arena.db") as other:
        changes = Changes(store)
        token = changes()
        assert token is not None and changes() == token  # reads change nothing
        store.seasons()
        assert changes() == token
        _commit_something(other)
        assert changes() != token
        token = changes()
        _commit_something(store)  # the server's own writes count too
        assert changes() != token
        changes.close()


def test_an_in_memory_database_gives_no_token():
    with Store("sqlite://") as store:
        assert Changes(store)() is None


@pytest.mark.postgres
@pytest.mark.slow
def test_a_kept_page_follows_a_new_game_on_postgres(pg_url, tmp_path):
    """On PostgreSQL the change token is a round trip: read in a thread, not on the server's
    event loop; the kept pages follow the games all the same."""
    from hegemon.leaderboard.web.server import make_app

    with Store(pg_url) as store:
        season = create_season(
            store, SeasonSpec(name="pg", games=4, seed=3), register_samples(store)
        )
        play_matches(store, season, tmp_path, "pg", limit=1)
        with serving(make_app(store, (), LENIENT)) as url, httpx.Client(base_url=url) as c:
            assert "games 1–1 of 1" in c.get("/games").text
            assert "games 1–1 of 1" in c.get("/games").text  # kept
            play_matches(store, season, tmp_path, "pg", limit=1)
            assert "games 1–2 of 2" in c.get("/games").text
            assert "2 of 4 games played" in c.get("/season/pg").text


@pytest.mark.postgres
@pytest.mark.slow
def test_the_change_token_moves_with_every_commit_on_postgres(pg_url):
    with Store(pg_url) as store, Store(pg_url) as other:
        changes = Changes(store)
        token = changes()
        assert token is not None and changes() == token
        _commit_something(other)
        assert changes() != token
