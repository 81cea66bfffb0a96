"""A bot's errors are in plain sight: each odd bot of ``tests/bots/errors/`` in a real game (real
processes, the real sandbox) gives one readable line that names the cause — for a Python
exception its type, message and the bot's own file:line — its log is kept beside the record,
``play`` shows the log's last lines and exits non-zero, and ``bot check`` refuses it saying why.

Two shared games keep the file fast: one with the bots that fail at once or per decision, one
with the bots that never answer Hello (they cost a start-up deadline each, waited together).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hegemon.leaderboard.cli import app as APP
from hegemon.leaderboard.registry import check
from hegemon.referee.runner.botlog import cap, explain

ROOT = Path(__file__).resolve().parent.parent.parent
ERRORS = "tests/bots/errors"
runner = CliRunner()


def run(*args: str):
    return runner.invoke(APP, [str(a) for a in args], catch_exceptions=False)


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    """One game: every seat an odd bot; (output, record path, fault lines by seat)."""
    mp = pytest.MonkeyPatch()
    mp.chdir(ROOT)
    mp.setenv("COLUMNS", "300")
    record = tmp_path_factory.mktemp("errors") / "game.jsonl"
    bots = [syntax_error_bot(record.parent)] + [
        f"{ERRORS}/{b}.py" for b in ("decide_raises", "no_run", "tcp_listener", "illegal", "slow")
    ]
    args = [x for b in bots for x in ("--bot", b)]
    out = run("play", *args, "--set", "turn_limit=2", "--decision-time", "0.5", "--record", record)
    mp.undo()
    return out, record, faults_by_seat(record)


@pytest.fixture(scope="module")
def silent_game(tmp_path_factory):
    """Bots that never answer Hello: one listens elsewhere, one never listens, one opens its
    own TCP socket (5 s to start: a loaded machine starts Python and gRPC slowly)."""
    mp = pytest.MonkeyPatch()
    mp.chdir(ROOT)
    record = tmp_path_factory.mktemp("silent") / "game.jsonl"
    out = run(
        "play",
        *("--bot", f"{ERRORS}/wrong_address.py", "--bot", f"{ERRORS}/never_listens.py"),
        *("--bot", f"{ERRORS}/raw_tcp.py"),
        *("--bot", "random", "--startup-time", "5", "--set", "turn_limit=1"),
        *("--record", record, "--allow-faults", "-q"),
    )
    mp.undo()
    return out, faults_by_seat(record)


def syntax_error_bot(folder: Path) -> str:
    """The bot with a syntax error, as a .py file (kept as .txt: linters never see it)."""
    bot = folder / "syntax_error.py"
    bot.write_text((ROOT / ERRORS / "syntax_error.txt").read_text())
    folder.chmod(0o755)  # a bot runs as an unprivileged uid: its folder must be readable
    return str(bot)


def faults_by_seat(record: Path) -> dict[int, list[str]]:
    found: dict[int, list[str]] = {}
    for line in record.read_text().splitlines():
        entry = json.loads(line)
        if entry["type"] == "fault":
            found.setdefault(entry["seat"], []).append(f"{entry['fault']}: {entry['detail']}")
    return found


def test_play_exits_non_zero_and_names_every_fault(game):
    out, _record, faults = game
    assert out.exit_code == 1
    assert "--allow-faults" in out.output
    assert set(faults) == {0, 1, 2, 3, 4, 5}


def test_a_syntax_error_names_the_line(game):
    _out, _record, faults = game
    assert faults[0] == [
        "startup: the bot process ended (exit code 1): SyntaxError: '(' was never closed "
        "(syntax_error.py:10)"
    ]


def test_an_exception_in_a_decision_names_type_message_and_the_bots_own_line(game):
    _out, _record, faults = game
    assert faults[1][0] == (
        "protocol: the bot raised KeyError: 'no such territory' (decide_raises.py:7)"
    )


def test_a_forgotten_run_says_what_to_do(game):
    _out, _record, faults = game
    assert "before it listened" in faults[2][0]
    assert "run(MyBot())" in faults[2][0]


def test_a_tcp_listener_is_told_to_use_its_unix_socket(game):
    _out, _record, faults = game
    assert "cannot listen on 127.0.0.1:50051" in faults[3][0]
    assert "its sandbox has no TCP; call run(MyBot()) without an address" in faults[3][0]


def test_an_illegal_answer_says_why(game):
    _out, _record, faults = game
    assert faults[4][0].startswith("illegal: place: ")  # the engine's reason follows
    assert "is not yours" in faults[4][0] or "must place exactly" in faults[4][0]


def test_a_slow_answer_says_how_late(game):
    _out, _record, faults = game
    assert faults[5][0].startswith("timeout: late: no answer within 0.500 s")


def test_every_seats_log_is_kept_beside_the_record_and_play_shows_the_last_lines(game):
    out, record, _faults = game
    logs = record.with_name("game.logs")
    assert sorted(p.name for p in logs.iterdir()) == [f"seat-{i}.log" for i in range(6)]
    assert "KeyError: 'no such territory'" in (logs / "seat-1.log").read_text()
    assert "seat 1 (decide-raises): the last 10 lines of its log" in out.output
    assert '|     return {"Alaska": 1}["no such territory"]' in out.output


def test_hegemon_logs_shows_a_seat(game):
    _out, record, _faults = game
    out = run("logs", record, "--seat", "0")
    assert out.exit_code == 0
    assert "SyntaxError: '(' was never closed" in out.output
    out = run("logs", record)
    assert "== seat 5" in out.output
    assert run("logs", record, "--seat", "9").exit_code == 2


def test_a_bot_that_never_listens_or_listens_elsewhere_is_told_where(silent_game):
    out, faults = silent_game
    assert out.exit_code == 0  # --allow-faults
    assert faults[0] == [
        "startup: no Hello within 5 s: the bot never listened on its address; it listens "
        "on unix:/tmp/elsewhere.sock instead; listen where --address (also "
        "$HEGEMON_BOT_ADDRESS) says, a unix socket (TCP is not available in the sandbox)"
    ]
    assert faults[1][0].startswith("startup: no Hello within 5 s: the bot never listened")


def test_a_bot_that_opens_its_own_tcp_socket_is_told_to_use_its_unix_socket(silent_game):
    _out, faults = silent_game
    assert faults[2] == [
        "startup: the bot process ended (exit code 1): OSError: [Errno 97] Address family not "
        "supported by protocol (raw_tcp.py:6); network sockets are refused in the sandbox: "
        "serve on the unix socket that --address (also $HEGEMON_BOT_ADDRESS) gives"
    ]


def test_play_never_overwrites_a_record(game, tmp_path):
    _out, record, _faults = game
    before = record.read_text()
    out = run("play", "--bot", "random", "--bot", "random", "--bot", "random", "--record", record)
    assert out.exit_code == 2
    assert "exists" in out.output and "--force" in out.output
    assert record.read_text() == before


@pytest.mark.parametrize(
    ("bot", "reason"),
    [
        ("decide_raises", "protocol error: the bot raised KeyError: 'no such territory' "),
        ("syntax_error", "start-up failure: the bot process ended (exit code 1): SyntaxError"),
    ],
)
def test_bot_check_refuses_and_says_why(bot, reason, monkeypatch, tmp_path):
    monkeypatch.chdir(ROOT)
    monkeypatch.setattr(check, "CHECK_TURN_LIMIT", 2)
    path = syntax_error_bot(tmp_path) if bot == "syntax_error" else f"{ERRORS}/{bot}.py"
    out = run("bot", "check", path)
    assert out.exit_code == 1
    assert f"check failed: {reason}" in " ".join(out.output.split())
    assert "lines of the bot's log" in out.output


def test_bot_check_uses_a_seasons_limits():
    from hegemon.referee.timecontrol import TimeControl

    limits = check.check_time_control()
    season = TimeControl()  # what `hegemon season create` uses without time options
    assert (limits.startup, limits.decision, limits.bank) == (
        season.startup,
        season.decision,
        season.bank,
    )


def test_a_log_is_capped_keeping_its_start_and_end():
    data = b"start\n" + b"x" * 1_000_000 + b"\nthe end\n"
    kept = cap(data, 10_000)
    assert len(kept) < 10_200
    assert kept.startswith(b"start") and kept.endswith(b"the end\n") and b"cut" in kept


def test_explain_finds_a_javascript_error_in_the_bots_file():
    log = (
        "/bots/js/bot.js:12\n    throw new TypeError('bad view');\n    ^\n\n"
        "TypeError: bad view\n    at decide (/bots/js/bot.js:12:11)\n"
        "    at Object.<anonymous> (/bots/js/node_modules/x/index.js:3:1)\n\nNode.js v20.1.0\n"
    )
    assert explain(log, "/bots/js") == "TypeError: bad view (bot.js:12)"


def test_a_bots_web_page_links_the_log_of_each_faulted_game(tmp_path, monkeypatch):
    """The bot page (served, and as a static report) links each faulted game's seat log, and
    the JSON API serves it."""
    import threading
    import urllib.request

    import uvicorn

    from hegemon.leaderboard.accounts.tokens import create_token
    from hegemon.leaderboard.accounts.users import add_user
    from hegemon.leaderboard.store import Store
    from hegemon.leaderboard.web.report import write_report
    from hegemon.leaderboard.web.server import make_app
    from hegemon.referee.runner.botlog import logs_dir, write_seat_logs
    from tests.helpers.league import free_port
    from tests.helpers.web import store_season

    monkeypatch.setenv("HEGEMON_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("HEGEMON_DB", raising=False)
    with Store() as store:
        season = store_season(store, tmp_path / "records", "logged", games=5, seed=3)
        assert season.id is not None
        _, game = next((m, g) for m, g in store.games(season.id) if g.faults)
        seat = game.faults[0]["seat"]
        write_seat_logs(
            logs_dir(Path(game.record_path)),
            [b"Traceback (most recent call last):\nKeyError: 'x'\n" if i == seat else b"ok\n"
             for i in range(seat + 1)],
        )  # fmt: skip
        match = next(m for m, g in store.games(season.id) if g.id == game.id)
        bot_id = match.seats[seat]
        # a bot's logs are its owner's and the admins' (this bot is the organiser's)
        admin = add_user(store, "ada", "the admin's password", "admin")
        assert admin.id is not None
        as_admin = {"Authorization": f"Bearer {create_token(store, admin.id, 'test')[1]}"}
        server = uvicorn.Server(
            uvicorn.Config(make_app(store), host="127.0.0.1", port=free_port(), log_level="error")
        )
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        ready = threading.Event()
        while not server.started and thread.is_alive():
            ready.wait(0.02)
        base = f"http://127.0.0.1:{server.config.port}"
        try:
            get = urllib.request.Request(f"{base}/bot/{bot_id}", headers=as_admin)
            page = urllib.request.urlopen(get).read().decode()
            link = f"/api/games/{game.id}/logs/{seat}"
            assert f'href="{link}"' in page
            get = urllib.request.Request(base + link, headers=as_admin)
            log = urllib.request.urlopen(get).read().decode()
            assert "KeyError: 'x'" in log
        finally:
            server.should_exit = True
            thread.join(10)
    write_report(None, tmp_path / "site", replays=False, private=True)
    assert "KeyError" in (tmp_path / "site" / f"game-{game.id}-seat-{seat}.log").read_text()
    assert (
        f'href="game-{game.id}-seat-{seat}.log"'
        in (tmp_path / "site" / f"bot-{bot_id}.html").read_text()
    )
