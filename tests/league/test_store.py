"""The league database on real SQLite files: round trips, migrations, errors, and the
claim/finish/void protocol the season runner relies on."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlmodel import SQLModel, select

from hegemon.leaderboard.seasons.schedule import make_schedule
from hegemon.leaderboard.store import (
    CLAIMED,
    CREATED,
    DONE,
    FINISHED,
    INITIAL_REVISION,
    PENDING,
    RUNNING,
    VOID,
    BotRow,
    GameOutcome,
    GameRow,
    MatchRow,
    SeasonRow,
    Store,
    StoreError,
    database_url,
    head_revision,
    upgrade,
)
from tests.helpers.league import saved_id


def match_row(store: Store, season_id: int, match_id: int) -> MatchRow:
    """The match ``match_id`` of the season, as the store has it now."""
    return next(m for m in store.matches(season_id) if m.id == match_id)


@pytest.fixture
def store(tmp_path):
    s = Store(tmp_path / "arena.db")
    yield s
    s.close()


def add_bots(store: Store, count: int = 4) -> list[BotRow]:
    return [
        store.add_bot(f"bot{i}", ["python", "bot.py"], f"{i:064x}", "python") for i in range(count)
    ]


def new_season(
    store: Store, name: str = "s1", players: int = 3, games: int = 6, bots: int = 4, **kw
) -> SeasonRow:
    ids = [saved_id(b) for b in store.bots() or add_bots(store, bots)]
    season = SeasonRow(
        name=name,
        preset="classic",
        options={"turn_limit": 0},
        players=players,
        games=games,
        startup_time=10,
        decision_time=2,
        time_bank=60,
        max_strikes=5,
        seed=(1 << 63) - 1,
        **kw,
    )
    return store.create_season(season, ids, make_schedule(ids, players, games, seed=7))


def outcome(n: int = 3) -> GameOutcome:
    return GameOutcome(
        "records/g.jsonl",
        list(range(1, n + 1)),
        [{"seat": 1, "bot": "bot1", "kind": "illegal", "detail": "x", "decision": 4}],
        "conquest",
        1.5,
        321,
    )


# ---------------------------------------------------------------------------------- basics
def test_round_trip(tmp_path):
    path = tmp_path / "arena.db"
    with Store(path) as store:
        season = new_season(store, games=5)
    with Store(path) as store:  # reopened from the file
        bots = store.bots()
        assert [(b.name, b.version, b.command, b.language) for b in bots] == [
            (f"bot{i}", 1, ["python", "bot.py"], "python") for i in range(4)
        ]
        assert bots[0].added_at.tzinfo is not None
        loaded = store.season_by_name("s1")
        assert loaded is not None and loaded.id == season.id
        assert loaded.seed == (1 << 63) - 1  # 63-bit seeds survive
        assert loaded.status == CREATED and loaded.games == 5 and loaded.keep_memory
        assert loaded.rule_set().preset == "classic"
        assert loaded.time_control().decision == 2 and loaded.time_control().max_strikes == 5
        assert [b.name for b in store.season_bots(saved_id(loaded))] == [
            "bot0",
            "bot1",
            "bot2",
            "bot3",
        ]
        matches = store.matches(saved_id(loaded))
        assert [m.number for m in matches] == [1, 2, 3, 4, 5]
        assert all(m.status == PENDING and len(m.seats) == 3 for m in matches)
        assert [m.seats for m in matches] == [
            list(s.seats) for s in make_schedule([saved_id(b) for b in bots], 3, 5, seed=7)
        ]
        assert store.seasons_using_bot(saved_id(bots[0]))[0].name == "s1"
        with store.session() as s:  # the plain session API
            assert s.exec(select(sa.func.count()).select_from(MatchRow)).one() == 5


def test_versions_count_up_per_name(store):
    first = store.add_bot("a", ["python", "a.py"], "1" * 64, "python")
    second = store.add_bot("a", ["python", "a.py"], "2" * 64, "python")
    other = store.add_bot("b", ["python", "b.py"], "3" * 64, "python")
    assert (first.version, second.version, other.version) == (1, 2, 1)
    assert store.find_bot("a").version == 2
    assert store.find_bot("a", 1).content_hash == "1" * 64
    assert store.find_bot_by_hash("a", "2" * 64).version == 2
    assert store.find_bot("zzz") is None
    assert [b.label for b in store.bots(latest_only=True)] == ["a@v2", "b@v1"]


def test_season_name_taken_writes_nothing(store):
    new_season(store)
    with pytest.raises(StoreError, match="already exists"):
        new_season(store)
    assert len(store.seasons()) == 1
    with store.session() as s:
        assert s.exec(select(sa.func.count()).select_from(MatchRow)).one() == 6


def test_remove_bot_refused_while_in_a_season(store):
    new_season(store)
    bot = store.bots()[0]
    with pytest.raises(StoreError, match="season"):
        store.remove_bot(bot.id)
    spare = store.add_bot("spare", ["python", "x.py"], "f" * 64, "python")
    store.remove_bot(spare.id)
    assert store.find_bot("spare") is None


# ---------------------------------------------------------------------------------- opening
def test_database_urls(tmp_path, monkeypatch):
    monkeypatch.delenv("HEGEMON_DB", raising=False)
    monkeypatch.setenv("HEGEMON_HOME", str(tmp_path / "home"))
    assert database_url(None).database == str(tmp_path / "home" / "arena.db")
    relative = database_url("x.db").database
    assert relative is not None and relative.endswith("/x.db")
    assert database_url("sqlite:///rel.db").database == "rel.db"
    assert database_url("postgresql://u@h/db").drivername == "postgresql+psycopg"
    assert database_url("postgres://u@h/db").drivername == "postgresql+psycopg"
    monkeypatch.setenv("HEGEMON_DB", "postgresql://u@h/env")
    assert database_url(None).database == "env"
    with pytest.raises(StoreError, match="unsupported database 'mysql://'"):
        database_url("mysql://u@h/db")


def test_default_location_is_created(tmp_path, monkeypatch):
    monkeypatch.delenv("HEGEMON_DB", raising=False)
    monkeypatch.setenv("HEGEMON_HOME", str(tmp_path / "home"))
    with Store() as store:
        assert store.revision() == head_revision()
    assert (tmp_path / "home" / "arena.db").is_file()


def test_create_false_refuses_a_missing_file(tmp_path):
    with pytest.raises(StoreError, match="no database at"):
        Store(tmp_path / "missing.db", create=False)
    assert not (tmp_path / "missing.db").exists()


def test_corrupt_file_is_one_line_and_untouched(tmp_path):
    path = tmp_path / "arena.db"
    junk = b"this is not a database, but it is somebody's file\n" * 100
    path.write_bytes(junk)
    with pytest.raises(StoreError) as info:
        Store(path)
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith(f"cannot open database sqlite:///{path}")
    assert "file is not a database" in message
    assert path.read_bytes() == junk
    assert sorted(p.name for p in tmp_path.iterdir()) == ["arena.db"]


def test_unconnectable_url_is_one_line():
    with pytest.raises(StoreError) as info:
        Store("postgresql://nobody:secret@127.0.0.1:1/x")
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith("cannot open database postgresql://nobody:***@127.0.0.1:1/x: ")
    assert "secret" not in message


def test_a_folder_is_not_a_database(tmp_path):
    with pytest.raises(StoreError, match="it is a folder"):
        Store(tmp_path)


# ---------------------------------------------------------------------------------- migrations
def test_models_match_the_migrations(store):
    with store.engine.connect() as conn:
        context = MigrationContext.configure(conn, opts={"compare_type": True})
        assert compare_metadata(context, SQLModel.metadata) == []


def test_opens_a_database_at_the_initial_revision(tmp_path):
    path = tmp_path / "old.db"
    engine = sa.create_engine(f"sqlite:///{path}")
    upgrade(engine, INITIAL_REVISION)
    with engine.begin() as conn:  # data written by the oldest schema, in plain SQL
        conn.execute(
            sa.text(
                "INSERT INTO bots (id, name, version, command, content_hash, language, source, "
                "added_at) VALUES (1, 'old', 1, '[\"python\", \"bot.py\"]', :h, 'python', '', "
                "'2024-01-02 03:04:05')"
            ),
            {"h": "a" * 64},
        )
        assert (
            conn.execute(sa.text("SELECT version_num FROM alembic_version")).scalar()
            == INITIAL_REVISION
        )
    engine.dispose()
    with Store(path) as store:
        assert store.revision() == head_revision()
        bot = store.find_bot("old")
        assert bot is not None
        assert bot.command == ["python", "bot.py"] and bot.added_at.year == 2024
        assert bot.added_at.tzinfo is not None
        store.add_bot("old", ["python", "bot.py"], "b" * 64, "python")
        newer = store.find_bot("old")
        assert newer is not None and newer.version == 2


def test_a_season_of_the_initial_schema_keeps_its_seeds_after_the_upgrade(tmp_path):
    """Revision 0002 widens seeds to 128 bits (stored as text) and adds the time increment;
    a season and a match written under 0001 read back unchanged."""
    path = tmp_path / "old.db"
    engine = sa.create_engine(f"sqlite:///{path}")
    upgrade(engine, INITIAL_REVISION)
    big = (1 << 63) - 1
    with engine.begin() as conn:
        conn.execute(
            sa.text(
                "INSERT INTO seasons (id, name, preset, options, players, games, startup_time, "
                "decision_time, time_bank, max_strikes, seed, fault_policy, keep_memory, "
                "duplicate, status, created_at) VALUES (1, 'old', 'classic', '{}', 4, 1, 10, 2, "
                "60, 5, :seed, 'forfeit', 1, 0, 'created', '2024-01-02 03:04:05')"
            ),
            {"seed": big},
        )
        conn.execute(
            sa.text(
                "INSERT INTO matches (id, season_id, number, table_number, seats, seed, status, "
                "attempts) VALUES (1, 1, 1, 0, '[1, 2, 3, 4]', :seed, 'pending', 0)"
            ),
            {"seed": big - 1},
        )
    engine.dispose()
    with Store(path) as store:
        season = store.get_season(1)
        assert season is not None and season.seed == big and season.time_increment == 0
        assert [m.seed for m in store.matches(1)] == [big - 1]


def test_a_newer_schema_is_refused(tmp_path):
    path = tmp_path / "new.db"
    Store(path).close()
    engine = sa.create_engine(f"sqlite:///{path}")
    with engine.begin() as conn:
        conn.execute(sa.text("UPDATE alembic_version SET version_num = '9999'"))
    engine.dispose()
    with pytest.raises(StoreError, match=r"newer hegemon .*9999"):
        Store(path)


# ------------------------------------------------------------------------------ the work protocol
def test_claims_go_in_order_and_run_out(store):
    season = new_season(store, games=3)
    first = store.claim_match(season.id, "w1")
    second = store.claim_match(season.id, "w2")
    third = store.claim_match(season.id, "w1")
    assert [first.number, second.number, third.number] == [1, 2, 3]
    assert (first.status, first.worker) == (CLAIMED, "w1")
    assert store.claim_match(season.id, "w3") is None
    stored = store.get_season(season.id)
    assert stored is not None and stored.status == RUNNING
    progress = store.progress(season.id)
    assert (progress.total, progress.pending, progress.claimed) == (3, 0, 3)
    assert progress.workers == {"w1": 2, "w2": 1}


def test_finish_stores_the_game_once(store):
    season = new_season(store, games=2)
    match = store.claim_match(season.id, "w1")
    assert store.finish_match(match.id, "w1", outcome())
    assert not store.finish_match(match.id, "w1", outcome())  # already done: not doubled
    done = match_row(store, saved_id(season), match.id)
    assert done.status == DONE
    [(m, game)] = store.games(season.id)
    assert m.id == match.id
    assert game.places == [1, 2, 3] and game.decisions == 321 and game.finish_reason == "conquest"
    assert game.faults[0]["kind"] == "illegal" and game.worker == "w1"
    stored = store.get_season(season.id)
    assert stored is not None and stored.status == RUNNING
    last = store.claim_match(season.id, "w1")
    assert store.finish_match(last.id, "w1", outcome())
    finished = store.get_season(season.id)
    assert finished.status == FINISHED and finished.finished_at is not None
    assert store.progress(season.id).complete


def test_finish_by_a_worker_without_the_claim_is_refused(store):
    season = new_season(store, games=2)
    match = store.claim_match(season.id, "w1")
    assert not store.finish_match(match.id, "w2", outcome())
    pending = store.matches(season.id, PENDING)[0]
    assert not store.finish_match(pending.id, "w1", outcome())  # never claimed
    assert store.games(season.id) == []


def test_a_stale_claim_is_taken_over(store):
    season = new_season(store, games=2)
    lost = store.claim_match(season.id, "crashed", stale_after_s=3600)
    assert store.claim_match(season.id, "w2", stale_after_s=3600).number == 2
    # Nothing pending; only the stale claim is left, and only with a short enough patience.
    assert store.claim_match(season.id, "w3", stale_after_s=3600) is None
    taken = store.claim_match(season.id, "w3", stale_after_s=0)
    assert taken.id == lost.id and taken.worker == "w3"
    assert not store.finish_match(lost.id, "crashed", outcome())  # the old worker lost it
    assert store.finish_match(lost.id, "w3", outcome())
    assert len(store.games(season.id)) == 1


def test_renewing_a_claim_keeps_it(store):
    season = new_season(store, games=1)
    match = store.claim_match(season.id, "w1")
    with store.session(write=True) as s:  # pretend the claim is an hour old
        row = s.get(MatchRow, match.id)
        row.claimed_at = row.claimed_at - timedelta(hours=1)
    assert store.renew_claim(match.id, "w1")
    assert store.claim_match(season.id, "w2", stale_after_s=600) is None
    assert not store.renew_claim(match.id, "w2")


def test_void_puts_the_match_back(store):
    season = new_season(store, games=2)
    match = store.claim_match(season.id, "w1")
    assert not store.void_match(match.id, "w2", "not mine")
    assert store.void_match(match.id, "w1", "disk full")
    again = match_row(store, saved_id(season), match.id)
    assert (again.status, again.attempts, again.last_error, again.worker) == (
        PENDING,
        1,
        "disk full",
        None,
    )
    assert not store.finish_match(match.id, "w1", outcome())  # the claim ended with the void
    assert store.claim_match(season.id, "w2").id == match.id  # played again first
    assert store.progress(season.id).attempts == 1


def test_void_gives_up_after_max_attempts(store):
    season = new_season(store, games=1)
    for attempt in range(1, 4):
        match = store.claim_match(season.id, "w1")
        assert store.void_match(match.id, "w1", f"arena fault {attempt}", max_attempts=3)
    gone = match_row(store, saved_id(season), match.id)
    assert (gone.status, gone.attempts) == (VOID, 3)
    assert store.claim_match(season.id, "w1") is None
    stored = store.get_season(season.id)
    assert stored is not None and stored.status == FINISHED
    assert store.progress(season.id).void == 1


def test_release_claims(store):
    season = new_season(store, games=3)
    store.claim_match(season.id, "w1")
    store.claim_match(season.id, "w1")
    store.claim_match(season.id, "w2")
    assert store.release_claims("w1") == 2
    progress = store.progress(season.id)
    assert (progress.pending, progress.claimed) == (2, 1)
    assert store.release_claims("w1") == 0


def test_one_game_per_match_in_the_schema(store):
    season = new_season(store, games=1)
    match = store.claim_match(season.id, "w1")
    assert store.finish_match(match.id, "w1", outcome())
    with pytest.raises(StoreError, match=r"(?i)unique"):
        with store.session(write=True) as s:
            s.add(GameRow(match_id=match.id, record_path="x", places=[1, 2, 3], faults=[]))


def test_concurrent_workers_never_share_a_match(tmp_path):
    path = tmp_path / "arena.db"
    with Store(path) as store:
        season = new_season(store, games=40)
    claimed: dict[str, list[int]] = {}
    errors: list[BaseException] = []

    def work(worker: str) -> None:
        try:
            with Store(path) as mine:
                got = claimed.setdefault(worker, [])
                while (match := mine.claim_match(saved_id(season), worker)) is not None:
                    got.append(saved_id(match))
                    assert mine.finish_match(saved_id(match), worker, outcome())
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(f"w{i}",)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    every = [m for ids in claimed.values() for m in ids]
    assert len(every) == len(set(every)) == 40
    with Store(path) as store:
        assert len(store.games(saved_id(season))) == 40
        stored = store.get_season(saved_id(season))
        assert stored is not None and stored.status == FINISHED


def test_game_outcome_from_a_runner_result():
    class Fault:
        seat, bot, kind, detail, decision = 2, "b", "timeout", "late", 9

    class Result:
        places, reason, duration, decisions = (2, 1, 3), "turn limit", 3.25, 77
        faults = (Fault(),)

    made = GameOutcome.from_result(Result(), "records/x.jsonl")
    assert made.places == (2, 1, 3) and made.finish_reason == "turn limit"
    assert made.faults == [
        {"seat": 2, "bot": "b", "kind": "timeout", "detail": "late", "decision": 9}
    ]


def test_a_secret_season_seed_is_shown_only_once_the_season_is_finished():
    """The season seed keys every game's dice: the CLI, the web pages and the API show a secret
    one only after the last game; a chosen (public) one always, marked as public."""
    from hegemon.leaderboard.store import FINISHED, RUNNING, SeasonRow
    from hegemon.referee.chance import new_seed

    secret = new_seed()
    season = SeasonRow(
        name="s",
        preset="classic",
        options={},
        players=4,
        games=1,
        startup_time=1,
        decision_time=1,
        time_bank=1,
        max_strikes=0,
        seed=secret,
        status=RUNNING,
    )
    assert season.seed_shown() == "secret"
    season.status = FINISHED
    assert season.seed_shown() == str(secret)
    season.seed, season.status = 7, RUNNING
    assert season.seed_shown() == "7 (public)"


def test_the_head_read_from_the_migration_files_is_alembics(tmp_path):
    # opening a database already at head skips alembic on this reading of the files
    from hegemon.leaderboard.store.database import _at_head, _script_head

    assert _script_head() == head_revision()
    engine = sa.create_engine(f"sqlite:///{tmp_path / 'a.db'}")
    assert not _at_head(engine)  # no schema yet
    upgrade(engine, INITIAL_REVISION)
    assert not _at_head(engine)
    upgrade(engine, "head")
    assert _at_head(engine)
    engine.dispose()
