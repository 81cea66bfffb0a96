"""An arena home for the challenges' tests and benchmark: members ann, bob, carl and dora (and
the admin ada), the four sample bots (the organiser's), ann's, bob's and carl's own bots (ann's
with a refused second version), and a two-player ladder of short games whose rules challenges
play."""

from __future__ import annotations

from pathlib import Path

from hegemon.leaderboard.accounts.users import add_user
from hegemon.leaderboard.registry import add_bot
from hegemon.leaderboard.store import BotRow, Store
from tests.helpers.league import hegemon, register_samples, using_home

PASSWORD = "a long enough password"
MEMBERS = ("ann", "bob", "carl", "dora")
OWN_BOTS = {
    "ann": ("annbot", "aggressive"),
    "bob": ("bobbot", "random"),
    "carl": ("carlbot", "continental"),
}
"""Each member's bot: its name and the sample bot it plays as."""
LADDER = "lad"


def challenge_arena(home: Path, turn_limit: int = 3) -> dict[str, int]:
    """Make the arena in ``home``; returns each bot name's active version id."""
    made = hegemon(
        "ladder", "create", LADDER, "--players", "2", "--rules", "two-player-classic",
        "--set", f"turn_limit={turn_limit}", home=home,
    )  # fmt: skip
    assert made.returncode == 0, made.stdout + made.stderr
    with using_home(home), Store() as store:
        users = {name: add_user(store, name, PASSWORD, "member") for name in MEMBERS}
        add_user(store, "ada", PASSWORD, "admin")
        ids = {b.name: b.id for b in register_samples(store) if b.id is not None}
        for member, (name, sample) in OWN_BOTS.items():
            bot = add_bot(store, name, sample, check=False).bot
            with store.session(write=True) as s:
                row = s.get(BotRow, bot.id)
                assert row is not None
                row.owner_id = users[member].id
                if member == "ann":  # a second version its check refused
                    s.add(BotRow(
                        name=name, version=2, command=row.command, content_hash="0" * 64,
                        language=row.language, owner_id=row.owner_id, state="refused",
                        reason="the check game crashed",
                    ))  # fmt: skip
            assert bot.id is not None
            ids[name] = bot.id
    return ids
