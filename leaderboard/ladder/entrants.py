"""Who plays in the ladders: each bot name's active version."""

from __future__ import annotations

from ..accounts.users import list_users
from ..store import BotRow, Store
from ..store.versions import ACTIVE


def ladder_entrants(store: Store) -> list[BotRow]:
    """Each bot name's active version (its newest in the ``active`` state), by name, leaving out
    bots whose owner is disabled. A new version replaces the old one in matchmaking once its
    check passes; the old keeps its games and its history."""
    disabled = {user.id for user in list_users(store) if user.disabled}
    newest: dict[str, BotRow] = {}
    for bot in store.bots():
        if bot.state == ACTIVE and bot.owner_id not in disabled:
            newest[bot.name] = bot
    return list(newest.values())
