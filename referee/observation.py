"""The code of :mod:`hegemon.referee.encoding` (whose doc describes the action space and the
observation), compiled with the engine (:data:`hegemon.referee.native.COMPILED`): a learning
environment encodes a view and lists its legal actions after every atomic step, and a bot
playing through the SDK's policy at every decision, so this is written for mypyc (plain loops
over plain ints and lists; numpy only to make and slice the vectors). Import it through
:mod:`hegemon.referee.encoding`.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterable, MutableSequence, Sequence
from dataclasses import dataclass, field
from operator import index as plain
from typing import SupportsIndex, SupportsInt, TypeVar, cast

import numpy as np

from hegemon.referee import actions as act
from hegemon.referee import legal
from hegemon.referee.board import INSIGNIA, WILD, Board
from hegemon.referee.decisions import Decision, Kind, Kinds
from hegemon.referee.game import Game
from hegemon.referee.rules import PRESETS
from hegemon.referee.view import SeatInfo, View, public_seats, view_for

MAX_SEATS = 6
"""Seats (players and neutral colours) a game has at most."""
MAX_SETS = 32
"""Card sets offered at once; a larger hand offers its first ``MAX_SETS`` (in
``legal.trades`` order)."""
MAX_HAND = 16
"""Cards of the hand a bribe may name (the first ``MAX_HAND``)."""
MAX_MISSIONS = 32
"""Mission ids the observation marks (the 2000 deck has 14, the 2004 deck 28)."""
KINDS: tuple[Kind, ...] = tuple(Kind)
"""The decision kinds, in the order of the observation's one-hot."""
PRESET_NAMES: tuple[str, ...] = tuple(PRESETS)

BUCKETS: tuple[tuple[str, int, float], ...] = (
    ("1", 1, 0.0),
    ("2", 2, 0.0),
    ("3", 3, 0.0),
    ("5", 5, 0.0),
    ("least", 0, 0.0),
    ("quarter", 0, 0.25),
    ("half", 0, 0.5),
    ("three quarters", 0, 0.75),
    ("all", 0, 1.0),
)
"""The amount buckets: ``(name, exact, fraction)``. An exact bucket is that number (legal only
within the bounds); a fractional one is ``least + ceil((most - least) * fraction)``, always
legal. See :func:`amount`."""

PASS = 0
"""The action index of passing."""
OBSERVATION_HIGH = 1000.0
"""Every observation number is at most this (a number above it, as 10,000 armies on one
territory would give, is clipped)."""

_TERRITORY_FEATURES = MAX_SEATS + 14
_SEAT_FEATURES = 10
_CONTINENT_FEATURES = 4
_STEPS = ("first", "target", "amount", "card")
_MARKS = MAX_SEATS + 1  # the first territory column after the owner's one-hot: its armies


def amount(bucket: int, least: int, most: int) -> int:
    """The amount ``bucket`` stands for between ``least`` and ``most``, or -1 if none.

    >>> [amount(b, 2, 9) for b in range(len(BUCKETS))]
    [-1, 2, 3, 5, 2, 4, 6, 8, 9]
    """
    _, exact, fraction = BUCKETS[bucket]
    if exact:
        return exact if least <= exact <= most else -1
    if least > most:
        return -1
    return least + math.ceil((most - least) * fraction)


@dataclass(frozen=True)
class Layout:
    """The sizes and index ranges of the action space and the observation for one map. Its
    methods take any integer (a policy's numpy ones too: compiled code checks the types)."""

    territories: int
    continents: int

    @staticmethod
    def for_board(board: Board) -> Layout:
        """The layout of ``board`` (cached per board)."""
        return layout_of(board)

    @property
    def territory_base(self) -> int:
        return 1

    @property
    def amount_base(self) -> int:
        return 1 + self.territories

    @property
    def set_base(self) -> int:
        return self.amount_base + len(BUCKETS)

    @property
    def seat_base(self) -> int:
        return self.set_base + MAX_SETS

    @property
    def card_base(self) -> int:
        return self.seat_base + MAX_SEATS

    @property
    def actions(self) -> int:
        """The size of the ``Discrete`` action space."""
        return self.card_base + MAX_HAND

    def territory(self, t: SupportsIndex) -> int:
        """The index that picks territory ``t``."""
        return 1 + plain(t)

    def amount(self, bucket: SupportsIndex) -> int:
        """The index of amount bucket ``bucket``."""
        return self.amount_base + plain(bucket)

    def card_set(self, k: SupportsIndex) -> int:
        """The index that trades the ``k``-th set."""
        return self.set_base + plain(k)

    def seat(self, relative: SupportsIndex) -> int:
        """The index that picks the seat ``relative`` places after the observer."""
        return self.seat_base + plain(relative)

    def card(self, slot: SupportsIndex) -> int:
        """The index that gives the hand's card ``slot``."""
        return self.card_base + plain(slot)

    @property
    def features(self) -> int:
        """The length of the observation vector."""
        return (
            self.territories * _TERRITORY_FEATURES
            + self.continents * _CONTINENT_FEATURES
            + MAX_SEATS * _SEAT_FEATURES
            + len(INSIGNIA)
            + 3  # wild cards, hand size, sets
            + len(KINDS)
            + 1  # no decision
            + 6  # armies, minimum, maximum, attack dice, forced, armies left to place
            + len(_STEPS)
            + 3  # trades made, next set's value, round
            + MAX_MISSIONS
            + len(PRESET_NAMES)
        )


def layout_of(board: Board) -> Layout:
    """The :class:`Layout` of ``board``."""
    return _static(board).layout


@dataclass
class Partial:
    """The atomic steps taken so far toward one compound answer (see the module's doc). Start
    a new one for every decision."""

    placed: dict[int, int] = field(default_factory=dict)  # territory -> armies placed
    territory: int = -1  # place: the territory awaiting its amount
    source: int = -1  # attack, fortify: the source picked
    target: int = -1  # fortify: the target picked
    seat: int = -1  # bribe: the neutral picked

    @property
    def step(self) -> str:
        """Which step comes next: ``first``, ``target``, ``amount`` or ``card``."""
        if self.seat >= 0:
            return "card"
        if self.territory >= 0 or self.target >= 0:
            return "amount"
        if self.source >= 0:
            return "target"
        return "first"


_PLACING = (Kind.PLACE, Kind.PLACE_NEUTRAL, Kind.REINFORCE_ALLY)
_NO_PROGRESS = Partial()  # (only read: the progress of an answer not begun)
_MOVING = (Kind.FORTIFY, Kind.FORTIFY_ALLY)


def _left(decision: Decision, partial: Partial) -> int:
    return decision.armies - sum(partial.placed.values())


def _placeable(view: View, decision: Decision, partial: Partial) -> dict[int, int]:
    """Placing decisions: territory -> the most armies it may still get."""
    left = _left(decision, partial)
    owners = _memo(_placing_owners, view, decision)
    if decision.kind is not Kinds.PLACE_NEUTRAL:
        return dict.fromkeys(owners[0], left)
    room: dict[int, int] = {}
    for owned in owners:
        most = left
        if decision.maximum:
            most = min(left, decision.maximum - sum(partial.placed.get(t, 0) for t in owned))
        if most > 0:
            room.update(dict.fromkeys(owned, most))
    return room


def _room(view: View, decision: Decision, partial: Partial, territory: int) -> int:
    """Placing decisions: the most armies ``territory`` may still get (``_placeable``'s, without
    its dictionary for the common decision, a seat placing on its own territories)."""
    if decision.kind is Kinds.PLACE:
        return (
            _left(decision, partial)
            if territory in _memo(_placing_owners, view, decision)[0]
            else 0
        )
    return _placeable(view, decision, partial).get(territory, 0)


def _own_indices(view: View, decision: Decision) -> list[int]:
    """A placement on own territories: their action indices (only read)."""
    return [1 + t for t in _memo(_placing_owners, view, decision)[0]]


def _placing_owners(view: View, decision: Decision) -> list[list[int]]:
    """Placing decisions: the territories of each seat whose territories may get armies (the
    same at every step of one answer, so remembered)."""
    if decision.kind is Kinds.PLACE:
        seats: Sequence[int] = (decision.player,)
    elif decision.kind is Kinds.REINFORCE_ALLY:
        seats = decision.seats[:1]
    else:
        seats = decision.seats
    return [legal.own_territories(view, s) for s in seats]


def _moves(view: View, decision: Decision) -> list[tuple[int, int, int]]:
    """Fortifying decisions: every (source, target, most armies)."""
    return _memo(_move_options, view, decision)


def _move_options(view: View, decision: Decision) -> list[tuple[int, int, int]]:
    if decision.kind is Kinds.FORTIFY_ALLY:
        return list(legal.fortifies(view, decision.seats[0]))
    moves = legal.fortifies(view, decision.player, decision.target)
    if decision.target >= 0:
        return [m for m in moves if m[0] in decision.territories]
    return list(moves)


def _attack_dice(view: View, decision: Decision) -> list[tuple[int, int, int]]:
    """Attacking decisions: every (source, target, most dice), as the engine lists them (a
    list: a dictionary by pair cost as much again to build as the listing)."""
    return _memo(_attack_options, view, decision)


def _attack_options(view: View, decision: Decision) -> list[tuple[int, int, int]]:
    return list(legal.iter_attacks(view, decision.player))


_T = TypeVar("_T")
_MEMO: dict[Callable[..., object], tuple[View, Decision, object]] = {}


def _memo(compute: Callable[[View, Decision], _T], view: View, decision: Decision) -> _T:
    """``compute(view, decision)``, remembered for the last view and decision: the steps of
    one compound answer, its mask and its action ask for the same options (a view is
    immutable, so the same view object means the same game state)."""
    found = _MEMO.get(compute)
    if found is not None and found[0] is view and found[1] is decision:
        return found[2]  # type: ignore[return-value]
    result = compute(view, decision)
    _MEMO[compute] = (view, decision, result)
    return result


def _bounds(view: View, decision: Decision, partial: Partial) -> tuple[int, int]:
    """The least and most amount the amount step allows."""
    kind = decision.kind
    if kind is Kinds.DEFEND:
        return 1, decision.maximum
    if kind is Kinds.OCCUPY:
        return decision.minimum, decision.maximum
    if kind in _PLACING:
        return 1, _room(view, decision, partial, partial.territory)
    for s, t, most in _moves(view, decision):
        if (s, t) == (partial.source, partial.target):
            return 1, most
    return 1, 0


_AMOUNT_ONLY = (Kinds.DEFEND, Kinds.OCCUPY)  # the decisions answered by an amount alone


def action_mask(
    view: View, decision: Decision | None, partial: Partial | None = None
) -> np.ndarray:
    """The legal action indices of the next step (an int8 vector, 1 = legal), all 0 without
    a decision."""
    static = _static(view.board)
    layout = static.layout
    mask = static.no_action.copy()
    if decision is None:
        return mask
    legal_now = _legal(view, decision, partial if partial is not None else _NO_PROGRESS, layout)
    cells = mask.data  # a few single numbers: a fraction of numpy's cost for each
    for i in legal_now or (PASS,):  # never leave a decision without an answer: pass stands in
        cells[i] = 1
    return mask


def _legal(view: View, decision: Decision, partial: Partial, layout: Layout) -> list[int]:
    """The legal action indices of the next step (maybe none)."""
    kind, step = decision.kind, partial.step
    indices: list[int] = []
    if kind in _AMOUNT_ONLY or step == "amount":
        return _amount_indices(layout.amount_base, *_bounds(view, decision, partial))
    if kind in (Kinds.CLAIM, Kinds.CAPITAL):
        return [1 + t for t in decision.territories]
    if kind is Kinds.BUILD_CENTRE:
        return [PASS, *(1 + t for t in decision.territories)]
    if kind is Kinds.PLACE:  # (the same territories at every step while armies are left)
        return _memo(_own_indices, view, decision) if _left(decision, partial) > 0 else indices
    if kind in _PLACING:
        if kind is Kinds.REINFORCE_ALLY and not partial.placed:
            indices.append(PASS)
        placeable = _placeable(view, decision, partial).items()
        return indices + [1 + t for t, most in placeable if most > 0]
    if kind is Kinds.TRADE:
        if not decision.forced:
            indices.append(PASS)
        sets = min(len(legal.trades(view.hand, view.board, view.rules.card_values)), MAX_SETS)
        return indices + list(range(layout.set_base, layout.set_base + sets))
    if kind is Kinds.ATTACK:
        options = _attack_dice(view, decision)
        if step == "first":  # (a source of several attacks is listed as often: one cell)
            if not decision.forced:
                indices.append(PASS)
            return indices + [1 + s for s, _, _ in options]
        return [1 + t for s, t, _ in options if s == partial.source]
    if kind in _MOVING:
        moves = _moves(view, decision)
        if step == "first":
            return [PASS, *(1 + s for s in {s for s, _, _ in moves})]
        return [1 + t for s, t, _ in moves if s == partial.source]
    if kind is Kinds.BRIBE:
        if step == "first":
            n = len(view.seats)
            return [PASS, *(layout.seat_base + (s - view.seat) % n for s in decision.seats)]
        return list(range(layout.card_base, layout.card_base + min(len(view.hand), MAX_HAND)))
    return indices


@functools.lru_cache(maxsize=4096)
def _amount_indices(base: int, least: int, most: int) -> list[int]:
    """The indices of the amount buckets legal between ``least`` and ``most`` (few bounds
    recur: remembered; the list is only read)."""
    return [base + b for b in range(len(BUCKETS)) if amount(b, least, most) >= 0]


def to_action(
    index: SupportsInt,
    view: View,
    decision: Decision,
    partial: Partial | None = None,
    *,
    mask: np.ndarray | None = None,
) -> act.PlayerAction | None:
    """The answer ``index`` completes, or None when it was one step of a compound answer (its
    progress kept in ``partial``, which compound decisions need). ``index`` should be legal by
    :func:`action_mask` (``mask``: its result for this step, if already at hand); an illegal
    one raises ValueError."""
    index = int(index)  # a policy's numpy integer: the actions hold plain ints
    layout = layout_of(view.board)
    partial = partial if partial is not None else Partial()
    if mask is None:
        mask = action_mask(view, decision, partial)
    if not 0 <= index < len(mask) or not mask[index]:
        raise ValueError(f"action {index} is not legal for {decision.kind.value} now")
    kind = decision.kind
    t = index - 1
    if index == PASS:
        if kind in _PLACING and partial.placed:  # only a forced stand-in: place what is left
            return _placing_action(kind, partial)
        return act.Pass()
    if kind is Kinds.CLAIM:
        return act.Claim(t)
    if kind is Kinds.CAPITAL:
        return act.Capital(t)
    if kind is Kinds.BUILD_CENTRE:
        return act.BuildCentre(t)
    if kind is Kinds.TRADE:
        sets = legal.trades(view.hand, view.board, view.rules.card_values)
        return act.Trade(sets[index - layout.set_base])
    if kind in _AMOUNT_ONLY:
        least, most = _bounds(view, decision, partial)
        n = amount(index - layout.amount_base, least, most)
        return act.Defend(n) if kind is Kinds.DEFEND else act.Occupy(n)
    if kind in _PLACING:
        if partial.territory < 0:
            most = _room(view, decision, partial, t)
            if most > 1:
                partial.territory = t
                return None
            partial.placed[t] = partial.placed.get(t, 0) + 1
        else:
            least, most = _bounds(view, decision, partial)
            n = amount(index - layout.amount_base, least, most)
            partial.placed[partial.territory] = partial.placed.get(partial.territory, 0) + n
            partial.territory = -1
        return _placing_action(kind, partial) if _left(decision, partial) == 0 else None
    if kind is Kinds.ATTACK:
        if partial.source < 0:
            partial.source = t
            return None
        return act.Attack(partial.source, t, _most_dice(view, decision, partial.source, t))
    if kind in _MOVING:
        if partial.source < 0:
            partial.source = t
            return None
        if partial.target < 0:
            partial.target = t
            least, most = _bounds(view, decision, partial)
            if most > least:
                return None
            n = least
        else:
            least, most = _bounds(view, decision, partial)
            n = amount(index - layout.amount_base, least, most)
        move = act.Fortify if kind is Kinds.FORTIFY else act.FortifyAlly
        return move(partial.source, partial.target, n)
    if kind is Kinds.BRIBE:
        if partial.seat < 0:
            partial.seat = (view.seat + index - layout.seat_base) % len(view.seats)
            return None
        return act.Bribe(partial.seat, (view.hand[index - layout.card_base],))
    raise ValueError(f"no action encodes {kind.value}")


def _most_dice(view: View, decision: Decision, source: int, target: int) -> int:
    """The most dice of the attack from ``source`` to ``target`` (the engine's last listing of
    the pair)."""
    most = -1
    for s, t, dice in _attack_dice(view, decision):
        if s == source and t == target:
            most = dice
    if most < 0:
        raise ValueError(f"no attack from {source} to {target}")
    return most


def _placing_action(kind: Kind, partial: Partial) -> act.PlayerAction:
    placements = tuple(sorted(partial.placed.items()))
    if kind is Kinds.PLACE:
        return act.Place(placements)
    if kind is Kinds.PLACE_NEUTRAL:
        return act.PlaceNeutral(placements)
    return act.ReinforceAlly(placements)


def answer(
    view: View,
    decision: Decision,
    choose: Callable[[np.ndarray, np.ndarray], SupportsInt],
) -> act.PlayerAction:
    """The complete answer to ``decision``: ``choose(observation, mask)`` picks each step's
    index (a policy), as many times as the decision has steps."""
    partial = Partial()
    while True:
        obs = encode(view, decision, partial)
        action = to_action(
            choose(obs, action_mask(view, decision, partial)), view, decision, partial
        )
        if action is not None:
            return action


def encode(view: View, decision: Decision | None, partial: Partial | None = None) -> np.ndarray:
    """The observation of ``view`` facing ``decision`` (None: none pending) at the step
    ``partial`` is at: a float32 vector of ``layout_of(view.board).features`` numbers."""
    static = _static(view.board)
    out = Sections(view.board)
    me, seats = view.seat, len(view.seats)
    out.board(static.rows, view.owner, view.armies, me, seats)
    out.marks(view.centres, view.seats, me, view.stacks)
    out.capital(-1, view.capital)
    out.hand(view.hand, view.rules.card_values)
    out.seat_rows(view.seats, me)
    out.state(view.trade_count, view.next_trade_value, view.round, view.rules.preset)
    out.missions(view.missions)
    out.decision(decision, partial)
    return out.out


def _scaled(n: float, unit: float) -> float:
    """``n`` in ``unit``s, at most :data:`OBSERVATION_HIGH`."""
    return min(n / unit, OBSERVATION_HIGH)


class Sections:
    """One observation vector and the writers of its parts, each of which first clears what it
    writes and keeps every number at most :data:`OBSERVATION_HIGH`. :func:`encode` calls
    every writer once; :class:`hegemon.env.observer.SeatObserver` only those whose inputs
    changed since its last observation."""

    def __init__(self, board: Board):
        static = _static(board)
        layout = static.layout
        self.static = static
        self.out = np.zeros(layout.features, dtype=np.float32)
        # single numbers are written through a memoryview: a fraction of numpy's item cost
        self.flat = cast("MutableSequence[float]", self.out.data)
        size = layout.territories
        at = size * _TERRITORY_FEATURES
        self.terr = self.out[:at].reshape(size, _TERRITORY_FEATURES)
        self.conts = self.out[at : at + layout.continents * _CONTINENT_FEATURES].reshape(
            layout.continents, _CONTINENT_FEATURES
        )
        at += layout.continents * _CONTINENT_FEATURES
        self.seats = self.out[at : at + MAX_SEATS * _SEAT_FEATURES].reshape(
            MAX_SEATS, _SEAT_FEATURES
        )
        at += MAX_SEATS * _SEAT_FEATURES
        self.cards = self.out[at : at + len(INSIGNIA) + 3]
        at += len(INSIGNIA) + 3
        self.pending_at = at
        self.rest = self.out[at + len(KINDS) + 7 + len(_STEPS) :]
        # each territory's owner relative to the observer (MAX_SEATS: none), and per
        # continent how many territories each relative owner holds
        # the decision shown and its cells, and the flat indices of the progress shown
        self._shown: Decision | None = None
        self._shown_any = False  # (whether a decision, maybe None, was shown yet)
        self._shown_cells: list[int] = []
        self._progress: list[int] = []
        self.relative = [MAX_SEATS] * size
        self.held = [[0] * MAX_SEATS + [n] for n in static.sizes]
        self.conts_at = size * _TERRITORY_FEATURES
        self.seats_at = self.conts_at + layout.continents * _CONTINENT_FEATURES
        # each relative seat's row as last written (all 0 at first, as the vector is)
        self.seat_written = [[0.0] * _SEAT_FEATURES for _ in range(MAX_SEATS)]
        # and the seat's facts it was written from (its numbers depend on nothing else but the
        # observer, whose they are), to skip a row whose seat did not change
        self.seat_facts: list[SeatInfo | None] = [None] * MAX_SEATS
        self.seat_observer = -1
        self.terr[:, MAX_SEATS] = 1.0
        self.terr[:, _MARKS + 5] = static.values
        self.conts[:, 0] = static.bonus
        for k in range(layout.continents):
            self._continent(k)

    def board(
        self,
        rows: Iterable[int],
        owner: Sequence[int],
        armies: Sequence[int],
        me: int,
        seats: int,
    ) -> None:
        """Territories ``rows`` (of the board whose owners and armies are given), and the
        continents whose holders that changes."""
        flat, relative, held = self.flat, self.relative, self.held
        continent_of, row = self.static.continent_of, _TERRITORY_FEATURES
        changed: list[int] = []
        for t in rows:
            p = owner[t]
            r = (p - me) % seats if p >= 0 else MAX_SEATS
            was = relative[t]
            if r != was:
                flat[t * row + was] = 0.0
                flat[t * row + r] = 1.0
                relative[t] = r
                k = continent_of[t]
                held[k][was] -= 1
                held[k][r] += 1
                if k not in changed:
                    changed.append(k)
            flat[t * row + _MARKS] = _scaled(armies[t], 10.0)
        for k in changed:
            self._continent(k)

    def _continent(self, k: int) -> None:
        """Continent ``k``'s share held by the observer, and whether one seat holds it all."""
        held, size = self.held[k], self.static.sizes[k]
        mine = held[0]
        whole = False
        for n in held[1:]:
            if n == size:
                whole = True
        at = self.conts_at + k * _CONTINENT_FEATURES
        flat = self.flat
        flat[at + 1] = mine / size
        flat[at + 2] = 1.0 if mine == size else 0.0
        flat[at + 3] = 1.0 if whole else 0.0

    def marks(
        self,
        centres: Sequence[int],
        seats: Sequence[SeatInfo],
        me: int,
        stacks: Sequence[tuple[int, int, int]],
    ) -> None:
        """The public marks on territories: centres, other seats' known capitals, and the
        armies of seats other than the controller."""
        terr, c = self.terr, _MARKS
        terr[:, c + 1] = 0.0
        terr[:, c + 3] = 0.0
        terr[:, c + 12] = 0.0
        if centres:
            terr[list(centres), c + 1] = 1.0
        for info in seats:
            if info.capital >= 0 and info.seat != me:
                terr[info.capital, c + 3] = 1.0
        for t, s, n in stacks:
            if s != me:
                terr[t, c + 12] = min(terr[t, c + 12] + n / 10.0, OBSERVATION_HIGH)

    def capital(self, before: int, capital: int) -> None:
        """The observer's own capital (``before``: the one marked so far, -1 if none)."""
        if before >= 0:
            self.terr[before, _MARKS + 2] = 0.0
        if capital >= 0:
            self.terr[capital, _MARKS + 2] = 1.0

    def hand(self, hand: Sequence[int], card_values: str) -> None:
        """The observer's cards: on their territories and by insignia."""
        terr, cards, static = self.terr, self.cards, self.static
        terr[:, _MARKS + 4] = 0.0
        cards[:] = 0.0
        if not hand:
            return
        size = static.layout.territories
        for card in hand:
            if card < size:
                terr[card, _MARKS + 4] = 1.0
            cards[static.insignia[card]] += 0.2
        cards[-2] = _scaled(len(hand), 10.0)
        cards[-1] = _scaled(len(legal.trades(tuple(hand), static.board, card_values)), 10.0)

    def seat_rows(self, seats: Sequence[SeatInfo], me: int) -> None:
        """Every seat's public facts, relative to the observer ``me`` (only the numbers that
        differ from those written last are written)."""
        n, size = len(seats), self.static.layout.territories
        flat, written, at = self.flat, self.seat_written, self.seats_at
        facts = self.seat_facts
        if me != self.seat_observer:
            facts[:] = [None] * MAX_SEATS
            self.seat_observer = me
        my_team = seats[me].team
        for info in seats:
            r = (info.seat - me) % n
            was = facts[r]
            if was is not None and _same_facts(was, info):
                continue
            facts[r] = info
            values = [
                1.0,
                info.territories / size,
                _scaled(info.armies, 100.0),
                _scaled(info.cards, 10.0),
                1.0 if info.eliminated or info.forfeited else 0.0,
                1.0 if info.neutral else 0.0,
                1.0 if my_team >= 0 and info.team == my_team else 0.0,
                1.0 if info.ally_of == me else 0.0,
                len(info.shown_missions) / 4.0,
                1.0 if info.capital >= 0 else 0.0,
            ]
            before = written[r]
            start = at + r * _SEAT_FEATURES
            for i in range(_SEAT_FEATURES):
                if values[i] != before[i]:
                    flat[start + i] = values[i]
            written[r] = values

    def state(self, trade_count: int, next_trade_value: int, round: int, preset: str) -> None:
        """The edition's counters and the rule set."""
        rest = self.rest
        rest[:3] = (
            _scaled(trade_count, 10.0),
            _scaled(next_trade_value, 20.0),
            _scaled(round, 100.0),
        )
        rest[3 + MAX_MISSIONS :] = 0.0
        rest[3 + MAX_MISSIONS + _PRESET_INDEX[preset]] = 1.0

    def missions(self, missions: Sequence[int]) -> None:
        """The observer's own missions."""
        marks = self.rest[3 : 3 + MAX_MISSIONS]
        marks[:] = 0.0
        for m in missions:
            if 0 <= m < MAX_MISSIONS:
                marks[m] = 1.0

    def decision(self, decision: Decision | None, partial: Partial | None) -> None:
        """The pending decision and the partial answer's progress."""
        # a few scattered numbers, written by flat index: the last ones are cleared. The
        # decision's own cells stay written while it is the same decision (the steps of one
        # compound answer), only the progress's are rewritten.
        flat = self.flat
        if not self._shown_any or self._shown is not decision:
            for i in self._shown_cells:
                flat[i] = 0.0
            self._shown_cells = self._write(self._decision_cells(decision))
            self._shown, self._shown_any = decision, True
        for i in self._progress:
            flat[i] = 0.0
        self._progress = self._write(self._progress_cells(decision, partial))

    def _write(self, cells: tuple[list[int], list[float]]) -> list[int]:
        """Write the values at the flat indices ``cells`` gives; those indices."""
        flat = self.flat
        at, values = cells
        for j in range(len(at)):
            flat[at[j]] = values[j]
        return at

    def _progress_cells(
        self, decision: Decision | None, partial: Partial | None
    ) -> tuple[list[int], list[float]]:
        """The cells of the partial answer's progress (the decision's own apart): their flat
        indices and values."""
        at: list[int] = []
        values: list[float] = []
        row, c = _TERRITORY_FEATURES, _MARKS
        if partial is not None:
            for t in (partial.source, partial.territory):
                if t >= 0:
                    at.append(t * row + c + 9)
                    values.append(1.0)
            if partial.target >= 0:
                at.append(partial.target * row + c + 10)
                values.append(1.0)
            for t, n in partial.placed.items():
                at.append(t * row + c + 11)
                values.append(_scaled(n, 10.0))
        if decision is not None:
            partial = partial if partial is not None else _NO_PROGRESS
            k = self.pending_at + len(KINDS) + 1
            if decision.kind in _PLACING:
                left = _scaled(_left(decision, partial), 10.0)
                if left:
                    at.append(k + 5)
                    values.append(left)
            at.append(k + 6 + _STEPS.index(partial.step))
            values.append(1.0)
        return at, values

    def _decision_cells(self, decision: Decision | None) -> tuple[list[int], list[float]]:
        """The cells ``decision`` itself sets, whatever the partial answer: their flat indices
        and values."""
        row, c, pending = _TERRITORY_FEATURES, _MARKS, self.pending_at
        if decision is None:
            return [pending + len(KINDS)], [1.0]
        at = [t * row + c + 6 for t in decision.territories]
        values = [1.0] * len(at)
        if decision.source >= 0:
            at.append(decision.source * row + c + 7)
            values.append(1.0)
        if decision.target >= 0:
            at.append(decision.target * row + c + 8)
            values.append(1.0)
        at.append(pending + _KIND_INDEX[decision.kind])
        values.append(1.0)
        k = pending + len(KINDS) + 1
        numbers = (
            _scaled(decision.armies, 10.0),
            _scaled(decision.minimum, 10.0),
            _scaled(decision.maximum, 10.0),
            decision.attack_dice / 3.0,
            float(decision.forced),
        )
        for i, x in enumerate(numbers):
            if x:
                at.append(k + i)
                values.append(x)
        return at, values


def _same_facts(a: SeatInfo, b: SeatInfo) -> bool:
    """Whether two seats' public facts are the same (every field of them, read natively: the
    dataclass's ``==`` builds two tuples)."""
    return a is b or (
        a.seat == b.seat
        and a.territories == b.territories
        and a.armies == b.armies
        and a.cards == b.cards
        and a.eliminated == b.eliminated
        and a.forfeited == b.forfeited
        and a.neutral == b.neutral
        and a.team == b.team
        and a.capital == b.capital
        and a.shown_missions == b.shown_missions
        and a.ally_of == b.ally_of
    )


class ViewEncoder:
    """The observation of ``seat``'s successive views of ``board``: each :meth:`observe`
    rewrites only what differs from the view observed last, so that it always equals
    ``encode(view, decision, partial)``."""

    def __init__(self, board: Board, seat: int):
        self.seat = seat
        self._sections = Sections(board)
        self._written: View | None = None  # the view the observation shows
        self._seats: tuple[SeatInfo, ...] = ()
        # what the marks were written from: centres, the seats' capitals, team stacks
        self._centres: tuple[int, ...] | None = None
        self._capitals: list[int] = []
        self._stacks: tuple[tuple[int, int, int], ...] = ()
        self._counters: tuple[int, int, int] | None = None
        self._hand: tuple[int, ...] | None = None
        self._missions: tuple[int, ...] | None = None

    def observe(
        self, view: View, decision: Decision | None, partial: Partial | None = None
    ) -> np.ndarray:
        """The observation of ``view`` facing ``decision`` at ``partial``'s step (a new
        array)."""
        if view.seat != self.seat:  # (the observation is relative to the seat)
            raise ValueError(f"seat {self.seat}'s encoder was given seat {view.seat}'s view")
        out = self._sections
        if view is not self._written:
            self._rewrite(view, self._written)
            self._written = view
        out.decision(decision, partial)
        return out.out.copy()

    def _rewrite(self, view: View, before: View | None) -> None:
        """Rewrite what differs between ``view`` and the view written ``before``."""
        out, me = self._sections, self.seat
        if before is None:
            out.board(range(len(view.owner)), view.owner, view.armies, me, len(view.seats))
        elif view.owner != before.owner or view.armies != before.armies:
            out.board(
                _differing(view.owner, view.armies, before.owner, before.armies),
                view.owner,
                view.armies,
                me,
                len(view.seats),
            )
        seats = view.seats
        new_seats = seats is not self._seats
        if new_seats:  # (seat_rows writes only the numbers that changed)
            out.seat_rows(seats, me)
            self._seats = seats
        if (  # centres, known capitals, team stacks: rarely
            view.centres != self._centres
            or view.stacks != self._stacks
            or (new_seats and _other_capitals(seats, self._capitals))
        ):
            self._centres, self._stacks = view.centres, view.stacks
            self._capitals = [info.capital for info in seats]
            out.marks(view.centres, seats, me, view.stacks)
        counters = (view.trade_count, view.next_trade_value, view.round)
        if counters != self._counters:
            self._counters = counters
            out.state(*counters, view.rules.preset)
        if view.hand != self._hand:
            self._hand = view.hand
            out.hand(view.hand, view.rules.card_values)
        if view.missions != self._missions:
            self._missions = view.missions
            out.missions(view.missions)
        if before is None or view.capital != before.capital:
            out.capital(before.capital if before is not None else -1, view.capital)


class PublicSeats:
    """Every seat's public facts in ``game`` (:func:`public_seats`), read again only after an
    action was applied (they change only so); the observers of one game share them."""

    def __init__(self, game: Game):
        self.game = game
        self.step = -1  # the game's step they are of (its actions, doubled, +1 once over)
        self.seats: tuple[SeatInfo, ...] = ()

    def now(self) -> tuple[int, tuple[SeatInfo, ...]]:
        """(the game's step, the facts then)."""
        game = self.game
        step = 2 * len(game.history) + (1 if game.over else 0)
        if step != self.step:
            self.step = step
            self.seats = public_seats(game)
        return step, self.seats


class SeatObserver:
    """The view and the observation of ``game`` for ``seat``, kept between steps (see
    :mod:`hegemon.env.observer`). ``public``: the facts shared with the game's other observers
    (by default its own)."""

    def __init__(self, game: Game, seat: int, public: PublicSeats | None = None):
        self.game = game
        self.seat = seat
        self._public = public if public is not None else PublicSeats(game)
        self._view: View | None = None
        # what the view was made of: the game's step and the seat's own secrets then
        self._step = -1
        self._cards: list[int] = []
        self._missions: list[int] = []
        self._capital = -1
        self._encoder = ViewEncoder(game.board, seat)

    def view(self) -> View:
        """The seat's view now: ``view_for(game, seat)``, made again only when an action was
        applied or the seat's own secrets changed since the last."""
        step, seats = self._public.now()
        player = self.game.players[self.seat]
        view = self._view
        if (
            view is not None
            and self._step == step
            and self._cards == player.cards
            and self._missions == player.missions
            and self._capital == player.capital
        ):
            return view
        view = view_for(self.game, self.seat, seats)
        self._view, self._step, self._capital = view, step, player.capital
        self._cards, self._missions = list(player.cards), list(player.missions)
        return view

    def observe(
        self, decision: Decision | None, partial: Partial | None = None, view: View | None = None
    ) -> np.ndarray:
        """The seat's observation facing ``decision`` at ``partial``'s step (a new array);
        ``view``: :meth:`view`'s answer just now, if at hand."""
        return self._encoder.observe(view if view is not None else self.view(), decision, partial)

    def look(self, partial: Partial) -> tuple[View, np.ndarray, np.ndarray]:
        """The seat's view now, its observation (a new array) and its mask, facing the view's
        pending decision at ``partial``'s step (none: no decision, no progress)."""
        view = self.view()
        decision = view.pending
        progress = partial if decision is not None else None
        observation = self._encoder.observe(view, decision, progress)
        return view, observation, action_mask(view, decision, progress)


def _other_capitals(seats: Sequence[SeatInfo], capitals: list[int]) -> bool:
    """Whether ``seats``' capitals differ from ``capitals`` (read in place: no list made)."""
    if len(seats) != len(capitals):
        return True
    return any(seats[i].capital != capitals[i] for i in range(len(capitals)))


def _differing(
    owner: tuple[int, ...],
    armies: tuple[int, ...],
    owner_was: tuple[int, ...],
    armies_was: tuple[int, ...],
) -> list[int]:
    """The territories whose owner or armies differ from what they were (in order; a
    conquest may leave the armies' number as it was)."""
    return [t for t in range(len(owner)) if owner[t] != owner_was[t] or armies[t] != armies_was[t]]


@dataclass(frozen=True)
class _Static:
    """What never changes on one board, computed once."""

    board: Board
    layout: Layout
    rows: range  # 0..size-1
    values: np.ndarray  # each territory's value / 3
    continent_of: tuple[int, ...]  # each territory's continent
    sizes: tuple[int, ...]  # territories per continent
    bonus: np.ndarray  # each continent's bonus / 10
    insignia: tuple[int, ...]  # each card's insignia: its index in INSIGNIA, or 3 (wild)
    no_action: np.ndarray  # an all-0 mask, copied for each mask (quicker than np.zeros)


_STATIC: dict[int, tuple[Board, _Static]] = {}


def _static(board: Board) -> _Static:
    """The board's :class:`_Static`, cached by identity (hashing a Board walks all of it)."""
    found = _STATIC.get(id(board))
    if found is not None and found[0] is board:
        return found[1]
    continent_of = tuple(t.continent for t in board.territories)
    layout = Layout(board.size, len(board.continents))
    static = _Static(
        board=board,
        layout=layout,
        rows=range(board.size),
        values=np.asarray([t.value / 3.0 for t in board.territories], dtype=np.float32),
        continent_of=continent_of,
        sizes=tuple(continent_of.count(k) for k in range(len(board.continents))),
        bonus=np.asarray([c.bonus / 10.0 for c in board.continents], dtype=np.float32),
        insignia=tuple(
            len(INSIGNIA) if i == WILD else INSIGNIA.index(i) for i in board.card_insignia
        ),
        no_action=np.zeros(layout.actions, dtype=np.int8),
    )
    _STATIC[id(board)] = (board, static)
    return static


_KIND_INDEX = {kind: i for i, kind in enumerate(KINDS)}
_PRESET_INDEX = {name: i for i, name in enumerate(PRESET_NAMES)}
