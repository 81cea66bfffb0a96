"""No password, token, invitation code or session cookie is ever kept in clear: an arena is set
up and used as a user would (``hegemon user …`` in a shell, ``hegemon web`` as its own process,
sign-in, sign-up, a password change, tokens made and used over HTTP), then every file of the
arena's home (the database, its write-ahead log, the records and logs) and the server's output
are searched for each of them."""

from __future__ import annotations

import re
from pathlib import Path

import httpx

from tests.helpers.league import hegemon
from tests.helpers.web_server import running_web

CSRF = re.compile(r'name=csrf value="([^"]+)"')


def form_token(c: httpx.Client, page: str) -> str:
    found = CSRF.search(c.get(page).text)
    assert found, page
    return found.group(1)


def test_no_password_or_token_is_kept_or_shown_in_clear(tmp_path):
    home = tmp_path / "home"
    secrets: list[str] = ["the organiser's password", "eve's first password", "eve's new one!"]
    added = hegemon(
        "user", "add", "ada", "--admin", "--password-stdin", home=home, stdin=secrets[0] + "\n"
    )
    assert added.returncode == 0, added.stderr
    invited = hegemon("user", "invite", "--url", "http://arena.example", home=home)
    code = re.search(r"code=(\S+)", invited.stdout)
    assert invited.returncode == 0 and code, invited.stdout
    made = hegemon("user", "token", "ada", "--name", "laptop", home=home)
    cli_token = made.stdout.strip().splitlines()[-1]
    assert made.returncode == 0 and cli_token.startswith("hgm_")
    secrets += [code.group(1), cli_token]
    log = tmp_path / "web.log"
    with running_web(home, log) as url:
        with httpx.Client(base_url=url, timeout=60) as ada:
            data = {"name": "ada", "password": secrets[0], "csrf": form_token(ada, "/login")}
            assert ada.post("/login", data=data).status_code == 303
            secrets.append(ada.cookies["hegemon_session"])
            new = ada.post(
                "/account/tokens", data={"name": "web", "csrf": form_token(ada, "/account")}
            )
            shown = re.search(r"<code class=token>([^<]+)</code>", new.text)
            assert shown
            secrets.append(shown.group(1))
        with httpx.Client(base_url=url, timeout=60) as eve:
            page = f"/signup?code={code.group(1)}"
            form = {"code": code.group(1), "name": "eve", "password": secrets[1]}
            form |= {"again": secrets[1], "csrf": form_token(eve, page)}
            assert eve.post("/signup", data=form).status_code == 303
            secrets += [eve.cookies["hegemon_session"], eve.cookies["hegemon_csrf"]]
            change = {"current": secrets[1], "password": secrets[2], "again": secrets[2]}
            change["csrf"] = form_token(eve, "/account")
            assert eve.post("/account/password", data=change).status_code == 303
            secrets.append(eve.cookies["hegemon_session"])
            api = eve.post("/api/tokens", json={"name": "eve", "password": secrets[2]})
            assert api.status_code == 201
            secrets.append(api.json()["token"])
        for token in secrets[4], secrets[6], secrets[-1]:
            with httpx.Client(base_url=url, headers={"Authorization": f"Bearer {token}"}) as c:
                assert c.get("/api/me").status_code == 200
        # a wrong password, and a token that is no token, are not echoed either
        with httpx.Client(base_url=url) as c:
            wrong = c.post("/api/tokens", json={"name": "eve", "password": "guess number one"})
            assert wrong.status_code == 401 and "guess" not in wrong.text
            secrets.append("guess number one")
    files = [p for p in home.rglob("*") if p.is_file()] + [log]
    assert any(p.name == "arena.db" for p in files)
    leaks = {
        f"{secret[:6]}… in {path.relative_to(tmp_path)}"
        for path in files
        for secret in secrets
        if secret.encode() in path.read_bytes()
    }
    assert leaks == set()


def test_the_database_keeps_only_hashes(tmp_path):
    """The rows themselves: what is stored is an argon2id hash or a sha256, never the value."""
    from sqlmodel import select

    from hegemon.leaderboard.accounts.keys import digest
    from hegemon.leaderboard.accounts.tokens import create_token
    from hegemon.leaderboard.accounts.users import add_user
    from hegemon.leaderboard.store import ApiTokenRow, Store, UserRow

    with Store(Path(tmp_path) / "arena.db") as store:
        user = add_user(store, "ada", "a long enough password", "admin")
        assert user.id is not None
        _, value = create_token(store, user.id, "laptop")
        with store.session() as s:
            row = s.exec(select(UserRow)).one()
            token = s.exec(select(ApiTokenRow)).one()
    assert row.password_hash.startswith("$argon2id$")
    assert token.token_hash == digest(value) and value not in token.token_hash
