"""A pinned version in the ladder's matchmaker, on a real SQLite file: after a pin only the
pinned version is seated in new matches, a match made before the pin is played as it was made,
unpinning gives the newest active version back, and a pinned version that may no longer play
(disabled by an admin) gives way to the newest active one."""

from __future__ import annotations

import pytest

from hegemon.leaderboard.ladder import fill_queue, ladder_entrants
from hegemon.leaderboard.store import DONE, PENDING, BotRow, Store
from hegemon.leaderboard.store.pins import PinError, set_pin
from hegemon.leaderboard.store.versions import DISABLED, REFUSED, RETIRED
from tests.helpers.ladder import drive, fake_bots, make_ladder, new_version
from tests.helpers.league import home, store  # noqa: F401  (fixtures)


def _seated(store: Store, season_id: int, after: int) -> list[list[int]]:
    """The seats of the ladder's matches numbered above ``after`` (made since)."""
    return [m.seats for m in store.matches(season_id) if m.number > after]


def _last_number(store: Store, season_id: int) -> int:
    return max(m.number for m in store.matches(season_id))


def test_after_a_pin_only_the_pinned_version_is_seated_in_new_matches(store: Store) -> None:
    fake_bots(store, 8)
    season = make_ladder(store)
    assert season.id is not None
    drive(store, season, 20)
    old = store.find_bot("bot03", 1)
    newer = new_version(store, "bot03")
    store.set_state(newer.id or 0, "active")  # its check passed: v1 retires
    assert old is not None and old.id is not None and newer.id is not None
    assert store.get_bot(old.id).state == RETIRED  # type: ignore[union-attr]
    drive(store, season, 8)
    fill_queue(store, season)  # the queue holds matches made before the pin
    queued = store.matches(season.id, PENDING)
    assert any(newer.id in m.seats for m in queued)  # a new version plays first
    before_pin = _last_number(store, season.id)

    pinned = set_pin(store, None, "bot03", 1, may_manage=True)  # a rollback to the retired v1

    assert (pinned.pinned, pinned.playing) == (1, 1)
    assert old.id in {b.id for b in ladder_entrants(store)}
    assert newer.id not in {b.id for b in ladder_entrants(store)}
    drive(store, season, 30)
    made = _seated(store, season.id, before_pin)
    assert made and all(newer.id not in seats for seats in made)
    assert sum(old.id in seats for seats in made) >= len(made) // 3  # v1 does play
    for match in queued:  # made before the pin: played with the version it was made with
        played = next(m for m in store.matches(season.id) if m.id == match.id)
        assert played.status == DONE and played.seats == match.seats

    set_pin(store, None, "bot03", None, may_manage=True)  # unpinned: the newest active again
    since = _last_number(store, season.id)
    drive(store, season, 20)
    made = _seated(store, season.id, since + 2)  # past the two queued under the pin
    assert any(newer.id in seats for seats in made)
    assert all(old.id not in seats for seats in made)


def test_a_pinned_version_an_admin_disables_gives_way_to_the_newest_active(store: Store) -> None:
    fake_bots(store, 6)
    newer = new_version(store, "bot02")
    old = store.find_bot("bot02", 1)
    assert old is not None and old.id is not None and newer.id is not None
    set_pin(store, None, "bot02", 1, may_manage=True)
    assert old.id in {b.id for b in ladder_entrants(store)}
    store.set_state(old.id, DISABLED, "plays illegal moves on purpose")
    entrants = {b.id for b in ladder_entrants(store)}
    assert newer.id in entrants and old.id not in entrants


def test_only_a_version_that_passed_its_check_can_be_pinned(store: Store) -> None:
    fake_bots(store, 4)
    refused = BotRow(
        name="bot01", version=2, command=["true"], content_hash="e" * 64, language="x",
        state=REFUSED, reason="the check game crashed",
    )  # fmt: skip
    with store.session(write=True) as s:
        s.add(refused)
    with pytest.raises(PinError, match=r"bot01@v2 is refused: the check game crashed") as exc:
        set_pin(store, None, "bot01", 2, may_manage=True)
    assert exc.value.status == 409
    with pytest.raises(PinError, match="bot01 has no version 7") as exc:
        set_pin(store, None, "bot01", 7, may_manage=True)
    assert exc.value.status == 404
    with pytest.raises(PinError, match="not your bot") as exc:
        set_pin(store, None, "bot01", 1, may_manage=False)
    assert exc.value.status == 403
    assert [b.label for b in ladder_entrants(store)] == [f"bot{i:02d}@v1" for i in range(4)]


def test_removing_a_pinned_version_removes_its_pin(store: Store) -> None:
    fake_bots(store, 4)
    newer = new_version(store, "bot01")
    old = store.find_bot("bot01", 1)
    assert old is not None and old.id is not None
    set_pin(store, None, "bot01", 1, may_manage=True)
    store.remove_bot(old.id)  # in no season yet: it may go, and its pin with it
    assert newer.id in {b.id for b in ladder_entrants(store)}
    with pytest.raises(PinError, match="bot01 has no version 1"):
        set_pin(store, None, "bot01", 1, may_manage=True)
