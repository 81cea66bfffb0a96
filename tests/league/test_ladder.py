"""Continuous ladders: ``hegemon ladder create``, the matchmaker (:func:`fill_queue`) and real
runners playing a ladder that never ends, on a real SQLite file."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlmodel import select

from hegemon.leaderboard.ladder import fill_queue, starve_limit
from hegemon.leaderboard.ladder.policy import SHARE_EVERY
from hegemon.leaderboard.registry import add_bot
from hegemon.leaderboard.store import DONE, PENDING, RUNNING, BotRow, Store
from tests.helpers.ladder import drive, fake_bots, make_ladder, new_version, past_games
from tests.helpers.league import (  # noqa: F401  (home, store: fixtures)
    ROOT,
    hegemon,
    home,
    one_line_error,
    register_samples,
    store,
)


def test_a_ladder_never_finishes_and_keeps_a_queue(store: Store) -> None:
    fake_bots(store, 6)
    season = make_ladder(store)
    assert season.id is not None
    drive(store, season, 30)
    found = store.get_season(season.id)
    assert found is not None and found.status == RUNNING  # never finished, queue emptied or not
    assert fill_queue(store, season) == 2
    assert len(store.matches(season.id, PENDING)) == 2
    assert fill_queue(store, season) == 0  # full: nothing more
    assert found.seed_shown() == "secret"  # the pending games' dice stay unknown


def test_no_entrant_starves_and_seats_are_balanced(store: Store) -> None:
    bots = fake_bots(store, 9)
    season = make_ladder(store)
    tables = drive(store, season, 160)
    limit = starve_limit(len(bots), 4)
    for bot in bots:
        seen = [n for n, t in enumerate(tables) if bot.id in t]
        gaps = [b - a for a, b in zip([-1, *seen], [*seen, len(tables)], strict=True)]
        assert max(gaps) <= limit, (bot.label, max(gaps), limit)
        seats = [t.index(bot.id) for t in tables if bot.id in t]
        counts = [seats.count(p) for p in range(4)]
        assert max(counts) - min(counts) <= max(3, len(seats) // 8), (bot.label, counts)


def test_a_new_version_replaces_the_old_and_plays_first(store: Store) -> None:
    fake_bots(store, 8)
    season = make_ladder(store)
    assert season.id is not None
    drive(store, season, 40)
    newer = new_version(store, "bot03")
    old = store.find_bot("bot03", 1)
    assert old is not None and newer.id is not None
    after = drive(store, season, 14)
    assert all(old.id not in t for t in after)  # replaced in matchmaking
    assert sum(newer.id in t for t in after[:12]) >= 10  # new versions first
    assert newer.id in {b.id for b in store.season_bots(season.id)}
    played = [g for m, g in store.games(season.id) if old.id in m.seats]
    assert len(played) > 0  # the old version keeps its games


@pytest.mark.parametrize(
    ("entrants", "history", "resting", "before", "tables"),
    [(9, 450, 0, 60, 200), (200, 1000, 100, 0, 60)],
)
def test_a_new_version_plays_first_and_then_takes_a_bounded_share(
    store: Store, entrants: int, history: int, resting: int, before: int, tables: int
) -> None:
    """However big the ladder, a new version sits at nearly every one of its first tables
    (overdue bots do not crowd it out), and then at no more than about half of them, though its
    interval stays wider than its neighbours' for many games: it does not take the ladder over
    until it has as many games as the others."""
    fake_bots(store, entrants)
    season = make_ladder(store)
    past_games(store, season, history, resting=resting)  # 200 games each, or 20
    drive(store, season, before)  # (with 200 entrants, 100 of them are overdue now)
    newer = new_version(store, "bot03")
    after = drive(store, season, tables)
    sat = [newer.id in t for t in after[:tables]]
    assert sum(sat[:12]) >= 10, sat[:12]  # new versions first
    assert sum(sat) <= 12 + (tables - 12) // SHARE_EVERY, sum(sat)  # then a bounded share
    if entrants == 9:  # nine entrants at four seats sit at 4 of 9 tables: it plays more
        assert sum(sat) > tables * 4 // 9


def test_the_kept_ratings_are_those_of_every_game_even_after_a_void(store: Store) -> None:
    """fill_queue reads only the games finished since its kept ratings; what it keeps is what
    taking in every game afresh gives, also after an admin voided a game it had taken in."""
    from hegemon.leaderboard.accounts.games import void_game
    from hegemon.leaderboard.ladder.matchmaker import ladder_ratings
    from hegemon.leaderboard.store.rating_fits import RatingFitRow

    fake_bots(store, 6)
    season = make_ladder(store)
    assert season.id is not None
    drive(store, season, 20)
    _, game = store.games(season.id)[5]
    assert game.id is not None
    void_game(store, game.id, by="admin")
    drive(store, season, 6)
    with store.session() as s:
        kept, _ = ladder_ratings(s, season.id)
    with store.session(write=True) as s:
        for row in s.exec(select(RatingFitRow)).all():
            s.delete(row)
    with store.session() as s:
        fresh, _ = ladder_ratings(s, season.id)
    assert kept.dump() == fresh.dump()
    assert sum(b.games for b in fresh.beliefs.values()) == 4 * (len(store.games(season.id)))


def test_the_matchmaker_is_deterministic_given_seed_and_results(tmp_path: Path) -> None:
    runs = []
    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
        with Store(tmp_path / folder / "arena.db") as store:
            fake_bots(store, 7)
            season = make_ladder(store)
            assert season.id is not None
            drive(store, season, 40)
            runs.append([(m.seats, m.seed) for m in store.matches(season.id)])
    assert runs[0] == runs[1]
    (tmp_path / "c").mkdir()
    with Store(tmp_path / "c" / "arena.db") as store:
        fake_bots(store, 7)
        season = make_ladder(store, seed=1 << 128 | 999)
        assert season.id is not None
        drive(store, season, 40)
        other = [(m.seats, m.seed) for m in store.matches(season.id)]
    assert other != runs[0]


def test_ladder_create_refuses_bad_input_in_one_line(home: Path) -> None:
    assert "bad ladder name" in one_line_error(hegemon("ladder", "create", "no spaces", home=home))
    error = one_line_error(hegemon("ladder", "create", "lad", "--players", "9", home=home))
    assert "--players" in error
    hegemon("ladder", "create", "lad", home=home)
    assert "already exists" in one_line_error(hegemon("ladder", "create", "lad", home=home))


@pytest.mark.timeout(600)
@pytest.mark.slow
def test_runners_play_a_ladder_and_a_new_version_joins(
    home: Path, store: Store, tmp_path: Path
) -> None:
    """Real runner processes (``hegemon season run``) playing real sample bots."""
    register_samples(store)
    created = hegemon("ladder", "create", "lad", "--set", "turn_limit=8", home=home)
    assert created.returncode == 0, created.stderr
    assert "4 entrants" in created.stdout
    run = hegemon("season", "run", "lad", "--stop-after", "3", "--quiet", home=home)
    assert run.returncode == 0, run.stderr + run.stdout
    season = store.season_by_name("lad")
    assert season is not None and season.id is not None and season.status == RUNNING
    assert len(store.matches(season.id, DONE)) == 3
    copy = tmp_path / "random2.py"
    copy.write_text((ROOT / "sample_bots" / "random.py").read_text() + "\n# version 2\n")
    newer = add_bot(store, "random", str(copy), check=False).bot
    assert newer.version == 2
    run = hegemon("season", "run", "lad", "--stop-after", "2", "--quiet", home=home)
    assert run.returncode == 0, run.stderr + run.stdout
    games = store.games(season.id)
    assert len(games) == 5
    assert any(newer.id in m.seats for m, _ in games[3:])
    status = hegemon("ladder", "status", "lad", home=home)
    assert "never ends" in status.stdout and "random" in status.stdout
    listed = hegemon("ladder", "list", home=home)
    assert "lad" in listed.stdout


def test_only_checked_versions_of_enabled_owners_enter_the_ladder(store: Store) -> None:
    """A submitted version plays only once its check passed (until then, and if refused, its
    name's previous active version keeps the seat); a disabled member's bots leave the ladder."""
    from hegemon.leaderboard.accounts.users import add_user, set_disabled
    from hegemon.leaderboard.ladder.entrants import ladder_entrants
    from hegemon.leaderboard.store.versions import QUEUED, REFUSED

    owner = add_user(store, "ann", "a long enough password", "member")
    bots = fake_bots(store, 3)
    with store.session(write=True) as s:
        mine = s.get(BotRow, bots[0].id)
        assert mine is not None
        mine.owner_id = owner.id
        for version, state in ((2, QUEUED), (3, REFUSED)):
            s.add(
                BotRow(
                    name="bot01",
                    version=version,
                    command=["true"],
                    content_hash=str(version) * 64,
                    language="x",
                    state=state,
                )
            )
    entrants = {(b.name, b.version) for b in ladder_entrants(store)}
    assert entrants == {("bot00", 1), ("bot01", 1), ("bot02", 1)}
    set_disabled(store, "ann", True)
    assert {b.name for b in ladder_entrants(store)} == {"bot01", "bot02"}
