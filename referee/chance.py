"""Every chance event of a game, from keyed streams that no sequence of outcomes gives away.

>>> chance = Chance(7)
>>> dice = chance.attack(2).roll(3)
>>> len(dice), dice == sorted(dice, reverse=True), all(1 <= d <= 6 for d in dice)
(3, True, True)
>>> Chance(7).attack(2).roll(3) == dice  # the same seed gives the same outcomes
True

A game's seed is the key of a pseudorandom function (keyed BLAKE2b, RFC 7693), run in counter
mode: block *i* of a stream is ``blake2b(i, key=subkey)``. Without the key, the blocks are
indistinguishable from random bytes, so no number of observed dice or cards tells anything about
the ones to come (unlike a Mersenne Twister, whose state follows from 624 outputs). The secrecy
is the seed's: a seed of 128 random bits cannot be found by search, a short one (``--seed 7``)
can, which is why a record marks a seed below :data:`PUBLIC_BELOW` as public.

Each purpose has its own stream, with a sub-key derived from the seed and a label:

* ``setup`` — the deal or the claim order, the first player (and its re-roll);
* ``deck`` — the card deck's shuffle and every reshuffle;
* ``missions`` — the secret mission cards dealt (mission presets);
* ``attack/<seat>`` and ``defend/<seat>`` — the dice that seat rolls attacking, defending;
* ``neutral/<seat>`` — the dice that seat rolls for neutrals (two-player active neutrals).

So one seat's dice never move another stream: two games with the same seed (the rotations of a
duplicate season) share the set-up, the deck order and every seat's dice sequence however
differently they are played.

Integers below ``n`` come by rejection sampling (never ``x % n`` on a range that ``n`` does not
divide), so every outcome is exactly equally likely.
"""

from __future__ import annotations

import hashlib
import itertools
import random
import secrets
from collections.abc import Iterable, Mapping
from typing import Protocol, TypeVar

from . import dice

T = TypeVar("T")

SEED_BITS = 128  # a fresh default seed: this many bits from the operating system
PUBLIC_BELOW = 1 << 64  # a seed below this is small enough to search for: public, not secret
MAX_SEED = (1 << (SEED_BITS + 1)) - 1  # the widest seed: what new_seed makes


def new_seed() -> int:
    """A fresh secret seed of 128 bits from the operating system (its hash is published before
    play, the seed after)."""
    # the bit above the 128 random ones set: never a (public) seed below PUBLIC_BELOW
    return secrets.randbits(SEED_BITS) | (1 << SEED_BITS)


_BLOCK = 64  # bytes per hash call: 64 dice bytes at once
_DIE_LIMIT = 252  # 42 * 6: a byte below this gives a fair die; above, it is rejected
_FACES = bytes(b % 6 + 1 if b < _DIE_LIMIT else 0 for b in range(256))  # byte -> die (0: reject)
#: every roll of 1 to 3 fair dice (their faces as bytes, in the order drawn) -> the faces sorted
#: high to low: a battle's dice in one dictionary look-up
_SORTED = {
    bytes(faces): tuple(sorted(faces, reverse=True))
    for count in (1, 2, 3)
    for faces in itertools.product(range(1, 7), repeat=count)
}


class Stream(Protocol):
    """What the engine draws from: integers below ``n``, shuffles and sorted dice."""

    def below(self, n: int) -> int:
        """A uniform integer in ``range(n)``."""
        ...

    def shuffle(self, items: list[T]) -> None:
        """Shuffle ``items`` in place, every order equally likely."""
        ...

    def roll(self, count: int) -> list[int]:
        """``count`` six-sided dice, sorted high to low."""
        ...

    def dice(self, count: int) -> tuple[int, ...]:
        """:meth:`roll` as a tuple (what a battle records)."""
        ...


def seed_key(seed: int) -> bytes:
    """The 32-byte master key of ``seed`` (any non-negative integer)."""
    if seed < 0:
        raise ValueError(f"a seed is a non-negative integer, not {seed}")
    return hashlib.blake2b(
        seed.to_bytes((seed.bit_length() + 7) // 8 or 1, "big"),
        digest_size=32,
        person=b"hegemon-seed",
    ).digest()


def sub_key(key: bytes, label: str) -> bytes:
    """The key of the stream called ``label`` under the master ``key``."""
    return hashlib.blake2b(
        label.encode(), key=key, digest_size=32, person=b"hegemon-stream"
    ).digest()


class KeyedStream:
    """One purpose's outcomes: keyed BLAKE2b in counter mode, 64 bytes per call."""

    __slots__ = ("_buffer", "_counter", "_key", "_pos")

    def __init__(self, key: bytes):
        self._key = key
        self._counter = 0
        self._buffer = b""
        self._pos = _BLOCK  # empty: the first draw hashes block 0

    def _refill(self) -> None:
        self._buffer = hashlib.blake2b(
            self._counter.to_bytes(8, "little"), key=self._key, digest_size=_BLOCK
        ).digest()
        self._counter += 1
        self._pos = 0

    def _bytes(self, k: int) -> int:
        """The next ``k`` bytes as a big-endian integer."""
        if self._pos + k > _BLOCK:
            self._refill()
        pos = self._pos
        self._pos = pos + k
        return int.from_bytes(self._buffer[pos : pos + k], "big")

    def below(self, n: int) -> int:
        if n <= 0:
            raise ValueError(f"no integer below {n}")
        k = ((n - 1).bit_length() + 7) // 8 or 1
        span = 1 << (8 * k)
        limit = span - span % n  # the largest multiple of n that fits in k bytes
        while True:
            x = self._bytes(k)
            if x < limit:
                return x % n

    def shuffle(self, items: list[T]) -> None:
        below = self.below
        for i in range(len(items) - 1, 0, -1):
            j = below(i + 1)
            items[i], items[j] = items[j], items[i]

    def roll(self, count: int) -> list[int]:
        return list(self.dice(count))

    def dice(self, count: int) -> tuple[int, ...]:
        pos = self._pos
        end = pos + count
        if end <= _BLOCK:
            # the usual case, in a few C calls: the next bytes are all fair dice
            rolled = _SORTED.get(self._buffer[pos:end].translate(_FACES))
            if rolled is not None:
                self._pos = end
                return rolled
        return tuple(self._roll_slowly(count))

    def _roll_slowly(self, count: int) -> list[int]:
        """:meth:`roll` byte by byte, across blocks and past rejected bytes."""
        dice: list[int] = []
        buffer, pos = self._buffer, self._pos
        while len(dice) < count:
            if pos >= _BLOCK:
                self._refill()
                buffer, pos = self._buffer, 0
            b = buffer[pos]
            pos += 1
            if b < _DIE_LIMIT:
                dice.append(b % 6 + 1)
        self._pos = pos
        dice.sort(reverse=True)
        return dice

    def state(self) -> tuple[bytes, int, int]:
        return (self._key, self._counter, self._pos)

    def copy(self) -> KeyedStream:
        other = KeyedStream(self._key)
        other._counter, other._buffer, other._pos = self._counter, self._buffer, self._pos
        return other


class Chance:
    """The streams of one game, keyed by its ``seed``; created lazily, per purpose and seat."""

    def __init__(self, seed: int):
        self._key = seed_key(seed)
        self.setup: Stream = self._stream("setup")
        self.deck: Stream = self._stream("deck")
        self.missions: Stream = self._stream("missions")
        self._dice: dict[tuple[str, int], KeyedStream] = {}
        # the same streams by seat, for the look-up of every battle
        self._attack: dict[int, KeyedStream] = {}
        self._defend: dict[int, KeyedStream] = {}

    def _stream(self, label: str) -> KeyedStream:
        return KeyedStream(sub_key(self._key, label))

    def attack(self, seat: int) -> Stream:
        """The dice ``seat`` rolls when it attacks."""
        stream = self._attack.get(seat)  # (inlined: every battle)
        if stream is None:
            stream = self._attack[seat] = self._seat_stream("attack", seat)
        return stream

    def defend(self, seat: int) -> Stream:
        """The dice ``seat`` rolls when it defends."""
        stream = self._defend.get(seat)  # (inlined: every battle)
        if stream is None:
            stream = self._defend[seat] = self._seat_stream("defend", seat)
        return stream

    def neutral(self, seat: int) -> Stream:
        """The dice ``seat`` rolls for neutrals (two-player active neutrals: an ally's
        reinforcements, the die after an attack on or with a neutral)."""
        return self._seat_stream("neutral", seat)

    def _seat_stream(self, role: str, seat: int) -> KeyedStream:
        stream = self._dice.get((role, seat))
        if stream is None:
            stream = self._dice[(role, seat)] = self._stream(f"{role}/{seat}")
        return stream

    def getstate(self) -> object:
        """Where every stream stands (equal states: equal outcomes from here on)."""
        streams = {
            "setup": self.setup,
            "deck": self.deck,
            "missions": self.missions,
            **{str(k): s for k, s in self._dice.items()},
        }
        return tuple(
            sorted((k, s.state()) for k, s in streams.items() if isinstance(s, KeyedStream))
        )

    def copy(self) -> Chance:
        """An independent copy that continues every stream identically."""
        # made through __init__ (a compiled class has no other way), then every field replaced
        other = Chance(0)
        self._copy_into(other)
        return other

    def _copy_into(self, other: Chance) -> None:
        """Make ``other``'s streams independent copies of this one's."""
        other._key = self._key
        other.setup = _copy(self.setup)
        other.deck = _copy(self.deck)
        other.missions = _copy(self.missions)
        other._dice = {k: s.copy() for k, s in self._dice.items()}
        other._attack = {seat: other._dice[("attack", seat)] for seat in self._attack}
        other._defend = {seat: other._dice[("defend", seat)] for seat in self._defend}


def _copy(stream: Stream) -> Stream:
    return stream.copy() if isinstance(stream, KeyedStream) else stream


class _MersenneStream:
    """The one Mersenne Twister stream of format-1 records, kept so they still verify."""

    __slots__ = ("rng",)

    def __init__(self, rng: random.Random):
        self.rng = rng

    def below(self, n: int) -> int:
        return self.rng.randrange(n)

    def shuffle(self, items: list[T]) -> None:
        self.rng.shuffle(items)

    def roll(self, count: int) -> list[int]:
        return dice.roll(self.rng, count)

    def dice(self, count: int) -> tuple[int, ...]:
        return tuple(dice.roll(self.rng, count))


class LegacyChance(Chance):
    """Chance as format-1 records drew it: one ``random.Random(seed)`` for every purpose.

    Predictable (a Mersenne Twister): only for replaying old records, never for new games.
    """

    def __init__(self, seed: int, rng: random.Random | None = None):
        self._rng = rng if rng is not None else random.Random(seed)
        self._key = b""
        self.setup = self.deck = self.missions = self._one = _MersenneStream(self._rng)
        self._dice = {}
        self._attack = {}
        self._defend = {}

    def attack(self, seat: int) -> Stream:
        return self._one

    def defend(self, seat: int) -> Stream:
        return self._one

    def neutral(self, seat: int) -> Stream:
        return self._one

    def getstate(self) -> object:
        return self._rng.getstate()

    def copy(self) -> Chance:
        rng = random.Random()
        rng.setstate(self._rng.getstate())
        return LegacyChance(0, rng)


Rolls = Mapping[int, Iterable[Iterable[int]]]
"""Given dice: seat -> the rolls it makes next, in order, each the faces of one roll."""


class GivenStream:
    """A seat's dice whose next rolls are given: each roll drawn is the next given one (sorted
    high to low, as rolled dice are), then the seat's own stream goes on (:class:`GivenDice`)."""

    __slots__ = ("_given", "_then")

    def __init__(self, given: list[tuple[int, ...]], then: KeyedStream):
        self._given = given
        self._then = then

    def below(self, n: int) -> int:
        return self._then.below(n)

    def shuffle(self, items: list[T]) -> None:
        self._then.shuffle(items)

    def roll(self, count: int) -> list[int]:
        return list(self.dice(count))

    def dice(self, count: int) -> tuple[int, ...]:
        if not self._given:
            return self._then.dice(count)
        faces = self._given.pop(0)
        if len(faces) != count:
            raise ValueError(f"the next given roll is {list(faces)}, but {count} dice are rolled")
        return faces

    def left(self) -> list[tuple[int, ...]]:
        """The given rolls not drawn yet."""
        return list(self._given)


def _faces(roll: Iterable[int]) -> tuple[int, ...]:
    faces = tuple(sorted(roll, reverse=True))
    if not 1 <= len(faces) <= 3 or not all(1 <= face <= 6 for face in faces):
        raise ValueError(f"a given roll is one to three dice of 1 to 6, not {list(faces)}")
    return faces


class GivenDice(Chance):
    """A game's chance with the next battle dice given, for tests and worked examples (the
    compiled engine calls its own classes directly, so patching a stream's methods or
    subclassing :class:`Chance` outside the engine cannot reach its dice; this class can).

    ``attack``, ``defend`` and ``neutral`` map a seat to the rolls it makes next attacking,
    defending, and for neutrals (two-player games), each roll the faces of one roll in any
    order. Everything else — the set-up, the deck, every roll after the given ones — comes from
    ``seed``'s streams, as in a plain game. :func:`give_dice` gives dice to a game under way.

    >>> chance = GivenDice(7, attack={0: [(2, 3), (6, 6, 6)]})
    >>> chance.attack(0).roll(2), chance.attack(0).dice(3)
    ([3, 2], (6, 6, 6))
    >>> chance.attack(0).roll(3) == Chance(7).attack(0).roll(3)  # then the seed's own dice
    True
    """

    def __init__(
        self,
        seed: int,
        attack: Rolls | None = None,
        defend: Rolls | None = None,
        neutral: Rolls | None = None,
    ):
        super().__init__(seed)
        self._given: dict[tuple[str, int], GivenStream] = {}
        self.give(attack, defend, neutral)

    def give(
        self, attack: Rolls | None = None, defend: Rolls | None = None, neutral: Rolls | None = None
    ) -> None:
        """Give more rolls: after those already given to the same seat and role."""
        for role, rolls in (("attack", attack), ("defend", defend), ("neutral", neutral)):
            for seat, seat_rolls in (rolls or {}).items():
                faces = [_faces(roll) for roll in seat_rolls]
                given = self._given.get((role, seat))
                if given is None:
                    given = GivenStream([], self._seat_stream(role, seat))
                    self._given[(role, seat)] = given
                given._given.extend(faces)

    def attack(self, seat: int) -> Stream:
        given = self._given.get(("attack", seat))
        return given if given is not None else super().attack(seat)

    def defend(self, seat: int) -> Stream:
        given = self._given.get(("defend", seat))
        return given if given is not None else super().defend(seat)

    def neutral(self, seat: int) -> Stream:
        given = self._given.get(("neutral", seat))
        return given if given is not None else super().neutral(seat)

    def getstate(self) -> object:
        left = sorted((key, tuple(given.left())) for key, given in self._given.items())
        return (super().getstate(), tuple(left))

    def copy(self) -> Chance:
        other = GivenDice(0)
        self._copy_into(other)
        for (role, seat), given in self._given.items():
            other._given[(role, seat)] = GivenStream(given.left(), other._seat_stream(role, seat))
        return other


def give_dice(
    chance: Chance,
    attack: Rolls | None = None,
    defend: Rolls | None = None,
    neutral: Rolls | None = None,
) -> GivenDice:
    """A :class:`GivenDice` that continues ``chance`` (a game's ``rng``) exactly, with the rolls
    given first: ``game.rng = give_dice(game.rng, attack={0: [(6, 5, 1)]}, defend={1: [(5, 5)]})``
    gives the game's next battle between seats 0 and 1 those dice. Rolls given to a
    :class:`GivenDice` come after those it holds already."""
    if isinstance(chance, GivenDice):
        chance.give(attack, defend, neutral)
        return chance
    if isinstance(chance, LegacyChance):
        raise ValueError("a format-1 record's chance takes no given dice")
    given = GivenDice(0)
    chance._copy_into(given)
    given.give(attack, defend, neutral)
    return given
