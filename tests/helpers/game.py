"""Shared helpers for the rules-engine tests (engine only: no I/O, no runner, no protocol).

The tests import these directly (``from conftest import ...``): policies that pick legal
actions, and small tools to build a board position and drive it through ``Game.apply``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from hegemon.referee import (
    Attack,
    Defend,
    Game,
    IllegalAction,
    Pass,
    Place,
    Trade,
    legal,
    make_rules,
)
from hegemon.referee.chance import Chance
from hegemon.referee.decisions import Decision, Kind
from hegemon.referee.editions.missions import Deck, MissionsPart
from hegemon.referee.events import (
    TurnStarted,
)
from hegemon.referee.policies import random_action
from hegemon.referee.view import view_for
from hegemon.referee.wire import codec

PRESET_NAMES = ("classic", "classic-2004", "classic-2000")


# ---------------------------------------------------------------------- policies
def aggressive_action(game, rng: random.Random):
    """Claim and place at random, attack whenever the odds look good (max dice), occupy at
    random, trade whenever possible: plays games that end by conquest and eliminate players."""
    d = game.pending
    kind = d.kind
    if kind is Kind.PLACE:
        own = legal.own_territories(game, d.player)
        return Place(((rng.choice(own), d.armies),))
    if kind is Kind.TRADE:
        return Trade(
            rng.choice(
                legal.trades(game.players[d.player].cards, game.board, game.rules.card_values)
            )
        )
    if kind is Kind.ATTACK:
        armies = game.armies
        options = [a for a in legal.attacks(game, d.player) if armies[a[0]] > armies[a[1]]]
        if not options and d.forced:  # Risiko! Master Expert: an attack is compulsory
            options = list(legal.attacks(game, d.player))
        if not options:
            return Pass()
        source, target, most = rng.choice(options)
        return Attack(source, target, most)
    if kind is Kind.DEFEND:
        return Defend(d.maximum)
    return random_action(game, rng)


POLICIES = {"random": random_action, "aggressive": aggressive_action}


# ---------------------------------------------------------------------- positions
def card_set(cards: Sequence[int]) -> tuple[int, int, int]:
    """Three cards as the tuple a ``Trade`` takes; fails the test if there are not three."""
    first, second, third = cards
    return first, second, third


def pending(game: Game) -> Decision:
    """The decision ``game`` waits for; fails the test if the game is over (none is pending)."""
    decision = game.pending
    assert decision is not None, "the game is over: no decision is pending"
    return decision


def setup_done(preset: str = "classic", players: int = 4, seed: int = 0, **options) -> Game:
    """A game whose set-up was played with default actions: the first turn is pending."""
    game = Game(make_rules(preset, options), players, seed)
    while game.round == 0:
        game.apply(game.default_action())
    return game


def arrange(game: Game, owner, armies=None) -> None:
    """Overwrite the board: ``owner[t]`` owns territory t with ``armies[t]`` (default 1)."""
    assert len(owner) == game.board.size
    game.owner[:] = list(owner)
    game.armies[:] = list(armies) if armies is not None else [1] * game.board.size
    game.territory_count[:] = [sum(1 for o in owner if o == p) for p in range(game.player_count)]


def give_cards(game: Game, seat: int, cards) -> None:
    """Put these cards (taken out of the deck/discard) into ``seat``'s hand, replacing it."""
    for p in game.players:
        for c in p.cards:
            game.deck.append(c)
        p.cards.clear()
    for c in cards:
        if c in game.deck:
            game.deck.remove(c)
        elif c in game.discard:
            game.discard.remove(c)
    game.players[seat].cards[:] = list(cards)


def cards_with(board, insignia: str, count: int, exclude=()) -> list[int]:
    """``count`` card ids showing ``insignia`` (``wild`` for wild cards)."""
    found = [
        c
        for c in range(board.card_count)
        if board.card_insignia[c] == insignia and c not in exclude
    ]
    assert len(found) >= count
    return found[:count]


def spread_owner(game: Game, seat: int, count: int, others) -> list[int]:
    """An owner list giving ``seat`` exactly ``count`` territories without a whole continent;
    the rest go round-robin to ``others``."""
    board = game.board
    mine: list[int] = []
    pools = [list(c.territories[1:]) for c in board.continents]  # the first stays someone else's
    while len(mine) < count:
        for pool in pools:
            if pool and len(mine) < count:
                mine.append(pool.pop())
    owner, i = [], 0
    for t in range(board.size):
        if t in mine:
            owner.append(seat)
        else:
            owner.append(others[i % len(others)])
            i += 1
    return owner


def pass_turn(game: Game) -> list:
    """Play the current turn with the least committal moves; return every event up to and
    including the next turn's start (or the game's end)."""
    events: list = []
    seat = game.current
    while not game.over:
        d = pending(game)
        if d.player == seat and d.kind is Kind.PLACE:
            own = legal.own_territories(game, seat)
            step = game.apply(Place(((own[0], d.armies),)))
        elif d.player == seat and d.kind is Kind.TRADE and d.forced:
            step = game.apply(game.default_action())
        else:
            step = game.apply(
                Pass()
                if d.kind in (Kind.TRADE, Kind.ATTACK, Kind.FORTIFY)
                else game.default_action()
            )
        events.extend(step)
        if any(type(e) is TurnStarted for e in step):
            break
    return events


def next_seat(game: Game) -> int:
    return (game.current + 1) % game.player_count


def snapshot(game: Game):
    """Everything an illegal action must leave untouched."""
    return (
        list(game.owner),
        list(game.armies),
        list(game.territory_count),
        [(list(p.cards), p.reserve, p.eliminated, p.forfeited, p.neutral) for p in game.players],
        list(game.deck),
        list(game.discard),
        game.pending,
        game.trade_count,
        game.round,
        game.current,
        game.places,
        game.reserve,
        len(game.history),
        game.rng.getstate(),
        game.bonus_this_turn,
        game.conquered_this_turn,
        game.phase,
    )


def of(events, cls):
    return [e for e in events if type(e) is cls]


def refused(game, action, *words):
    before = snapshot(game)
    with pytest.raises(IllegalAction) as info:
        game.apply(action)
    assert info.value.reason
    for w in words:
        assert w in info.value.reason
    assert snapshot(game) == before
    return info.value.reason


def mission_deck(game: Game) -> Deck | None:
    """The game's secret missions' deck (None: no missions)."""
    missions = game.part(MissionsPart)
    return missions.deck if missions else None


def mission_done(game: Game, seat: int, mission: int) -> bool:
    """Whether ``seat`` has achieved ``mission`` in the game's present position."""
    missions = game.part(MissionsPart)
    return missions.done(game, seat, mission) if missions else False


def scrambled(game: Game, seat: int, rng: random.Random) -> Game:
    """``game`` with every secret ``seat`` may not know replaced at random."""
    other = game.clone()
    deck = mission_deck(other)
    for p in other.players:
        if p.seat == seat:
            continue
        shown = set(other.declared[p.seat])
        revealed = other.rules.missions == "2004" and len(shown) == 3  # the fourth is public
        if deck is not None and not revealed:
            p.missions = [
                m if m in shown else rng.randrange(len(deck.missions)) for m in p.missions
            ]
    for p in other.players:
        if p.seat != seat and p.capital >= 0 and not other.capital_known[p.seat]:
            p.capital = rng.randrange(other.board.size)
    pool = other.deck + other.discard
    hands = [p for p in other.players if p.seat != seat]
    for p in hands:
        pool += p.cards
    rng.shuffle(pool)
    for p in hands:
        p.cards = [pool.pop() for _ in p.cards]
    other.discard = [pool.pop() for _ in other.discard]
    other.deck = pool
    other.seed = rng.getrandbits(63)
    other.rng = Chance(other.seed)
    return other


def request(game: Game, seat: int) -> bytes:
    return codec.view_to_proto(view_for(game, seat)).SerializeToString()
