"""Bot versions' states: ``bot add`` stores an active version and retires the older one; a
queued version is checked by a runner's check game (real bot processes) and becomes active
only if it passes, else refused with the reason and its log; the check queue is claimed once."""

from __future__ import annotations

from pathlib import Path

import trio

from hegemon.leaderboard.arena.checks import check_next
from hegemon.leaderboard.registry import add_bot, pack_source, store_archive
from hegemon.leaderboard.registry.sources import find_source
from hegemon.leaderboard.store import Store
from hegemon.leaderboard.store.versions import ACTIVE, QUEUED, REFUSED, RETIRED
from tests.helpers.league import hegemon, home, store  # noqa: F401  (fixtures)

CRASH = "import sys\nprint('about to fail')\nsys.exit(3)\n"


def queue(store: Store, name: str, spec: str) -> int:
    """Store ``spec``'s files as a queued version of ``name``, as an upload does."""
    from hegemon.leaderboard import paths
    from hegemon.leaderboard.registry.archive import unpack
    from hegemon.leaderboard.registry.sources import content_hash

    source = find_source(spec)
    staging = paths.bots_dir() / "queued"
    staging.mkdir(parents=True)
    unpack(pack_source(source), staging)
    digest = content_hash(staging)
    staging.rename(paths.bot_dir(digest))
    store_archive(store, paths.bot_dir(digest), digest)
    bot = store.add_bot(name, source.command, digest, source.language, "test", state=QUEUED)
    assert bot.id is not None
    return bot.id


def test_bot_add_is_active_and_retires_the_older_version(store: Store) -> None:
    first = add_bot(store, "sam", "random", check=False).bot
    second = add_bot(store, "sam", "aggressive", check=False).bot
    states = {b.version: b.state for b in store.bots("sam")}
    assert (first.state, second.state) == (ACTIVE, ACTIVE)
    assert states == {1: RETIRED, 2: ACTIVE}


def test_a_queued_version_passing_its_check_becomes_active(store: Store) -> None:
    add_bot(store, "sam", "random", check=False)
    bot_id = queue(store, "sam", "aggressive")
    checked = trio.run(check_next, store, "runner-1")
    assert checked is not None and checked.id == bot_id
    assert checked.state == ACTIVE
    assert checked.reason.startswith("passed: place")
    assert {b.version: b.state for b in store.bots("sam")} == {1: RETIRED, 2: ACTIVE}
    assert trio.run(check_next, store, "runner-1") is None  # nothing left in the queue


def test_a_failing_version_is_refused_with_its_reason_and_log(store: Store, tmp_path: Path) -> None:
    add_bot(store, "sam", "random", check=False)
    crash = tmp_path / "crash.py"
    crash.write_text(CRASH)
    bot_id = queue(store, "sam", str(crash))
    checked = trio.run(check_next, store, "runner-1")
    assert checked is not None and checked.id == bot_id
    assert checked.state == REFUSED
    assert "start-up failure" in checked.reason or "crash" in checked.reason
    assert "about to fail" in (checked.check_log or "")
    older = store.find_bot("sam", 1)
    assert older is not None and older.state == ACTIVE  # the older version plays on


def test_a_check_claimed_by_one_runner_is_not_given_to_another(store: Store) -> None:
    bot_id = queue(store, "sam", "random")
    claimed = store.claim_check("runner-1")
    assert claimed is not None and claimed.id == bot_id
    assert store.claim_check("runner-2") is None
    assert store.finish_check(bot_id, "runner-2", True, "", None) is None  # not its claim
    assert store.release_checks("runner-1") == 1
    again = store.claim_check("runner-2")
    assert again is not None and again.id == bot_id


def test_an_admin_disables_a_version_and_enables_it_again(store: Store, home: Path) -> None:
    add_bot(store, "sam", "random", check=False)
    add_bot(store, "sam", "aggressive", check=False)
    done = hegemon("bot", "disable", "sam@v2", "--reason", "plays too slowly", home=home)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "sam@v2: disabled"
    second = store.find_bot("sam", 2)
    assert second is not None and (second.state, second.reason) == ("disabled", "plays too slowly")
    assert hegemon("bot", "enable", "sam@v1", home=home).stdout.strip() == "sam@v1: active"
    assert [b.state for b in store.bots("sam")] == [ACTIVE, "disabled"]
    unknown = hegemon("bot", "disable", "nobody", home=home)
    assert unknown.returncode == 2 and "unknown bot 'nobody'" in unknown.stderr
