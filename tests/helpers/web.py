"""Fixtures of the web tests: real game records played in-process by the engine's simple
policies (milliseconds each), stored as the results of a season's matches, so that every page,
the leaderboard and the replays come from the same real games; and the headless Chromium
(Debian's, driven by Playwright) with a tab that keeps every console error."""

from __future__ import annotations

import json
import random
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from hegemon.referee import Forfeit, Game, make_rules
from hegemon.referee.compose import draw_layout
from hegemon.referee.policies import attack_happy_action, random_action
from hegemon.referee.record import Recorder

if TYPE_CHECKING:
    from hegemon.leaderboard.store import SeasonRow


def play_record(
    seed: int, seats: list[str], turn_limit: int = 12, forfeit_at: int | None = None
) -> str:
    """A complete game record (attack-happy play); ``forfeit_at``: the referee forfeits the
    last seat at that decision, as after a fault."""
    game = Game(make_rules("classic", {"turn_limit": turn_limit}), len(seats), seed)
    recorder = Recorder(game, {"game_id": f"web-{seed}", "seats": seats, "map": "classic"})
    rng = random.Random(seed)
    while not game.over:
        if forfeit_at is not None and len(game.history) == forfeit_at:
            seat = len(seats) - 1
            recorder.lines.append(
                {"type": "fault", "seat": seat, "fault": "crash", "detail": "secret log", "n": 0}
            )
            recorder.apply(Forfeit(seat, "crash"))  # as the referee records it: the kind
            continue
        recorder.apply(attack_happy_action(game, rng))
    return recorder.text()


def store_season(store, records_dir: Path, name: str, games: int, seed: int) -> SeasonRow:
    """Register the sample bots, create a season of ``games`` matches and store a real
    in-process game (record on disk) as the result of each; returns the season."""
    from tests.helpers.league import SeasonSpec, create_season, register_samples

    bots = register_samples(store)
    season = create_season(store, SeasonSpec(name=name, games=games, seed=seed), bots)
    play_matches(store, season, records_dir, name)
    return season


def play_matches(store, season, records_dir: Path, name: str, limit: int | None = None) -> int:
    """Play (in-process) and store up to ``limit`` of the season's pending matches; returns
    how many. Every fifth match has a crash fault that forfeits its last seat."""
    from hegemon.leaderboard.store import GameOutcome

    labels_of = {b.id: b.label for b in store.season_bots(season.id)}
    records_dir.mkdir(parents=True, exist_ok=True)
    played = 0
    while limit is None or played < limit:
        match = store.claim_match(season.id, "web-test")
        if match is None:
            break
        labels = [labels_of[b] for b in match.seats]
        forfeit = 40 if match.number % 5 == 0 else None
        text = play_record(match.seed % 2**32, labels, forfeit_at=forfeit)
        path = records_dir / f"{name}-{match.number}.jsonl"
        path.write_text(text, encoding="utf-8")
        result = json.loads(text.splitlines()[-1])
        seat = len(labels) - 1
        faults = (
            [{"seat": seat, "bot": labels[seat], "kind": "crash", "detail": "x", "decision": 40}]
            if forfeit
            else []
        )
        outcome = GameOutcome(str(path), result["places"], faults, result["reason"], 0.1, 100)
        assert store.finish_match(match.id, "web-test", outcome)
        played += 1
    return played


# ---------------------------------------------------------------------------------- browser
CHROMIUM_NAMES = ("chromium", "chromium-browser")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    executable = next((p for p in map(shutil.which, CHROMIUM_NAMES) if p), None)
    if executable is None:
        pytest.fail("the web tests need Debian's chromium: apt-get install chromium")
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=executable, args=["--no-sandbox"])
        yield chromium
        chromium.close()


class Page:
    """A browser tab that keeps every console error and uncaught exception."""

    def __init__(self, browser: Any, shots: Path, width: int = 1280, height: int = 900):
        self.page = browser.new_page(viewport={"width": width, "height": height})
        self.errors: list[str] = []
        self.shots = shots
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))

    def open(self, url: str, shot: str) -> Any:
        response = self.page.goto(url)
        assert response is None or response.ok, f"{url}: HTTP {response.status}"
        self.page.screenshot(path=str(self.shots / f"{shot}.png"), full_page=True)
        assert self.errors == [], f"{url}: {self.errors}"
        return self.page

    def close(self) -> None:
        self.page.close()


@pytest.fixture
def tab(browser: Any, tmp_path: Path) -> Iterator[Page]:
    """A fresh tab (its screenshots in the test's tmp folder), closed after the test."""
    page = Page(browser, tmp_path)
    yield page
    page.close()


def territories(page: Any) -> list[tuple[int, int]]:
    """(owner, armies) of each territory as the viewer draws it."""
    return [
        tuple(x)
        for x in page.eval_on_selector_all(
            "#rp-map g.territory",
            "gs => gs.map(g => [Number(g.dataset.owner), Number(g.dataset.armies)])",
        )
    ]


WORLD = draw_layout(3, 4).spec


def master_record(seed: int) -> str:
    game = Game(make_rules("risiko-master-master", {"map": WORLD, "turn_limit": 6}), 4, seed)
    recorder = Recorder(game, {"game_id": f"master-{seed}", "seats": ["a", "b", "c", "d"]})
    rng = random.Random(seed)
    while not game.over:
        recorder.apply(random_action(game, rng))
    return recorder.text()


def sign_in(page: Any, name: str, password: str) -> None:
    """Sign in through the sign-in form of the open ``page`` (``/login``)."""
    page.fill("input[name=name]", name)
    page.fill("input[name=password]", password)
    page.click("form[action='/login'] button")
