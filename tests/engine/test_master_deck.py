"""Risiko! Master's deck (issue "every edition exactly as printed", item 4; seed 003,
``003_42a7c49e87aa0720.txt``; docs/rules.md §7): 44 cards of its own, whatever the world's
size, their sets still worth 8, 10 and 12, traded cards reshuffled when the deck runs out."""

from __future__ import annotations

from collections import Counter

import pytest

from hegemon.referee import Attack, Defend, Game, Occupy, Pass, Place, Trade, make_rules
from hegemon.referee.board import builtin_map
from hegemon.referee.compose import compose, draw_layout
from hegemon.referee.decisions import Decision, Kind
from hegemon.referee.decks import master_deck
from hegemon.referee.events import CardDrawn, Conquered, DeckReshuffled, Traded
from tests.helpers.game import arrange, give_cards, of, pending, setup_done

BASE, EXPERT, MASTER = "risiko-master-base", "risiko-master-expert", "risiko-master-master"
LEVELS = (BASE, EXPERT, MASTER)
DECK = 44  # seed 003, "COMPONENTI DEL GIOCO": "Un mazzo da 44 carte speciali."


@pytest.mark.parametrize("preset", LEVELS)
def test_every_level_plays_the_44_cards(preset):
    """Seed 003: "Un mazzo da 44 carte speciali" — not one card per territory: the default
    world has 60 territories, and the game holds 44 cards, every one of them once."""
    game = setup_done(preset)
    board = game.board
    assert board.size == 60 and board.card_count == DECK
    held = [c for p in game.players for c in p.cards]
    assert sorted(game.deck + game.discard + held) == list(range(DECK))


@pytest.mark.parametrize(("players", "seed"), [(3, 1), (4, 2), (5, 3), (6, 4)])
def test_every_composed_world_has_the_same_44(players, seed):
    """The deck comes with the box, not with the six quadrants laid: any world, any size."""
    board = compose(draw_layout(seed, players)).board
    assert board.card_count == DECK and board.own_deck
    assert [board.card_territory(c) for c in range(DECK)] == [-1] * DECK  # "carte speciali"


@pytest.mark.parametrize(
    ("insignia", "extra", "count"),
    [
        # seed 003 "TRIS DI CARTE": "Tre figure uguali ... Tre figure diverse" — three figures;
        # "Su alcune carte è presente anche la sagoma di uno o due carri" — some show 1 or 2
        # tanks; how many of each is not printed: hegemon's 14 per figure, 10 + 3 + 1
        ("infantry", 0, 10),
        ("infantry", 1, 3),
        ("infantry", 2, 1),
        ("cavalry", 0, 10),
        ("cavalry", 1, 3),
        ("cavalry", 2, 1),
        ("artillery", 0, 10),
        ("artillery", 1, 3),
        ("artillery", 2, 1),
        # "JOLLY" (the picture beside "CARTA CON CARRI SUPPLEMENTARI"): 2, with no tank
        ("wild", 0, 2),
    ],
)
def test_the_deck_is_made_as_the_data_file_says(insignia, extra, count):
    board = setup_done(BASE).board
    made = Counter((board.card_insignia[c], board.extra_armies(c)) for c in range(DECK))
    assert made[insignia, extra] == count
    assert Counter(master_deck().cards)[insignia, extra] == count
    assert sum(made.values()) == DECK


def _cards(board, *wanted: tuple[str, int]) -> tuple[int, int, int]:
    """Three distinct card ids with these (insignia, extra armies)."""
    chosen: list[int] = []
    for insignia, extra in wanted:
        chosen.append(
            next(
                c
                for c in range(board.card_count)
                if (board.card_insignia[c], board.extra_armies(c)) == (insignia, extra)
                and c not in chosen
            )
        )
    first, second, third = chosen
    return first, second, third


@pytest.mark.parametrize("preset", LEVELS)
@pytest.mark.parametrize(
    ("wanted", "value"),
    [
        # "Tre figure uguali = 8 armate Tre figure diverse = 10 Jolly più due figure uguali = 12"
        ((("infantry", 0), ("infantry", 0), ("infantry", 0)), 8),
        ((("artillery", 0), ("artillery", 0), ("artillery", 0)), 8),
        ((("infantry", 0), ("cavalry", 0), ("artillery", 0)), 10),
        ((("wild", 0), ("cavalry", 0), ("cavalry", 0)), 12),
        # "Questi carri supplementa-[ri]": the tanks on the cards come on top
        ((("cavalry", 1), ("cavalry", 2), ("cavalry", 0)), 8 + 3),
        ((("infantry", 2), ("cavalry", 1), ("artillery", 0)), 10 + 3),
        ((("wild", 0), ("artillery", 2), ("artillery", 2 - 1)), 12 + 3),
    ],
)
def test_sets_of_the_44_are_still_worth_8_10_12(preset, wanted, value):
    game = setup_done(preset)
    me = game.current
    cards = _cards(game.board, *wanted)
    give_cards(game, me, cards)
    game.pending = Decision(Kind.TRADE, me)
    reserve, armies = game.reserve, list(game.armies)
    (traded,) = of(game.apply(Trade(cards)), Traded)
    assert traded.value == value and game.reserve == reserve + value
    assert traded.bonus == 0 and game.armies == armies  # no card shows a territory
    assert sorted(game.discard) == sorted(cards)  # traded cards wait for the reshuffle


def _conquering_turn(game: Game) -> list:
    """The player to move places, conquers a neighbour and ends its turn; the turn's events."""
    me = game.current
    board = game.board
    a = max(range(board.size), key=lambda t: len(board.neighbours[t]))
    b = board.neighbours[a][0]
    owner = [(me + 1 + t % 3) % 4 for t in range(board.size)]
    owner[a] = me
    armies = [2] * board.size
    armies[a], armies[b] = 40, 1
    arrange(game, owner, armies)
    events = game.apply(Place(((a, pending(game).armies),)))
    while not of(events, Conquered):
        events += game.apply(Attack(a, b, 3))
        if pending(game).kind is Kind.DEFEND:
            events += game.apply(Defend(1))
    while game.current == me:
        d = pending(game)
        events += game.apply(Occupy(d.minimum) if d.kind is Kind.OCCUPY else Pass())
    return events


@pytest.mark.parametrize(
    ("in_deck", "in_discard", "drawn", "reshuffled"),
    [
        # "ha diritto a pescare una carta dal mazzo. Tuttavia, non si può prendere più di una
        # carta per turno": one card from the top of the deck
        (30, 5, True, None),
        # the rulebook says nothing of an empty deck: hegemon shuffles the traded cards into a
        # new one (traded_cards=discard) ...
        (0, 5, True, 5),
        # ... and with all 44 in the players' hands (there is no hand limit) nobody draws
        (0, 0, False, None),
    ],
)
def test_the_deck_is_drawn_then_reshuffled_then_exhausted(in_deck, in_discard, drawn, reshuffled):
    game = setup_done(BASE)
    me = game.current
    assert make_rules(BASE).traded_cards == "discard"
    every = list(range(DECK))
    game.deck, game.discard = every[:in_deck], every[in_deck : in_deck + in_discard]
    for p in game.players:
        p.cards = []
    game.players[(me + 1) % 4].cards = every[in_deck + in_discard :]
    events = _conquering_turn(game)
    assert len(of(events, CardDrawn)) == (1 if drawn else 0)
    assert [e.cards for e in of(events, DeckReshuffled)] == ([reshuffled] if reshuffled else [])
    held = [c for p in game.players for c in p.cards]
    assert sorted(game.deck + game.discard + held) == every  # no card made or lost


@pytest.mark.parametrize("preset", ["classic", "classic-2004", "two-player-classic"])
def test_the_other_editions_keep_a_card_per_territory(preset):
    """Every other edition is unchanged: card k < 42 shows territory k, two wild cards."""
    board = builtin_map(make_rules(preset).map)
    assert not board.own_deck and board.card_count == board.size + 2 == 44
    assert [board.card_territory(c) for c in range(board.card_count)] == [
        *range(board.size),
        -1,
        -1,
    ]
    assert board.card_label(0) == f"{board.name_of(0)} ({board.territories[0].insignia})"
