"""Submitting bots to a real arena: ``hegemon arena`` (web server, a runner process) on
127.0.0.1, members made with the accounts' API, and ``hegemon login``/``submit`` run as a user
runs them. A submitted version is checked by the runner and becomes active, a failing one is
refused with its reason and log, a hostile one is contained as a local check contains it, each
quota is refused with one line, and the token is kept in a 0600 file and never printed."""

from __future__ import annotations

import json
import re
import signal
import stat
import subprocess
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from hegemon.leaderboard.accounts.tokens import create_token
from hegemon.leaderboard.accounts.users import add_user, get_user
from hegemon.leaderboard.registry import check_source, find_source, pack_source
from hegemon.leaderboard.registry.upload import command_text
from hegemon.leaderboard.store import Store
from tests.helpers.league import (
    ROOT,
    descendants,
    env_for,
    free_port,
    hegemon,
    start_hegemon,
    wait_for,
    wait_gone,
)
from tests.helpers.web import Page, browser, sign_in  # noqa: F401 (browser: a fixture)
from tests.helpers.web_server import running_web

PASSWORD = "correct horse battery staple"
HOSTILE = ROOT / "tests" / "hostile_bots" / "hostile.py"
CRASH = "import sys\nprint('about to fail', flush=True)\nsys.exit(3)\n"
POLITE = """\
from hegemon.sdk import Bot, run


class Polite(Bot):
    name = "polite"


run(Polite())
"""


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An arena home with two members, ann and bob."""
    folder = tmp_path_factory.mktemp("submit-home")
    with store_in(folder) as store:
        for name in ("ann", "bob"):
            add_user(store, name, PASSWORD, "member")
    return folder


@pytest.fixture(scope="module")
def arena(home: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``hegemon arena --workers 1`` over ``home``, until the module's tests are done."""
    log = tmp_path_factory.mktemp("arena-log") / "arena.log"
    with running_web(home, log, ("arena", "--workers", "1")) as url:
        yield url


def cli(home: Path, config: Path, *args: str, stdin: str = "") -> subprocess.CompletedProcess:
    """``hegemon ARGS`` as a user with the configuration folder ``config`` runs it."""
    return hegemon(*args, env=env_for(home, XDG_CONFIG_HOME=str(config)), stdin=stdin)


def store_in(home: Path) -> Store:
    """The database of the arena in ``home`` (made if new)."""
    return Store(str(home / "arena.db"))


def token_of(home: Path, user: str) -> str:
    with store_in(home) as store:
        row = get_user(store, user)
        assert row.id is not None
        return create_token(store, row.id, "test")[1]


def version_state(home: Path, name: str) -> list[tuple[int, str, str]]:
    with store_in(home) as store:
        return [(b.version, b.state, b.reason) for b in store.bots(name)]


def upload(url: str, token: str, name: str, spec: str, **headers: str) -> httpx.Response:
    source = find_source(spec)
    return httpx.post(
        f"{url}/api/bots/{name}/versions",
        params={"command": command_text(source.command)},
        content=pack_source(source),
        headers={"Authorization": f"Bearer {token}", **headers},
        timeout=60,
    )


def test_login_keeps_the_token_in_a_0600_file_and_never_prints_it(home, arena, tmp_path):
    config = tmp_path / "config"
    done = cli(home, config, "login", arena, "--name", "ann", stdin=PASSWORD + "\n")
    assert done.returncode == 0, done.stderr
    saved = config / "hegemon" / "credentials.json"
    assert stat.S_IMODE(saved.stat().st_mode) == 0o600
    token = re.search(r'"token": "([^"]+)"', saved.read_text())
    assert token is not None
    assert token[1] not in done.stdout + done.stderr
    assert PASSWORD not in done.stdout + done.stderr
    wrong = cli(home, tmp_path / "other", "login", arena, "--name", "ann", stdin="nope\n")
    assert wrong.returncode == 1 and "sign-in refused" in wrong.stderr
    assert not (tmp_path / "other" / "hegemon" / "credentials.json").exists()
    gone = cli(home, config, "logout")
    assert gone.returncode == 0 and not saved.exists()


@pytest.mark.slow
def test_a_bot_submitted_from_the_cli_is_checked_then_active(home, arena, tmp_path):
    config = tmp_path / "config"
    assert cli(home, config, "login", arena, "--name", "ann", stdin=PASSWORD).returncode == 0
    done = cli(home, config, "submit", "random", "--bot", "ann-random")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "ann-random@v1: active (passed: place" in done.stdout
    saved = json.loads((config / "hegemon" / "credentials.json").read_text())
    assert saved["token"] not in done.stdout + done.stderr
    assert version_state(home, "ann-random")[0][:2] == (1, "active")
    again = cli(home, config, "submit", "random", "--bot", "ann-random")
    assert again.returncode == 0 and "submitted before" in again.stdout
    assert len(version_state(home, "ann-random")) == 1  # the same files: the same version
    newer = cli(home, config, "submit", "aggressive", "--bot", "ann-random")
    assert newer.returncode == 0, newer.stderr
    assert [s for _, s, _ in version_state(home, "ann-random")] == ["retired", "active"]


def test_a_failing_bot_is_refused_with_its_reason_and_log(home, arena, tmp_path):
    config = tmp_path / "config"
    assert cli(home, config, "login", arena, "--name", "bob", stdin=PASSWORD).returncode == 0
    crash = tmp_path / "crash.py"
    crash.write_text(CRASH)
    done = cli(home, config, "submit", str(crash), "--bot", "bob-crash")
    assert done.returncode == 1
    assert "bob-crash@v1 refused:" in done.stderr
    assert "about to fail" in done.stderr  # the tail of its log
    ((_, state, reason),) = version_state(home, "bob-crash")
    assert state == "refused" and reason in " ".join(done.stderr.split())


def test_a_name_belongs_to_its_first_owner(home, arena):
    assert upload(arena, token_of(home, "ann"), "ann-owned", "random").status_code in (200, 201)
    refused = upload(arena, token_of(home, "bob"), "ann-owned", "aggressive")
    assert refused.status_code == 403
    assert refused.json()["error"] == (
        "refused: the name ann-owned belongs to another member; choose another"
    )
    assert len(version_state(home, "ann-owned")) == 1
    nobody = httpx.post(f"{arena}/api/bots/x/versions", content=b"x", timeout=30)
    assert nobody.status_code == 403  # no token, no session: refused by the CSRF check
    assert version_state(home, "x") == []


def test_a_hostile_bot_submitted_over_the_web_is_contained_as_a_local_one(home, arena):
    command = "python hostile.py escape"
    local = check_source(find_source(str(HOSTILE), command), "local")
    token = token_of(home, "bob")
    source = find_source(str(HOSTILE), command)
    sent = httpx.post(
        f"{arena}/api/bots/bob-hostile/versions",
        params={"command": command},
        content=pack_source(source),
        headers={"Authorization": f"Bearer {token}"},
        timeout=60,
    )
    assert sent.status_code == 201, sent.text
    version = wait_judged(arena, token, sent.json()["id"])
    assert version["state"] == ("active" if local.ok else "refused")
    reports = sorted(line for line in version["log"].splitlines() if line.startswith("HOSTILE"))
    assert reports and reports == sorted(
        line for line in local.log.splitlines() if line.startswith("HOSTILE")
    )
    # the arena plays on: the next submission is checked as usual
    after = upload(arena, token, "bob-random", "random")
    assert wait_judged(arena, token, after.json()["id"])["state"] == "active"


def test_in_the_browser_a_member_uploads_a_bot_and_sees_it_checked(home, arena, browser, tmp_path):
    tab = Page(browser, tmp_path)
    try:
        page = tab.open(f"{arena}/login?next=/me/bots", "login")
        sign_in(page, "ann", PASSWORD)
        page.wait_for_url("**/me/bots")
        bot = tmp_path / "polite.py"
        bot.write_text(POLITE + "# from the browser\n")
        page.fill("form[enctype] input[name=name]", "ann-web")
        page.set_input_files("input[name=file]", str(bot))
        page.click("form[enctype] button")
        page.wait_for_selector("text=ann-web@v1 is queued for its check game")
        row = "tr[data-version]"

        def checked() -> bool:
            page.reload()
            return page.get_attribute(row, "data-state") not in ("queued", "checking")

        wait_for("the version's check", checked, timeout=240, every=0.5)
        assert page.get_attribute(row, "data-state") == "active"
        assert page.inner_text(f"{row} .reason").startswith("passed: place")
        page.screenshot(path=str(tmp_path / "my-bots.png"), full_page=True)
        assert tab.errors == []
        page.click("text=check log")  # a plain text page (the browser asks for a favicon: 404)
        assert "not checked yet" not in page.inner_text("body")
        version_id = int(page.url.rstrip("/").split("/")[-2])
    finally:
        tab.close()
    log = f"{arena}/me/bots/{version_id}/log"
    other = httpx.get(log, headers={"Authorization": f"Bearer {token_of(home, 'bob')}"})
    assert other.status_code == 404  # another member: not theirs to see
    assert httpx.get(log).status_code == 401


def wait_judged(url: str, token: str, version_id: int, timeout: float = 240) -> dict:
    """The version's state once its check is over (``wait_for``: a guard against hanging)."""
    seen: dict = {}

    def judged() -> bool:
        seen.update(
            httpx.get(
                f"{url}/api/versions/{version_id}",
                headers={"Authorization": f"Bearer {token}"},
                timeout=30,
            ).json()
        )
        return seen["state"] not in ("queued", "checking")

    wait_for(f"version {version_id}'s check", judged, timeout=timeout)
    return seen


# ------------------------------------------------------------------------------ quotas
@pytest.fixture(scope="module")
def quota_web(home: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """``hegemon web`` over a home of its own with small quotas and file limits."""
    quota_home = tmp_path_factory.mktemp("quota-home")
    with store_in(quota_home) as store:
        add_user(store, "cat", PASSWORD, "member")
    log = tmp_path_factory.mktemp("quota-log") / "web.log"
    limits = {
        "HEGEMON_QUOTA_SUBMISSIONS": "3",
        "HEGEMON_QUOTA_BOTS": "1",
        "HEGEMON_QUOTA_STORAGE": "200K",
        "HEGEMON_BOT_MAX_BYTES": "1M",
    }
    with running_web(quota_home, log, ("web",), **limits) as url:
        yield url, quota_home


def test_each_quota_is_refused_with_one_line(quota_web, tmp_path):
    url, quota_home = quota_web
    token = token_of(quota_home, "cat")
    bot = tmp_path / "bot.py"
    bot.write_text(POLITE)
    first = upload(url, token, "cat1", str(bot))
    assert first.status_code == 201, first.text
    second_bot = upload(url, token, "cat2", str(bot))
    assert second_bot.status_code == 403
    assert second_bot.json()["error"].startswith("refused: you have 1 live bots")
    bot.write_text(bot.read_text() + "# " + "x" * 300_000 + "\n")
    storage = upload(url, token, "cat1", str(bot))
    assert storage.status_code == 413 and "more than your 200 KiB" in storage.json()["error"]
    bot.write_text(bot.read_text() + "y" * 800_000 + "\n")
    too_big = upload(url, token, "cat1", str(bot))
    assert too_big.status_code in (400, 413)
    assert "limit" in too_big.json()["error"] or "at most" in too_big.json()["error"]
    for n in range(2):
        bot.write_text(f"# {n}\n" + POLITE)
        assert upload(url, token, "cat1", str(bot)).status_code == 201
    bot.write_text("# 3\n" + POLITE)
    hourly = upload(url, token, "cat1", str(bot))
    assert hourly.status_code == 429
    assert hourly.json()["error"] == "refused: at most 3 submissions an hour; try again later"


def answers(url: str) -> bool:
    """Whether ``url`` answers 200 now."""
    try:
        return httpx.get(url, timeout=5).status_code == 200
    except httpx.HTTPError:
        return False


@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGKILL])
def test_stopping_the_arena_stops_its_runners(tmp_path, how):
    """SIGTERM: the arena stops its runners itself; SIGKILL: each runner notices its parent is
    gone and stops. Either way nothing of the arena is left running."""
    home = tmp_path / "home"
    home.mkdir()
    store_in(home).close()
    port = str(free_port())
    arena = start_hegemon(
        "arena", "--workers", "2", "--port", port, home=home, log=tmp_path / "log"
    )
    try:
        wait_for("two runners", lambda: len(descendants(arena.pid)) >= 2)
        runners = descendants(arena.pid)
        wait_for("the site", lambda: answers(f"http://127.0.0.1:{port}/api"))  # fully started
    finally:
        arena.send_signal(how)
        arena.wait(120)
    assert wait_gone(runners, timeout=120) == []
