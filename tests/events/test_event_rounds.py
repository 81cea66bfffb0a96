"""A final event in a real SQLite file: its entrants frozen at entry (the top of a ladder's
board, or the versions named), its next round made once by whichever of two racing runners
sees a round finish, its end stored once with its standings and its seed revealed, and the
entrants' owners told. Games are "finished" as a runner would store them (no bot processes:
the e2e test plays real ones)."""

from __future__ import annotations

import hashlib
import random
import threading
from pathlib import Path
from typing import Any

import pytest

from hegemon.leaderboard.accounts.users import add_user
from hegemon.leaderboard.events.progress import advance_events, load
from hegemon.leaderboard.events.setup import EventPlan, create_event
from hegemon.leaderboard.events.view import event_view
from hegemon.leaderboard.notify.notices import notices_of
from hegemon.leaderboard.seasons.setup import SetupError
from hegemon.leaderboard.store import FINISHED, PENDING, GameOutcome, Store
from tests.helpers.ladder import drive, fake_bots, make_ladder
from tests.helpers.league import home, store  # noqa: F401  (fixtures)

RUNNERS = 2


def finish_round(store: Store, season_id: int, rng: random.Random) -> int:
    """Finish every pending match of the event with a random order, as a runner stores it."""
    done = 0
    while (match := store.claim_match(season_id, "test-runner")) is not None:
        assert match.id is not None
        places = list(range(1, len(match.seats) + 1))
        rng.shuffle(places)
        assert store.finish_match(match.id, "test-runner", GameOutcome("", places))
        done += 1
    return done


def shown(store: Store, name: str) -> dict[str, Any]:
    """The event as its page and ``event show --json`` show it (it must exist)."""
    view = event_view(store, name)
    assert view is not None
    return view


def race(db: Path) -> list[list[object]]:
    """:func:`advance_events` called by ``RUNNERS`` threads at once, each with its own
    connection to the file (as runners in separate processes have): what each one did."""
    start = threading.Barrier(RUNNERS)
    found: list[list[object]] = [[] for _ in range(RUNNERS)]

    def runner(i: int) -> None:
        with Store(db) as own:
            start.wait()
            found[i] = list(advance_events(own))

    threads = [threading.Thread(target=runner, args=(i,)) for i in range(RUNNERS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return found


def test_a_knockout_advances_once_per_round_under_racing_runners(store: Store, home: Path):
    bots = fake_bots(store, 8)
    owner = add_user(store, "olga", "a long password 1", "member")
    with store.session(write=True) as s:
        bots[0].owner_id = owner.id
        s.add(bots[0])
    plan = EventPlan(
        "cup", players=4, format="knockout", advance=2, bots=",".join(b.label for b in bots)
    )
    created = create_event(store, plan)
    season_id = created.season.id
    assert season_id is not None
    assert [b.id for b in created.entrants] == [b.id for b in bots]  # frozen, in order
    # two tables of 4, each in its 4 seat rotations sharing one dice seed
    first = store.matches(season_id)
    assert len(first) == 8
    assert len({(m.table_number, m.seed) for m in first}) == 2
    assert shown(store, "cup")["seed"] == "secret"

    rng = random.Random(5)
    db = home / "arena.db"
    assert race(db) == [[], []]  # nothing to do while round 1 is to play
    finish_round(store, season_id, rng)
    waiting = store.get_season(season_id)
    assert waiting is not None and waiting.status != FINISHED  # an event waits for its rounds
    steps = race(db)
    assert sorted(len(s) for s in steps) == [0, 1]  # exactly one runner made round 2
    second = store.matches(season_id, PENDING)
    assert len(second) == 4 and len({frozenset(m.seats) for m in second}) == 1
    view = shown(store, "cup")
    going = {b for t in view["rounds"][0]["tables"] for b in t["advancing"]}
    assert len(going) == 4 and set(view["rounds"][1]["tables"][0]["bots"]) == going

    finish_round(store, season_id, rng)
    steps = race(db)
    assert sorted(len(s) for s in steps) == [0, 1]  # ended once
    season = store.get_season(season_id)
    assert season is not None and season.status == FINISHED
    state = load(store, "cup")
    assert state is not None and state.event.standings is not None
    assert len(state.event.standings) == 8
    view = shown(store, "cup")
    assert view["winner"] == view["rounds"][1]["tables"][0]["order"][0]
    # the seed is revealed, and matches the hash published at creation
    seed = int(view["seed"])
    assert hashlib.sha256(f"hegemon-seed:{seed}".encode()).hexdigest() == view["seed_hash"]
    # olga, who owns one entrant, heard its place once
    told = [n for n in notices_of(store, owner.id or 0) if n.kind == "event.results"]
    assert len(told) == 1
    place = next(r["place"] for r in view["standings"] if r["bot_id"] == bots[0].id)
    assert told[0].title == f"cup: {bots[0].label} placed {place} of 8"
    assert advance_events(store) == []  # nothing after the end


def test_a_swiss_plays_its_rounds_without_repeating_a_table(store: Store):
    bots = fake_bots(store, 4)
    plan = EventPlan(
        "swiss", players=2, rules="two-player-classic", format="swiss", rounds=3, rotate=False,
        bots=" ".join(b.label for b in bots),
    )  # fmt: skip
    season_id = create_event(store, plan).season.id
    assert season_id is not None
    rng = random.Random(2)
    while finish_round(store, season_id, rng):
        advance_events(store)
    view = shown(store, "swiss")
    tables = [frozenset(t["bots"]) for r in view["rounds"] for t in r["tables"]]
    assert len(view["rounds"]) == 3 and len(tables) == 6 == len(set(tables))
    assert view["final"] and sum(r["games"] for r in view["standings"]) == 12


def test_the_top_of_a_ladder_enters_by_its_board(store: Store):
    from hegemon.leaderboard.boards import board

    fake_bots(store, 6)
    ladder = make_ladder(store)
    drive(store, ladder, 24)
    plan = EventPlan("top4", format="round-robin", ladder="lad", top=4)
    created = create_event(store, plan)
    ranked = [r.bot_id for r in board(store, ladder).rows]
    assert [b.id for b in created.entrants] == ranked[:4]
    assert created.event.source == "the top 4 of ladder lad"
    assert len(store.matches(created.season.id or 0)) == 4  # one table of 4, its 4 rotations


@pytest.mark.parametrize(
    ("plan", "said"),
    [
        (EventPlan("a", players=4, bots="bot00,bot01,bot02,bot03,bot04,bot05"), "try 4, 16, 64"),
        (
            EventPlan("a", players=4, format="swiss", bots="bot00,bot01,bot02,bot03,bot04"),
            "multiple of 4",
        ),
        (EventPlan("a", format="league", bots="bot00"), "unknown format 'league'"),
        (EventPlan("a", bots="bot00,bot00,bot01,bot02"), "lists bot00@v1 twice"),
        (EventPlan("a", ladder="nope", top=4), "no ladder named 'nope'"),
        (EventPlan("a", ladder="nope", top=4, bots="bot00"), "one way"),
        (EventPlan("a b", bots="bot00"), "bad event name"),
    ],
)
def test_bad_events_are_refused_in_one_line_and_nothing_is_stored(store: Store, plan, said):
    fake_bots(store, 6)
    with pytest.raises(SetupError, match=said) as refused:
        create_event(store, plan)
    assert "\n" not in str(refused.value)
    assert store.seasons() == []
