"""Boards refitted in the background are fitted in a process of the server's own (.fitter):
the same board as a fit in the server (and the same rating chart, stored with it), a process
that ends with the server however it ends, and a board still refitted when that process cannot
fit it. A page drawn from the boards is made again after a new game once, not once more for
the values made for it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from hegemon.leaderboard.store import SeasonRow, Store
from hegemon.leaderboard.web import data
from hegemon.leaderboard.web.data import Arena
from hegemon.leaderboard.web.fits import (
    pooled_board_data,
    season_board_data,
    season_history_data,
)
from hegemon.leaderboard.web.fitter import Fitter, FitterError
from tests.helpers.league import (
    CLI,
    ROOT,
    SeasonSpec,
    alive,
    create_season,
    descendants,
    env_for,
    free_port,
    register_samples,
    using_home,
    wait_for,
)
from tests.helpers.web import play_matches

WORKER = b"hegemon.leaderboard.web.fit_worker"


@dataclass
class Ladder:
    home: Path
    store: Store
    season: SeasonRow

    def play(self, games: int) -> None:
        played = play_matches(self.store, self.season, self.home / "records", "f", limit=games)
        assert played == games


@pytest.fixture(scope="module")
def ladder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Ladder]:
    with using_home(tmp_path_factory.mktemp("fitter-home")) as home:
        store = Store()
        season = create_season(
            store, SeasonSpec(name="fitted", games=12, seed=5), register_samples(store)
        )
        found = Ladder(home, store, season)
        found.play(4)
        try:
            yield found
        finally:
            store.close()


def url_of(store: Store) -> str:
    return store.secret_url()


def fit_workers(parent: int) -> list[int]:
    """The fitting processes started by the process ``parent``."""
    found = []
    for pid in descendants(parent):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                if WORKER in f.read():
                    found.append(pid)
        except OSError:
            continue
    return found


def test_the_fitting_process_gives_the_board_a_fit_in_the_server_gives(ladder: Ladder) -> None:
    season = ladder.season
    assert season.id is not None
    fitter = Fitter(url_of(ladder.store))
    try:
        board = fitter.season_board(season.id)
        assert board == season_board_data(ladder.store, season)
        assert board["games"] >= 4 and len(board["rows"]) == 4
        pid = fitter.pid
        assert pid is not None and pid != os.getpid()
        pooled = fitter.pooled_board([season.id], "all time", season.preset, 7)
        assert pooled == pooled_board_data(ladder.store, [season], "all time", season.preset, 7)
        with pytest.raises(FitterError, match="no season #9999"):
            fitter.season_board(9999)
        assert fitter.season_board(season.id) == board  # the same process, still fitting
        assert fitter.pid == pid
    finally:
        fitter.close()
    assert not alive(pid)
    with pytest.raises(FitterError, match="stopping"):
        fitter.season_board(season.id)


def test_the_fitting_process_gives_the_rating_chart_the_server_gives(ladder: Ladder) -> None:
    season = ladder.season
    assert season.id is not None
    fitter = Fitter(url_of(ladder.store))
    try:
        chart = fitter.season_history(season.id, full=False)
        assert chart == season_history_data(ladder.store, season, full=False)
        assert chart["games"] >= 4 and len(chart["series"]) == 4
        assert fitter.season_history(season.id) == season_history_data(ladder.store, season)
    finally:
        fitter.close()


class HeldFitter(Fitter):
    """The fitting process, each request noted and answered only once ``release`` is set."""

    def __init__(self, store: Store):
        super().__init__(url_of(store))
        self.asked: list[Any] = []
        self.release = threading.Event()

    def _call(self, request: tuple[Any, ...]) -> Any:
        self.asked.append(request[0])
        assert self.release.wait(120)
        return super()._call(request)


def test_the_rating_chart_is_refitted_in_the_fitting_process_not_in_the_server(
    ladder: Ladder, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The chart is stored with the board's fit: brought up to date in the server, it was
    the whole board refitted there (a second of CPU for a 300-game ladder, the interpreter's
    lock held in turns with the requests) besides the same refit in the fitting process."""
    fitter = HeldFitter(ladder.store)
    fitter.release.set()
    arena = Arena(ladder.store, fitter)
    try:
        before = arena.season_page(ladder.season)["history"]["games"]  # made here: the first
        here: list[Any] = []

        def in_the_server(*args: Any, **kwargs: Any) -> Any:
            here.append(args)
            return season_history_data(*args, **kwargs)

        monkeypatch.setattr(data, "season_history_data", in_the_server)
        ladder.play(1)

        def refitted() -> bool:
            return arena.season_page(ladder.season)["history"]["games"] == before + 1

        wait_for("the chart brought up to date", refitted, timeout=120)
        assert "history" in fitter.asked and "season" in fitter.asked
        assert here == []
    finally:
        fitter.close()


def test_a_new_game_changes_the_pages_once_and_a_background_refit_once_more(
    ladder: Ladder,
) -> None:
    """:attr:`Arena.generation` (part of a kept page's key beside the database's change
    token) stays as it is while a request makes the values of a new game — the database
    changed, every page's token with it — and moves when a stale board or chart is replaced
    in the background: only then must a page drawn from the stale one be made again."""
    fitter = HeldFitter(ladder.store)
    fitter.release.set()
    arena = Arena(ladder.store, fitter)
    try:
        page = arena.season_page(ladder.season)
        games = page["board"]["games"]
        generation = arena.generation
        fitter.release.clear()  # the refits wait: the board and chart stay stale meanwhile
        ladder.play(1)
        page = arena.season_page(ladder.season)  # progress, faults: made now, for this page
        assert page["progress"]["done"] == games + 1 and page["board"]["games"] == games
        arena.games(limit=1)
        wait_for("the refits asked for", lambda: "season" in fitter.asked)
        assert arena.generation == generation
        fitter.release.set()

        def refitted() -> bool:
            return arena.season_page(ladder.season)["board"]["games"] == games + 1

        wait_for("the board refitted in the background", refitted, timeout=120)
        assert arena.generation > generation
    finally:
        fitter.release.set()
        fitter.close()


def test_a_board_is_refitted_in_the_server_when_the_fitting_process_cannot(
    ladder: Ladder, tmp_path: Path
) -> None:
    fitter = Fitter(f"sqlite:///{tmp_path / 'no-such-folder' / 'arena.db'}")  # cannot open it
    arena = Arena(ladder.store, fitter)
    try:
        before = arena.season_board(ladder.season)["board"]["games"]
        ladder.play(1)
        arena.season_board(ladder.season)  # the stale board, and a refit in the background

        def refitted() -> bool:
            return arena.season_board(ladder.season)["board"]["games"] == before + 1

        wait_for("the board refitted in the server", refitted, timeout=120)
    finally:
        fitter.close()


@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGKILL], ids=["SIGTERM", "SIGKILL"])
def test_the_fitting_process_ends_with_the_server(
    ladder: Ladder, tmp_path: Path, how: signal.Signals
) -> None:
    port = free_port()
    with (tmp_path / "web.log").open("w") as log:
        server = subprocess.Popen(
            [sys.executable, "-c", CLI, "web", "--port", str(port)],
            cwd=ROOT,
            env=env_for(ladder.home),
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    url = f"http://127.0.0.1:{port}/season/{ladder.season.name}"
    workers: list[int] = []
    try:

        def answers() -> bool:
            try:
                return httpx.get(url, timeout=10).status_code == 200
            except httpx.HTTPError:
                assert server.poll() is None, (tmp_path / "web.log").read_text()
                return False

        wait_for("the server to answer", answers)
        ladder.play(1)

        def fitting() -> bool:
            httpx.get(url, timeout=10)  # a stale board: refitted in the fitting process
            workers[:] = fit_workers(server.pid)
            return bool(workers)

        wait_for("the server's fitting process", fitting)
        server.send_signal(how)
        server.wait(60)
        wait_for("the fitting process to end", lambda: not any(alive(p) for p in workers))
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
    assert "Traceback" not in (tmp_path / "web.log").read_text()
