"""Names that look alike are one name (``store.names``): the skeleton itself, and a database
whose users and bots already have look-alike names (made before the rule) migrated so that
they keep working while no new look-alike can be added."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from hegemon.leaderboard.accounts import AccountError
from hegemon.leaderboard.accounts.passwords import hash_password
from hegemon.leaderboard.accounts.users import add_user, authenticate
from hegemon.leaderboard.store import Store, database_url, upgrade, utcnow
from hegemon.leaderboard.store.bots import NameTaken
from hegemon.leaderboard.store.models import UTCDateTime
from hegemon.leaderboard.store.names import is_name, skeleton


@pytest.mark.parametrize(
    "name, like",
    [
        ("RANDOM", "random"),
        ("Random", "random"),
        ("rand0m", "random"),
        ("p1anner", "planner"),
        ("PLANNER", "planner"),
        ("ALICE", "alice"),
        ("AIice", "alice"),  # a capital I for the l
        ("a1ice", "alice"),
        ("modern", "modem"),  # rn for m
        ("\uff41\uff4c\uff49\uff43\uff45", "alice"),  # fullwidth letters, NFKC
    ],
)
def test_look_alikes_share_a_skeleton(name, like):
    assert skeleton(name) == skeleton(like)


@pytest.mark.parametrize("name, other", [("random", "randon"), ("alice", "alicia"), ("a-b", "ab")])
def test_different_names_keep_different_skeletons(name, other):
    assert skeleton(name) != skeleton(other)


@pytest.mark.parametrize("text", ["alice\n", "alice ", "", "-x", "a" * 65, "al ice", "\u0430lice"])
def test_a_name_is_the_whole_string(text):
    assert not is_name(text)


LEGACY_USERS = {"bob": "bob's long password", "BOB": "BOB's other long password"}
LEGACY_BOTS = ("Random", "random")


def legacy_database(path) -> None:
    """A database at the revision before skeletons, holding look-alike users and bots."""
    engine = sa.create_engine(database_url(path))
    try:
        upgrade(engine, "0008_ladder")
        users = sa.table(
            "users",
            sa.column("name"),
            sa.column("role"),
            sa.column("password_hash"),
            sa.column("disabled"),
            sa.column("created_at", UTCDateTime),
        )
        bots = sa.table(
            "bots",
            *(sa.column(c) for c in ("name", "version", "content_hash", "language", "source")),
            sa.column("command", sa.JSON),
            sa.column("added_at", UTCDateTime),
        )
        with engine.begin() as conn:
            for name, password in LEGACY_USERS.items():
                conn.execute(
                    users.insert().values(
                        name=name,
                        role="member",
                        password_hash=hash_password(password),
                        disabled=False,
                        created_at=utcnow(),
                    )
                )
            for name in LEGACY_BOTS:
                conn.execute(
                    bots.insert().values(
                        name=name,
                        version=1,
                        content_hash="0" * 64,
                        language="python",
                        source="",
                        command=["python", "bot.py"],
                        added_at=utcnow(),
                    )
                )
    finally:
        engine.dispose()


def test_names_alike_from_before_the_rule_keep_working_and_no_new_one_joins_them(tmp_path):
    path = tmp_path / "arena.db"
    legacy_database(path)
    with Store(path) as store:  # migrated to the head
        for name, password in LEGACY_USERS.items():
            user = authenticate(store, name, password)
            assert user is not None and user.name == name
        with pytest.raises(AccountError, match="looks like bob's"):
            add_user(store, "B0b", "a third long password", "member")
        # each legacy bot name gets new versions; a new look-alike does not get in
        for name in LEGACY_BOTS:
            added = store.add_bot(name, ["python", "bot.py"], "1" * 64, "python")
            assert (added.name, added.version) == (name, 2)
        with pytest.raises(NameTaken, match="looks like"):
            store.add_bot("rand0m", ["python", "bot.py"], "1" * 64, "python")
        assert store.find_bot("rand0m") is None
