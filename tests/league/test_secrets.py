"""Secrets stay secret everywhere: a real season (plain and ``--duplicate``) is created, played
in part (interrupted after its first game, as Ctrl-C would) and played to the end; at each of
those moments everything a person can see — every CLI command's text, ``--json`` and ``--csv``,
every web page and API route of a real ``hegemon web``, the static report, the bots' logs — is
collected, and no secret seed appears in it: not a season's before it is finished, not a
game's before it is played, not a duplicate table's while a rotation of it is still to play.
"""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
import trio
from typer.testing import CliRunner

from hegemon.leaderboard.cli import app as APP
from hegemon.leaderboard.seasons.runner import SeasonRunner
from hegemon.leaderboard.store import DONE, FINISHED, Store
from hegemon.referee.record import seed_is_public
from tests.helpers.league import hegemon, register_samples
from tests.helpers.web_server import running_web

runner = CliRunner()
BOTS = "random,aggressive,continental"
SEASONS = {"plain": ("--games", "2"), "dup": ("--games", "3", "--duplicate")}


def cli(home: Path, *args: str) -> str:
    """What ``hegemon ARGS`` prints (stdout and stderr; typer's runner, in this process: a
    subprocess per command would take most of the test's time); no traceback."""
    done = runner.invoke(
        APP, list(args), env={"HEGEMON_HOME": str(home), "HEGEMON_DB": None, "COLUMNS": "200"}
    )
    assert done.exception is None or isinstance(done.exception, SystemExit), done.exception
    return done.output


def secrets(home: Path) -> dict[str, int]:
    """The secret seeds no one may see now: each unfinished season's, and the dice seed of
    every game not played yet (a duplicate table's rotations share theirs, so one rotation
    still to play keeps the whole table's seed secret)."""
    hidden: dict[str, int] = {}
    with Store(create=False) as store:
        for season in store.seasons():
            assert season.id is not None
            if season.status != FINISHED and not seed_is_public(season.seed):
                hidden[f"season {season.name}"] = season.seed
            for match in store.matches(season.id):
                if match.status != DONE:
                    hidden[f"{season.name} game {match.number}"] = match.seed
    return hidden


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """An arena with the sample bots registered and the two seasons created (nothing
    played)."""
    folder = tmp_path_factory.mktemp("secrets-home")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("HEGEMON_HOME", str(folder))
        mp.delenv("HEGEMON_DB", raising=False)
        with Store() as store:
            register_samples(store)
        for name, more in SEASONS.items():
            made = hegemon(
                "season", "create", name, "--bots", BOTS, "--players", "3", *more,
                "--set", "turn_limit=2", "--decision-time", "5", home=folder,
            )  # fmt: skip
            assert made.returncode == 0, made.stderr
        yield folder


def web_outputs(home: Path) -> dict[str, str]:
    """Every page and API route a real ``hegemon web`` serves over the arena."""
    with running_web(home, home / "web.log") as url:

        def get(path: str) -> str:
            try:
                with urllib.request.urlopen(url + path, timeout=60) as response:
                    return response.read().decode("utf-8")
            except urllib.error.HTTPError as exc:
                with exc:  # its connection, closed
                    # 401: a bot's log, its owner's (its text is read from the file below)
                    assert exc.code in (401, 404), f"{path}: {exc.code}"
                    return exc.read().decode("utf-8")

        paths = ["/", "/bots", "/games", "/api", "/api/leaderboard", "/api/seasons"]
        paths += ["/api/bots", "/api/games"]
        for name in SEASONS:
            paths += [f"/season/{name}", f"/season/{name}/live", f"/api/seasons/{name}"]
            paths.append(f"/api/seasons/{name}/history")
        for bot in json.loads(get("/api/bots"))["bots"]:
            for version in bot.get("versions", [bot]):
                if "id" in version:
                    paths += [f"/bot/{version['id']}", f"/api/bots/{version['id']}"]
        for game in json.loads(get("/api/games"))["games"]:
            paths += [f"/game/{game['id']}", f"/api/games/{game['id']}"]
            paths.append(f"/api/games/{game['id']}/record")
            paths += [f"/api/games/{game['id']}/logs/{seat}" for seat in range(3)]
        return {f"web {path}": get(path) for path in paths}


def outputs(home: Path, out: Path) -> dict[str, str]:
    """Everything a person can see of the arena now, by where it was seen."""
    seen = {}
    commands = [["season", "list"], ["bot", "list"], ["leaderboard"]]
    commands += [["leaderboard", "--json"], ["leaderboard", "--csv"]]
    for name in SEASONS:
        commands += [["season", "status", name], ["season", "status", name, "--method", "elo"]]
        commands += [["leaderboard", name, flag] for flag in ("--json", "--csv", "--crosstable")]
    for args in commands:
        seen["hegemon " + " ".join(args)] = cli(home, *args)
    for log in sorted(home.glob("records/*/*.logs/seat-*.log")):
        season, number = log.parent.parent.name, log.parent.name.split(".")[0]
        seen[f"hegemon logs {season}-{number}"] = cli(home, "logs", f"{season}-{number}")
        seen[f"log file {log.relative_to(home)}"] = log.read_text(errors="replace")
    seen.update(web_outputs(home))
    report = cli(home, "report", str(out))
    seen["hegemon report"] = report
    for page in sorted(p for p in out.rglob("*") if p.is_file()):
        seen[f"report {page.relative_to(out)}"] = page.read_text(errors="replace")
    return seen


LOCAL_LINK = re.compile(r'(?:href|src)="(?![a-z]+:|#|/)([^"#?]+)')


def broken_links(out: Path) -> list[str]:
    """Every link of the static report in ``out`` to a file that is not there."""
    return [
        f"{page.relative_to(out)} -> {target}"
        for page in sorted(out.rglob("*.html"))
        for target in LOCAL_LINK.findall(page.read_text(errors="replace"))
        if not (page.parent / target).exists()
    ]


def leaks(seen: dict[str, str], hidden: dict[str, int]) -> list[str]:
    """Where a hidden seed shows (as a whole number), e.g. ``season dup in web /api/seasons``."""
    found = []
    for what, seed in hidden.items():
        pattern = re.compile(rf"(?<!\d){seed}(?!\d)")
        found += [f"{what} in {where}" for where, text in seen.items() if pattern.search(text)]
    return found


def play_first_game(home: Path, name: str) -> None:
    """Run the season's runner until its first game is stored, then interrupt it (as Ctrl-C
    does: the claims it holds go back to pending)."""

    async def main(store: Store) -> None:
        season = store.season_by_name(name)
        assert season is not None
        with trio.CancelScope() as scope:

            def stop_after_one(state) -> None:
                if state.done >= 1:
                    scope.cancel()

            await SeasonRunner(store, season, on_change=stop_after_one).run()

    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("HEGEMON_HOME", str(home))
        with Store(create=False) as store:
            trio.run(main, store)


@pytest.mark.timeout(1800)  # three looks at everything, and two seasons played, on a busy machine
@pytest.mark.slow
def test_no_secret_seed_shows_before_it_may(home, tmp_path):
    hidden = secrets(home)
    assert {"season plain", "season dup"} <= hidden.keys()
    assert leaks(outputs(home, tmp_path / "created"), hidden) == []

    for name in SEASONS:
        play_first_game(home, name)
    hidden = secrets(home)
    assert "season dup" in hidden and "dup game 1" not in hidden
    dup_seed = hidden["dup game 2"]
    seen = outputs(home, tmp_path / "running")
    assert leaks(seen, hidden) == []
    # the one stored rotation's seed is its unplayed rotations' seed: withheld with them
    assert leaks(seen, {"dup game 1 (stored)": dup_seed}) == []
    # while the plain season's played game is shown in full, its seed revealed
    with Store(create=False) as store:
        plain = store.season_by_name("plain")
        assert plain is not None and plain.id is not None
        played = store.matches(plain.id, DONE)[0]
    assert leaks(seen, {"plain game 1": played.seed}), "the test sees no record at all"
    # the withheld game is listed in the static report: its page says why it has no replay
    assert broken_links(tmp_path / "running") == []
    game_pages = (tmp_path / "running").glob("game-*.html")
    assert any("This game is withheld" in page.read_text() for page in game_pages)

    for name in SEASONS:
        ran = hegemon("season", "run", name, "--quiet", home=home)
        assert ran.returncode == 0, ran.stderr
    assert secrets(home) == {}
    seen = outputs(home, tmp_path / "finished")
    assert leaks(seen, {"dup game 1": dup_seed}), "a finished table is shown in full"
