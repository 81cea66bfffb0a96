"""Groups of bots the games can compare: the connected parts of "made a choice together".

Two bots are compared by the fit only through choice sets they were both in (one finished
ahead of the other in a game, directly or through others). Bots in different groups never
met that way, so their ratings rest on the prior alone against each other: a board ranks
them within their group only.
"""

from __future__ import annotations

from .games import Compiled


def groups(compiled: Compiled) -> dict[str, int]:
    """Each bot's group: 1 for the group with the most bots, then 2, … (equal sizes by their
    first bot's name); a bot that made no choice with anyone is a group of its own."""
    parent = list(range(compiled.n_bots))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    first: dict[int, int] = {}
    for member, chosen_in in zip(
        compiled.set_members.tolist(), compiled.member_set.tolist(), strict=True
    ):
        other = first.setdefault(chosen_in, member)
        a, b = root(member), root(other)
        if a != b:
            parent[max(a, b)] = min(a, b)
    parts: dict[int, list[str]] = {}
    for i, bot in enumerate(compiled.bots):  # bots are sorted: each part's first is its least
        parts.setdefault(root(i), []).append(bot)
    ranked = sorted(parts.values(), key=lambda names: (-len(names), names[0]))
    return {bot: number for number, names in enumerate(ranked, 1) for bot in names}
