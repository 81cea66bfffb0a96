"""Chance that cannot be predicted but can be reproduced (hegemon.referee.chance).

A spy that knows everything a bot is told (its game id included) and every die already rolled
tries to predict the next die and the next card, by rebuilding the generator from any number the
game id holds and, failing that, by the dice seen so far: it does no better than chance. The
same spy, given a game whose id names its seed (as ``hegemon play`` used to), predicts every
die: the test has the power to fail. Streams are separate, so duplicate games share what they
can: one seat's dice use never moves the deck, another seat's dice or the set-up.
"""

from __future__ import annotations

import math
import random
import re
from collections import Counter
from dataclasses import dataclass, field

import pytest
import trio

from hegemon.leaderboard.botspec import resolve
from hegemon.referee import Game, make_rules
from hegemon.referee.board import builtin_map
from hegemon.referee.chance import Chance, KeyedStream, new_seed, seed_key, sub_key
from hegemon.referee.events import Battle, CardDrawn, DeckReshuffled
from hegemon.referee.policies import attack_happy_action
from hegemon.referee.runner.session import new_game_id, play_one
from hegemon.referee.timecontrol import TimeControl
from hegemon.referee.wire import bot_pb2 as pb
from tests.helpers.processes import read_spy, spy


# ---------------------------------------------------------------------------------- the spy
def numbers_in(game_id: str) -> set[int]:
    """Every integer a game id could be hiding: digit runs read as decimal and as hex, the
    whole id's bytes."""
    found = {int.from_bytes(game_id.encode(), "big")}
    for run in re.findall(r"[0-9a-fA-F]+", game_id):
        found.add(int(run, 16))
        if run.isdigit():
            found.add(int(run))
    return found


@dataclass
class Spy:
    """Predicts each battle's attack-dice sum mod 6 (uniform for any dice count: chance 1/6)
    and each card drawn before the deck's first reshuffle."""

    game_id: str
    card_count: int
    models: list[Chance] = field(default_factory=list)
    decks: list[list[int]] = field(default_factory=list)
    sums: Counter[int] = field(default_factory=Counter)
    drawn: set[int] = field(default_factory=set)
    die_hits: int = 0
    dice_guesses: int = 0
    card_hits: int = 0
    card_chance: list[float] = field(default_factory=list)
    reshuffled: bool = False

    def __post_init__(self) -> None:
        self.models = [Chance(n) for n in numbers_in(self.game_id)]
        for model in self.models:
            deck = list(range(self.card_count))
            model.deck.shuffle(deck)
            self.decks.append(deck)

    def battle(
        self, attacker: int, defender: int, attack: tuple[int, ...], defend: tuple[int, ...]
    ) -> None:
        guesses: Counter[int] = Counter()
        alive = []
        for model, deck in zip(self.models, self.decks, strict=True):
            a = model.attack(attacker).roll(len(attack))
            d = model.defend(defender).roll(len(defend))
            if tuple(a) == attack and tuple(d) == defend:
                alive.append((model, deck))
            guesses[sum(a) % 6] += 1
        guess = (
            guesses.most_common(1)[0][0]
            if guesses
            else (self.sums.most_common(1)[0][0] if self.sums else 0)
        )
        self.dice_guesses += 1
        self.die_hits += guess == sum(attack) % 6
        self.sums[sum(attack) % 6] += 1
        # a model that mispredicted is not the generator: forget it
        self.models = [m for m, _ in alive]
        self.decks = [d for _, d in alive]

    def card(self, card: int) -> None:
        if self.reshuffled:
            return
        unseen = [c for c in range(self.card_count) if c not in self.drawn]
        guesses = Counter(deck[-1] for deck in self.decks if deck)
        guess = guesses.most_common(1)[0][0] if guesses else min(unseen)
        self.card_hits += guess == card
        self.card_chance.append(1 / len(unseen))
        self.drawn.add(card)
        for deck in self.decks:
            if deck:
                deck.pop()


def at_most_chance(hits: int, probabilities: list[float]) -> bool:
    """``hits`` no more than chance allows: mean + 4 standard deviations (+1)."""
    mean = sum(probabilities)
    sd = math.sqrt(sum(p * (1 - p) for p in probabilities))
    return hits <= mean + 4 * sd + 1


@dataclass
class Tally:
    die_hits: int = 0
    dice_guesses: int = 0
    card_hits: int = 0
    card_chance: list[float] = field(default_factory=list)


def spy_on_games(seeds_and_ids: list[tuple[int, str]], rounds: int = 40) -> Tally:
    """Play attack-happy games in-process; the spy sees every event (more than any bot)."""
    rules = make_rules("classic", {"turn_limit": rounds})
    total = Tally()
    for seed, game_id in seeds_and_ids:
        game = Game(rules, 4, seed)
        watcher = Spy(game_id, game.board.card_count)
        rng = random.Random(seed % 1000)
        while not game.over:
            for event in game.apply(attack_happy_action(game, rng)):
                if isinstance(event, Battle):
                    watcher.battle(
                        event.attacker, event.defender, event.attack_dice, event.defend_dice
                    )
                elif isinstance(event, CardDrawn):
                    watcher.card(event.card)
                elif isinstance(event, DeckReshuffled):
                    watcher.reshuffled = True
        total.die_hits += watcher.die_hits
        total.dice_guesses += watcher.dice_guesses
        total.card_hits += watcher.card_hits
        total.card_chance += watcher.card_chance
    return total


def test_a_spy_predicts_dice_and_cards_no_better_than_chance():
    games = [(new_seed(), new_game_id()) for _ in range(6)]
    spied = spy_on_games(games)
    assert spied.dice_guesses >= 300 and len(spied.card_chance) >= 100
    assert at_most_chance(spied.die_hits, [1 / 6] * spied.dice_guesses), (
        f"{spied.die_hits} of {spied.dice_guesses} dice predicted"
    )
    assert at_most_chance(spied.card_hits, spied.card_chance), (
        f"{spied.card_hits} of {len(spied.card_chance)} cards predicted"
    )


def test_the_spy_predicts_everything_when_the_game_id_names_the_seed():
    """The power to fail: with the seed in the id (old ``hegemon play``), the spy wins."""
    games = [(seed, f"game-{seed}") for seed in (11, 12)]
    spied = spy_on_games(games, rounds=20)
    assert spied.dice_guesses > 50 and spied.die_hits >= spied.dice_guesses - 4
    assert len(spied.card_chance) > 5 and spied.card_hits >= len(spied.card_chance) - 1


def test_a_real_spy_bot_in_a_real_game_predicts_no_better_than_chance(tmp_path):
    """A bot process: its game id and every Battle event it was sent, nothing else."""
    spy_file = tmp_path / "spy.bin"
    result = trio.run(
        play_one,
        [spy(spy_file), resolve("aggressive"), resolve("aggressive")],
        make_rules("classic", {"turn_limit": 40}),
        new_seed(),
        TimeControl(startup=20, decision=5, bank=120),
    )
    messages = read_spy(spy_file)
    start = next(m for _kind, m in messages if isinstance(m, pb.StartGameRequest))
    watcher = Spy(start.game_id, builtin_map("classic").card_count)
    for _kind, request in messages:
        if not isinstance(request, pb.DecideRequest):
            continue
        for event in request.events:
            if event.WhichOneof("kind") == "battle":
                b = event.battle
                watcher.battle(b.attacker, b.defender, tuple(b.attack_dice), tuple(b.defend_dice))
    assert result.game_id == start.game_id
    assert watcher.dice_guesses >= 100, "too few battles seen: the test proves nothing"
    assert at_most_chance(watcher.die_hits, [1 / 6] * watcher.dice_guesses)


def test_game_ids_share_nothing_with_seeds():
    for _ in range(200):
        seed, game_id = new_seed(), new_game_id()
        assert seed >= 1 << 128 and seed.bit_length() == 129  # 128 random bits below the top
        assert seed not in numbers_in(game_id)
        text = game_id.lower()
        for digits in (str(seed), f"{seed:x}"):
            assert not any(digits[i : i + 6] in text for i in range(len(digits) - 5))
    assert len({new_game_id() for _ in range(1000)}) == 1000


# ---------------------------------------------------------------------------------- streams
def test_streams_are_keyed_by_seed_and_label():
    a, b = Chance(99), Chance(99)
    assert [a.attack(0).below(1000) for _ in range(50)] == [
        b.attack(0).below(1000) for _ in range(50)
    ]
    key = seed_key(99)
    outcomes = {
        label: KeyedStream(sub_key(key, label)).below(1 << 32)
        for label in ("setup", "deck", "attack/0", "attack/1", "defend/0")
    }
    assert len(set(outcomes.values())) == len(outcomes)
    assert Chance(99).deck.below(1 << 32) != Chance(100).deck.below(1 << 32)


def test_below_is_uniform_and_in_range():
    stream = Chance(5).setup
    for n in (1, 2, 3, 6, 7, 42, 255, 256, 257, 1000, 1 << 20):
        assert all(0 <= stream.below(n) < n for _ in range(200))
    counts = Counter(stream.below(3) for _ in range(30_000))
    chi = sum((counts[k] - 10_000) ** 2 / 10_000 for k in range(3))
    assert chi < 13.816  # 99.9 % for 2 degrees of freedom
    with pytest.raises(ValueError):
        stream.below(0)


def test_shuffle_is_a_permutation_and_reaches_every_order():
    stream = Chance(8).deck
    orders: Counter[tuple[int, ...]] = Counter()
    for _ in range(6000):
        items = [0, 1, 2]
        stream.shuffle(items)
        orders[tuple(items)] += 1
    assert len(orders) == 6 and all(800 < c < 1200 for c in orders.values())


def test_one_seats_dice_use_moves_no_other_stream():
    plain, busy = Chance(2024), Chance(2024)
    for _ in range(37):
        busy.attack(1).roll(3)
        busy.defend(2).roll(2)
    deck_a, deck_b = list(range(44)), list(range(44))
    plain.deck.shuffle(deck_a)
    busy.deck.shuffle(deck_b)
    assert deck_a == deck_b
    assert plain.setup.below(6) == busy.setup.below(6)
    assert [plain.attack(0).roll(3) for _ in range(20)] == [
        busy.attack(0).roll(3) for _ in range(20)
    ]
    assert [plain.defend(3).roll(2) for _ in range(20)] == [
        busy.defend(3).roll(2) for _ in range(20)
    ]


def dealt_cards_and_dice(seed: int, policy_seed: int) -> tuple[list, list[int], dict[int, list]]:
    """A game's opening, the cards drawn before any reshuffle, and seat 0's attack rolls."""
    game = Game(make_rules("classic", {"turn_limit": 30}), 4, seed)
    rng = random.Random(policy_seed)
    cards: list[int] = []
    rolls: dict[int, list] = {s: [] for s in range(4)}
    reshuffled = False
    while not game.over:
        for event in game.apply(attack_happy_action(game, rng)):
            if isinstance(event, DeckReshuffled):
                reshuffled = True
            elif isinstance(event, CardDrawn) and not reshuffled:
                cards.append(event.card)
            elif isinstance(event, Battle):
                rolls[event.attacker].append(event.attack_dice)
    return [e.to_dict() for e in game.opening_events], cards, rolls


def test_differently_played_games_of_one_seed_share_the_deck_and_each_seats_dice():
    """What duplicate seasons rely on: play differs, the deck order and the dice do not."""
    open_a, cards_a, rolls_a = dealt_cards_and_dice(31, 1)
    open_b, cards_b, rolls_b = dealt_cards_and_dice(31, 2)
    assert open_a == open_b
    common = min(len(cards_a), len(cards_b))
    assert common >= 5 and cards_a[:common] == cards_b[:common]
    assert rolls_a != rolls_b  # the games were played differently...
    for seat in range(4):
        for rolls in (rolls_a[seat], rolls_b[seat]):
            # ...yet each seat's rolls are the same faces, one at a time, of its own stream
            faces = Chance(31).attack(seat)
            for roll in rolls:
                expected = sorted((faces.roll(1)[0] for _ in roll), reverse=True)
                assert list(roll) == expected
    _, cards_c, _ = dealt_cards_and_dice(32, 1)
    assert cards_c[:common] != cards_a[:common]


def test_a_clone_continues_every_stream_identically():
    game = Game(make_rules("classic", {"turn_limit": 10}), 4, 77)
    rng = random.Random(1)
    for _ in range(400):
        game.apply(attack_happy_action(game, rng))
    copy = game.clone()
    assert copy.rng.getstate() == game.rng.getstate()
    rng_a, rng_b = random.Random(2), random.Random(2)
    while not game.over:
        assert game.apply(attack_happy_action(game, rng_a)) == copy.apply(
            attack_happy_action(copy, rng_b)
        )
    assert copy.over
