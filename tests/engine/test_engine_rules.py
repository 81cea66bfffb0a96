"""The rulebooks' own examples, table-driven, played through ``Game.apply`` (docs/rules.md §1)."""

from __future__ import annotations

import pytest

from hegemon.referee import (
    Attack,
    Claim,
    Defend,
    Forfeit,
    Fortify,
    Game,
    GameSetupError,
    IllegalAction,
    Occupy,
    Pass,
    Place,
    Trade,
    make_rules,
)
from hegemon.referee.cards import escalating_value, golden_cavalry_value
from hegemon.referee.chance import give_dice
from hegemon.referee.decisions import Kind
from hegemon.referee.events import (
    Battle,
    CardDrawn,
    Claimed,
    Conquered,
    Dealt,
    DeckReshuffled,
    Eliminated,
    FirstPlayer,
    Fortified,
    GameOver,
    Occupied,
    Placed,
    Reinforced,
    Traded,
    TurnStarted,
)
from hegemon.referee.formulas import continents_held
from tests.helpers.game import (
    arrange,
    card_set,
    cards_with,
    give_cards,
    next_seat,
    of,
    pass_turn,
    pending,
    refused,
    setup_done,
    spread_owner,
)


def place_all_on(game, territory):
    d = pending(game)
    assert d.kind is Kind.PLACE and d.player == game.current
    return game.apply(Place(((territory, d.armies),)))


def conquer(game, source, target, dice=3):
    """Attack until ``target`` falls; answer defence with the most dice. Events of it all."""
    events = []
    attacker = game.current
    while True:
        assert pending(game).kind is Kind.ATTACK and pending(game).player == attacker
        events += game.apply(Attack(source, target, min(dice, game.armies[source] - 1)))
        if game.pending is not None and pending(game).kind is Kind.DEFEND:
            events += game.apply(Defend(pending(game).maximum))
        if of(events, Conquered):
            return events


def duel_position(preset="classic", seed=3, **options):
    """The current seat ``me`` holds Ukraine (50 armies) beside ``foe``'s only territory, Ural
    (1 army); ``third`` owns everything else. Returns (game, me, foe, third, ukraine, ural)."""
    game = setup_done(preset, seed=seed, **options)
    me = game.current
    foe, third = (me + 1) % 4, (me + 2) % 4
    b = game.board
    ukraine, ural = b.index("Ukraine"), b.index("Ural")
    owner = [third] * b.size
    owner[ukraine], owner[ural] = me, foe
    owner[b.index("Alaska")] = (me + 3) % 4
    armies = [2] * b.size
    armies[ukraine], armies[ural] = 50, 1
    arrange(game, owner, armies)
    return game, me, foe, third, ukraine, ural


# ---------------------------------------------------------------------- reinforcements
@pytest.mark.parametrize(
    "territories, armies",
    [
        (13, 4),
        (5, 3),  # seed 000
        (17, 5),
        (4, 3),  # seed 001
        (11, 3),
        (14, 4),  # seeds 004, 002
        (8, 3),
        (9, 3),
        (12, 4),
        (1, 3),
        (20, 6),
    ],
)
@pytest.mark.parametrize("preset", ["classic", "classic-2004", "classic-2000"])
def test_reinforcements_from_territories(preset, territories, armies):
    game = setup_done(preset, seed=territories)
    seat = next_seat(game)
    others = [p for p in range(4) if p != seat]
    arrange(game, spread_owner(game, seat, territories, others))
    assert continents_held(game.board, game.owner, seat) == []
    assert game.reinforcements(seat) == (armies, 0)
    events = pass_turn(game)
    assert of(events, TurnStarted)[-1].player == seat
    assert of(events, Reinforced)[-1] == Reinforced(seat, armies, 0)
    assert game.pending == pending(game).__class__(Kind.PLACE, seat, armies=armies)


@pytest.mark.parametrize(
    "continents, bonus",
    [
        (["Australia"], 2),
        (["South America"], 2),
        (["Africa"], 3),
        (["Europe"], 5),
        (["North America"], 5),
        (["Asia"], 7),
        (["Australia", "South America", "Africa"], 7),
    ],
)
def test_continent_bonus_for_whole_continents_at_the_start_of_the_turn(continents, bonus):
    game = setup_done("classic", seed=1)
    seat = next_seat(game)
    b = game.board
    others = [p for p in range(4) if p != seat]
    mine = {t for c in b.continents if c.name in continents for t in c.territories}
    owner = [seat if t in mine else others[t % 3] for t in range(b.size)]
    arrange(game, owner)
    events = pass_turn(game)
    per_territory = max(3, len(mine) // 3)
    assert of(events, Reinforced)[-1] == Reinforced(seat, per_territory, bonus)
    assert pending(game).armies == per_territory + bonus


def test_a_continent_missing_one_territory_gives_no_bonus():
    game = setup_done("classic", seed=1)
    seat = next_seat(game)
    b = game.board
    asia = set(b.continents[[c.name for c in b.continents].index("Asia")].territories)
    asia.discard(b.index("Siam"))
    owner = [seat if t in asia else (seat + 1) % 4 for t in range(b.size)]
    owner[b.index("Alaska")] = (seat + 2) % 4
    owner[b.index("Peru")] = (seat + 3) % 4
    arrange(game, owner)
    events = pass_turn(game)
    assert of(events, Reinforced)[-1] == Reinforced(seat, 3, 0)


# ---------------------------------------------------------------------- trading (seed 001)
def trading_position(cards, preset="classic-2000", **options):
    """The next seat's turn starts holding ``cards``; none of them shows one of its territories."""
    options.setdefault("card_values", "insignia")
    game = setup_done(preset, seed=11, **options)
    seat = next_seat(game)
    b = game.board
    others = [p for p in range(4) if p != seat]
    free = [t for t in range(b.size) if t not in cards]
    owner = [seat] * b.size
    for i, t in enumerate([c for c in cards if c < b.size] + free[:3]):
        owner[t] = others[i % 3]
    arrange(game, owner)
    give_cards(game, seat, cards)
    events = pass_turn(game)
    assert of(events, TurnStarted)[-1].player == seat
    return game, seat


def test_3_cavalry_and_1_infantry_need_not_be_traded():
    board = setup_done().board
    hand = cards_with(board, "cavalry", 3) + cards_with(board, "infantry", 1)
    game, seat = trading_position(hand)
    d = pending(game)
    assert d.kind is Kind.TRADE and d.player == seat and not d.forced
    events = game.apply(Pass())
    assert not of(events, Traded)
    assert pending(game).kind is Kind.PLACE
    assert sorted(game.players[seat].cards) == sorted(hand)


def test_3_cavalry_are_worth_6():
    board = setup_done().board
    cav = cards_with(board, "cavalry", 3)
    game, seat = trading_position(cav + cards_with(board, "infantry", 1))
    before = sum(game.reinforcements(seat))
    events = game.apply(Trade(card_set(cav)))
    assert of(events, Traded)[0].value == 6
    assert pending(game).kind is Kind.PLACE and pending(game).armies == before + 6


def test_2_artillery_and_3_infantry_must_trade_the_infantry_for_4():
    board = setup_done().board
    inf = cards_with(board, "infantry", 3)
    game, seat = trading_position(cards_with(board, "artillery", 2) + inf)
    d = pending(game)
    assert d.kind is Kind.TRADE and d.forced
    refused(game, Pass(), "forced")
    before = sum(game.reinforcements(seat))
    events = game.apply(Trade(card_set(inf)))
    assert of(events, Traded)[0].value == 4
    assert pending(game).kind is Kind.PLACE and pending(game).armies == before + 4
    assert len(game.players[seat].cards) == 2


def test_2_2_2_must_trade_and_one_of_each_is_worth_10():
    board = setup_done().board
    inf, cav, art = (cards_with(board, i, 2) for i in ("infantry", "cavalry", "artillery"))
    game, _seat = trading_position(inf + cav + art)
    assert pending(game).kind is Kind.TRADE and pending(game).forced
    refused(game, Pass())
    events = game.apply(Trade((inf[0], cav[0], art[0])))
    assert of(events, Traded)[0].value == 10
    # three cards left, one of each: a second trade is offered but not forced
    assert pending(game).kind is Kind.TRADE and not pending(game).forced
    events = game.apply(Trade((inf[1], cav[1], art[1])))
    assert of(events, Traded)[0].value == 10
    assert pending(game).kind is Kind.PLACE


@pytest.mark.parametrize(
    "hand, value",
    [
        (["infantry", "infantry", "wild"], 4),
        (["cavalry", "wild", "cavalry"], 6),
        (["artillery", "artillery", "wild"], 8),
        (["infantry", "cavalry", "wild"], 10),
        (["infantry", "wild", "wild"], 10),
    ],
)
def test_insignia_values_with_wild_cards(hand, value):
    board = setup_done().board
    cards: list[int] = []
    used: list[int] = []
    for ins in hand:
        c = cards_with(board, ins, 1, exclude=used)[0]
        used.append(c)
        cards.append(c)
    game, _seat = trading_position(cards)
    events = game.apply(Trade(card_set(cards)))
    assert of(events, Traded)[0].value == value


def test_a_set_that_is_no_set_is_refused():
    board = setup_done().board
    hand = (
        cards_with(board, "infantry", 2)
        + cards_with(board, "cavalry", 2)
        + cards_with(board, "artillery", 1)
    )
    game, _seat = trading_position(hand)
    assert pending(game).kind is Kind.TRADE
    refused(game, Trade((hand[0], hand[1], hand[2])), "not a set")
    refused(game, Trade((hand[0], hand[2], hand[3])), "not a set")
    game.apply(Trade((hand[0], hand[2], hand[4])))


def test_escalating_sequence_through_the_game():
    game = setup_done("classic", seed=5, card_territory_bonus="off")
    seat = next_seat(game)
    b = game.board
    inf, cav, art = (cards_with(b, i, 8) for i in ("infantry", "cavalry", "artillery"))
    give_cards(game, seat, inf + cav + art)
    pass_turn(game)
    values = []
    for i in range(8):
        d = pending(game)
        assert d.kind is Kind.TRADE and d.forced == (i == 0)  # one set obliges (seed 004)
        values += [e.value for e in of(game.apply(Trade((inf[i], cav[i], art[i]))), Traded)]
    assert values == [4, 6, 8, 10, 12, 15, 20, 25]
    assert game.next_trade_value() == 30
    assert pending(game).kind is Kind.PLACE
    assert pending(game).armies == game.reinforcements(seat)[0] + sum(values)


def test_golden_cavalry_sequence_through_the_game():
    game = setup_done("classic-2004", seed=5)
    seat = next_seat(game)
    b = game.board
    inf, cav, art = (cards_with(b, i, 14) for i in ("infantry", "cavalry", "artillery"))
    give_cards(game, seat, inf + cav + art)
    pass_turn(game)
    values = []
    for i in range(14):
        values += [e.value for e in of(game.apply(Trade((inf[i], cav[i], art[i]))), Traded)]
    assert values == [4, 6, 8, 10, 15, 20, 25, 30, 35, 40, 45, 50, 55, 60]
    # the marker stays at 60 at the end of the track
    pass_turn(game)
    while next_seat(game) != seat:
        pass_turn(game)
    wild = cards_with(b, "wild", 2)
    give_cards(game, seat, [inf[0], cav[0], art[0], inf[1], wild[0], wild[1]])
    pass_turn(game)
    assert game.current == seat
    assert pending(game).kind is Kind.TRADE and pending(game).forced
    more = of(game.apply(Trade((inf[0], cav[0], art[0]))), Traded)
    more += of(game.apply(Trade((inf[1], wild[0], wild[1]))), Traded)
    assert [e.value for e in more] == [60, 60]


def test_value_tables():
    assert [escalating_value(n) for n in range(11)] == [4, 6, 8, 10, 12, 15, 20, 25, 30, 35, 40]
    assert [golden_cavalry_value(n) for n in range(16)] == [
        4,
        6,
        8,
        10,
        15,
        20,
        25,
        30,
        35,
        40,
        45,
        50,
        55,
        60,
        60,
        60,
    ]


@pytest.mark.parametrize(
    "preset, must, cards, forced",
    [
        ("classic", 5, 4, False),
        ("classic", 5, 5, True),
        ("classic", 6, 5, False),
        ("classic", 6, 6, True),
        ("classic-2000", 5, 5, True),
        ("classic-2004", 5, 5, True),
        ("classic", 3, 3, True),
    ],
)
def test_must_trade_at(preset, must, cards, forced):
    board = setup_done().board
    inf, cav, art = (cards_with(board, i, 2) for i in ("infantry", "cavalry", "artillery"))
    hand = [inf[0], cav[0], art[0], inf[1], cav[1], art[1]][:cards]
    if cards == 3:
        hand = cards_with(board, "infantry", 3)
    game, _seat = trading_position(hand, preset=preset, must_trade_at=must)
    d = pending(game)
    assert d.kind is Kind.TRADE and d.forced is forced
    if forced:
        refused(game, Pass(), "forced")
    else:
        game.apply(Pass())
        assert pending(game).kind is Kind.PLACE


# ---------------------------------------------------------------------- card territory bonus
@pytest.mark.parametrize(
    "mode, bonuses", [("off", [0, 0]), ("per_set", [2, 2]), ("per_turn", [2, 0])]
)
def test_card_territory_bonus(mode, bonuses):
    game = setup_done("classic", seed=8, card_territory_bonus=mode)
    seat = next_seat(game)
    b = game.board
    inf, cav, art = (cards_with(b, i, 2) for i in ("infantry", "cavalry", "artillery"))
    shown = [inf[0], inf[1]]  # the first card of each set shows an own territory
    others = [p for p in range(4) if p != seat]
    owner = [seat if t in shown else others[t % 3] for t in range(b.size)]
    arrange(game, owner)
    give_cards(game, seat, inf + cav + art)
    pass_turn(game)
    got, where = [], []
    for i in range(2):
        before = list(game.armies)
        events = game.apply(Trade((inf[i], cav[i], art[i])))
        t = of(events, Traded)[0]
        got.append(t.bonus)
        assert t.value == (4, 6)[i]
        if t.bonus:
            assert t.bonus_territory == inf[i]
            where.append(t.bonus_territory)
        diff = [a - b_ for a, b_ in zip(game.armies, before, strict=False)]
        assert sum(diff) == t.bonus
        if t.bonus:
            assert diff[inf[i]] == 2
    assert got == bonuses
    assert pending(game).armies == game.reinforcements(seat)[0] + 10


def test_bonus_territory_choice_and_refusal():
    game = setup_done("classic-2000", seed=8)
    seat = next_seat(game)
    b = game.board
    hand = cards_with(b, "infantry", 5)
    others = [p for p in range(4) if p != seat]
    owner = [seat if t in hand[:2] else others[t % 3] for t in range(b.size)]
    arrange(game, owner)
    give_cards(game, seat, hand)
    pass_turn(game)
    refused(game, Trade(card_set(hand[:3]), hand[2]), "bonus territory")  # not an own territory
    refused(game, Trade(card_set(hand[:3]), hand[4]), "bonus territory")  # not on a traded card
    refused(game, Trade(card_set(hand[:3]), True))
    events = game.apply(Trade(card_set(hand[:3]), hand[1]))
    t = of(events, Traded)[0]
    assert (t.bonus_territory, t.bonus) == (hand[1], 2)
    assert game.armies[hand[1]] == 3 and game.armies[hand[0]] == 1


# ---------------------------------------------------------------------- attack, conquest
@pytest.mark.parametrize(
    "preset, overrides, armies, ask, dice",
    [
        ("classic", {}, 1, False, 1),
        ("classic", {}, 2, True, 2),
        ("classic", {}, 5, True, 2),
        ("classic-2000", {}, 2, False, 1),
        ("classic-2000", {}, 3, True, 2),
        ("classic", {"defender_two_dice_from": 3}, 2, False, 1),
        ("classic-2000", {"defender_two_dice_from": 2}, 2, True, 2),
        ("classic", {"defender_dice": "max"}, 2, False, 2),
        ("classic", {"defender_dice": "max"}, 1, False, 1),
    ],
)
def test_defender_dice(preset, overrides, armies, ask, dice):
    game, _me, foe, _third, ukraine, ural = duel_position(preset, **overrides)
    game.armies[ural] = armies
    place_all_on(game, ukraine)
    events = game.apply(Attack(ukraine, ural, 3))
    if ask:
        d = pending(game)
        assert (d.kind, d.player, d.maximum, d.source, d.target, d.attack_dice) == (
            Kind.DEFEND,
            foe,
            dice,
            ukraine,
            ural,
            3,
        )
        refused(game, Defend(dice + 1))
        refused(game, Defend(0))
        events = game.apply(Defend(dice))
    battle = of(events, Battle)
    assert len(battle) == 1 and len(battle[0].defend_dice) == dice


@pytest.mark.parametrize("armies, most", [(2, 1), (3, 2), (4, 3), (9, 3)])
def test_attack_dice_need_one_more_army_than_dice(armies, most):
    game, _me, _foe, _third, ukraine, ural = duel_position()
    place_all_on(game, ukraine)
    game.armies[ukraine] = armies
    refused(game, Attack(ukraine, ural, most + 1), "1 to")
    game.apply(Attack(ukraine, ural, most))


def test_a_territory_with_one_army_cannot_attack():
    game, _me, _foe, _third, ukraine, ural = duel_position()
    place_all_on(game, ukraine)
    game.armies[ukraine] = 1
    refused(game, Attack(ukraine, ural, 1), "at least 2")


def test_occupy_example_5_armies_attack_with_2():
    """Seed 001: 5 armies attack one defender with 2 and win: move at least 2, at most 4."""
    game, me, _foe, _third, ukraine, ural = duel_position(seed=4)
    place_all_on(game, ukraine)
    for _ in range(50):
        game.armies[ukraine] = 5
        events = game.apply(Attack(ukraine, ural, 2))
        if of(events, Conquered):
            break
        game.armies[ural] = 1
    else:
        pytest.fail("never conquered")
    assert game.owner[ural] == me and game.armies[ural] == 0  # empty only while occupying
    d = pending(game)
    assert (d.kind, d.player, d.minimum, d.maximum, d.source, d.target) == (
        Kind.OCCUPY,
        me,
        2,
        4,
        ukraine,
        ural,
    )
    refused(game, Occupy(1), "2 to 4")
    refused(game, Occupy(5), "2 to 4")
    refused(game, Attack(ukraine, game.board.index("Siberia"), 1))
    events = game.apply(Occupy(4))
    assert of(events, Occupied) == [Occupied(me, ukraine, ural, 4)]
    assert (game.armies[ukraine], game.armies[ural]) == (1, 4)


def test_conquest_with_no_choice_moves_in_the_dice():
    game, me, foe, _third, ukraine, ural = duel_position(seed=4)
    place_all_on(game, ukraine)
    game.armies[ukraine] = 4
    game.rng = give_dice(game.rng, attack={me: [(6, 1, 1)]}, defend={foe: [(5,)]})
    events = game.apply(Attack(ukraine, ural, 3))
    assert of(events, Conquered)
    assert of(events, Occupied) == [Occupied(me, ukraine, ural, 3)]
    assert (game.armies[ukraine], game.armies[ural]) == (1, 3)


# ---------------------------------------------------------------------- fortify
def fortify_position(preset, break_chain=False):
    game = setup_done(preset, seed=2)
    me = game.current
    b = game.board
    path = [b.index(n) for n in ("Indonesia", "Siam", "India", "Afghanistan", "Ukraine")]
    owner = [(me + 1 + t % 3) % 4 for t in range(b.size)]
    for t in path:
        owner[t] = me
    if break_chain:
        owner[b.index("India")] = (me + 1) % 4
    arrange(game, owner)
    place_all_on(game, path[0])
    game.armies[path[0]] = 10
    assert pending(game).kind is Kind.ATTACK
    game.apply(Pass())
    assert pending(game).kind is Kind.FORTIFY
    return game, me, path


def test_fortify_along_a_chain_under_connected():
    """Seed 000: Indonesia -> Siam -> India -> Afghanistan -> Ukraine in one move."""
    game, me, path = fortify_position("classic-2004")
    indonesia, ukraine = path[0], path[-1]
    refused(game, Fortify(indonesia, ukraine, 10), "1 to 9")
    events = game.apply(Fortify(indonesia, ukraine, 9))
    assert of(events, Fortified) == [Fortified(me, indonesia, ukraine, 9)]
    assert (game.armies[indonesia], game.armies[ukraine]) == (1, 10)
    assert of(events, TurnStarted) and game.current != me


def test_fortify_chain_refused_under_adjacent():
    game, me, path = fortify_position("classic")
    refused(game, Fortify(path[0], path[-1], 5), "does not border")
    refused(game, Fortify(path[0], path[2], 5), "does not border")
    events = game.apply(Fortify(path[0], path[1], 5))
    assert of(events, Fortified) == [Fortified(me, path[0], path[1], 5)]


def test_fortify_chain_broken_by_an_enemy_is_refused():
    game, _me, path = fortify_position("classic-2004", break_chain=True)
    refused(game, Fortify(path[0], path[-1], 5), "chain")
    game.apply(Fortify(path[0], path[1], 5))


def test_only_one_fortify_move_a_turn():
    game, me, path = fortify_position("classic-2004")
    events = game.apply(Fortify(path[0], path[1], 3))
    assert game.current != me and of(events, TurnStarted)
    with pytest.raises(IllegalAction):
        game.apply(Fortify(path[1], path[2], 1))


# ---------------------------------------------------------------------- cards after conquest
def test_one_card_per_turn_after_conquests_never_more():
    game, me, foe, third, ukraine, ural = duel_position()
    b = game.board
    middle_east = b.index("Middle East")
    game.owner[middle_east] = foe
    game.territory_count[foe] += 1
    game.territory_count[third] -= 1
    place_all_on(game, ukraine)
    conquer(game, ukraine, ural)
    game.apply(Occupy(pending(game).minimum))
    conquer(game, ukraine, middle_east)
    if pending(game).kind is Kind.OCCUPY:
        game.apply(Occupy(pending(game).minimum))
    hand = len(game.players[me].cards)
    deck = len(game.deck)
    events = []
    while game.current == me:
        events += game.apply(Pass())
    drawn = of(events, CardDrawn)
    assert len(drawn) == 1 and drawn[0].player == me
    assert len(game.players[me].cards) == hand + 1 and len(game.deck) == deck - 1
    assert game.players[me].cards[-1] == drawn[0].card


def test_no_card_without_a_conquest():
    game, me, _foe, _third, _ukraine, _ural = duel_position()
    events = pass_turn(game)
    assert not of(events, CardDrawn)
    assert game.players[me].cards == []


# ---------------------------------------------------------------------- elimination
def eliminate(preset, mine, theirs, **options):
    """``me`` (holding ``mine`` cards) takes the last territory of ``foe`` (holding ``theirs``)."""
    game, me, foe, third, ukraine, ural = duel_position(preset, **options)
    b = game.board
    # a hand that holds no set until the victim's cards join it: at most 2 infantry, 2 cavalry
    safe = cards_with(b, "infantry", 2, exclude=(ukraine, ural)) + cards_with(
        b, "cavalry", 2, exclude=(ukraine, ural)
    )
    mine_cards = safe[:mine]
    theirs_cards = cards_with(b, "artillery", theirs, exclude=(ukraine, ural))
    assert set(mine_cards).isdisjoint(theirs_cards)
    give_cards(game, foe, theirs_cards)
    for c in mine_cards:
        game.deck.remove(c)
    game.players[me].cards[:] = mine_cards
    place_all_on(game, ukraine)
    events = conquer(game, ukraine, ural)
    return game, me, foe, third, ukraine, ural, events, mine_cards + theirs_cards


@pytest.mark.parametrize(
    "preset, mine, theirs, trades",
    [
        ("classic", 3, 3, 1),  # 6 cards: trade at once (elimination_trade_at 6)
        ("classic", 4, 3, 1),  # 7 -> 4
        ("classic", 3, 2, 0),  # 5 < 6: no immediate trade
        ("classic-2004", 3, 2, 1),  # 5: "five or more" (seed 000)
        ("classic-2004", 2, 2, 0),
        ("classic", 4, 5, 2),  # 9 -> 6 -> 3: down to 4 or fewer
        ("classic-2004", 4, 4, 2),  # 8 -> 5 -> 2
    ],
)
def test_immediate_elimination_trade(preset, mine, theirs, trades):
    game, me, foe, _third, ukraine, ural, events, hand = eliminate(preset, mine, theirs)
    assert of(events, Eliminated) == [Eliminated(foe, me, theirs)]
    assert sorted(game.players[me].cards) == sorted(hand)
    assert game.players[foe].cards == [] and game.players[foe].eliminated
    assert pending(game).kind is Kind.OCCUPY
    game.apply(Occupy(pending(game).minimum))
    values = 0
    for _ in range(trades):
        d = pending(game)
        assert d.kind is Kind.TRADE and d.player == me and d.forced
        refused(game, Pass(), "forced")
        refused(game, Attack(ukraine, game.board.index("Siberia"), 1))
        events = game.apply(game.default_action())
        values += of(events, Traded)[0].value
    if trades:
        assert len(game.players[me].cards) <= 4
    else:
        assert len(game.players[me].cards) == mine + theirs
    if trades:
        d = pending(game)
        assert d.kind is Kind.PLACE and d.player == me and d.armies == values
        refused(game, Attack(ukraine, game.board.index("Siberia"), 1))
        refused(game, Place(((ukraine, values - 1),)), "exactly")
        game.apply(Place(((ural, values),)))
    assert pending(game).kind is Kind.ATTACK and pending(game).player == me


def test_next_turn_elimination_trade():
    game, me, foe, _third, _ukraine, _ural, events, _hand = eliminate("classic-2000", 4, 4)
    assert of(events, Eliminated) == [Eliminated(foe, me, 4)]
    game.apply(Occupy(pending(game).minimum))
    assert pending(game).kind is Kind.ATTACK  # no trade now
    assert len(game.players[me].cards) == 8
    while game.current == me:
        game.apply(Pass())
    while game.current != me:
        pass_turn(game)
    assert len(game.players[me].cards) == 9  # the card of the conquest
    trades = 0
    while pending(game).kind is Kind.TRADE and pending(game).forced:
        game.apply(game.default_action())
        trades += 1
    # seed 001: "må han bytte ut minst ett sett" — one set obliges, the rest may wait
    assert trades == 1 and len(game.players[me].cards) == 6
    assert pending(game).kind is Kind.TRADE and not pending(game).forced


# ---------------------------------------------------------------------- set-up
@pytest.mark.parametrize(
    "players, counts",
    [(3, [14, 14, 14]), (4, [10, 10, 11, 11]), (5, [8, 8, 8, 9, 9]), (6, [7] * 6)],
)
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_deal_setup(players, counts, seed):
    game = Game(make_rules("classic-2000"), players, seed)
    dealt = of(game.opening_events, Dealt)
    assert len(dealt) == players
    territories = [t for d in dealt for t in d.territories]
    assert sorted(territories) == list(range(42))
    assert sorted(len(d.territories) for d in dealt) == counts
    for d in dealt:
        for t in d.territories:
            assert game.owner[t] == d.player and game.armies[t] == 1
    first = of(game.opening_events, FirstPlayer)
    assert len(first) == 1 and first[0].purpose == "play"
    assert sorted(game.deck) == list(range(44))  # wild cards back in, reshuffled
    start = {2: 40, 3: 35, 4: 30, 5: 25, 6: 20}[players]
    seen = []
    while game.round == 0:
        d = pending(game)
        assert d.kind is Kind.PLACE and d.armies == 1
        seen.append(d.player)
        game.apply(game.default_action())
    assert seen[0] == first[0].player
    assert sum(game.armies) == start * players
    for p in range(players):
        assert sum(a for t, a in enumerate(game.armies) if game.owner[t] == p) == start
    assert game.current == first[0].player


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_claim_setup(players):
    game = Game(make_rules("classic"), players, 9)
    first = of(game.opening_events, FirstPlayer)[0]
    assert first.purpose == "place"
    order = []
    while pending(game).kind is Kind.CLAIM:
        d = pending(game)
        assert set(d.territories) == {t for t in range(42) if game.owner[t] < 0}
        order.append(d.player)
        if len(order) == 2:
            taken = next(t for t in range(42) if game.owner[t] >= 0)
            refused(game, Claim(taken), "already taken")
        events = game.apply(Claim(d.territories[-1]))
        assert of(events, Claimed) == [Claimed(d.player, d.territories[-1])]
    assert order == [(first.player + i) % players for i in range(42)]
    assert min(game.owner) >= 0 and set(game.armies) == {1}
    start = {3: 35, 4: 30, 5: 25, 6: 20}[players]
    while game.round == 0:
        d = pending(game)
        assert d.kind is Kind.PLACE and d.armies == 1
        own = [t for t in range(42) if game.owner[t] == d.player]
        enemy = next(t for t in range(42) if game.owner[t] != d.player)
        refused(game, Place(((enemy, 1),)), "not yours")
        refused(game, Place(((own[0], 2),)), "exactly 1")
        events = game.apply(Place(((own[-1], 1),)))
        assert of(events, Placed) == [Placed(d.player, ((own[-1], 1),))]
    for p in range(players):
        assert sum(a for t, a in enumerate(game.armies) if game.owner[t] == p) == start


@pytest.mark.parametrize("seed", range(12))
def test_first_placer_plays_first(seed):
    game = Game(make_rules("classic"), 4, seed)
    events = list(game.opening_events)
    while game.round == 0:
        events += game.apply(game.default_action())
    first_claim = of(events, Claimed)[0].player
    assert of(events, FirstPlayer) == [FirstPlayer(first_claim, "place")]
    assert of(events, TurnStarted)[0].player == first_claim == game.current


def test_reroll_rolls_again_for_the_first_turn():
    differs = 0
    firsts = set()
    for seed in range(20):
        game = Game(make_rules("classic-2004"), 4, seed)
        events = list(game.opening_events)
        while game.round == 0:
            events += game.apply(game.default_action())
        place, play = of(events, FirstPlayer)
        assert place.purpose == "place" and play.purpose == "play"
        assert of(events, Claimed)[0].player == place.player
        assert of(events, TurnStarted)[0].player == play.player == game.current
        differs += place.player != play.player
        firsts.add(play.player)
    assert differs > 0 and len(firsts) > 1


def test_random_dealer_first_player():
    firsts = set()
    for seed in range(20):
        game = Game(make_rules("classic-2000"), 4, seed)
        (play,) = of(game.opening_events, FirstPlayer)
        assert pending(game).player == play.player
        while game.round == 0:
            game.apply(game.default_action())
        assert game.current == play.player
        firsts.add(play.player)
    assert len(firsts) > 1


# ---------------------------------------------------------------------- the end
def test_turn_limit_ranks_survivors_by_territories_then_armies():
    game = setup_done("classic", seed=6, turn_limit=1)
    first = game.current
    a, bb, c, d = [(first + i) % 4 for i in range(4)]
    owner = [a] * 15 + [bb] * 10 + [c] * 10 + [d] * 7
    armies = [1] * 15 + [5] * 10 + [4] * 10 + [9] * 7
    arrange(game, owner, armies)
    events = []
    for _ in range(4):
        events += pass_turn(game)
    over = of(events, GameOver)
    assert len(over) == 1 and game.over and game.pending is None
    assert game.finish_reason == "turn limit"
    places = [0] * 4
    places[a], places[bb], places[c], places[d] = 1, 2, 3, 4
    assert over[0].places == tuple(places) == game.places
    with pytest.raises(IllegalAction, match="over"):
        game.apply(Pass())


def test_turn_limit_ties_share_a_place():
    game = setup_done("classic", seed=6, turn_limit=1)
    first = game.current
    a, bb, c, d = [(first + i) % 4 for i in range(4)]
    owner = [(a, bb, c)[t % 3] for t in range(36)] + [d] * 6  # no continent for a, bb, c
    armies = [2] * 42
    delta = pending(game).armies - 4  # the first turn's armies were due before the rearrangement
    if delta > 0:
        armies[1] += delta
        armies[2] += delta
    else:
        armies[0] -= delta
    arrange(game, owner, armies)
    for _ in range(4):
        pass_turn(game)
    places = [0] * 4
    places[a] = places[bb] = places[c] = 1
    places[d] = 4
    assert game.places == tuple(places)


def test_turn_limit_counts_rounds():
    game = setup_done("classic", seed=6, turn_limit=3)
    turns = 0
    while not game.over:
        pass_turn(game)
        turns += 1
    assert turns == 12 and game.round == 4


def test_win_by_owning_everything():
    game = setup_done("classic", players=3, seed=12)
    me = game.current
    b = game.board
    foe, last = (me + 1) % 3, (me + 2) % 3
    ukraine, ural, siberia = (b.index(n) for n in ("Ukraine", "Ural", "Siberia"))
    owner = [me] * b.size
    owner[ural], owner[siberia] = foe, last
    armies = [1] * b.size
    armies[ukraine] = 80
    arrange(game, owner, armies)
    place_all_on(game, ukraine)
    events = conquer(game, ukraine, ural)
    assert of(events, Eliminated) == [Eliminated(foe, me, 0)]
    # through a name: mypy would keep `not game.over` narrowed past the apply() calls below
    still_playing = not game.over
    assert still_playing
    game.apply(Occupy(pending(game).maximum))
    events = conquer(game, ural, siberia)
    assert of(events, Eliminated) == [Eliminated(last, me, 0)]
    over = of(events, GameOver)
    assert game.over and over and over[0].places == game.places
    places = [0] * 3
    places[me], places[last], places[foe] = 1, 2, 3
    assert game.places == tuple(places) and game.finish_reason == "conquest"
    assert set(game.owner) == {me} and min(game.armies) >= 1
    assert game.pending is None
    for action in (Pass(), Attack(ural, siberia, 1), Occupy(1), game.history[-1]):
        refused(game, action, "over")


@pytest.mark.parametrize(
    "must, hand",
    [
        (3, ["infantry", "infantry", "cavalry"]),
        (4, ["infantry", "infantry", "cavalry", "cavalry"]),
        (4, ["wild", "infantry", "cavalry", "cavalry"]),
    ],
)
def test_a_trade_is_forced_only_with_a_set_to_trade(must, hand):
    board = setup_done().board
    cards: list[int] = []
    for ins in hand:
        cards += cards_with(board, ins, 1, exclude=cards)
    game, seat = trading_position(cards, preset="classic", must_trade_at=must)
    has_set = "wild" in hand
    d = pending(game)
    if has_set:
        assert d.kind is Kind.TRADE and d.forced
        refused(game, Pass())
    else:
        assert d.kind is Kind.PLACE and d.player == seat
        game.apply(game.default_action())


# ---------------------------------------------------------------------- forfeits
def test_taking_a_forfeited_seats_last_territory_eliminates_no_one():
    game, _me, foe, _third, ukraine, ural = duel_position()
    game.apply(Forfeit(foe, "crashed"))
    assert game.out_order == [foe]
    place_all_on(game, ukraine)
    events = conquer(game, ukraine, ural)
    assert not of(events, Eliminated)
    assert game.out_order == [foe] and not game.players[foe].eliminated
    game.apply(Occupy(pending(game).minimum))
    assert pending(game).kind is Kind.ATTACK


def test_places_after_a_forfeit_and_an_elimination():
    game = setup_done("classic", players=3, seed=40)
    me = game.current
    b = game.board
    foe, quitter = (me + 1) % 3, (me + 2) % 3
    ukraine, ural, siberia = (b.index(n) for n in ("Ukraine", "Ural", "Siberia"))
    owner = [me] * b.size
    owner[ural], owner[siberia] = quitter, foe
    armies = [1] * b.size
    armies[ukraine] = 80
    arrange(game, owner, armies)
    game.apply(Forfeit(quitter, "gone"))
    place_all_on(game, ukraine)
    conquer(game, ukraine, ural)  # the quitter's last territory
    game.apply(Occupy(pending(game).maximum))
    events = conquer(game, ural, siberia)  # the last opponent
    assert of(events, Eliminated) == [Eliminated(foe, me, 0)]
    places = [0] * 3
    places[me], places[foe], places[quitter] = 1, 2, 3
    assert game.over and game.places == tuple(places)


@pytest.mark.parametrize("players", [0, 1, 2, 7])
def test_player_counts_outside_3_to_6_are_refused(players):
    with pytest.raises(GameSetupError, match="3 to 6"):
        Game(make_rules("classic"), players, 1)


# ---------------------------------------------------------------------- the deck
def test_traded_cards_go_under_the_deck_in_2000():
    board = setup_done().board
    inf = cards_with(board, "infantry", 3)
    game, _seat = trading_position(inf, preset="classic-2000", card_values="escalating")
    deck = list(game.deck)
    game.apply(Trade((inf[2], inf[0], inf[1])))
    assert game.deck == sorted(inf) + deck and game.discard == []


def test_traded_cards_are_discarded_and_reshuffled_when_the_deck_runs_out():
    board = setup_done().board
    inf = cards_with(board, "infantry", 3)
    game, seat = trading_position(inf, preset="classic", card_values="escalating")
    game.apply(Trade(card_set(inf)))
    assert game.discard == sorted(inf) and not set(inf) & set(game.deck)
    # empty the deck into a third seat's hand, then conquer: the discard becomes the deck
    holder = (seat + 2) % 4
    game.players[holder].cards.extend(game.deck)
    game.deck.clear()
    b = game.board
    ukraine, ural = b.index("Ukraine"), b.index("Ural")
    owner, armies = list(game.owner), list(game.armies)
    owner[ukraine], owner[ural] = seat, (seat + 1) % 4
    armies[ukraine], armies[ural] = 40, 1
    arrange(game, owner, armies)
    place_all_on(game, ukraine)
    conquer(game, ukraine, ural)
    if pending(game).kind is Kind.OCCUPY:
        game.apply(Occupy(pending(game).minimum))
    events = []
    while game.current == seat:
        events += game.apply(Pass())
    (reshuffled,) = of(events, DeckReshuffled)
    (drawn,) = of(events, CardDrawn)
    assert reshuffled.cards == 3 and drawn.card in inf
    assert sorted([*game.deck, drawn.card]) == sorted(inf) and game.discard == []


def test_no_card_when_deck_and_discard_are_empty():
    game, me, _foe, third, ukraine, ural = duel_position()
    game.players[third].cards.extend(game.deck)
    game.deck.clear()
    place_all_on(game, ukraine)
    game.armies[ural] = 1
    b = game.board
    middle_east = b.index("Middle East")
    conquer(game, ukraine, middle_east)
    if pending(game).kind is Kind.OCCUPY:
        game.apply(Occupy(pending(game).minimum))
    events = []
    while game.current == me:
        events += game.apply(Pass())
    assert not of(events, CardDrawn) and game.players[me].cards == []
