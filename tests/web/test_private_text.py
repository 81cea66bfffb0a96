"""Private text stays private, on a real arena: ``hegemon arena --workers 1`` on the loopback
over a fresh home, a ladder of two house bots and member ann's bot, which plays its check game
well and then, in every ladder game, writes a secret to stderr, logs another and dies of an
exception whose message holds a third. Every GET route of the app (read from the app itself) is
searched as an anonymous visitor and as another member, every file of ``hegemon report``
without ``--private``, and what a visitor's ``hegemon`` prints of the public record: no secret
anywhere. Ann and the admin still read all three.

And no message a member reads names the arena's home: upload errors, a refused version's
reason and its check log give paths relative to the bot's own folder.
"""

from __future__ import annotations

import io
import re
import tarfile
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import product
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.helpers.league import hegemon, wait_for
from tests.helpers.web_server import running_web

PASSWORDS = {"ann": "ann's long password", "bob": "bob's long password", "ada": "ada's password"}
TAG = uuid.uuid4().hex[:12]
SECRETS = {
    "exception": f"exception-secret-{TAG}",
    "stderr": f"stderr-secret-{TAG}",
    "log": f"logged-secret-{TAG}",
}
# Plays its check game with the SDK's default answers; in a ladder game, at its first decision,
# writes a line to stderr, logs another and dies of an exception holding a third secret.
LEAKY = f"""\
import logging
import os
import sys
import traceback

from hegemon.sdk import Bot, run


class Leaky(Bot):
    name = "leaky"

    def decide(self, view, decision):
        if view.game_id == "check":
            return super().decide(view, decision)
        print({SECRETS["stderr"]!r}, file=sys.stderr, flush=True)
        logging.getLogger("leaky").warning({SECRETS["log"]!r})
        try:
            raise RuntimeError({SECRETS["exception"]!r})
        except RuntimeError:
            traceback.print_exc()
            sys.stderr.flush()
            os._exit(1)


run(Leaky())
"""
# Refused by its check game: it opens a file of its own folder by its absolute path.
PATHY = """\
import os

open(os.path.abspath("weights.bin"), "rb")
"""


def tgz(files: dict[str, str]) -> bytes:
    """A bot archive as ``hegemon submit`` sends it."""
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w:gz") as tar:
        for name, text in files.items():
            data = text.encode()
            info = tarfile.TarInfo(name)
            info.size, info.mode = len(data), 0o644
            tar.addfile(info, io.BytesIO(data))
    return out.getvalue()


@dataclass
class Arena:
    home: Path
    url: str
    clients: dict[str, httpx.Client]  # by role: anonymous, member, owner, admin
    game: int  # a finished ladder game in which ann's bot crashed
    seat: int  # ann's bot's seat in it
    bot: int  # ann's bot


def organise(home: Path, *args: str, stdin: str | None = None) -> None:
    done = hegemon(*args, home=home, stdin=stdin)
    assert done.returncode == 0, done.stdout + done.stderr


def token_client(url: str, name: str | None) -> httpx.Client:
    """A script with ``name``'s API token (anonymous without one)."""
    c = httpx.Client(base_url=url, timeout=60, follow_redirects=False)
    if name is not None:
        answer = c.post("/api/tokens", json={"name": name, "password": PASSWORDS[name]})
        assert answer.status_code == 201, answer.text
        c.headers["Authorization"] = f"Bearer {answer.json()['token']}"
    return c


def crashed_game(admin: httpx.Client, label: str) -> tuple[int, int] | None:
    """A finished game in which ``label`` crashed: (game id, its seat), or None yet."""
    for game in admin.get("/api/games", params={"fault": "yes"}).json()["games"]:
        if label in game["seats"] and game.get("places"):
            seat = game["seats"].index(label)
            if any(f["seat"] == seat and f["kind"] == "crash" for f in game["faults"]):
                return game["id"], seat
    return None


@pytest.fixture(scope="module")
def arena(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Arena]:
    tmp = tmp_path_factory.mktemp("private-text")
    home = tmp / "home"
    home.mkdir()
    for name, password in PASSWORDS.items():
        admin = ("--admin",) if name == "ada" else ()
        organise(home, "user", "add", name, *admin, "--password-stdin", stdin=password + "\n")
    for sample in ("random", "aggressive"):
        organise(home, "bot", "add", f"house-{sample}", sample)
    organise(home, "ladder", "create", "lad", "--players", "3", "--set", "turn_limit=3")
    with running_web(home, tmp / "arena.log", ("arena", "--workers", "1")) as url:
        roles = {"anonymous": None, "member": "bob", "owner": "ann", "admin": "ada"}
        clients = {role: token_client(url, name) for role, name in roles.items()}
        try:
            sent = clients["owner"].post("/api/bots/leaky/versions", content=tgz({"bot.py": LEAKY}))
            assert sent.status_code == 201, sent.text
            found: list[tuple[int, int]] = []

            def crashed() -> bool:
                hit = crashed_game(clients["admin"], "leaky@v1")
                found.extend([hit] if hit else [])
                return bool(found)

            wait_for("a ladder game in which ann's bot crashed", crashed, timeout=300)
            yield Arena(home, url, clients, *found[0], sent.json()["id"])
        finally:
            for c in clients.values():
                c.close()


def assert_no_secret(text: str, where: str) -> None:
    leaked = [name for name, secret in SECRETS.items() if secret in text]
    assert leaked == [], f"{where} shows the {', '.join(leaked)} secret"


def get_routes() -> list[str]:
    """The path of every GET route of the app (a mount: its path)."""
    from starlette.routing import Mount, Route

    from hegemon.leaderboard.store import Store
    from hegemon.leaderboard.web.server import make_app

    with Store("sqlite:///:memory:") as store:
        app = make_app(store)
    found = []
    for route in app.routes:
        if isinstance(route, Route) and "GET" in (route.methods or ()):
            found.append(route.path)
        elif isinstance(route, Mount):
            found.append(route.path + "/style.css")
    return found


def urls(arena: Arena) -> list[str]:
    """Every GET route with every value of its parameters this arena has, and the lists'
    filters that show faults."""
    admin = arena.clients["admin"]
    values: dict[str, list[Any]] = {
        "name": [s["name"] for s in admin.get("/api/seasons").json()["seasons"]],
        "bot_id": [b["id"] for b in admin.get("/api/bots").json()["bots"]],
        "game_id": [g["id"] for g in admin.get("/api/games").json()["games"]],
        "seat": [0, 1, 2],
        # the live pages of matches played (a finished one's redirects to its game) and of none
        "match_id": [1, 2, 3, 999_999],
        "challenge_id": [1, 999_999],  # none asked here: each a 404 (a member's own otherwise)
        # the runners' archive route: a runner token's only (none here: each a 401)
        "digest": ["0" * 64, "not-a-digest"],
    }
    out = ["/api/games?fault=yes", "/games?fault=yes", "/api/games?bot=leaky%40v1"]
    for path in get_routes():
        names = re.findall(r"{(\w+)}", path)
        unknown = [n for n in names if n not in values]
        assert unknown == [], f"{path}: give this test the values of {unknown}"
        for combo in product(*(values[n] for n in names)):
            out.append(path.format(**dict(zip(names, combo, strict=True))))
    return out


# ---------------------------------------------------------------------------------- the site
@pytest.mark.slow
@pytest.mark.parametrize("role", ["anonymous", "member"])
def test_no_route_shows_a_bots_private_text_to_a_visitor_or_another_member(arena, role):
    c = arena.clients[role]
    searched = 0
    for url in urls(arena):
        answer = c.get(url)
        assert answer.status_code < 500, f"{url}: HTTP {answer.status_code}"
        assert_no_secret(answer.text, f"{url} (as {role})")
        searched += answer.status_code == 200
    assert searched > 20  # the routes answered: the search was not of error pages


@pytest.mark.slow
@pytest.mark.parametrize("role", ["owner", "admin"])
def test_the_owner_and_the_admins_still_read_every_secret(arena, role):
    c = arena.clients[role]
    faults = c.get(f"/api/bots/{arena.bot}").json()["faults"]
    assert any(SECRETS["exception"] in (f["detail"] or "") for f in faults)
    game = c.get(f"/api/games/{arena.game}").json()
    assert any(SECRETS["exception"] in (f["detail"] or "") for f in game["faults"])
    log = c.get(f"/api/games/{arena.game}/logs/{arena.seat}").text
    assert SECRETS["stderr"] in log and SECRETS["log"] in log and SECRETS["exception"] in log


@pytest.mark.slow
def test_the_public_record_says_the_fault_kind_and_still_verifies(arena, tmp_path):
    record = arena.clients["anonymous"].get(f"/api/games/{arena.game}/record").text
    assert_no_secret(record, "the public record")
    assert f'["forfeit",{arena.seat},"crash"]' in record
    path = tmp_path / "public.jsonl"
    path.write_text(record, encoding="utf-8")
    verified = hegemon("verify", str(path), home=tmp_path)
    assert verified.returncode == 0, verified.stdout + verified.stderr
    shown = hegemon("replay", str(path), home=tmp_path)
    assert shown.returncode == 0, shown.stdout + shown.stderr
    for out in (verified, shown, hegemon("leaderboard", home=arena.home)):
        assert_no_secret(out.stdout + out.stderr, "hegemon's output")


@pytest.mark.slow
def test_a_report_without_private_holds_no_secret(arena, tmp_path):
    public, private = tmp_path / "public", tmp_path / "private"
    for out, extra in ((public, ()), (private, ("--private",))):
        done = hegemon("report", str(out), *extra, home=arena.home)
        assert done.returncode == 0, done.stdout + done.stderr
        assert_no_secret(done.stdout + done.stderr, "hegemon report's output")
    files = [p for p in public.rglob("*") if p.is_file()]
    assert len(files) > 5
    for path in files:
        assert_no_secret(path.read_text("utf-8", "replace"), f"the report's {path.name}")
    kept = "".join(p.read_text("utf-8", "replace") for p in private.rglob("*") if p.is_file())
    assert SECRETS["exception"] in kept  # the organiser's own report keeps them


# ---------------------------------------------------------------------------------- paths
@pytest.mark.slow
def test_no_message_a_member_reads_names_the_arenas_home(arena):
    ann = arena.clients["owner"]
    homes = {str(arena.home), str(arena.home.resolve())}
    read: list[str] = []
    # an archive without a bot, a file of no known language, a bot its check refuses
    empty = ann.post("/api/bots/pathless/versions", content=tgz({"README": "no bot here"}))
    assert empty.status_code == 400
    read.append(empty.json()["error"])
    page = ann.post(
        "/me/bots",
        data={"name": "notes", "command": ""},
        files={"file": ("notes.txt", b"just notes")},
    )
    assert page.status_code == 400
    read.append(page.text)
    sent = ann.post("/api/bots/pathy/versions", content=tgz({"bot.py": PATHY}))
    assert sent.status_code == 201, sent.text
    version = f"/api/versions/{sent.json()['id']}"
    wait_for("pathy's check", lambda: ann.get(version).json()["state"] == "refused", timeout=240)
    reason = ann.get(version).json()["reason"]
    assert "weights.bin" in reason  # it says which file, relative to the bot's folder
    read += [reason, ann.get(f"/me/bots/{sent.json()['id']}/log").text]
    read.append(ann.get(f"/api/bots/{arena.bot}").text)  # her faults' details
    assert "\n" not in read[0]  # one line, as every upload error
    for text in read:
        assert not any(home in text for home in homes), text
    assert "hegemon-upload-" not in read[1] and ".staging-" not in read[0]
