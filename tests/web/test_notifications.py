"""Notifications and webhooks on their real path: a real web server over a real SQLite file
(httpx as the member's browser), real HTTP receivers on 127.0.0.1 (a tiny server in the test)
for the deliveries, and a real ``hegemon arena`` whose runner plays while a hook hangs.

The in-process tests drive the sender with a clock of their own (``deliver_due(now=…)``): a
retry's wait is checked by moving the clock, never by sleeping."""

from __future__ import annotations

import contextlib
import json
import re
import socket
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, cast

import httpx
import pytest
from sqlmodel import col, select

from hegemon.leaderboard.accounts.tokens import create_token
from hegemon.leaderboard.accounts.users import add_user
from hegemon.leaderboard.notify.digest import send_digests
from hegemon.leaderboard.notify.events import event_results, group_faults, version_checked
from hegemon.leaderboard.notify.hooks import add_hook
from hegemon.leaderboard.notify.notices import notices_of
from hegemon.leaderboard.notify.sender import BACKOFF, MAX_ATTEMPTS, deliver_due
from hegemon.leaderboard.store import BotRow, DeliveryRow, GameRow, MatchRow, Store, utcnow
from tests.helpers.league import ROOT, hegemon, wait_for
from tests.helpers.web import Page, browser, sign_in, store_season  # noqa: F401 (browser)
from tests.helpers.web_server import running_web, serving
from tests.web.test_submit import upload

PASSWORD = "a member's long password"
CSRF = re.compile(r'name=csrf value="([^"]+)"')
SECRET_SHOWN = re.compile(r"<code class=token>(whsec_[^<]+)</code>")
DETAILS = {"mel": "mel's SECRET fault detail", "olga": "olga's SECRET fault detail"}


# ---------------------------------------------------------------------------------- the receiver
@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes
    at: datetime


@dataclass
class Receiver:
    """A real HTTP server on 127.0.0.1 that keeps every request it gets. Its paths behave:
    ``/ok`` answers 204, ``/fail-N`` answers 500 to its first N requests and 204 after,
    ``/hang…`` never answers (until the receiver stops)."""

    url: str = ""
    got: list[Received] = field(default_factory=list)
    changed: threading.Condition = field(default_factory=threading.Condition)
    release: threading.Event = field(default_factory=threading.Event)

    def handle(self, handler: BaseHTTPRequestHandler) -> None:
        length = int(handler.headers.get("Content-Length", "0"))
        body = handler.rfile.read(length)
        with self.changed:
            self.got.append(Received(handler.path, dict(handler.headers), body, utcnow()))
            seen = sum(1 for r in self.got if r.path == handler.path)
            self.changed.notify_all()
        if handler.path.startswith("/hang"):
            self.release.wait()
            return
        failing = re.fullmatch(r"/fail-(\d+)", handler.path)
        handler.send_response(500 if failing and seen <= int(failing[1]) else 204)
        handler.send_header("Content-Length", "0")
        handler.end_headers()

    def at(self, path: str) -> list[Received]:
        with self.changed:
            return [r for r in self.got if r.path == path]

    def wait(self, path: str, count: int = 1, timeout: float = 120) -> list[Received]:
        """The requests to ``path`` once there are ``count`` (a guard against hanging)."""
        with self.changed:
            assert self.changed.wait_for(lambda: len(self.at(path)) >= count, timeout), path
            return self.at(path)


@pytest.fixture(scope="module")
def receiver() -> Iterator[Receiver]:
    kept = Receiver()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            kept.handle(self)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    kept.url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield kept
    kept.release.set()
    server.shutdown()
    server.server_close()


def closed_port() -> int:
    """A loopback port nobody listens on (connection refused)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def guide_check() -> Callable[[str, bytes, str], bool]:
    """The signature check that docs/arena.md gives receivers, as written there."""
    guide = (ROOT / "docs" / "arena.md").read_text()
    section = guide.split("## Notifications and webhooks", 1)[1]
    code = section.split("```python\n", 1)[1].split("```", 1)[0]
    space: dict[str, Any] = {}
    exec(code, space)
    return cast(Callable[[str, bytes, str], bool], space["is_from_the_arena"])


def signed_by(secret: str, received: Received) -> bool:
    """What a receiver checks (as the guide says): the header is the HMAC-SHA256 of the
    exact body under the hook's secret."""
    return guide_check()(secret, received.body, received.headers["X-Hegemon-Signature"])


# ---------------------------------------------------------------------------------- the arena
@dataclass
class Site:
    store: Store
    url: str
    users: dict[str, int]
    bots: dict[str, BotRow]  # each member's bot in the game where both faulted
    game: int


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    """A served arena of real games; members mel and olga each own a bot of one game in which
    both faulted (each fault's detail a secret of its owner); ivy owns nothing."""
    from hegemon.leaderboard.web.server import make_app

    home = tmp_path_factory.mktemp("notify-home")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("HEGEMON_HOME", str(home))
        mp.delenv("HEGEMON_DB", raising=False)
        store = Store()
        season = store_season(store, home / "records", "league", games=5, seed=5)
        assert season.id is not None
        users = {n: add_user(store, n, PASSWORD, "member").id or 0 for n in ("mel", "olga", "ivy")}
        match, game = next((m, g) for m, g in store.games(season.id) if g.faults)
        seats = {"mel": len(match.seats) - 1, "olga": 0}
        bots = {}
        with store.session(write=True) as s:
            row = s.get(GameRow, game.id)
            assert row is not None
            row.faults = [
                {"seat": seat, "bot": "", "kind": "crash", "detail": DETAILS[who], "decision": 9}
                for who, seat in seats.items()
            ]
            s.add(row)
            for who, seat in seats.items():
                bot = s.get(BotRow, match.seats[seat])
                assert bot is not None
                bot.owner_id = users[who]
                s.add(bot)
                bots[who] = bot
        try:
            with serving(make_app(store)) as url:
                assert game.id is not None
                yield Site(store, url, users, bots, game.id)
        finally:
            store.close()


@contextlib.contextmanager
def browser_of(site: Site, name: str) -> Iterator[httpx.Client]:
    """A member's browser, signed in (closed after)."""
    with httpx.Client(base_url=site.url, follow_redirects=False, timeout=60) as c:
        csrf = CSRF.search(c.get("/login").text)
        assert csrf
        answer = c.post("/login", data={"name": name, "password": PASSWORD, "csrf": csrf[1]})
        assert answer.status_code == 303, answer.text
        yield c


def clock(when: datetime) -> Callable[[], datetime]:
    """A clock stopped at ``when``."""
    return lambda: when


def form(c: httpx.Client, path: str, **data: str) -> httpx.Response:
    """POST a form of the account page (with its CSRF token)."""
    csrf = CSRF.search(c.get("/account").text)
    assert csrf
    return c.post(path, data={**data, "csrf": csrf[1]})


def hook_of(c: httpx.Client, url: str) -> str:
    """Add a hook on the account page; returns the secret it shows (once)."""
    answer = form(c, "/account/hooks", url=url)
    assert answer.status_code == 200, answer.text
    found = SECRET_SHOWN.search(answer.text)
    assert found, "the new hook's secret is not shown"
    return found[1]


def refused(site: Site, who: str, reason: str) -> BotRow:
    """``who``'s bot marked refused with ``reason`` (as a runner's check stores it)."""
    with site.store.session(write=True) as s:
        bot = s.get(BotRow, site.bots[who].id)
        assert bot is not None
        bot.state, bot.reason = "refused", reason
        s.add(bot)
        return bot


def deliveries_to(store: Store, url: str) -> list[DeliveryRow]:
    from hegemon.leaderboard.store import WebhookRow

    with store.session() as s:
        return list(
            s.exec(
                select(DeliveryRow)
                .join(WebhookRow, col(WebhookRow.id) == col(DeliveryRow.hook_id))
                .where(col(WebhookRow.url) == url)
                .order_by(col(DeliveryRow.id))
            ).all()
        )


# ---------------------------------------------------------------------------------- the tests
def test_a_delivery_is_signed_with_the_hooks_secret_which_is_shown_once(site, receiver):
    with browser_of(site, "mel") as mel:
        secret = hook_of(mel, receiver.url + "/ok")
        page = mel.get("/account").text
        assert secret not in page, "the secret is shown again"
        hook = re.findall(r'data-hook="(\d+)"', page)[-1]
    with browser_of(site, "olga") as olga:  # another member cannot remove it
        assert form(olga, f"/account/hooks/{hook}/delete").status_code == 404
    bot = refused(site, "mel", "bot.py crashed: see /srv/arena/bots/17/bot.py line 3")
    version_checked(site.store, bot)
    assert deliver_due(site.store)
    got = receiver.wait("/ok")[-1]
    assert signed_by(secret, got)
    assert not signed_by(secret + "x", got)
    sent = json.loads(got.body)
    assert sent["event"] == "version.checked" == got.headers["X-Hegemon-Event"]
    assert sent["title"] == f"{bot.label} was refused"
    assert "bot.py crashed" in sent["body"] and "/srv" not in got.body.decode()
    assert sent["data"]["state"] == "refused"


def test_a_failing_receiver_is_retried_with_backoff_and_each_try_logged(site, receiver):
    with browser_of(site, "olga") as olga:
        hook_of(olga, receiver.url + "/fail-2")
        version_checked(site.store, refused(site, "olga", "no Hello within 10 s"))
        start = utcnow()
        assert [d.last_code for d in deliver_due(site.store, now=clock(start))] == [500]
        # not again before its wait is over
        assert deliver_due(site.store, now=clock(start + timedelta(seconds=BACKOFF[0] - 1))) == []
        second = start + timedelta(seconds=BACKOFF[0])
        assert [d.last_code for d in deliver_due(site.store, now=clock(second))] == [500]
        third = second + timedelta(seconds=BACKOFF[1])
        done = deliver_due(site.store, now=clock(third))
        assert [(d.status, d.attempts, d.last_code) for d in done] == [("sent", 3, 204)]
        tries = receiver.wait("/fail-2", 3)
        assert len({t.headers["X-Hegemon-Delivery"] for t in tries}) == 1  # one delivery
        assert len({t.body for t in tries}) == 1  # the same body each time
        page = olga.get("/account").text
    row = re.search(r'<tr data-delivery="\d+" data-status="(\w+)">.*?class=attempts>(\d+)<', page)
    assert row and row.groups() == ("sent", "3")


def test_a_down_receiver_is_logged_and_given_up_after_the_last_try(site):
    url = f"http://127.0.0.1:{closed_port()}/down"
    with browser_of(site, "ivy") as ivy:
        hook_of(ivy, url)
        mels = site.bots["mel"].id
        event_results(site.store, "final", [(mels, 1)])  # not ivy's bot: nothing for her
        assert deliveries_to(site.store, url) == []
        with site.store.session(write=True) as s:
            bot = BotRow(
                name="ivy-bot", version=1, command=["python", "bot.py"], content_hash="0" * 64,
                language="python", owner_id=site.users["ivy"],
            )  # fmt: skip
            s.add(bot)
            s.flush()
        assert bot.id is not None and mels is not None
        event_results(site.store, "final", [(mels, 1), (bot.id, 2)])
        when = utcnow()
        for wait in (0.0, *BACKOFF):
            when += timedelta(seconds=wait)
            deliver_due(site.store, now=clock(when))
        (delivery,) = deliveries_to(site.store, url)
        assert (delivery.status, delivery.attempts) == ("failed", MAX_ATTEMPTS)
        assert json.loads(delivery.body)["title"] == "final: ivy-bot@v1 placed 2 of 2"
        assert "ConnectError" in (delivery.last_error or "")
        page = ivy.get("/account").text
        assert 'data-status="failed"' in page and "ConnectError" in page
        hook = re.search(r'data-hook="(\d+)"', page)
        assert hook
        assert form(ivy, f"/account/hooks/{hook[1]}/delete").status_code == 303
        assert url not in ivy.get("/account").text
    assert deliveries_to(site.store, url) == []


def test_a_hanging_receiver_costs_one_bounded_try(site, receiver):
    url = receiver.url + "/hang"
    with browser_of(site, "ivy") as ivy:
        hook_of(ivy, url)
        form(ivy, "/account/digest", digest="on")
    send_digests(site.store, utcnow())
    done = [d for d in deliver_due(site.store, timeout=0.5) if d.event == "digest"]
    assert [(d.status, d.attempts) for d in done] == [("pending", 1)]
    assert "Timeout" in (done[0].last_error or "")
    receiver.wait("/hang")


def test_faults_are_grouped_at_most_once_an_hour_and_tell_only_their_owner(site):
    now = utcnow()
    first = {n.user_id: n for n in group_faults(site.store, now)}
    assert set(first) == {site.users["mel"], site.users["olga"]}
    assert group_faults(site.store, now + timedelta(minutes=59)) == []
    assert group_faults(site.store, now + timedelta(minutes=61)) == []  # nothing new since
    for who, other in (("mel", "olga"), ("olga", "mel")):
        notice = first[site.users[who]]
        assert notice.title.startswith(f"{site.bots[who].label}: ")
        assert "crash" in notice.body and str(site.game) in notice.body
        with browser_of(site, who) as member:
            listed = member.get("/api/notifications").json()
            page = member.get("/me/notifications").text
        text = json.dumps(listed) + page
        assert notice.id in [n["id"] for n in listed["notices"]]
        assert site.bots[other].label not in text
        assert not any(detail in text for detail in DETAILS.values())


def test_the_unread_count_in_the_top_bar_and_marking_read(site):
    mel = site.users["mel"]
    version_checked(site.store, refused(site, "mel", "too slow"))
    with browser_of(site, "mel") as browser, browser_of(site, "olga") as olga:

        def unread() -> int:
            found = re.search(r"<span class=unread>(\d+)</span>", browser.get("/games").text)
            return int(found[1]) if found else 0

        count = unread()
        assert count == browser.get("/api/notifications").json()["unread"] >= 1
        newest = notices_of(site.store, mel)[0]
        assert form(olga, "/me/notifications/read", id=str(newest.id)).status_code == 303
        assert unread() == count  # another member cannot touch mel's notices
        assert form(browser, "/me/notifications/read", id=str(newest.id)).status_code == 303
        assert unread() == count - 1
        assert form(browser, "/me/notifications/read").status_code == 303
        assert unread() == 0
        assert "notifications</a>" in browser.get("/games").text
        assert form(browser, "/me/notifications/read", id="x").status_code == 404


def test_the_daily_digest_once_a_day_for_who_asked(site):
    with browser_of(site, "mel") as mel:
        assert form(mel, "/account/digest", digest="on").status_code == 303
    now = utcnow() + timedelta(days=2)  # after any digest an earlier test made
    made = {n.user_id: n for n in send_digests(site.store, now)}
    assert site.users["mel"] in made and site.users["olga"] not in made
    standing = made[site.users["mel"]].data["standings"]
    assert [(s["bot"], s["competition"]) for s in standing] == [(site.bots["mel"].label, "league")]
    assert standing[0]["rank"] >= 1 and standing[0]["games"] >= 1
    assert send_digests(site.store, now + timedelta(hours=23)) == []


def test_a_member_reads_and_clears_notifications_in_a_real_browser(site, browser, tmp_path):
    version_checked(site.store, refused(site, "olga", "bot.py: SyntaxError in line 1"))
    tab = Page(browser, tmp_path)
    page = tab.open(f"{site.url}/login?next=/me/notifications", "olga-login")
    sign_in(page, "olga", PASSWORD)
    page.wait_for_url("**/me/notifications")
    badge = page.inner_text("header.top a.notices .unread")
    assert int(badge) >= 1
    newest = page.locator("ul.notices li").first
    assert newest.get_attribute("class") == "unread"
    assert f"{site.bots['olga'].label} was refused" in newest.inner_text()
    assert "SyntaxError in line 1" in newest.inner_text()
    page.screenshot(path=str(tmp_path / "notifications.png"), full_page=True)
    page.click("main > form button")  # mark all read
    page.wait_for_url("**/me/notifications")
    assert page.locator("header.top a.notices .unread").count() == 0
    assert page.locator("ul.notices li.unread").count() == 0
    assert tab.errors == []
    tab.close()


# ---------------------------------------------------------------------------------- a real arena
@pytest.mark.slow
def test_a_hanging_hook_never_slows_a_runner_and_the_check_is_heard_in_seconds(tmp_path, receiver):
    home = tmp_path / "home"
    home.mkdir()
    for sample in ("random", "aggressive"):
        assert hegemon("bot", "add", f"house-{sample}", sample, home=home).returncode == 0
    made = hegemon("ladder", "create", "lad", "--players", "3", "--set", "turn_limit=3", home=home)
    assert made.returncode == 0, made.stderr
    with Store(str(home / "arena.db")) as store:
        ann = add_user(store, "ann", PASSWORD, "member")
        assert ann.id is not None
        _, secret = add_hook(store, ann.id, receiver.url + "/ok-arena")
        add_hook(store, ann.id, receiver.url + "/hang-arena")  # holds the notifier's tries
        token = create_token(store, ann.id, "test")[1]
    with running_web(home, tmp_path / "arena.log", ("arena", "--workers", "1")) as url:
        assert upload(url, token, "ann-bot", "random").status_code == 201
        got = receiver.wait("/ok-arena")[0]
        assert signed_by(secret, got)
        assert json.loads(got.body)["title"] == "ann-bot@v1 is active"
        with Store(str(home / "arena.db")) as store:
            notice = notices_of(store, ann.id)[0]
            latency = (got.at - notice.created_at).total_seconds()
            print(f"check to notice received: {latency:.2f} s (target ≤ 10 s)")

            def played() -> bool:  # a ladder game of ann's bot, stored by the runner
                with store.session() as s:
                    rows = s.exec(select(MatchRow.seats).join(GameRow)).all()
                return any(notice.bot_id in seats for seats in rows)

            receiver.wait("/hang-arena")  # the notifier is held there, and meanwhile:
            wait_for("ann's first ladder game", played, timeout=240)
            hanging = deliveries_to(store, receiver.url + "/hang-arena")
        assert hanging and all(d.status == "pending" for d in hanging)
    assert secret not in (tmp_path / "arena.log").read_text()
