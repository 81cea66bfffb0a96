"""Battle dice: exact outcome counts against docs/map-data.md §4, the rulebooks' examples (played
through a game with the dice given: GivenDice, on either engine), and a seeded chi-square test of
the dice the engine really rolls (keyed streams: referee/chance.py)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from hegemon.referee import Attack, Defend
from hegemon.referee.chance import Chance, GivenDice, give_dice
from hegemon.referee.decisions import Kind
from hegemon.referee.dice import compare, outcome_counts, roll
from hegemon.referee.events import Battle, Conquered
from tests.helpers.game import arrange, pending, setup_done

# docs/map-data.md §4: (attacker dice, defender dice) -> {(attacker loses, defender loses): count}
TABLE = {
    (1, 1): {(0, 1): 15, (1, 0): 21},
    (2, 1): {(0, 1): 125, (1, 0): 91},
    (3, 1): {(0, 1): 855, (1, 0): 441},
    (1, 2): {(0, 1): 55, (1, 0): 161},
    (2, 2): {(0, 2): 295, (1, 1): 420, (2, 0): 581},
    (3, 2): {(0, 2): 2890, (1, 1): 2611, (2, 0): 2275},
    (1, 3): {(0, 1): 225, (1, 0): 1071},
    (2, 3): {(0, 2): 979, (1, 1): 1981, (2, 0): 4816},
    (3, 3): {(0, 3): 6420, (1, 2): 10017, (2, 1): 12348, (3, 0): 17871},
}
EXAMPLES = [
    ((3, 2), (6, 2), (2, 0)),  # seed 000: blue 3,2 against red 6,2 -> blue loses two
    ((6,), (6,), (1, 0)),  # ties go to the defender
    ((6, 6, 6), (5,), (0, 1)),  # one die of defence: one comparison
    ((2,), (6, 1), (1, 0)),  # one die of attack: one comparison
    ((5, 5, 1), (5, 4), (1, 1)),  # highest with highest, second with second
    ((6, 5, 4), (6, 5), (2, 0)),
    ((6, 6, 1), (5, 5), (0, 2)),
]
"""(attacker's dice, defender's dice, (attacker loses, defender loses)): the rulebooks' battles."""
# chi-square critical values at 99.9 % for 1..5 degrees of freedom
CRITICAL_999 = {1: 10.828, 2: 13.816, 3: 16.266, 4: 18.467, 5: 20.515}


@pytest.mark.parametrize("attack, defend", sorted(TABLE))
def test_enumerated_outcomes_match_the_table(attack, defend):
    counts = outcome_counts(attack, defend)
    assert counts == TABLE[(attack, defend)]
    assert sum(counts.values()) == 6 ** (attack + defend)


@pytest.mark.parametrize("attack, defend, losses", EXAMPLES)
def test_compare_examples(attack, defend, losses):
    assert compare(attack, defend) == losses
    assert compare(list(attack), list(defend)) == losses


def battle_position(seed: int = 3, armies_each: int = 10):
    """A classic game at the current seat's attack: Ukraine (``armies_each`` armies, the current
    seat's) beside Ural (the next seat's, as many). Returns (game, attacker, defender, source,
    target)."""
    game = setup_done("classic", seed=seed)
    me = game.current
    foe = (me + 1) % 4
    board = game.board
    src, dst = board.index("Ukraine"), board.index("Ural")
    owner = [(me + 2) % 4] * board.size
    owner[src], owner[dst] = me, foe
    owner[board.index("Alaska")] = (me + 3) % 4
    armies = [1] * board.size
    armies[src] = armies[dst] = armies_each
    arrange(game, owner, armies)
    # place the turn's reinforcements, then attack
    while pending(game).kind is not Kind.ATTACK:
        game.apply(game.default_action())
    game.armies[src] = armies_each
    return game, me, foe, src, dst


@pytest.mark.parametrize("attack, defend, losses", EXAMPLES)
def test_the_rulebooks_battles_played_with_their_dice(attack, defend, losses):
    """Each example's dice given to a real game (GivenDice): the battle it records and the
    armies it takes are the rulebook's, on whichever engine runs (tests/engine/test_native.py
    runs this file on the Python sources too)."""
    game, me, foe, src, dst = battle_position()
    game.rng = give_dice(game.rng, attack={me: [attack]}, defend={foe: [defend]})
    events = game.apply(Attack(src, dst, len(attack)))
    if pending(game).kind is Kind.DEFEND:
        events += game.apply(Defend(len(defend)))
    (battle,) = [e for e in events if type(e) is Battle]
    assert (battle.attack_dice, battle.defend_dice) == (attack, defend)
    assert (10 - game.armies[src], 10 - game.armies[dst]) == losses


def test_given_dice_come_first_then_the_seeds_own():
    """After the given rolls the game rolls what the seed rolls; a clone continues both; a
    roll of the wrong size or faces is refused with one line."""
    game, me, foe, src, dst = battle_position()
    plain = game.clone()
    game.rng = give_dice(game.rng, attack={me: [(1, 1, 1)]}, defend={foe: [(6, 6)]})
    game.apply(Attack(src, dst, 3))
    if pending(game).kind is Kind.DEFEND:
        game.apply(Defend(2))
    assert (game.armies[src], game.armies[dst]) == (8, 10)
    rolled = []
    for g in (game, game.clone(), plain):  # the seed's first rolls, not used up by the given
        g.armies[src] = g.armies[dst] = 10
        events = g.apply(Attack(src, dst, 3))
        if pending(g).kind is Kind.DEFEND:
            events += g.apply(Defend(2))
        rolled.append([(e.attack_dice, e.defend_dice) for e in events if type(e) is Battle])
    assert rolled[0] == rolled[1] == rolled[2] and len(rolled[0]) == 1

    with pytest.raises(ValueError, match="1 to 6"):
        GivenDice(1, attack={0: [(7, 1)]})
    with pytest.raises(ValueError, match="one to three"):
        GivenDice(1, defend={0: [()]})
    short = GivenDice(1, attack={0: [(6, 6)]})
    with pytest.raises(ValueError, match=r"the next given roll is \[6, 6\], but 3 dice"):
        short.attack(0).dice(3)


def test_given_dice_conquer_at_once():
    game, me, foe, src, dst = battle_position()
    game.armies[dst] = 2
    game.rng = give_dice(game.rng, attack={me: [(6, 6, 2)]}, defend={foe: [(5, 5)]})
    events = game.apply(Attack(src, dst, 3))
    if pending(game).kind is Kind.DEFEND:
        events += game.apply(Defend(2))
    assert [e.territory for e in events if type(e) is Conquered] == [dst]


def test_roll_is_sorted_six_sided_and_uniform():
    stream = Chance(2024).attack(0)
    faces: Counter = Counter()
    for count in (1, 2, 3):
        for _ in range(4000):
            dice = stream.roll(count)
            assert len(dice) == count
            assert dice == sorted(dice, reverse=True)
            faces.update(dice)
    n = sum(faces.values())
    assert set(faces) == {1, 2, 3, 4, 5, 6}
    assert chi_square(faces, dict.fromkeys(range(1, 7), 1 / 6), n) < CRITICAL_999[5]


def test_roll_follows_the_seed():
    a, b, c = Chance(5).defend(1), Chance(5).defend(1), Chance(6).defend(1)
    first = [a.roll(3) for _ in range(30)]
    assert first == [b.roll(3) for _ in range(30)]
    assert first != [c.roll(3) for _ in range(30)]


def test_legacy_roll_is_the_mersenne_twisters():
    """Format-1 records rolled with ``random.Random``: dice.roll still does, for replays."""
    assert [roll(random.Random(5), 3) for _ in range(3)] == [
        roll(random.Random(5), 3) for _ in range(3)
    ]


def chi_square(observed: Counter, probabilities: dict, n: int) -> float:
    assert set(observed) <= set(probabilities), (
        f"impossible outcome {set(observed) - set(probabilities)}"
    )
    return sum((observed.get(k, 0) - n * p) ** 2 / (n * p) for k, p in probabilities.items())


def exact(attack: int, defend: int) -> dict:
    total = 6 ** (attack + defend)
    return {k: v / total for k, v in TABLE[(attack, defend)].items()}


@pytest.mark.parametrize("attack, defend", sorted(TABLE))
def test_rolled_battles_follow_the_exact_odds(attack, defend):
    """Chi-square of 20,000 seeded battles per combination against docs/map-data.md §4."""
    chance = Chance(1000 * attack + defend)
    a, d = chance.attack(0), chance.defend(1)
    n = 20_000
    observed = Counter(compare(a.roll(attack), d.roll(defend)) for _ in range(n))
    probabilities = exact(attack, defend)
    assert chi_square(observed, probabilities, n) < CRITICAL_999[len(probabilities) - 1]


def test_the_chi_square_test_catches_a_wrong_tie_rule():
    """The statistical test has the power to fail: ties going to the attacker are caught."""
    chance = Chance(7)
    n = 20_000
    observed: Counter = Counter()
    for _ in range(n):
        a, d = chance.attack(0).roll(3), chance.defend(1).roll(2)
        lost_a = sum(1 for x, y in zip(a, d, strict=False) if x < y)
        observed[(lost_a, 2 - lost_a)] += 1
    assert chi_square(observed, exact(3, 2), n) > CRITICAL_999[2]


@pytest.mark.parametrize("attack, defend", [(1, 1), (2, 1), (3, 1), (1, 2), (2, 2), (3, 2)])
def test_the_games_own_battles_follow_the_exact_odds(attack, defend):
    """Battles driven through Game.apply with the engine's seeded dice."""
    game, _me, foe, src, dst = battle_position(seed=attack * 10 + defend, armies_each=10**6)
    start_src, start_dst = game.armies[src], game.armies[dst]
    n = 6000
    observed: Counter = Counter()
    for _ in range(n):
        events = game.apply(Attack(src, dst, attack))
        if pending(game).kind is Kind.DEFEND:
            assert pending(game).player == foe and pending(game).maximum == 2
            events = game.apply(Defend(defend))
        battle = [e for e in events if type(e) is Battle]
        assert len(battle) == 1
        b = battle[0]
        assert len(b.attack_dice) == attack and len(b.defend_dice) == defend
        assert compare(b.attack_dice, b.defend_dice) == (b.attacker_losses, b.defender_losses)
        observed[(b.attacker_losses, b.defender_losses)] += 1
    assert sum(observed.values()) == n
    losses_a = sum(k[0] * v for k, v in observed.items())
    losses_d = sum(k[1] * v for k, v in observed.items())
    assert game.armies[src] == start_src - losses_a and game.armies[dst] == start_dst - losses_d
    probabilities = exact(attack, defend)
    assert chi_square(observed, probabilities, n) < CRITICAL_999[len(probabilities) - 1]
