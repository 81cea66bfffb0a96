"""Everything a hostile or broken bot could send is refused with a reason and changes nothing."""

from __future__ import annotations

import pytest

from hegemon.referee import (
    Attack,
    Claim,
    Defend,
    Forfeit,
    Fortify,
    Game,
    IllegalAction,
    Occupy,
    Pass,
    Place,
    Trade,
    make_rules,
)
from hegemon.referee.decisions import Kind
from hegemon.referee.events import Conquered
from tests.helpers.game import (
    arrange,
    cards_with,
    give_cards,
    next_seat,
    pass_turn,
    pending,
    setup_done,
    snapshot,
)

HUGE = 10**18
BAD_TERRITORIES = [-1, 42, HUGE, -HUGE, True, False, 1.0, "5", None, (1,), [1]]
BAD_NUMBERS = [0, -1, -HUGE, HUGE, True, 1.5, 2.0, "2", None, [2], float("nan")]


def refused(game, action):
    before = snapshot(game)
    with pytest.raises(IllegalAction) as info:
        game.apply(action)
    assert isinstance(info.value.reason, str) and info.value.reason.strip()
    assert str(info.value) == info.value.reason
    assert snapshot(game) == before, f"{action!r} changed the game"


# ---------------------------------------------------------------------- positions
@pytest.fixture
def claiming():
    return Game(make_rules("classic"), 4, 1)


@pytest.fixture
def setup_placing():
    game = Game(make_rules("classic-2000"), 4, 1)
    assert pending(game).kind is Kind.PLACE
    return game


def attack_position(preset="classic", defenders=3):
    """The current seat: Ukraine 10 armies; the next seat: Ural ``defenders`` armies."""
    game = setup_done(preset, seed=21)
    me = game.current
    foe = (me + 1) % 4
    b = game.board
    owner = [(me + 2 + t % 2) % 4 for t in range(b.size)]
    ukraine, ural, scandinavia, kamchatka = (
        b.index(n) for n in ("Ukraine", "Ural", "Scandinavia", "Kamchatka")
    )
    owner[ukraine] = owner[scandinavia] = me
    owner[ural] = owner[kamchatka] = foe
    armies = [1] * b.size
    armies[ukraine] = 10
    armies[ural] = defenders
    arrange(game, owner, armies)
    d = pending(game)
    game.apply(Place(((scandinavia, d.armies),)))
    assert pending(game).kind is Kind.ATTACK
    return game, me, foe, ukraine, ural, scandinavia


@pytest.fixture
def attacking():
    return attack_position()


@pytest.fixture
def placing():
    game = setup_done("classic", seed=21)
    assert pending(game).kind is Kind.PLACE and pending(game).armies >= 3
    return game


@pytest.fixture
def trading():
    game = setup_done("classic", seed=22)
    seat = next_seat(game)
    b = game.board
    hand = (
        cards_with(b, "infantry", 2) + cards_with(b, "cavalry", 2) + cards_with(b, "artillery", 1)
    )
    give_cards(game, seat, hand)
    pass_turn(game)
    assert pending(game).kind is Kind.TRADE and pending(game).forced
    return game, hand


@pytest.fixture
def defending():
    game, _me, foe, ukraine, ural, _scandinavia = attack_position(defenders=3)
    game.apply(Attack(ukraine, ural, 3))
    assert pending(game).kind is Kind.DEFEND and pending(game).player == foe
    return game


@pytest.fixture
def occupying():
    game, _me, _foe, ukraine, ural, _scandinavia = attack_position(defenders=1)
    for _ in range(100):
        game.armies[ukraine] = 10
        events = game.apply(Attack(ukraine, ural, 1))
        if any(type(e) is Conquered for e in events):
            break
        game.armies[ural] = 1
    d = pending(game)
    assert d.kind is Kind.OCCUPY and (d.minimum, d.maximum) == (1, 9)
    return game


@pytest.fixture
def fortifying(attacking):
    game = attacking[0]
    game.apply(Pass())
    assert pending(game).kind is Kind.FORTIFY
    return attacking


@pytest.fixture
def finished():
    game = setup_done("classic", seed=23, turn_limit=1)
    while not game.over:
        pass_turn(game)
    return game


# ---------------------------------------------------------------------- claim and place
@pytest.mark.parametrize("territory", BAD_TERRITORIES)
def test_claim_unknown_territory(claiming, territory):
    refused(claiming, Claim(territory))


def test_claim_taken_territory(claiming):
    t = claiming.pending.territories[0]
    claiming.apply(Claim(t))
    refused(claiming, Claim(t))


@pytest.mark.parametrize(
    "placements",
    [
        (),
        None,
        [],
        [(0, 1)],
        "(0, 1)",
        ((0, 1, 1),),
        ((0,),),
        (0, 1),
        ((0, 1), 7),
        ([0, 1],),
        tuple((0, 0) for _ in range(43)),
    ],
)
def test_place_wrong_shapes(placing, placements):
    game = placing
    own = next(t for t in range(42) if game.owner[t] == game.current)
    if placements and isinstance(placements, tuple):
        placements = tuple(
            tuple(own if x == 0 and i == 0 else x for i, x in enumerate(p))
            if isinstance(p, tuple)
            else p
            for p in placements
        )
    refused(game, Place(placements))


@pytest.mark.parametrize("territory", BAD_TERRITORIES)
def test_place_unknown_territory(placing, territory):
    refused(placing, Place(((territory, placing.pending.armies),)))


def test_place_on_enemy_territory(placing):
    enemy = next(t for t in range(42) if placing.owner[t] != placing.current)
    refused(placing, Place(((enemy, placing.pending.armies),)))


@pytest.mark.parametrize("armies", BAD_NUMBERS)
def test_place_bad_numbers(placing, armies):
    own = next(t for t in range(42) if placing.owner[t] == placing.current)
    refused(placing, Place(((own, armies),)))


def test_place_wrong_total(placing):
    game = placing
    own = [t for t in range(42) if game.owner[t] == game.current]
    n = pending(game).armies
    refused(game, Place(((own[0], n - 1),)))
    refused(game, Place(((own[0], n + 1),)))
    refused(game, Place(((own[0], n), (own[1], -1), (own[1], 1))))
    refused(game, Place(((own[0], n + 5), (own[1], -5))))


def test_setup_place_more_than_one(setup_placing):
    game = setup_placing
    own = next(t for t in range(42) if game.owner[t] == pending(game).player)
    refused(game, Place(((own, 2),)))
    refused(game, Place(((own, 1), (own, 1))))


# ---------------------------------------------------------------------- trade
def test_pass_when_a_trade_is_forced(trading):
    refused(trading[0], Pass())


@pytest.mark.parametrize(
    "cards",
    [
        "no set",
        "not held",
        "duplicate",
        "two",
        "four",
        "strings",
        "bools",
        "floats",
        "negative",
        "huge",
        "list",
        "wild not held",
    ],
)
def test_bad_trades(trading, cards):
    game, hand = trading
    inf1, inf2, cav1, _cav2, art = hand
    held_elsewhere = next(c for c in range(44) if c not in hand)
    cards = {
        "no set": (inf1, inf2, cav1),
        "not held": (inf1, cav1, held_elsewhere),
        "duplicate": (inf1, inf1, inf2),
        "two": (inf1, cav1),
        "four": (inf1, cav1, art, inf2),
        "strings": (str(inf1), str(cav1), str(art)),
        "bools": (True, cav1, art),
        "floats": (float(inf1), cav1, art),
        "negative": (-1, cav1, art),
        "huge": (HUGE, cav1, art),
        "list": [inf1, cav1, art],
        "wild not held": (42, 43, inf1),
    }[cards]
    refused(game, Trade(cards))


@pytest.mark.parametrize("bonus", [None, "1", 1.0, HUGE, -2, 42])
def test_trade_bad_bonus_territory(trading, bonus):
    game, hand = trading
    refused(game, Trade((hand[0], hand[2], hand[4]), bonus))


# ---------------------------------------------------------------------- attack
@pytest.mark.parametrize("territory", BAD_TERRITORIES)
def test_attack_unknown_territory(attacking, territory):
    game, _me, _foe, ukraine, ural, _scandinavia = attacking
    refused(game, Attack(territory, ural, 1))
    refused(game, Attack(ukraine, territory, 1))


def test_attack_not_adjacent(attacking):
    game, _me, _foe, ukraine, _ural, _scandinavia = attacking
    refused(game, Attack(ukraine, game.board.index("Kamchatka"), 3))


def test_attack_from_a_territory_that_is_not_yours(attacking):
    game, _me, _foe, ukraine, ural, _scandinavia = attacking
    refused(game, Attack(ural, ukraine, 1))
    other = game.board.index("Afghanistan")
    refused(game, Attack(other, ural, 1))


def test_attack_own_territory(attacking):
    game, _me, _foe, ukraine, _ural, scandinavia = attacking
    refused(game, Attack(ukraine, scandinavia, 1))
    refused(game, Attack(ukraine, ukraine, 1))


@pytest.mark.parametrize("dice", [4, 5, 0, -1, HUGE, True, 2.0, "3", None])
def test_attack_dice(attacking, dice):
    game, _me, _foe, ukraine, ural, _scandinavia = attacking
    refused(game, Attack(ukraine, ural, dice))


def test_attack_too_many_dice_for_the_armies(attacking):
    game, _me, _foe, ukraine, ural, _scandinavia = attacking
    game.armies[ukraine] = 3
    refused(game, Attack(ukraine, ural, 3))
    game.armies[ukraine] = 2
    refused(game, Attack(ukraine, ural, 2))


# ---------------------------------------------------------------------- defend, occupy, fortify
@pytest.mark.parametrize("dice", [3, 0, -1, HUGE, True, 1.0, "1", None])
def test_defend_bad_dice(defending, dice):
    refused(defending, Defend(dice))


@pytest.mark.parametrize("action", [Pass(), Attack(0, 1, 1), Occupy(1), Forfeit(9, "x")])
def test_defender_cannot_do_anything_else(defending, action):
    refused(defending, action)


@pytest.mark.parametrize("armies", [0, 10, -1, HUGE, True, 1.0, "3", None])
def test_occupy_bad_numbers(occupying, armies):
    refused(occupying, Occupy(armies))


def test_no_pass_or_attack_before_occupying(occupying):
    refused(occupying, Pass())
    refused(occupying, Attack(occupying.pending.source, occupying.pending.target, 1))


@pytest.mark.parametrize("territory", BAD_TERRITORIES)
def test_fortify_unknown_territory(fortifying, territory):
    game, _me, _foe, ukraine, _ural, scandinavia = fortifying
    refused(game, Fortify(territory, scandinavia, 1))
    refused(game, Fortify(ukraine, territory, 1))


@pytest.mark.parametrize("armies", [10, 11, 0, -1, -HUGE, HUGE, True, 1.0, "1", None])
def test_fortify_must_leave_one_behind(fortifying, armies):
    game, _me, _foe, ukraine, _ural, scandinavia = fortifying
    refused(game, Fortify(ukraine, scandinavia, armies))


def test_fortify_to_enemy_or_same_or_far_territory(fortifying):
    game, me, _foe, ukraine, ural, _scandinavia = fortifying
    refused(game, Fortify(ukraine, ural, 1))
    refused(game, Fortify(ural, ukraine, 1))
    refused(game, Fortify(ukraine, ukraine, 1))
    far = game.board.index("Peru")
    game.territory_count[game.owner[far]] -= 1
    game.owner[far] = me
    game.territory_count[me] += 1
    refused(game, Fortify(ukraine, far, 1))  # own, but not adjacent (classic)


# ---------------------------------------------------------------------- wrong kinds
WRONG_KIND = {
    Kind.CLAIM: [
        Attack(0, 1, 1),
        Place(((0, 1),)),
        Pass(),
        Defend(1),
        Occupy(1),
        Fortify(0, 1, 1),
        Trade((0, 1, 2)),
    ],
    Kind.PLACE: [
        Claim(0),
        Attack(0, 1, 1),
        Pass(),
        Defend(1),
        Occupy(1),
        Fortify(0, 1, 1),
        Trade((0, 1, 2)),
    ],
    Kind.TRADE: [
        Claim(0),
        Place(((0, 1),)),
        Attack(0, 1, 1),
        Defend(1),
        Occupy(1),
        Fortify(0, 1, 1),
    ],
    Kind.ATTACK: [
        Claim(0),
        Place(((0, 1),)),
        Defend(1),
        Occupy(1),
        Fortify(0, 1, 1),
        Trade((0, 1, 2)),
    ],
    Kind.FORTIFY: [
        Claim(0),
        Place(((0, 1),)),
        Attack(0, 1, 1),
        Defend(1),
        Occupy(1),
        Trade((0, 1, 2)),
    ],
}


def test_wrong_decision_kind(claiming, placing, trading, attacking):
    games = {
        Kind.CLAIM: claiming,
        Kind.PLACE: placing,
        Kind.TRADE: trading[0],
        Kind.ATTACK: attacking[0],
    }
    for kind, game in games.items():
        assert pending(game).kind is kind
        for action in WRONG_KIND[kind]:
            refused(game, action)
    game = attacking[0]
    game.apply(Pass())
    assert pending(game).kind is Kind.FORTIFY
    for action in WRONG_KIND[Kind.FORTIFY]:
        refused(game, action)


@pytest.mark.parametrize(
    "thing", [None, "attack", ("attack", 0, 1, 1), ["pass"], 42, object(), Kind.ATTACK]
)
def test_not_an_action(attacking, thing):
    refused(attacking[0], thing)


def test_subclassed_action_is_refused(attacking):
    class Sneaky(Pass):
        __slots__ = ()

    refused(attacking[0], Sneaky())


@pytest.mark.parametrize("seat", [-1, 4, HUGE, True, "0", None])
def test_forfeit_of_no_seat(attacking, seat):
    refused(attacking[0], Forfeit(seat, "x"))


# ---------------------------------------------------------------------- after the end
@pytest.mark.parametrize(
    "action",
    [
        Pass(),
        Claim(0),
        Place(((0, 1),)),
        Attack(0, 1, 1),
        Defend(1),
        Occupy(1),
        Fortify(0, 1, 1),
        Trade((0, 1, 2)),
        Forfeit(0, "late"),
    ],
)
def test_actions_after_the_game_is_over(finished, action):
    assert finished.over and finished.pending is None
    refused(finished, action)
    with pytest.raises(IllegalAction):
        finished.default_action()


def test_refusals_leave_the_game_playable(attacking):
    game, _me, _foe, ukraine, ural, scandinavia = attacking
    for action in (Attack(ukraine, ural, 9), Fortify(ukraine, scandinavia, 1), Claim(3), Pass):
        with pytest.raises(IllegalAction):
            game.apply(action)
    events = game.apply(Attack(ukraine, ural, 3))
    assert events or pending(game).kind is Kind.DEFEND
