"""Teams on a real arena: ``hegemon web`` over a real SQLite file, several members each with
their own HTTP client (a token, or a signed-in browser session), the ``hegemon team`` and
``hegemon submit --team`` commands as a user runs them, and Chromium on the account and team
pages. A team's bot is every member's to act on (logs, fault details, check logs, new
versions) and nobody else's; a removed member loses that at once; its quotas are the team's."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from hegemon.leaderboard.accounts.teams import accept, create_team, invite
from hegemon.leaderboard.accounts.tokens import create_token
from hegemon.leaderboard.accounts.users import add_user, get_user
from hegemon.leaderboard.store import BotRow, Store
from hegemon.referee.runner.botlog import logs_dir, seat_log
from tests.helpers.league import (
    SeasonSpec,
    create_season,
    env_for,
    hegemon,
    one_line_error,
    pg_server,  # noqa: F401 (a fixture)
    pg_url,  # noqa: F401 (a fixture)
    register_samples,
)
from tests.helpers.web import Page, browser, play_matches, sign_in  # noqa: F401 (browser)
from tests.helpers.web_server import running_web, serving
from tests.web.test_account_abuse import at_once, bot_archive, serve

PASSWORD = "a long enough password"
USERS = {"olga": "member", "mel": "member", "nick": "member", "pat": "member", "ada": "admin"}
ROLES = ("anonymous", "outsider", "member", "owner", "admin")
USER_OF = {"outsider": "nick", "member": "mel", "owner": "olga", "admin": "ada"}
CSRF = re.compile(r'name=csrf value="([^"]+)"')


@dataclass
class Arena:
    home: Path
    url: str
    tokens: dict[str, str]  # user -> an API token of theirs
    bots: dict[str, int]  # team -> the id of its bot (which sat in the games)
    names: dict[str, str]  # team -> its bot's name
    seats: dict[str, tuple[int, int]]  # team -> (game, seat) where its bot faulted or sat
    configs: dict[str, Path]  # user -> XDG_CONFIG_HOME (signed in there with hegemon login)


def log_line(team: str) -> str:
    return f"LOG-OF-TEAM-{team}"


@pytest.fixture(scope="module")
def arena(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Arena]:
    """10 stored 3-player games of the sample bots; the bot that faulted in one is the team
    ``reds``' (owner olga, member mel), another is the team ``blues``' (owner olga, member
    pat); nick is in no team, ada is an admin. Each team bot's seats' logs name its team.
    ``hegemon web`` over it; everyone signed in with ``hegemon login``."""
    home = tmp_path_factory.mktemp("teams-home")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("HEGEMON_HOME", str(home))
        mp.delenv("HEGEMON_DB", raising=False)
        with Store() as store:
            season = create_season(
                store, SeasonSpec(name="league", games=10, players=3, seed=11),
                register_samples(store),
            )  # fmt: skip
            play_matches(store, season, home / "records", "league")
            assert season.id is not None
            played = store.games(season.id)
            faulty_match, faulty_game = next((m, g) for m, g in played if g.faults)
            reds_bot = faulty_match.seats[faulty_game.faults[0]["seat"]]
            blues_bot = next(b.id for b in store.bots() if b.id != reds_bot)
            assert blues_bot is not None
            users = {u: add_user(store, u, PASSWORD, role) for u, role in USERS.items()}
            tokens = {u: _token(store, row.id) for u, row in users.items()}
            bots = {"reds": reds_bot, "blues": blues_bot}
            for team, member in (("reds", "mel"), ("blues", "pat")):
                made = create_team(store, users["olga"], team)
                invite(store, users["olga"], team, member)
                accept(store, users[member], team)
                with store.session(write=True) as s:
                    bot = s.get(BotRow, bots[team])
                    assert bot is not None
                    bot.owner_id, bot.team_id = users["olga"].id, made.id
                    s.add(bot)
            by_id = {b.id: b.name for b in store.bots()}
            names = {team: by_id[bot_id] for team, bot_id in bots.items()}
            seats: dict[str, tuple[int, int]] = {}
            team_of = {bot_id: team for team, bot_id in bots.items()}
            for match, game in played:
                assert game.id is not None
                for seat, seated in enumerate(match.seats):
                    sat = team_of.get(seated)
                    if sat is not None and (sat not in seats or game.id == faulty_game.id):
                        seats[sat] = (game.id, seat)
                    log = seat_log(logs_dir(Path(game.record_path)), seat)
                    log.parent.mkdir(parents=True, exist_ok=True)
                    log.write_text(log_line(sat or "none"), encoding="utf-8")
    configs = {user: home / f"config-{user}" for user in USERS}
    with running_web(home, home / "web.log") as url:
        for user, config in configs.items():
            signed = hegemon(
                "login", url, "--name", user, "--password-stdin",
                env=env_for(home, XDG_CONFIG_HOME=str(config)), stdin=PASSWORD + "\n",
            )  # fmt: skip
            assert signed.returncode == 0, signed.stdout + signed.stderr
        yield Arena(home, url, tokens, bots, names, seats, configs)


def _token(store: Store, user_id: int | None) -> str:
    assert user_id is not None
    return create_token(store, user_id, "test")[1]


OPEN: list[httpx.Client] = []


@pytest.fixture(autouse=True)
def _close_clients() -> Iterator[None]:
    yield
    while OPEN:
        OPEN.pop().close()


def api(arena: Arena, user: str | None) -> httpx.Client:
    """A script of ``user`` (None: nobody's) calling the API with their token."""
    headers = {} if user is None else {"Authorization": f"Bearer {arena.tokens[user]}"}
    made = httpx.Client(base_url=arena.url, headers=headers, timeout=60)
    OPEN.append(made)
    return made


def as_role(arena: Arena, role: str) -> httpx.Client:
    return api(arena, USER_OF.get(role))


def browser_of(arena: Arena, user: str) -> tuple[httpx.Client, str]:
    """A browser signed in as ``user`` (a session cookie), and its forms' CSRF token."""
    made = httpx.Client(base_url=arena.url, follow_redirects=False, timeout=60)
    OPEN.append(made)
    token = CSRF.search(made.get("/login").text)
    assert token is not None
    signed = made.post("/login", data={"name": user, "password": PASSWORD, "csrf": token[1]})
    assert signed.status_code == 303, signed.text
    token = CSRF.search(made.get("/account").text)
    assert token is not None
    return made, token[1]


def run(arena: Arena, user: str, *args: str) -> Any:
    """``hegemon ARGS`` as ``user`` runs it (signed in to the arena)."""
    return hegemon(*args, env=env_for(arena.home, XDG_CONFIG_HOME=str(arena.configs[user])))


def in_store(arena: Arena) -> Store:
    return Store(str(arena.home / "arena.db"))


def submit(
    url: str, token: str, name: str, packed: tuple[bytes, str], team: str | None = None
) -> httpx.Response:
    """``hegemon submit [--team TEAM]``: the archive posted with the member's token."""
    return httpx.post(
        f"{url}/api/bots/{name}/versions",
        params={"command": packed[1], **({"team": team} if team else {})},
        content=packed[0],
        headers={"Authorization": f"Bearer {token}"},
        timeout=120,
    )


# ---------------------------------------------------------------------------------- the table
# (method, url, JSON body) -> status for anonymous, a member of no team of these (outsider), a
# member of the team reds, its owner, an admin. The bot is reds'; nothing here changes a team.
# An anonymous script's POST holds neither a token nor a session's CSRF token: refused (403).
TABLE: list[tuple[str, str, dict[str, str] | None, tuple[int, ...]]] = [
    ("GET", "/teams/reds", None, (200, 200, 200, 200, 200)),
    ("GET", "/api/teams/reds", None, (200, 200, 200, 200, 200)),
    ("GET", "/api/me/teams", None, (401, 200, 200, 200, 200)),
    ("GET", "/api/games/{game}/logs/{seat}", None, (401, 403, 200, 200, 200)),
    ("GET", "/api/versions/{bot}", None, (401, 404, 200, 200, 200)),
    ("GET", "/me/bots/{bot}/log", None, (401, 404, 200, 200, 200)),
    ("POST", "/api/teams", {"name": "no spaces"}, (403, 400, 400, 400, 400)),
    ("POST", "/api/teams/reds/invite", {"user": "nobody"}, (403, 403, 403, 404, 404)),
    ("POST", "/api/teams/reds/remove", {"user": "olga"}, (403, 403, 403, 409, 409)),
    ("POST", "/api/teams/reds/accept", {}, (403, 404, 200, 200, 404)),
    ("POST", "/api/teams/reds/join", {}, (403, 404, 404, 404, 404)),
    ("POST", "/api/teams/nope/leave", {}, (403, 404, 404, 404, 404)),
    # not an archive: a member of the team is told so; anyone else, that it is not theirs
    ("POST", "/api/bots/table-bot/versions?team=reds", {}, (403, 403, 400, 400, 400)),
]


def test_the_team_access_table(arena):
    game, seat = arena.seats["reds"]
    ids = {"game": game, "seat": seat, "bot": arena.bots["reds"]}
    wrong = {}
    for method, url, body, expected in TABLE:
        path = url.format(**ids)
        got = tuple(
            (
                as_role(arena, role).get(path)
                if method == "GET"
                else as_role(arena, role).post(path, json=body)
            ).status_code
            for role in ROLES
        )
        if got != expected:
            wrong[(method, url)] = (got, expected)
    assert wrong == {}, f"(got, expected) for anonymous, outsider, member, owner, admin: {wrong}"


@pytest.mark.parametrize("role", ROLES)
def test_a_team_bots_logs_and_fault_details_only_for_its_members(arena, role):
    private = role in ("member", "owner", "admin")
    c = as_role(arena, role)
    game, seat = arena.seats["reds"]
    assert (log_line("reds") in c.get(f"/api/games/{game}/logs/{seat}").text) == private
    faults = c.get(f"/api/bots/{arena.bots['reds']}").json()["faults"]
    assert faults and all((f["detail"] is not None) == private for f in faults)
    shown = c.get(f"/api/games/{game}").json()
    assert all((f["detail"] is not None) == private for f in shown["faults"])
    # the public sees the team's name, owner and bots; only its members see who is in it
    team = c.get("/api/teams/reds").json()
    bot_name = arena.names["reds"]
    assert team["name"] == "reds" and [b["name"] for b in team["bots"]] == [bot_name]
    assert ("members" in team) == private
    if private:
        assert team["members"] == ["mel", "olga"]
    page = c.get("/teams/reds").text
    assert bot_name in page and ("mel" in page) == private


def test_removing_a_member_ends_their_access_at_once(arena):
    game, seat = arena.seats["blues"]
    pat = api(arena, "pat")
    log = f"/api/games/{game}/logs/{seat}"
    assert log_line("blues") in pat.get(log).text
    assert pat.get("/api/me/teams").json()["teams"] == [{"name": "blues", "owner": False}]
    assert arena.bots["blues"] in {v["id"] for b in pat.get("/api/me/bots").json()["bots"]
                                   for v in b["versions"]}  # fmt: skip
    mine = [g["id"] for g in pat.get("/api/games?mine=1&limit=100").json()["games"]]
    assert game in mine
    owner, csrf = browser_of(arena, "olga")
    page = owner.get("/teams/blues").text
    assert 'data-member="pat"' in page and "remove" in page
    removed = owner.post("/teams/blues/remove", data={"user": "pat", "csrf": csrf})
    assert removed.status_code == 303 and removed.headers["location"] == "/teams/blues"
    # the very next request: no log, no fault details, no team, no bot of theirs
    refused = pat.get(log)
    assert refused.status_code == 403 and log_line("blues") not in refused.text
    faults = pat.get(f"/api/bots/{arena.bots['blues']}").json()["faults"]
    assert all(f["detail"] is None for f in faults)
    assert pat.get("/api/me/teams").json() == {"teams": [], "invitations": []}
    assert pat.get("/api/me/bots").json()["bots"] == []
    assert pat.get("/api/games?mine=1").json()["games"] == []
    assert pat.get(f"/api/versions/{arena.bots['blues']}").status_code == 404
    assert 'data-member="pat"' not in owner.get("/teams/blues").text


def test_team_commands_and_team_submissions_from_the_cli(arena):
    made = run(arena, "olga", "team", "create", "greens")
    assert made.returncode == 0 and "the team greens is made" in made.stdout, made.stderr
    assert "taken" in one_line_error(run(arena, "nick", "team", "create", "GREENS"))
    assert run(arena, "olga", "team", "invite", "greens", "mel").returncode == 0
    mine = json.loads(run(arena, "mel", "team", "show", "--json").stdout)
    assert {"name": "greens"} in mine["invitations"]
    refused = one_line_error(run(arena, "nick", "team", "invite", "greens", "nick"))
    assert refused.endswith("refused: only the owner of greens may do this")
    assert "no invitation" in one_line_error(run(arena, "nick", "team", "accept", "greens"))
    accepted = run(arena, "mel", "team", "accept", "greens")
    assert accepted.returncode == 0 and "you are a member of greens" in accepted.stdout
    # a member submits the team's bot; the owner, without --team, its next version
    first = run(arena, "mel", "submit", "random", "--bot", "greens-bot", "--team", "greens",
                "--no-wait")  # fmt: skip
    assert first.returncode == 0, first.stdout + first.stderr
    second = run(arena, "olga", "submit", "aggressive", "--bot", "greens-bot", "--no-wait")
    assert second.returncode == 0, second.stdout + second.stderr
    theirs = one_line_error(run(arena, "nick", "submit", "planner", "--bot", "greens-bot",
                                "--no-wait"))  # fmt: skip
    assert "greens-bot is a team's you are not a member of" in theirs
    not_in = one_line_error(run(arena, "nick", "submit", "random", "--bot", "nicks-bot",
                                "--team", "greens", "--no-wait"))  # fmt: skip
    assert "you are not a member of the team greens" in not_in
    with in_store(arena) as store:
        versions = store.bots("greens-bot")
    assert [(v.version, v.owner_id is not None, v.team_id is not None) for v in versions] == [
        (1, True, True),
        (2, True, True),
    ]
    shown = run(arena, "nick", "team", "show", "greens")
    assert shown.returncode == 0
    assert "team greens · owner olga" in shown.stdout and "greens-bot@v2" in shown.stdout
    assert "members" not in shown.stdout  # nick is not in it
    inside = json.loads(run(arena, "mel", "team", "show", "greens", "--json").stdout)
    assert inside["members"] == ["mel", "olga"] and inside["invited"] == []
    # the owner cannot leave; a member can, and may then submit no more of its versions
    assert "cannot leave" in one_line_error(run(arena, "olga", "team", "leave", "greens"))
    left = run(arena, "mel", "team", "leave", "greens")
    assert left.returncode == 0 and "you left greens" in left.stdout
    again = one_line_error(run(arena, "mel", "submit", "planner", "--bot", "greens-bot",
                               "--no-wait"))  # fmt: skip
    assert "not a member" in again
    assert "mel is not in greens" in one_line_error(
        run(arena, "olga", "team", "remove", "greens", "mel")
    )


@pytest.mark.parametrize(
    "backend", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]
)
def test_simultaneous_team_submissions_get_no_more_bots_than_the_team_quota(
    backend, request, tmp_path, monkeypatch
):
    monkeypatch.setenv("HEGEMON_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("HEGEMON_DB", raising=False)
    monkeypatch.setenv("HEGEMON_QUOTA_BOTS", "3")
    monkeypatch.delenv("HEGEMON_QUOTA_SUBMISSIONS", raising=False)
    monkeypatch.delenv("HEGEMON_QUOTA_STORAGE", raising=False)
    target = request.getfixturevalue("pg_url") if backend == "postgres" else None
    members = ("una", "vic", "wes")
    packed = [
        bot_archive(tmp_path / f"b{i}", f"print('bot {i}')\n") for i in range(len(members) * 3)
    ]
    with Store(target) as store:
        rows = [add_user(store, name, PASSWORD, "member") for name in members]
        create_team(store, rows[0], "quota-team")
        for row in rows[1:]:
            invite(store, rows[0], "quota-team", row.name)
            accept(store, row, "quota-team")
        tokens = [_token(store, row.id) for row in rows]
        with serving(serve(store)) as url:
            # two bots of the team from each member, all at once: the team may have three
            answers = at_once(
                6, lambda i: submit(url, tokens[i % 3], f"team-bot-{i}", packed[i], "quota-team")
            )
            statuses = sorted(a.status_code for a in answers)
            assert statuses == [201] * 3 + [403] * 3, [a.text for a in answers]
            refused = [a.json()["error"] for a in answers if a.status_code == 403]
            assert all(e.startswith("refused: the team has 3 live bots") for e in refused)
            # a member's own quota is their own: the team's bots are not counted in it
            own = [submit(url, tokens[i], f"own-bot-{i}", packed[6 + i]) for i in range(3)]
            assert [a.status_code for a in own] == [201] * 3, [a.text for a in own]
        team_bots = [b for b in store.bots() if b.name.startswith("team-bot-")]
        assert len(team_bots) == 3 and all(b.team_id is not None for b in team_bots)


def test_accepting_an_invitation_and_submitting_for_the_team_in_a_browser(arena, browser, tmp_path):
    with in_store(arena) as store:
        olga = get_user(store, "olga")
        create_team(store, olga, "purples")
        invite(store, olga, "purples", "nick")
    tab = Page(browser, tmp_path)
    try:
        tab.open(f"{arena.url}/login", "login")
        sign_in(tab.page, "nick", PASSWORD)
        page = tab.open(f"{arena.url}/account", "account-invited")
        assert page.locator("[data-invitation=purples]").count() == 1
        page.click("[data-invitation=purples] form[action='/teams/purples/accept'] button")
        page.wait_for_url(f"{arena.url}/teams/purples")
        assert page.locator("[data-member=nick]").count() == 1
        page = tab.open(f"{arena.url}/me/bots", "my-bots-team-choice")
        bot = tmp_path / "bot.py"
        bot.write_text("print('a purple bot')\n")
        page.fill("input[name=name]", "purple-bot")
        page.set_input_files("input[name=file]", str(bot))
        page.select_option("select[name=team]", "purples")
        page.click("form[action='/me/bots'] button")
        page.wait_for_selector("text=purple-bot@v1 is queued")
        page = tab.open(f"{arena.url}/teams/purples", "team-page")
        assert page.locator(".team-bots li", has_text="purple-bot").count() == 1
        assert tab.errors == []
    finally:
        tab.close()
    team = api(arena, "olga").get("/api/teams/purples").json()
    assert [b["label"] for b in team["bots"]] == ["purple-bot@v1"]
