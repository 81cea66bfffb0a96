"""An independent oracle of the rules (docs/rules.md §1), and near misses of legal moves."""

from __future__ import annotations

from collections import deque

from hypothesis import strategies as st

from hegemon.referee import (
    Attack,
    Capital,
    Claim,
    Defend,
    Fortify,
    Occupy,
    Pass,
    Place,
    Trade,
)
from hegemon.referee.cards import is_set
from hegemon.referee.decisions import Kind


def reachable(game, seat, src, dst):
    owner, nbrs = game.owner, game.board.neighbours
    seen, queue = {src}, deque([src])
    while queue:
        t = queue.popleft()
        for n in nbrs[t]:
            if owner[n] == seat and n not in seen:
                seen.add(n)
                queue.append(n)
    return dst in seen


def is_int(x):
    return type(x) is int


def oracle(game, action) -> bool:
    """Whether the rules (docs/rules.md §1) allow ``action`` for the pending decision."""
    d = game.pending
    if d is None:
        return False
    seat, kind, size = d.player, d.kind, game.board.size
    owner, armies = game.owner, game.armies

    def territory(t):
        return is_int(t) and 0 <= t < size

    if type(action) is Pass:
        return (kind is Kind.TRADE and not d.forced) or kind in (Kind.ATTACK, Kind.FORTIFY)
    if kind is Kind.CLAIM:
        return type(action) is Claim and territory(action.territory) and owner[action.territory] < 0
    if kind is Kind.CAPITAL:
        return (
            type(action) is Capital
            and territory(action.territory)
            and owner[action.territory] == seat
        )
    if kind is Kind.PLACE:
        if (
            type(action) is not Place
            or not isinstance(action.placements, tuple)
            or not action.placements
        ):
            return False
        total = 0
        for pair in action.placements:
            if not (
                isinstance(pair, tuple)
                and len(pair) == 2
                and territory(pair[0])
                and owner[pair[0]] == seat
                and is_int(pair[1])
                and pair[1] >= 1
            ):
                return False
            total += pair[1]
        return total == d.armies
    if kind is Kind.TRADE:
        if type(action) is not Trade:
            return False
        cards, hand = action.cards, game.players[seat].cards
        if not (
            isinstance(cards, tuple)
            and len(cards) == 3
            and all(is_int(c) for c in cards)
            and len(set(cards)) == 3
            and all(c in hand for c in cards)
        ):
            return False
        if not is_set([game.board.card_insignia[c] for c in cards]):
            return False
        bonus = action.bonus_territory
        return is_int(bonus) and (
            bonus == -1 or (bonus in cards and bonus < size and owner[bonus] == seat)
        )
    if kind is Kind.ATTACK:
        if type(action) is not Attack:
            return False
        s, t, n = action.source, action.target, action.dice
        return (
            territory(s)
            and territory(t)
            and owner[s] == seat
            and owner[t] != seat
            and t in game.board.neighbours[s]
            and is_int(n)
            and 1 <= n <= min(3, armies[s] - 1)
        )
    if kind is Kind.DEFEND:
        return type(action) is Defend and is_int(action.dice) and 1 <= action.dice <= d.maximum
    if kind is Kind.OCCUPY:
        return (
            type(action) is Occupy
            and is_int(action.armies)
            and d.minimum <= action.armies <= d.maximum
        )
    if kind is Kind.FORTIFY:
        if type(action) is not Fortify:
            return False
        s, t, n = action.source, action.target, action.armies
        if not (
            territory(s)
            and territory(t)
            and s != t
            and owner[s] == seat
            and owner[t] == seat
            and is_int(n)
            and 1 <= n <= armies[s] - 1
        ):
            return False
        if game.rules.fortify == "adjacent":
            return t in game.board.neighbours[s]
        return reachable(game, seat, s, t)
    return False


def candidates(game, rng, legal_action):
    """Actions a careless or hostile bot might send now: near misses of a legal one."""
    size = game.board.size
    d = game.pending
    hand = game.players[d.player].cards

    def t():
        return rng.choice([rng.randrange(size), rng.randrange(size), -1, size, rng.randrange(size)])

    out = [
        Claim(t()),
        Place(((t(), rng.randint(0, 3)),)),
        Place(((t(), d.armies),)),
        Attack(t(), t(), rng.randint(0, 4)),
        Defend(rng.randint(0, 3)),
        Occupy(rng.randint(d.minimum - 1, d.maximum + 1) if d.maximum else rng.randint(0, 4)),
        Fortify(t(), t(), rng.randint(0, 5)),
        Pass(),
    ]
    if len(hand) >= 3:
        out.append(Trade(tuple(rng.sample(hand, 3)), rng.choice([-1, t()])))
    la = legal_action
    if type(la) is Attack:
        out += [Attack(la.source, la.target, la.dice + 1), Attack(la.source, t(), la.dice)]
    elif type(la) is Fortify:
        out += [Fortify(la.source, la.target, la.armies + 1), Fortify(la.source, t(), la.armies)]
    elif type(la) is Place:
        out += [Place((*la.placements, (t(), 1)))]
    return rng.sample(out, 3)


# single options overridden on top of the preset
OPTIONS = st.fixed_dictionaries(
    {},
    optional={
        "card_values": st.sampled_from(["escalating", "golden_cavalry", "insignia"]),
        "card_territory_bonus": st.sampled_from(["off", "per_set", "per_turn"]),
        "traded_cards": st.sampled_from(["bottom", "discard"]),
        "must_trade_at": st.integers(3, 10),
        "defender_dice": st.sampled_from(["choice", "max"]),
        "defender_two_dice_from": st.integers(2, 3),
        "elimination_trade": st.sampled_from(["immediate", "next_turn"]),
        "elimination_trade_at": st.integers(5, 6),
        "fortify": st.sampled_from(["adjacent", "connected"]),
        "setup": st.sampled_from(["claim", "deal"]),
        "first_player": st.sampled_from(["first_placer", "reroll", "random"]),
        "forced_trade": st.sampled_from(["one_set", "every_set"]),
        "destroyed_by_other": st.sampled_from(["fallback_24", "completed"]),
    },
)
