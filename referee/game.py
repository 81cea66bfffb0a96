"""The game as a state machine (docs/rules.md §1): one pending decision, one action at a time.

>>> from hegemon.referee import Game, make_rules
>>> game = Game(make_rules("classic"), players=4, seed=7)
>>> game.pending.kind.value, game.pending.player in range(4)
('claim', True)

:meth:`Game.apply` validates an action against the pending decision, refuses an illegal one with
:class:`IllegalAction` (changing nothing), and otherwise applies it and returns the events it
caused; :meth:`Game.check` and :meth:`Game.is_legal` run the very same checks and change
nothing, and :meth:`Game.legal_actions` lists the answers to the pending decision (the first
is :meth:`Game.default_action`). Decisions with exactly one legal answer (an occupation whose
minimum is its maximum, a single defence die, an attack or fortify phase with no legal move)
are applied without asking.
The state is plain lists of integers, so the hot path copies nothing.

The game plays the classic rules; each later edition is a part
(:mod:`hegemon.referee.editions.contract`) holding its own state and rules, called at the moments
its hooks name, and may choose how the board works (:attr:`Game.holdings`, :attr:`Game.limits`:
:mod:`hegemon.referee.holdings`). A game holds only the parts its rule set plays
(:attr:`Game.parts`) and names no edition. The classic actions' handlers and checks are
:mod:`hegemon.referee.checks`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from . import cards as cardlib
from . import checks, legal, seats
from .actions import (
    Action,
    Attack,
    Claim,
    Defend,
    Forfeit,
    Fortify,
    Occupy,
    Pass,
    Place,
    PlayerAction,
    Trade,
)
from .board import Board
from .chance import Chance
from .compose import map_board
from .decisions import Decision, Kind, Kinds, Phase, Phases, shared
from .dice import compare
from .editions.contract import Edition
from .editions.parts import EDITION_ACTIONS, board_problem, board_rules, parts_for, seating
from .errors import GameSetupError as GameSetupError  # noqa: PLC0414  (re-exported)
from .errors import IllegalAction as IllegalAction  # noqa: PLC0414  (re-exported)
from .events import (
    Battle,
    CardDrawn,
    Conquered,
    DeckReshuffled,
    Eliminated,
    Event,
    FirstPlayer,
    GameOver,
    Occupied,
    Reinforced,
    TurnStarted,
)
from .formulas import (
    MAX_DEFENCE_DICE,
    claimable,
    continent_reinforcements,
    minimum_reinforcements,
    territory_reinforcements,
)
from .rules import RuleSet
from .seats import Player
from .shapes import CHECKERS as SHAPE_CHECKERS

_P = TypeVar("_P", bound=Edition)

#: :func:`compare`, remembered: a game sees only a few hundred distinct rolls, over and over
_losses = functools.cache(compare)
ELIMINATION_HAND = 4  # an immediate elimination trade goes on until this many cards or fewer


class Game:
    """One game: the only true copy of the board, the cards, the deck and the dice.

    ``events=False``: a game whose events nobody reads (a simulation keeping no record: the
    learning environment, the benchmarks); :meth:`apply` returns none and the battle path skips
    building them. The same game otherwise (its record is its seed and ``history``).

    ``decision_limit``: the game ends after that many actions (0: never), ranked as at its
    round limit, with the reason ``"decision limit"`` (:mod:`hegemon.referee.limits`).
    """

    def __init__(
        self,
        rules: RuleSet,
        players: int,
        seed: int,
        board: Board | None = None,
        chance: Chance | None = None,
        events: bool = True,
        _original: Game | None = None,
        decision_limit: int = 0,
    ):
        if _original is not None:  # clone(): the state is copied, not set up
            self._copy(_original)
            return
        neutral_seats, problem = seating(rules, players)
        if problem:
            raise GameSetupError(problem)
        self._players_seated = players  # the players' seats; neutral colours' seats follow
        seat_count = players + neutral_seats
        self.rules = rules
        self.board = board if board is not None else map_board(rules.map)
        problem = board_problem(rules, self.board, players)
        if problem:
            raise GameSetupError(problem)
        chosen = board_rules(rules)
        # where armies sit and what limits an attack (holdings.py: an edition's own, chosen
        # once per rule set)
        self.holdings = chosen.holdings
        self.limits = chosen.limits
        self._shared = chosen.holdings.shared  # several seats' armies on one territory
        self.seed = seed
        # every chance event; see chance.py (``chance``: e.g. an old record's LegacyChance)
        self.rng = chance if chance is not None else Chance(seed)
        self.players = [Player(i, neutral=i >= players) for i in range(seat_count)]
        size = self.board.size
        self.owner: list[int] = [-1] * size
        self.armies: list[int] = [0] * size
        self.territory_count: list[int] = [0] * seat_count
        self.deck: list[int] = []  # the top of the deck is the end of the list
        self.discard: list[int] = []
        self.trade_count = 0
        self.round = 0
        self.current = -1
        self.first_player = -1
        self.pending: Decision | None = None
        self.places: tuple[int, ...] | None = None
        self.finish_reason = ""
        self.history: list[Action] = []
        self.decision_limit = decision_limit
        self.out_order: list[int] = []  # seats in the order they left the game
        # the turn in progress
        self.reserve = 0
        self.conquered_this_turn = False
        self.bonus_this_turn = 0
        self._trade_until = 0  # trading is forced while holding at least this many cards
        self._eliminated_now = False
        self._moved_from: list[int] = []  # sources of this turn's many-into-one move
        self._last_claimed = -1  # claiming by quadrants: its quadrant is claimed first
        self._battle: tuple[int, int, int] = (-1, -1, 0)  # source, target, attack dice
        self._setup_next = 0
        self._phase = Phases.SETUP
        self._pending_events: list[Event] = []
        # False: apply returns no events, and the battle path builds none (a simulation that
        # never reads them: the benchmarks, the learning environment); a record needs them
        self._events = events
        # a battle may go on while its source has 2+ armies (not so under least dice or
        # protected last territories)
        self._battles_go_on = rules.attacker_dice == "any" and not rules.eliminate_from_round
        # the later editions' parts (editions/contract.py): only those the rule set plays
        self._parts = parts_for(self)
        # Per game, not per decision: whether an attack is the classic one (no part, shared
        # territory or limit has a say in it: _on_attack's quick path), and each seat's
        # ATTACK decision, as ``shared`` would answer it
        self._classic_attacks = (
            not self._parts
            and not self._shared
            and rules.attacker_dice == "any"
            and rules.eliminate_from_round <= 1
            and rules.defender_most_dice <= MAX_DEFENCE_DICE
        )
        self._defender_chooses = rules.defender_dice == "choice"
        self._attack_asks = [shared(Kinds.ATTACK, s, forced=False) for s in range(seat_count)]
        self._setup()
        self.opening_events: list[Event] = self._pending_events

    # ------------------------------------------------------------------ queries
    @property
    def over(self) -> bool:
        return self.places is not None

    @property
    def player_count(self) -> int:
        """The players' seats (those a bot plays); neutral colours' seats come after them."""
        return self._players_seated

    def allies(self, player: int) -> list[int]:
        """The neutral colours allied to ``player`` that still hold territory (active
        neutrals), else none."""
        players, count = self.players, self.territory_count
        return [
            s
            for s in range(self._players_seated, len(players))
            if players[s].ally_of == player and count[s] > 0
        ]

    def commands(self, player: int, seat: int) -> bool:
        """Whether ``player`` moves ``seat``'s armies: its own, or (its holdings say) an
        ally's."""
        return seat == player or seat in self.holdings.commanded(self, player)

    def active_players(self) -> list[int]:
        return [p.seat for p in self.players if p.active]

    @property
    def phase(self) -> Phase:
        """The phase of play the pending decision belongs to."""
        return self._phase

    def reinforcements(self, player: int) -> tuple[int, int]:
        """Armies due at the start of ``player``'s turn: (from territories and production
        centres, from continents)."""
        minimum, count = self.rules.reinforcement_minimum, self.territory_count[player]
        due = (
            territory_reinforcements(count)
            if minimum == "three"
            else minimum_reinforcements(minimum, count),
            continent_reinforcements(self.board, self.owner, player),
        )
        for part in self._parts:
            due = part.reinforcements(self, player, due)
        return due

    def next_trade_value(
        self, insignia: Iterable[str] = ("infantry", "cavalry", "artillery")
    ) -> int:
        return cardlib.set_value(self.rules.card_values, self.trade_count, list(insignia))

    def public_capital(self, seat: int) -> int:
        """``seat``'s capital if everyone knows it (it was captured), else -1."""
        return self.players[seat].capital if self.capital_known[seat] else -1

    # ------------------------------------------------------------------ the editions' state
    @property
    def parts(self) -> tuple[Edition, ...]:
        """The later editions' parts this game plays (none in a classic game)."""
        return tuple(self._parts)

    def part(self, kind: type[_P]) -> _P | None:
        """The game's part of edition ``kind`` (e.g. ``MissionsPart``), None if not played."""
        for part in self._parts:
            if type(part) is kind:
                return part
        return None

    def _shown(self, name: str) -> Any:
        """The public state ``name`` of the part holding it (None if no part does)."""
        for part in self._parts:
            value = getattr(part, name, None)
            if value is not None:
                return value
        return None

    @property
    def declared(self) -> list[list[int]]:
        """Per seat: the missions it showed as done."""
        declared: list[list[int]] | None = self._shown("declared")
        return declared if declared is not None else [[] for _ in self.players]

    @property
    def capital_known(self) -> list[bool]:
        """Per seat: whether its capital is public (it was captured)."""
        known: list[bool] | None = self._shown("known")
        return known if known is not None else [False] * len(self.players)

    @property
    def set_aside(self) -> list[int]:
        """The capitals' territory cards, set aside face down for the whole game."""
        cards: list[int] | None = self._shown("set_aside")
        return cards if cards is not None else []

    @property
    def centres(self) -> list[int]:
        """The production centres (territories) under Risiko! Master's rules."""
        centres: list[int] | None = self._shown("centres")
        return centres if centres is not None else []

    @property
    def stacks(self) -> dict[int, dict[int, int]]:
        """A shared board: the armies of seats other than a territory's primary."""
        stacks: dict[int, dict[int, int]] | None = self._shown("stacks")
        return stacks if stacks is not None else {}

    # ------------------------------------------------------------------ the parts' engine API
    # What an edition part may do to the game besides its public state (editions/contract.py).
    def emit(self, event: Event) -> None:
        """Add ``event`` to those the action being applied causes."""
        self._pending_events.append(event)

    def ask(self, decision: Decision, phase: Phase | None = None) -> None:
        """Pose ``decision`` (in ``phase``, if given)."""
        self.pending = decision
        if phase is not None:
            self._phase = phase

    def take(self, seat: int, territory: int, armies: int) -> None:
        """Give ``territory`` to ``seat`` with ``armies`` on it."""
        previous = self.owner[territory]
        if previous >= 0:
            self.territory_count[previous] -= 1
        self.owner[territory] = seat
        self.armies[territory] = armies
        self.territory_count[seat] += 1

    def expect(self, kind: Kind, what: str) -> Decision:
        """The pending decision if it is of ``kind``; else refuse the action ``what``."""
        d = self.pending
        if d is None or d.kind is not kind:
            asked = d.kind.value if d is not None else "nothing"
            raise IllegalAction(f"{what} is not allowed now: the pending decision is {asked}")
        return d

    def territory(self, value: object, what: str) -> int:
        """``value`` as a territory number; else refuse it, saying ``what`` it is."""
        if type(value) is not int or not 0 <= value < len(self.owner):  # (the board's size)
            raise IllegalAction(f"{what} {value!r} is not a territory (0..{self.board.size - 1})")
        return value

    def start_setup(self, phase: Phase, first: int) -> None:
        """Begin the set-up steps of ``phase`` (CLAIM or SETUP_PLACE) with seat ``first``."""
        self._phase = phase
        self._setup_next = first
        self.ask_setup()

    # ------------------------------------------------------------------ set-up
    def _setup(self) -> None:
        if any(part.deal(self) for part in self._parts):
            return
        phase, first = seats.deal(self)
        for part in self._parts:
            part.dealt(self)
        self.start_setup(phase, first)

    def ask_setup(self) -> None:
        """Pose the next set-up decision, or begin play when set-up is done."""
        n = len(self.players)
        if self._phase is Phases.CLAIM:
            if self.rules.setup == "quadrants":
                free = claimable(self.board, self.owner, self._last_claimed)
            else:
                free = tuple(t for t in range(self.board.size) if self.owner[t] < 0)
            if free:
                for _ in range(n):
                    seat = self._setup_next
                    if self.players[seat].active:
                        self.pending = Decision(Kinds.CLAIM, seat, territories=free)
                        return
                    self._setup_next = (seat + 1) % n
                return  # unreachable while a player is active
            self._phase = Phases.SETUP_PLACE
        for _ in range(n):
            seat = self._setup_next
            player = self.players[seat]
            if player.active and player.reserve > 0:
                self.pending = shared(Kinds.PLACE, seat, armies=self._setup_armies(seat))
                return
            self._setup_next = (seat + 1) % n
        self.ask_before_play()

    def _setup_armies(self, seat: int) -> int:
        """Armies a player places at one set-up step."""
        armies = 1
        for part in self._parts:
            armies = part.setup_armies(self, seat, armies)
        return armies

    def ask_before_play(self) -> None:
        """Set-up is done: the parts' last set-up decisions (capitals), then play begins."""
        if not any(part.before_play(self) for part in self._parts):
            self._begin_play()

    def _begin_play(self) -> None:
        events = self._pending_events
        if self.rules.first_player == "reroll":
            self.first_player = self.rng.setup.below(self.player_count)
            events.append(FirstPlayer(self.first_player, "play"))
        first = self.first_player
        if not self.players[first].active:
            first = self._next_active(first)
        self.round = 1
        self._start_turn(first)

    # ------------------------------------------------------------------ the public step
    def apply(self, action: Action) -> list[Event]:
        """Validate and apply ``action`` for the pending decision; return the events it caused.

        Raises :class:`IllegalAction` (with nothing changed) if the action is not allowed: the
        very check :meth:`check` makes.
        """
        _refuse_misshapen(action)
        handler = _HANDLERS.get(type(action)) if self.places is None else None
        if handler is None:
            handler = self._handler(action)
        events: list[Event] = []
        self._pending_events = events
        handler(self, action, False)
        self.history.append(action)
        if self._parts:
            self._check_end()
        if self.decision_limit and len(self.history) >= self.decision_limit and not self.over:
            self.finish("decision limit")
        return events if self._events else []

    def _check_end(self) -> None:
        """Ask every part whether its victory condition is met (after each applied action,
        and at the turn's end, before the turn passes on)."""
        for part in self._parts:
            if self.places is not None:
                break
            part.check_end(self)

    def turn_holder(self) -> int:
        """The seat whose own-turn victory is recognised now (seed 001: a player "may declare
        it during their own turn"), -1 when none: the player to move while its turn is in play
        (its own decision pending, or its turn ending) and no conquest waits for its armies."""
        seat = self.current
        if self.places is not None or self.round == 0 or seat < 0:
            return -1
        if not self.players[seat].active:
            return -1
        d = self.pending
        if d is not None and (d.player != seat or d.kind is Kinds.OCCUPY):
            return -1
        return seat

    def check(self, action: Action) -> None:
        """Raise :class:`IllegalAction` if :meth:`apply` would refuse ``action``; change nothing."""
        _refuse_misshapen(action)
        self._handler(action)(self, action, True)

    def is_legal(self, action: Action) -> bool:
        """Whether :meth:`apply` would accept ``action`` now (the state is left untouched)."""
        try:
            self.check(action)
        except IllegalAction:
            return False
        return True

    def legal_actions(self) -> list[PlayerAction]:
        """The legal answers to the pending decision, the default first (``[]`` once over).

        Every listed action is legal, and every legal action is listed except for two
        families too large to list, of which one canonical member stands in:

        - PLACE: only the splits that put all the armies on one own territory (one per own
          territory, ascending); any split over own territories summing to the armies due
          is legal.
        - TRADE: each set with ``bonus_territory`` -1; naming one of its pictured own
          territories instead is legal too.

        Otherwise: CLAIM every free territory; TRADE ``Pass()`` (unless forced) then every
        set; ATTACK ``Pass()`` then every (source, target, 1..most dice); DEFEND the most
        dice down to 1; OCCUPY the minimum up to the maximum; FORTIFY ``Pass()`` then every
        (source, target, 1..most armies). See :func:`hegemon.referee.legal.actions`.
        """
        d = self.pending
        if d is None:
            return []
        return list(legal.actions(self, d, self.players[d.player].cards))

    def default_action(self) -> PlayerAction:
        """The action applied for a player who answers late or illegally: the least committal
        legal move (stop, skip, the minimum, the first option), the first of
        :meth:`legal_actions`."""
        d = self.pending
        if d is None:
            raise IllegalAction("the game is over")
        for action in legal.actions(self, d, self.players[d.player].cards):
            return action
        # every decision the engine poses has an answer (the fuzz tests check it); a bare
        # StopIteration here would surface inside a trio task as an unrelated RuntimeError
        raise RuntimeError(f"the engine posed a decision with no legal answer: {d}")

    # ------------------------------------------------------------------ handlers
    # Each handler checks its action first, raising IllegalAction with nothing changed; with
    # ``dry`` it stops there (check, is_legal), else it applies the action (apply).
    def _handler(self, action: Action) -> _Handler:
        if self.places is not None:
            raise IllegalAction("the game is over")
        handler = _HANDLERS.get(type(action))
        if handler is not None:
            return handler
        for part in self._parts:
            own = part.handlers.get(type(action))
            if own is not None:
                return functools.partial(own, part)
        if type(action) in EDITION_ACTIONS:
            self.expect(*EDITION_ACTIONS[type(action)])  # raises: no part poses its decision
        raise IllegalAction(f"not an action: {type(action).__name__}")

    # ------------------------------------------------------------------ turn flow
    def _start_turn(self, seat: int) -> None:
        self.current = seat
        self.conquered_this_turn = False
        self.bonus_this_turn = 0
        self._moved_from = []
        self._pending_events.append(TurnStarted(seat, self.round))
        for part in self._parts:
            part.turn_started(self)
        if self.places is not None:
            return
        self._phase = Phases.REINFORCE
        if not (self._parts and any(part.reinforcing(self) for part in self._parts)):
            self.begin_reinforce()

    def begin_reinforce(self) -> None:
        """Count the reinforcements of the player to move and ask it to trade or place."""
        seat = self.current
        from_territories, from_continents = self.reinforcements(seat)
        self._pending_events.append(Reinforced(seat, from_territories, from_continents))
        self.reserve = from_territories + from_continents
        self._trade_until = self.rules.must_trade_at or 1 << 30  # 0: never forced
        self._phase = Phases.REINFORCE
        self._ask_trade_or_place()

    def _ask_trade_or_place(self) -> None:
        seat = self.current
        hand = self.players[seat].cards
        # a trade is forced only with a set to trade (3 or 4 cards may hold none)
        if len(hand) >= 3 and cardlib.has_set(
            hand, self.board.card_insignia, self.rules.card_values
        ):
            if len(hand) >= self._trade_until:
                self.pending = shared(Kinds.TRADE, seat, forced=True)
                return
            if self._phase is Phases.REINFORCE:
                self.pending = shared(Kinds.TRADE, seat)
                return
        self.ask_place()

    def ask_place(self, build: bool = True) -> None:
        """Ask the player to move to place its reserve (the parts first: ``build``), else go
        on to the attacks."""
        if build and self._parts and any(part.before_place(self) for part in self._parts):
            return
        if self.reserve > 0:
            self.pending = shared(Kinds.PLACE, self.current, armies=self.reserve)
        else:
            self.ask_attack()

    def ask_attack(self) -> None:
        """Ask the player to move to attack, else go on to the fortify move."""
        self._phase = Phases.ATTACK
        if self._can_attack(self.current):
            if self._parts:
                forced = any(part.attack_forced(self) for part in self._parts)
                self.pending = shared(Kinds.ATTACK, self.current, forced=forced)
            else:
                self.pending = self._attack_asks[self.current]
        else:
            self._ask_fortify()

    def _ask_fortify(self) -> None:
        for part in self._parts:
            part.attempt_over(self)  # the attacks are over
        self._phase = Phases.FORTIFY
        if self._can_fortify(self.current):
            self.pending = shared(Kinds.FORTIFY, self.current)
        else:
            self.end_turn()

    def _can_attack(self, p: int) -> bool:
        owner, armies = self.owner, self.armies
        src, dst, _ = self._battle
        if (
            src >= 0
            and owner[src] == p
            and armies[src] > 1
            and owner[dst] != p
            and self._battles_go_on
        ):
            return True  # the usual case, found without a scan: the last battle can go on
        return next(self.holdings.attacks(self, p, self.limits), None) is not None

    def _can_fortify(self, p: int) -> bool:
        return self.holdings.can_fortify(self, p, self.limits)

    def _fight(self, defend_dice: int) -> None:
        src, dst, attack_dice = self._battle
        # a shared board: the attacker's own armies, maybe on a team-mate's land
        attacker = self.current if self._shared else self.owner[src]
        defender = self.owner[dst]
        a = self.rng.attack(attacker).dice(attack_dice)
        d = self.rng.defend(defender).dice(defend_dice)
        lost_a, lost_d = _losses(a, d)
        hit: list[int] = []
        if self._shared:
            self.holdings.add(self, attacker, src, -lost_a)
            hit = self.holdings.lose(self, dst, lost_d)
        else:
            self.armies[src] -= lost_a
            self.armies[dst] -= lost_d
        events = self._pending_events
        if self._events:
            events.append(Battle(attacker, defender, src, dst, a, d, lost_a, lost_d))
        if self.armies[dst] > 0:
            if not (self._shared and self._hit_out(hit, attacker, 0)):
                self.ask_attack()
            return
        self.take(attacker, dst, 0)
        # an ally's conquest earns no card (seed 000: "Et voi saada yhtään aluekorttia
        # käyttäessäsi liittolaista alueen valtaamisessa")
        self.conquered_this_turn = self.conquered_this_turn or attacker == self.current
        if self._events:
            events.append(Conquered(attacker, defender, src, dst))
        self._eliminated_now = False
        if self._shared and self._hit_out(hit, attacker, attack_dice):
            return
        for part in self._parts:
            part.after_conquest(self, attacker, defender, dst)
        if self.territory_count[defender] == 0:
            for part in self._parts:
                part.colour_destroyed(self, defender, self.current)
        # a forfeited seat already left the game: taking its last territory eliminates no one
        if self.territory_count[defender] == 0 and not self.players[defender].forfeited:
            self._eliminate(defender, self.current)  # an ally's victim's cards: its player's
            if len(self.active_players()) <= 1 and not any(
                part.goes_on_alone(self) for part in self._parts
            ):
                self._move_in(attack_dice)
                self.finish("conquest")
                return
        own = self.holdings.own_armies(self, attacker, src) if self._shared else self.armies[src]
        most = own - self.limits.garrison(self, src, attacker)
        if most <= attack_dice:
            self._occupy(attack_dice)
        else:
            self.pending = shared(
                Kinds.OCCUPY,
                self.current,
                minimum=attack_dice,
                maximum=most,
                source=src,
                target=dst,
            )

    def _hit_out(self, hit: list[int], attacker: int, dice: int) -> bool:
        """A battle on a shared board: eliminate each seat ``hit`` that has no armies left (on
        a shared territory it may lose its last one without a conquest); an elimination ends
        the game (the holdings' ``elimination_ends`` reason: team play's first elimination
        wins), the conqueror's ``dice`` armies moved in first. Whether it ended."""
        self._eliminated_now = False
        for seat in hit:
            if self.territory_count[seat] == 0 and not self.players[seat].forfeited:
                self._eliminate(seat, attacker)
        if self._eliminated_now:
            if dice:
                self._move_in(dice)
            self.finish(self.holdings.elimination_ends, winner=attacker)
        return self._eliminated_now

    def _move_in(self, n: int) -> None:
        src, dst, _ = self._battle
        if self._shared:
            self.holdings.move(self, self.current, src, dst, n)
            self._pending_events.append(Occupied(self.current, src, dst, n))
            return
        self.armies[src] -= n
        self.armies[dst] += n
        if self._events:
            self._pending_events.append(Occupied(self.owner[src], src, dst, n))

    def _occupy(self, n: int) -> None:
        self._move_in(n)
        for part in self._parts:
            part.attempt_over(self)  # the conquest ends the attempt
        seat = self.current
        if (
            self._eliminated_now
            and self.rules.elimination_trade == "immediate"
            and len(self.players[seat].cards) >= self.rules.elimination_trade_at
        ):
            self._phase = Phases.ELIMINATION_TRADE
            self._trade_until = ELIMINATION_HAND + 1
            self.reserve = 0
            self._ask_trade_or_place()
            return
        self.ask_attack()

    def _eliminate(self, loser: int, by: int) -> None:
        victim = self.players[loser]
        victim.eliminated = True
        taken = victim.cards
        self.players[by].cards.extend(taken)
        self._pending_events.append(Eliminated(loser, by, len(taken)))
        victim.cards = []
        for part in self._parts:
            part.eliminated(self, loser)
        if not victim.neutral:  # a neutral colour destroyed has no place in the result
            self.out_order.append(loser)
        self._eliminated_now = True

    def end_turn(self) -> None:
        """End the turn of the player to move (the parts' last steps first): its card, then
        the next player's turn (or the turn limit)."""
        if self._parts:
            # the turn's last action may have won it, e.g. a fortify completing a mission,
            # or a conquest after which nothing was left to decide (seed 001)
            self.pending = None
            self._check_end()
            if self.places is not None:
                return
        if self._parts and any(part.turn_ending(self) for part in self._parts):
            return
        seat = self.current
        events = self._pending_events
        if self.conquered_this_turn and self.players[seat].active:
            card = self._draw()
            if card >= 0:
                self.players[seat].cards.append(card)
                events.append(CardDrawn(seat, card))
        for part in self._parts:
            part.turn_ended(self, seat)
        self._battle = (-1, -1, 0)
        nxt = self._next_active(seat)
        n = len(self.players)
        if (nxt - self.first_player) % n <= (seat - self.first_player) % n:
            self.round += 1
            limit = self.rules.turn_limit
            if limit and self.round > limit:
                self.finish("turn limit")
                return
        self._start_turn(nxt)

    def _next_active(self, seat: int) -> int:
        n = len(self.players)
        for step in range(1, n + 1):
            candidate = (seat + step) % n
            if self.players[candidate].active:
                return candidate
        return seat

    def _draw(self) -> int:
        if not self.deck and self.discard:
            self.deck = self.discard
            self.discard = []
            self.rng.deck.shuffle(self.deck)
            self._pending_events.append(DeckReshuffled(len(self.deck)))
        return self.deck.pop() if self.deck else -1

    def finish(self, reason: str, winner: int = -1) -> None:
        """End the game: the places as a part ranks them, else the classic ranking
        (:func:`hegemon.referee.seats.places`; ``winner``: a mission's, -1 for none)."""
        for part in self._parts:
            ranked_by_part = part.places(self, winner)
            if ranked_by_part is not None:
                self._end(ranked_by_part, reason)
                return
        self._end(seats.places(self, winner), reason)

    def _end(self, places: tuple[int, ...], reason: str) -> None:
        self.places = places
        self.finish_reason = reason
        self.pending = None
        self._pending_events.append(GameOver(self.places, reason))

    # ------------------------------------------------------------------ copies
    def clone(self) -> Game:
        """An independent copy (for search bots); the dice stream continues identically."""
        return Game(self.rules, self._players_seated, self.seed, _original=self)

    def _copy(self, original: Game) -> None:
        # The attribute names: the instance's own, or mypyc's list of them when this module is
        # compiled (hegemon.referee.native): a compiled instance has no __dict__.
        names = getattr(Game, "__mypyc_attrs__", None) or tuple(vars(original))
        for name in names:
            value = getattr(original, name)
            setattr(self, name, list(value) if isinstance(value, list) else value)
        self.players = [p.copy() for p in original.players]
        self._parts = [part.copy() for part in original._parts]
        self.rng = original.rng.copy()


def _refuse_misshapen(action: object) -> None:
    check = SHAPE_CHECKERS.get(type(action))
    why = check(action) if check is not None else ""
    if why:
        raise IllegalAction(why)


_Handler = Callable[[Game, Any, bool], None]
_HANDLERS: dict[type, _Handler] = {
    Claim: checks.on_claim,
    Place: checks.on_place,
    Trade: checks.on_trade,
    Attack: checks.on_attack,
    Defend: checks.on_defend,
    Occupy: checks.on_occupy,
    Fortify: checks.on_fortify,
    Pass: checks.on_pass,
    Forfeit: checks.on_forfeit,
}
