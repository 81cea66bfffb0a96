"""A team's bot in the ladder, on a real SQLite file: it keeps playing when the member who
submitted it is disabled, while another member of its team is enabled, and stops once none is;
a member's own bot stops when they are disabled."""

from __future__ import annotations

from hegemon.leaderboard.accounts.teams import accept, create_team, invite
from hegemon.leaderboard.accounts.users import add_user, set_disabled
from hegemon.leaderboard.ladder import ladder_entrants
from hegemon.leaderboard.ladder.entrants import entrant_ids
from hegemon.leaderboard.store import BotRow, Store
from tests.helpers.ladder import fake_bots
from tests.helpers.league import home, store  # noqa: F401  (fixtures)

PASSWORD = "a long enough password"


def _playing(store: Store) -> set[str]:
    """The names in the ladder, as the entrants and the matchmaker's ids both say."""
    names = {b.name for b in ladder_entrants(store)}
    with store.session() as s:
        ids = set(entrant_ids(s))
    assert ids == {b.id for b in ladder_entrants(store)}
    return names


def test_a_team_bot_plays_while_its_team_has_an_enabled_member(store: Store) -> None:
    fake_bots(store, 3)
    olga = add_user(store, "olga", PASSWORD, "member")
    mel = add_user(store, "mel", PASSWORD, "member")
    team = create_team(store, olga, "greens")
    invite(store, olga, "greens", "mel")
    accept(store, mel, "greens")
    with store.session(write=True) as s:
        for name, owner, team_id in (("bot01", mel.id, team.id), ("bot00", mel.id, None)):
            row = s.get(BotRow, store.find_bot(name).id)  # type: ignore[union-attr]
            assert row is not None
            row.owner_id, row.team_id = owner, team_id
    assert _playing(store) == {"bot00", "bot01", "bot02"}
    set_disabled(store, "mel", True)  # who submitted the team's bot: olga is still in greens
    assert _playing(store) == {"bot01", "bot02"}
    set_disabled(store, "olga", True)  # no member of greens is enabled now
    assert _playing(store) == {"bot02"}
    set_disabled(store, "mel", False)
    assert _playing(store) == {"bot00", "bot01", "bot02"}
