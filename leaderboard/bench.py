"""Version-against-version matches for ``hegemon bench NEW OLD``: which seats each bot takes,
how a game and a pair of games are scored, and how the games are played (in this process for
Python bots, as sandboxed processes otherwise).

**Design.** A bench game seats the two versions alternating: ``NEW OLD`` (a two-player rule
set), ``NEW OLD NEW OLD`` (4 players), and so on. Games come in *pairs on one deal*: the
same seed (so the same set-up, deck order and each seat's dice, :mod:`hegemon.referee.chance`)
played twice with the versions swapped seat for seat, as cutechess-cli and fishtest replay an
opening with the colours reversed. A game scores NEW against OLD over every (NEW seat, OLD seat)
couple: 1 if the NEW seat finished ahead, ½ if level, 0 if behind, averaged. A pair's score is
the mean of its two games; the pairs are the samples of the SPRT (:mod:`.sprt`), like
fishtest's pentanomial model, so the correlation within a pair is accounted for.

Both modes (in this process and as processes) give every game the same id,
:func:`bench_game_id` of its deal and leg: a bot that seeds its own choices from the game id
plays the two games of a deal independently, as in a season, so two copies of one version do
not simply replay each other seat for seat. A rule set without a turn limit gets
:data:`TURN_LIMIT` (bots that never attack would play for ever), and an in-process game ends
after :data:`MAX_DECISIONS` decisions, ranked as at its round limit (a game of processes has
the referee's own backstops, :mod:`hegemon.referee.limits`).
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

NEW, OLD = 0, 1

TURN_LIMIT = 100
"""Rounds after which a bench game ends when its rules set no limit (ranked by the rules'
score): two random bots never finish a classic game."""

MAX_DECISIONS = 50_000
"""Decisions after which an in-process game ends (seconds of play, not the minutes of the
referee's own :data:`~hegemon.referee.limits.DEFAULT_DECISION_LIMIT`)."""


def seatings(players: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The two seatings of a pair: NEW/OLD alternating from seat 0, then the swap."""
    first = tuple(seat % 2 for seat in range(players))
    return first, tuple(1 - side for side in first)


def game_points(places: Sequence[int], seating: Sequence[int]) -> int:
    """NEW's half-points in one game: 2 per (NEW, OLD) couple of seats where NEW finished
    ahead, 1 where level (``places[seat]``, 1 = winner)."""
    new = [places[s] for s, side in enumerate(seating) if side == NEW]
    old = [places[s] for s, side in enumerate(seating) if side == OLD]
    return sum(2 if n < o else 1 if n == o else 0 for n in new for o in old)


def pair_scale(players: int) -> int:
    """The half-points a pair can earn at most (both games won over every couple)."""
    first, _ = seatings(players)
    return 4 * first.count(NEW) * first.count(OLD)


def support(players: int) -> list[float]:
    """Every score a pair can have: k / :func:`pair_scale`."""
    scale = pair_scale(players)
    return [k / scale for k in range(scale + 1)]


def deal_seed(secret: int, deal: int) -> int:
    """The seed of deal ``deal``, derived from the match's seed (HMAC, 128 bits)."""
    key = secret.to_bytes(32, "big", signed=False)
    digest = hmac.new(key, f"bench-deal:{deal}".encode(), hashlib.sha256).digest()
    return int.from_bytes(digest[:16], "big")


def bench_game_id(seed: int, leg: int) -> str:
    """The id of leg ``leg`` (0 or 1) of the deal with seed ``seed``: fixed by the match seed
    (a match replays), different for the two legs, and telling nothing about the seed."""
    digest = hashlib.blake2b(f"{seed}:{leg}".encode(), digest_size=8, person=b"hegemon-bench")
    return f"bench-{digest.hexdigest()}"


# ------------------------------------------------------------------------------ in-process
@dataclass(frozen=True)
class PairResult:
    """One deal played twice: each game's places and the pair's score for NEW."""

    deal: int
    places: tuple[tuple[int, ...], tuple[int, ...]]
    points: int
    scale: int
    faults: int

    @property
    def score(self) -> float:
        return self.points / self.scale


def score_pair(deal: int, players: int, places: Sequence[Sequence[int]], faults: int) -> PairResult:
    """The :class:`PairResult` of a deal's two games (places in :func:`seatings` order)."""
    first, second = seatings(players)
    points = game_points(places[0], first) + game_points(places[1], second)
    return PairResult(
        deal, (tuple(places[0]), tuple(places[1])), points, pair_scale(players), faults
    )


def identical(results: Sequence[PairResult]) -> bool:
    """Whether every deal's two games ended with the same places seat for seat: the versions
    played alike wherever they sat, and the match measured no difference at all."""
    return bool(results) and all(r.places[0] == r.places[1] for r in results)


def play_pair_local(
    factories: Sequence[Callable[[], Any]], rules: Any, players: int, seed: int, deal: int
) -> PairResult:
    """Both games of a deal in this process (fresh bot objects per game), by the referee's own
    loop and limits (:func:`hegemon.sdk.play_local`)."""
    from hegemon.referee.limits import bounded
    from hegemon.sdk import play_local

    places, faults = [], 0
    for leg, seating in enumerate(seatings(players)):
        bots = [factories[side]() for side in seating]
        game_id = bench_game_id(seed, leg)
        result = play_local(
            bots, bounded(rules, TURN_LIMIT), seed, game_id=game_id, decision_limit=MAX_DECISIONS
        )
        places.append(result.places)
        faults += len(result.faults)
    return score_pair(deal, players, places, faults)


async def play_pair_processes(
    commands: Sequence[Any], rules: Any, players: int, seed: int, deal: int, time: Any
) -> PairResult:
    """Both games of a deal with the bots as sandboxed processes, fresh for every game (so no
    bot remembers the deal), under the time control ``time``."""
    from hegemon.referee.runner.session import play_one

    places, faults = [], 0
    for leg, seating in enumerate(seatings(players)):
        seated = [commands[side] for side in seating]
        result = await play_one(seated, rules, seed, time, game_id=bench_game_id(seed, leg))
        places.append(result.places)
        faults += len(result.faults)
    return score_pair(deal, players, places, faults)


def run_match(
    play: Callable[[int, int], PairResult],
    sprt: Any,
    seed: int,
    max_pairs: int,
    on_pair: Callable[[PairResult], Any] | None = None,
    stop: bool = True,
) -> list[PairResult]:
    """Play deals ``0, 1, …`` (``play(deal seed, deal)``), adding each pair's score to the
    running ``sprt``, until it decides (unless ``stop`` is False) or ``max_pairs`` were played."""
    results = []
    for deal in range(max_pairs):
        result = play(deal_seed(seed, deal), deal)
        results.append(result)
        sprt.add(result.score)
        if on_pair is not None:
            on_pair(result)
        if stop and sprt.verdict is not None:
            break
    return results
