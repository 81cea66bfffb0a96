"""Finishing orders checked and reduced to the arrays the Plackett–Luce solver needs.

Games are collapsed into the counts of their distinct finishing *patterns* (sorted, so the
result depends only on the multiset of games); a pattern is a list of choice *events* (a winner
chosen from a set of bots, see the package docstring), and equal choice sets of different
patterns are shared, so a board of few bots costs the same however many games it has.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

FinishingOrder = Sequence[Sequence[str]]
"""A finishing order: place groups, place 1 first; a group of several names is a tie."""

Key = tuple[tuple[str, ...], ...]
Ints = npt.NDArray[np.int64]
Floats = npt.NDArray[np.float64]


def canonical(game: FinishingOrder) -> Key:
    """Validate one game and return it as a hashable key with each group sorted."""
    if isinstance(game, (str, bytes)):
        raise TypeError(f"a game must be a list of place groups, not {game!r}")
    key: list[tuple[str, ...]] = []
    seen: set[str] = set()
    for group in game:
        if isinstance(group, (str, bytes)):
            raise TypeError(
                f"each place must be a list of bot names, got the string {group!r}"
                " (write [['a'], ['b']], not ['a', 'b'])"
            )
        names = tuple(sorted(group))
        if not names:
            raise ValueError(f"empty place group in game {game!r}")
        for name in names:
            if not isinstance(name, str):
                raise TypeError(f"bot names must be strings, got {name!r}")
            if name in seen:
                raise ValueError(f"bot {name!r} appears twice in game {game!r}")
            seen.add(name)
        key.append(names)
    if len(seen) < 2:
        raise ValueError(f"a game needs at least two players: {game!r}")
    return tuple(key)


class Segments:
    """Sums of gathered columns by key: ``out[:, k] = Σ_{t: keys[t] = k} src[:, source[t]]``.

    The pairs are sorted by key once, so every sum is one gather and one ``reduceat``.
    """

    def __init__(self, keys: Ints, source: Ints, n_out: int):
        order = np.argsort(keys, kind="stable")
        sorted_keys = keys[order]
        self.present, self.starts = np.unique(sorted_keys, return_index=True)
        self.source = source[order]
        self.n_out = n_out
        self.full = bool(self.present.size == n_out and n_out > 0)

    def sum(self, src: Floats) -> Floats:
        if self.full:  # every key has terms: the sums are the output as they are
            sums: Floats = np.add.reduceat(src[:, self.source], self.starts, axis=1)
            return sums
        out = np.zeros((src.shape[0], self.n_out))
        if self.source.size:
            out[:, self.present] = np.add.reduceat(src[:, self.source], self.starts, axis=1)
        return out


@dataclass(frozen=True)
class Compiled:
    """Games as pattern counts and the pattern → event → choice-set structure."""

    bots: tuple[str, ...]
    counts: Floats
    """Games of each distinct pattern (patterns in sorted order)."""
    n_sets: int
    wins_by_bot: Segments
    """Pattern counts → events won per bot."""
    events_by_set: Segments
    """Pattern counts → events made from each choice set."""
    set_members: Ints
    """Members of the choice sets, flattened; ``member_set`` names each one's set."""
    member_set: Ints
    games_by_bot: Segments
    """Pattern counts → games played per bot."""

    @property
    def n_bots(self) -> int:
        return len(self.bots)

    def statistics(self, counts: Floats) -> tuple[Floats, Floats]:
        """Wins per bot ``(B, n)`` and events per choice set ``(B, m)`` for rows of pattern
        counts ``(B, P)``."""
        return self.wins_by_bot.sum(counts), self.events_by_set.sum(counts)


class Tally(dict[Key, int]):
    """Games given as counts of their finishing patterns (``{pattern: games}``, each pattern a
    finishing order as in :data:`FinishingOrder`, as a tuple of tuples): the same fit as the list of
    games it counts, without the list (a stored board keeps these counts and adds new games)."""


def tally_of(games: Sequence[FinishingOrder] | Tally) -> Counter[Key]:
    """The games as counts of their canonical patterns (every pattern checked)."""
    if isinstance(games, Tally):
        out: Counter[Key] = Counter()
        for key, count in games.items():
            if count > 0:
                out[canonical(key)] += int(count)
        return out
    return _tally(games)


def compile_games(games: Sequence[FinishingOrder] | Tally) -> Compiled:
    """Check the games and collapse them into pattern counts (see the module docstring)."""
    return _compile(tally_of(games))


def _tally(games: Sequence[FinishingOrder]) -> Counter[Key]:
    # equal games are checked once (a string is iterable too: the first game as given is
    # what canonical() checks)
    raw: Counter[tuple[object, ...]] = Counter()
    first: dict[tuple[object, ...], FinishingOrder] = {}
    for game in games:
        if isinstance(game, (str, bytes)):
            canonical(game)
        try:
            as_given = tuple(map(tuple, game))
        except TypeError:
            canonical(game)
            raise
        raw[as_given] += 1
        if as_given not in first:
            first[as_given] = game
    tally: Counter[Key] = Counter()
    for given, count in raw.items():
        tally[canonical(first[given])] += count
    return tally


def _compile(tally: Counter[Key]) -> Compiled:
    keys = sorted(tally)
    bots = sorted({name for key in keys for group in key for name in group})
    index = {name: i for i, name in enumerate(bots)}
    set_id: dict[tuple[int, ...], int] = {}
    ev_pattern: list[int] = []
    ev_winner: list[int] = []
    ev_set: list[int] = []
    played_by: list[int] = []
    played_in: list[int] = []
    for p, key in enumerate(keys):
        below: list[int] = []
        for group in reversed(key):
            members = [index[name] for name in group]
            if below:
                for i in members:
                    choice = tuple(sorted([i, *below]))
                    ev_pattern.append(p)
                    ev_winner.append(i)
                    ev_set.append(set_id.setdefault(choice, len(set_id)))
            below.extend(members)
        played_by.extend(below)
        played_in.extend([p] * len(below))
    counts = np.array([tally[key] for key in keys], dtype=np.float64)
    patterns = np.asarray(ev_pattern, dtype=np.int64)
    winners = np.asarray(ev_winner, dtype=np.int64)
    choice_sets = np.asarray(ev_set, dtype=np.int64)
    sets = list(set_id)
    set_members = np.fromiter((i for s in sets for i in s), dtype=np.int64)
    member_set = np.repeat(np.arange(len(sets), dtype=np.int64), [len(s) for s in sets])
    return Compiled(
        bots=tuple(bots),
        counts=counts,
        n_sets=len(sets),
        wins_by_bot=Segments(winners, patterns, len(bots)),
        events_by_set=Segments(choice_sets, patterns, len(sets)),
        set_members=set_members,
        member_set=member_set,
        games_by_bot=Segments(
            np.asarray(played_by, dtype=np.int64), np.asarray(played_in, dtype=np.int64), len(bots)
        ),
    )
