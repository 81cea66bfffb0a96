"""A forward model for search bots: a :class:`~hegemon.referee.game.Game` sampled from a seat's
own view (determinization), which the bot may clone and play forward as it likes.

>>> from hegemon.sdk.forward import sample_game  # doctest: +SKIP
>>> game = sample_game(view, view.context.rng)  # doctest: +SKIP
>>> game.apply(Pass())  # doctest: +SKIP

What the sample holds:

- exact: the public board (owners, armies, team stacks, production centres), every seat's
  public facts (card counts, eliminated, forfeited, shown missions, captured capitals), the
  trade count, the round, the pending decision and the turn in progress (reserve, conquest,
  the battle waiting for its occupation, the sources of this turn's moves), and the seat's own
  hand, missions and capital;
- sampled: every other hand (uniformly from the cards the seat has not seen: not in its hand,
  not traded since the last reshuffle, not a capital's card set aside), the deck's order (the
  rest of those cards), other seats' secret missions (from the cards not shown and not its
  own) and capitals (among the territories each holds) — so a sample tells nothing the counts
  and trades do not;
- chance: fresh, seeded from the ``rng`` given (the bot's own generator), never the game's.

It is built only from what the seat was told: the view and the events its
:class:`~hegemon.sdk.context.GameContext` kept (``context.seen``). Samples are for the seat's
own turn decisions (trade, place, attack, occupy, fortify, build a centre); any other moment
raises :class:`CannotSample` (a bot answers those without search).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from hegemon.referee.decisions import Kind, Phase
from hegemon.referee.editions import teams as teamlib
from hegemon.referee.editions.capitals import CapitalsPart
from hegemon.referee.editions.master import MasterPart
from hegemon.referee.editions.missions import MissionsPart
from hegemon.referee.editions.neutrals import neutral_count
from hegemon.referee.editions.teams import TeamsPart
from hegemon.referee.events import (
    Battle,
    CapitalChosen,
    Conquered,
    DeckReshuffled,
    Eliminated,
    Event,
    Forfeited,
    Fortified,
    MissionShown,
    Placed,
    Reinforced,
    Traded,
    TurnStarted,
)
from hegemon.referee.game import ELIMINATION_HAND, Game
from hegemon.referee.view import View

from .context import BotView

__all__ = ["SAMPLED_KINDS", "CannotSample", "Knowledge", "knowledge", "sample_game"]

#: The decisions a sample can be made at: the seat's own turn.
SAMPLED_KINDS = frozenset({Kind.TRADE, Kind.PLACE, Kind.ATTACK, Kind.OCCUPY, Kind.FORTIFY})
_KIND_PHASE = {
    Kind.TRADE: Phase.REINFORCE,
    Kind.PLACE: Phase.REINFORCE,
    Kind.BUILD_CENTRE: Phase.REINFORCE,
    Kind.ATTACK: Phase.ATTACK,
    Kind.OCCUPY: Phase.ATTACK,
    Kind.FORTIFY: Phase.FORTIFY,
}
_NEVER = 1 << 30  # the engine's "trading is never forced"


class CannotSample(ValueError):
    """No sample can be made at this decision (not the seat's own turn, or set-up)."""


@dataclass
class Knowledge:
    """What a seat has learnt from the events it saw (kept up to date by :func:`knowledge`)."""

    read: int = 0  # how many of context.seen are folded in
    discard: list[int] = field(default_factory=list)  # cards traded since the last reshuffle
    first_player: int = -1
    out_order: list[int] = field(default_factory=list)
    destroyed_by: dict[int, int] = field(default_factory=dict)
    declared: dict[int, list[int]] = field(default_factory=dict)
    capitals_chosen: int = 0
    turn: list[Event] = field(default_factory=list)  # the events of the turn in progress

    def fold(self, events: Sequence[Event]) -> None:
        """Learn from ``events`` (those after the last folded)."""
        for event in events:
            kind = type(event)
            if kind is TurnStarted:
                self.turn = []
                if self.first_player < 0:
                    self.first_player = event.player  # type: ignore[attr-defined]
            self.turn.append(event)
            if kind is Traded:
                self.discard.extend(event.cards)  # type: ignore[attr-defined]
            elif kind is DeckReshuffled:
                self.discard = []
            elif kind is Eliminated:
                self.out_order.append(event.player)  # type: ignore[attr-defined]
                self.destroyed_by[event.player] = event.by  # type: ignore[attr-defined]
            elif kind is Forfeited:
                self.out_order.append(event.player)  # type: ignore[attr-defined]
            elif kind is MissionShown and event.completed:  # type: ignore[attr-defined]
                self.declared.setdefault(event.player, []).append(event.mission)  # type: ignore[attr-defined]
            elif kind is CapitalChosen:
                self.capitals_chosen += 1


def knowledge(view: BotView) -> Knowledge:
    """The seat's :class:`Knowledge` of ``view``'s game, brought up to date (kept in the
    context's ``memory``)."""
    context = view.context
    if context is None:
        raise CannotSample("a view without its game's context (make it with make_view)")
        # (the context keeps the events: without it nothing is known of the cards traded)
    known = context.memory.get("hegemon.forward")
    if not isinstance(known, Knowledge):
        known = context.memory["hegemon.forward"] = Knowledge()
    seen = context.seen
    if known.read < len(seen):
        known.fold(seen[known.read :])
        known.read = len(seen)
    return known


def sample_game(view: BotView, rng: random.Random) -> Game:
    """A game consistent with everything ``view``'s seat knows, its hidden parts sampled with
    ``rng``; its pending decision is the view's. Raises :class:`CannotSample` outside the seat's
    own turn."""
    decision = view.pending
    if decision is None or view.round < 1 or view.current != view.seat:
        raise CannotSample("samples are made at the seat's own turn decisions only")
    if decision.kind not in _KIND_PHASE:
        raise CannotSample(f"no sample at a {decision.kind.value} decision")
    known = knowledge(view)
    players = len(view.seats) - neutral_count(view.rules.two_player)
    game = Game(view.rules, players, rng.getrandbits(62), board=view.board, events=False)
    _board(game, view)
    _seats(game, view, known)
    capitals = _capitals(game, view, rng)
    _cards(game, view, known, capitals, rng)
    _missions(game, view, known, rng)
    _turn(game, view, known)
    return game


def _board(game: Game, view: View) -> None:
    """The public board, exactly (a team game's shared territories from the view's stacks)."""
    game.owner[:] = view.owner
    game.armies[:] = view.armies
    team = game.part(TeamsPart)
    if team is not None:
        team.stacks = {}
        for t, held in enumerate(teamlib.holdings(view)):
            if not held:
                continue
            primary = view.owner[t] if view.owner[t] >= 0 else min(held)
            game.owner[t], game.armies[t] = primary, held[primary]
            others = {s: n for s, n in held.items() if s != primary}
            if others:
                team.stacks[t] = others
    counts = [0] * len(game.players)
    for p in game.owner:
        if p >= 0:
            counts[p] += 1
    game.territory_count[:] = counts
    master = game.part(MasterPart)
    if master is not None:
        master.centres = list(view.centres)


def _seats(game: Game, view: View, known: Knowledge) -> None:
    for info, player in zip(view.seats, game.players, strict=True):
        player.eliminated, player.forfeited = info.eliminated, info.forfeited
        player.neutral, player.team, player.ally_of = info.neutral, info.team, info.ally_of
        player.reserve, player.cards, player.missions = 0, [], []
    game.out_order = [s for s in known.out_order if s < len(game.players)]
    game.first_player = known.first_player if known.first_player >= 0 else view.current
    game.round, game.current, game.trade_count = view.round, view.current, view.trade_count


def _capitals(game: Game, view: View, rng: random.Random) -> list[int]:
    """Every seat's capital (its own exact, a hidden one drawn among the seat's territories);
    the capitals' cards set aside."""
    part = game.part(CapitalsPart)
    if part is None:
        return []
    part.known = [info.capital >= 0 for info in view.seats]
    chosen: list[int] = []
    for info, player in zip(view.seats, game.players, strict=True):
        if info.seat == view.seat:
            player.capital = view.capital
        elif info.capital >= 0:
            player.capital = info.capital
        elif info.neutral or info.eliminated or info.forfeited:
            player.capital = -1
        else:
            own = [t for t, p in enumerate(view.owner) if p == info.seat]
            player.capital = rng.choice(own) if own else -1
        if player.capital >= 0:
            chosen.append(player.capital)
    part.set_aside = [t for t in chosen if t < game.board.card_count]
    return part.set_aside


def _cards(
    game: Game, view: View, known: Knowledge, set_aside: list[int], rng: random.Random
) -> None:
    """The seat's hand exact; the others' hands and the deck drawn from the unseen cards."""
    mine = list(view.hand)
    team_mates: list[int] = []
    if teamlib.on(view.rules):  # the view shows the team's shared hand
        team = teamlib.team_of(view.seat)
        team_mates = [
            s.seat
            for s in view.seats
            if s.seat != view.seat and teamlib.team_of(s.seat) == team and s.cards
        ]
    seen = set(mine) | set(known.discard) | set(set_aside)
    unseen = [c for c in range(game.board.card_count) if c not in seen]
    rng.shuffle(unseen)
    shared = list(mine)
    rng.shuffle(shared)
    for info, player in zip(view.seats, game.players, strict=True):
        if info.seat == view.seat or info.seat in team_mates:
            continue
        player.cards, unseen = unseen[: info.cards], unseen[info.cards :]
    for s in team_mates:  # a team-mate's share of the shared hand
        n = view.seats[s].cards
        game.players[s].cards, shared = shared[:n], shared[n:]
    game.players[view.seat].cards = shared if team_mates else mine
    game.discard = [c for c in known.discard if c not in mine]
    game.deck = unseen


def _missions(game: Game, view: View, known: Knowledge, rng: random.Random) -> None:
    """The seat's missions exact; every other's shown ones exact, the rest drawn from the
    cards it cannot have seen."""
    part = game.part(MissionsPart)
    if part is None:
        return
    part.declared = [list(known.declared.get(s, [])) for s in range(len(game.players))]
    part.destroyed_by = [known.destroyed_by.get(s, -1) for s in range(len(game.players))]
    deck = part.deck
    taken = set(view.missions)
    for info in view.seats:
        taken.update(info.shown_missions)
    for info, player in zip(view.seats, game.players, strict=True):
        if info.seat == view.seat:
            player.missions = list(view.missions)
            continue
        if not game.players[info.seat].active:
            continue
        if view.rules.missions == "2000":
            pool = [m for m in deck.dealable(len(game.players)) if m not in taken]
            card = rng.choice(pool) if pool else deck.fallback()
            taken.add(card)
            player.missions = [
                deck.fallback() if deck.missions[card].destroy == info.seat else card
            ]
            continue
        shown = list(info.shown_missions)
        ranks = {deck.missions[m].rank for m in shown}
        for rank in sorted({m.rank for m in deck.missions} - ranks):
            pool = [m for m in deck.of_rank(rank) if m not in taken]
            if pool:
                card = rng.choice(pool)
                taken.add(card)
                shown.append(card)
        player.missions = shown


def _turn(game: Game, view: View, known: Knowledge) -> None:
    """The seat's turn in progress, from the decision and the turn's events."""
    d = view.pending
    assert d is not None
    seat = view.seat
    conquered = eliminated_now = False
    reinforced = traded = placed = bonus = 0
    after_elimination = False
    moved_from: list[int] = []
    conquests, attacked, declared = 0, False, False
    for event in known.turn:
        kind = type(event)
        if kind is Reinforced:
            reinforced = event.from_territories + event.from_continents  # type: ignore[attr-defined]
        elif kind is Traded and event.player == seat:  # type: ignore[attr-defined]
            traded += event.value  # type: ignore[attr-defined]
            bonus += event.bonus  # type: ignore[attr-defined]
        elif kind is Placed and event.player == seat:  # type: ignore[attr-defined]
            placed += sum(n for _, n in event.placements)  # type: ignore[attr-defined]
        elif kind is Battle and event.attacker == seat:  # type: ignore[attr-defined]
            attacked, eliminated_now = True, False
        elif kind is Conquered and event.player == seat:  # type: ignore[attr-defined]
            conquered, conquests = True, conquests + 1
        elif kind is Eliminated and event.by == seat:  # type: ignore[attr-defined]
            eliminated_now = after_elimination = True
            reinforced, traded, placed = 0, 0, 0  # an elimination trade starts from none
        elif kind is Fortified and event.player == seat:  # type: ignore[attr-defined]
            moved_from.append(event.source)  # type: ignore[attr-defined]
        elif kind is MissionShown and event.player == seat:  # type: ignore[attr-defined]
            declared = True
    phase = _KIND_PHASE[d.kind]
    if after_elimination and d.kind in (Kind.TRADE, Kind.PLACE):
        phase = Phase.ELIMINATION_TRADE
    game.pending = d
    game._phase = phase
    game.reserve = d.armies if d.kind is Kind.PLACE else max(0, reinforced + traded - placed)
    game.conquered_this_turn = conquered
    game.bonus_this_turn = bonus
    game._eliminated_now = eliminated_now
    game._moved_from = moved_from
    game._trade_until = (
        ELIMINATION_HAND + 1
        if phase is Phase.ELIMINATION_TRADE
        else (view.rules.must_trade_at or _NEVER)
    )
    game._battle = (d.source, d.target, d.minimum) if d.kind is Kind.OCCUPY else (-1, -1, 0)
    master = game.part(MasterPart)
    if master is not None:
        master.placed_this_turn, master.attacked_this_turn = placed, attacked
    missions = game.part(MissionsPart)
    if missions is not None:
        missions.conquests_this_turn, missions.declared_this_turn = conquests, declared
