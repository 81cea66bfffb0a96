"""``hegemon db import-records`` (issue 36 item 1): an arena from before records lived in the
database moves its games' local records and logs in; a missing or damaged record is one line
and skipped, a second run carries on where the first stopped, and then the pages read every
game without its local folder."""

from __future__ import annotations

from pathlib import Path

from hegemon.leaderboard.store import Store
from hegemon.leaderboard.store.records import stored_log, stored_record
from hegemon.leaderboard.web.data import Arena
from tests.helpers.league import hegemon, home, saved_id  # noqa: F401
from tests.helpers.web import store_season

LOG = "hegemon: the bot started\nthinking about Kamchatka\n"


def import_records(home: Path) -> tuple[str, list[str]]:
    """Run the import: (its summary line, its problem lines); it never fails on a file."""
    done = hegemon("db", "import-records", home=home)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    return done.stdout.strip(), done.stderr.splitlines()


def test_old_local_records_move_into_the_database_and_a_bad_one_is_skipped(home):
    records = home / "old-records"
    with Store() as store:
        season = store_season(store, records, "old", 5, seed=3)  # stored the old way: files
        games = {m.number: (m, g) for m, g in store.games(saved_id(season))}
    texts = {n: Path(g.record_path).read_text(encoding="utf-8") for n, (_, g) in games.items()}
    logs = records / "old-1.logs"
    logs.mkdir()
    (logs / "seat-2.log").write_text(LOG, encoding="utf-8")
    Path(games[2][1].record_path).unlink()  # lost
    damaged = Path(games[3][1].record_path)
    damaged.write_text(texts[3][: len(texts[3]) // 2], encoding="utf-8")  # cut mid-line

    summary, problems = import_records(home)
    assert summary == "imported 3 record(s) and 1 log(s); 2 problem(s) above"
    assert len(problems) == 2, problems
    assert problems[0].startswith(f"game {games[2][1].id}: no record at ")
    assert problems[1].startswith(f"game {games[3][1].id}: ")
    assert "not a whole game record (line" in problems[1] and problems[1].endswith("skipped")

    damaged.write_text(texts[3], encoding="utf-8")  # put right: the next run takes it
    summary, problems = import_records(home)
    assert summary == "imported 1 record(s) and 0 log(s); 1 problem(s) above"
    assert len(problems) == 1 and "no record at" in problems[0]

    for number, (_, game) in games.items():  # the local folder is a cache no more needed
        if number != 2:
            Path(game.record_path).unlink()
    (logs / "seat-2.log").unlink()
    with Store() as store:
        for number, (match, game) in games.items():
            assert saved_id(game)
            expected = None if number == 2 else texts[number]
            assert stored_record(store, saved_id(match)) == expected
            assert Arena(store).record_text(saved_id(game)) == expected
        first = games[1]
        assert stored_log(store, saved_id(first[0]), 2) == LOG.encode()
        assert Arena(store).seat_log_text(saved_id(first[1]), 2) == LOG
        assert stored_log(store, saved_id(first[0]), 0) is None


def test_an_import_of_an_arena_with_nothing_to_import_says_so(home):
    with Store():
        pass
    assert import_records(home) == ("imported 0 record(s) and 0 log(s)", [])
