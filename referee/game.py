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
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from . import alliances as alliancelib
from . import capitals as capitallib
from . import cards as cardlib
from . import legal
from . import master as masterlib
from . import missions as missionlib
from . import neutrals as neutrallib
from . import teams as teamlib
from .actions import (
    Action,
    Attack,
    Bribe,
    BuildCentre,
    Capital,
    Claim,
    Defend,
    Forfeit,
    Fortify,
    FortifyAlly,
    Occupy,
    Pass,
    Place,
    PlaceNeutral,
    PlayerAction,
    ReinforceAlly,
    Trade,
)
from .board import Board
from .chance import Chance
from .compose import map_board
from .decisions import Decision, Kind, Phase
from .dice import compare
from .errors import IllegalAction as IllegalAction  # noqa: PLC0414  (re-exported)
from .events import (
    Battle,
    CapitalChosen,
    CapitalConquered,
    CardDrawn,
    CentreBuilt,
    Claimed,
    Conquered,
    Dealt,
    DeckReshuffled,
    Eliminated,
    Event,
    FirstPlayer,
    Forfeited,
    Fortified,
    GameOver,
    MissionShown,
    Occupied,
    Placed,
    Reinforced,
    Traded,
    TurnStarted,
)
from .formulas import (
    attack_dice,
    continent_reinforcements,
    continents_held,
    movable_armies,
    territory_reinforcements,
)
from .rules import RuleSet

STARTING_ARMIES = {3: 35, 4: 30, 5: 25, 6: 20}
ELIMINATION_HAND = 4  # an immediate elimination trade goes on until this many cards or fewer


class GameSetupError(ValueError):
    """A game that cannot be set up as asked (e.g. a player count the rule set does not allow)."""


@dataclass(slots=True)
class Player:
    """One seat. ``neutral`` seats never take a turn (a neutral colour, or a forfeited bot)."""

    seat: int
    cards: list[int] = field(default_factory=list)
    reserve: int = 0  # set-up armies not yet placed
    eliminated: bool = False
    forfeited: bool = False
    neutral: bool = False
    # Later editions (docs/rules.md §2–§5); carried by the state model already.
    team: int = -1  # team game: seats of one team share a number
    ally_of: int = -1  # two-player active neutrals: the seat this neutral is allied to
    missions: list[int] = field(default_factory=list)
    capital: int = -1

    @property
    def active(self) -> bool:
        """Still playing: takes turns and can win."""
        return not (self.eliminated or self.forfeited or self.neutral)


class Game:
    """One game: the only true copy of the board, the cards, the deck and the dice."""

    def __init__(
        self,
        rules: RuleSet,
        players: int,
        seed: int,
        board: Board | None = None,
        chance: Chance | None = None,
    ):
        neutrals = neutrallib.neutral_count(rules.two_player)
        if neutrals and players != neutrallib.PLAYERS:
            raise GameSetupError(f"rule set '{rules.preset}' is for 2 players, not {players}")
        if not neutrals and players not in STARTING_ARMIES:
            raise GameSetupError(f"rule set '{rules.preset}' is for 3 to 6 players, not {players}")
        self._players_seated = players  # the players' seats; neutral colours' seats follow
        seats = players + neutrals
        self._teams = teamlib.on(rules)
        if self._teams and players not in teamlib.TEAM_PLAYERS:
            raise GameSetupError(f"rule set '{rules.preset}' is for 4 to 6 players, not {players}")
        self.rules = rules
        self.board = board if board is not None else map_board(rules.map)
        problem = masterlib.setup_problem(rules, self.board, players)
        if problem:
            raise GameSetupError(problem)
        self.seed = seed
        # every chance event; see chance.py (``chance``: e.g. an old record's LegacyChance)
        self.rng = chance if chance is not None else Chance(seed)
        self.players = [Player(i, neutral=i >= players) for i in range(seats)]
        if self._teams:
            teamlib.assign(self)
        size = self.board.size
        self.owner: list[int] = [-1] * size
        self.armies: list[int] = [0] * size
        self.territory_count: list[int] = [0] * seats
        # Team play: extra armies of other players sharing a territory (docs/rules.md §4).
        self.stacks: dict[int, dict[int, int]] = {}
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
        self.out_order: list[int] = []  # seats in the order they left the game
        # secret missions (docs/rules.md §2)
        self.mission_deck = missionlib.deck_of(rules.missions)
        if self.mission_deck is not None:
            missionlib.check_board(self.mission_deck, self.board)
        self.destroyed_by: list[int] = [-1] * seats  # who took each colour's last army
        self.declared: list[list[int]] = [[] for _ in range(seats)]  # missions shown as done
        self.conquests_this_turn = 0
        self._declared_this_turn = False
        # capital Risk (docs/rules.md §3): a seat's capital becomes public once captured
        self.capital_known: list[bool] = [False] * seats
        # the capitals' territory cards, set aside face down for the whole game (seed 001)
        self.set_aside: list[int] = []
        # the turn in progress
        self.reserve = 0
        self.conquered_this_turn = False
        self.bonus_this_turn = 0
        self._trade_until = 0  # trading is forced while holding at least this many cards
        self._eliminated_now = False
        # Risiko! Master (docs/rules.md §7): production centres; this turn's placing and attacking
        self.centres: list[int] = []
        self.placed_this_turn = 0
        self.attacked_this_turn = False
        self._moved_from: list[int] = []  # sources of this turn's many-into-one move
        self._last_claimed = -1  # its quadrant is claimed first
        self._points_due = False  # a points victory to check (ownership may have changed)
        self._battle: tuple[int, int, int] = (-1, -1, 0)  # source, target, attack dice
        # active neutrals (alliances.py): allies still to ask this turn; the conquest attempt
        self.ally_todo: list[int] = []
        self.attempt: tuple[int, int, int, int] = alliancelib.NO_ATTEMPT
        self._setup_next = 0
        self._phase = Phase.SETUP
        self._pending_events: list[Event] = []
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

    def is_enemy(self, player: int, territory: int) -> bool:
        return self.owner[territory] != player

    def allies(self, player: int) -> list[int]:
        """The neutral colours allied to ``player`` (two-player-2004-active), else none."""
        return alliancelib.allies(self, player) if alliancelib.active(self) else []

    def commands(self, player: int, seat: int) -> bool:
        """Whether ``player`` moves ``seat``'s armies: its own, or an ally's (active
        neutrals)."""
        return seat == player or (
            seat >= self.player_count
            and alliancelib.active(self)
            and self.players[seat].ally_of == player
        )

    def active_players(self) -> list[int]:
        return [p.seat for p in self.players if p.active]

    @property
    def phase(self) -> Phase:
        """The phase of play the pending decision belongs to."""
        return self._phase

    def continents_owned(self, player: int) -> list[int]:
        return continents_held(self.board, self.owner, player)

    def reinforcements(self, player: int) -> tuple[int, int]:
        """Armies due at the start of ``player``'s turn: (from territories and production
        centres, from continents)."""
        if self._teams:
            return teamlib.reinforcements(self.board, teamlib.controllers(self), player)
        rules = self.rules
        count = self.territory_count[player]
        return (
            territory_reinforcements(count)
            if rules.reinforcement_minimum == "three"
            else masterlib.territory_reinforcements(rules.reinforcement_minimum, count)
            + masterlib.centre_armies(rules, self.owner, self.centres, player),
            continent_reinforcements(self.board, self.owner, player),
        )

    def next_trade_value(
        self, insignia: Iterable[str] = ("infantry", "cavalry", "artillery")
    ) -> int:
        if self.rules.card_values == "master":
            return masterlib.set_value(list(insignia))
        return cardlib.set_value(self.rules.card_values, self.trade_count, list(insignia))

    def public_capital(self, seat: int) -> int:
        """``seat``'s capital if everyone knows it (it was captured), else -1."""
        return self.players[seat].capital if self.capital_known[seat] else -1

    def total_armies(self) -> int:
        return sum(self.armies) + sum(sum(s.values()) for s in self.stacks.values())

    # ------------------------------------------------------------------ set-up
    def _setup(self) -> None:
        if self.rules.two_player != "off":
            neutrallib.setup(self)
            return
        n = len(self.players)
        events = self._pending_events
        for p in self.players:
            p.reserve = masterlib.starting_armies(self.rules, self.board, n) or STARTING_ARMIES[n]
        rng = self.rng.setup
        if self.rules.setup == "deal":
            dealer = rng.below(n)
            first = (dealer + 1) % n
            territory_cards = list(range(self.board.size))
            rng.shuffle(territory_cards)
            dealt: list[list[int]] = [[] for _ in range(n)]
            for i, card in enumerate(territory_cards):
                dealt[(first + i) % n].append(card)
            for seat in range(n):
                for t in sorted(dealt[seat]):
                    self._take(seat, t, 1)
                self.players[seat].reserve -= len(dealt[seat])
                events.append(Dealt(seat, tuple(sorted(dealt[seat]))))
            self.first_player = first
            events.append(FirstPlayer(first, "play"))
            self._phase = Phase.SETUP_PLACE
        else:
            first = rng.below(n)
            events.append(FirstPlayer(first, "place"))
            self.first_player = first
            self._phase = Phase.CLAIM
        self.deck = list(range(self.board.card_count))
        self.rng.deck.shuffle(self.deck)
        if self.mission_deck is not None:
            self._deal_missions(self.mission_deck)
        self._setup_next = first
        self._ask_setup()

    def _deal_missions(self, deck: missionlib.Deck) -> None:
        """One secret mission each (2000), or one of each rank (2004); the rest stay unseen."""
        rng = self.rng.missions
        if self.rules.missions == "2000":
            cards = deck.dealable(len(self.players))
            rng.shuffle(cards)
            for p in self.players:
                card = cards.pop()
                # seed 001 / the card text: your own colour means "occupy 24 territories"
                p.missions = [deck.fallback() if deck.missions[card].destroy == p.seat else card]
            return
        for rank in missionlib.RANKS_2004:
            pile = deck.of_rank(rank)
            rng.shuffle(pile)
            for p in self.players:
                p.missions.append(pile.pop())

    def _ask_setup(self) -> None:
        """Pose the next set-up decision, or start the first turn when set-up is done."""
        n = len(self.players)
        if self._phase is Phase.CLAIM:
            if self.rules.setup == "quadrants":
                free = masterlib.claimable(self.board, self.owner, self._last_claimed)
            else:
                free = tuple(t for t in range(self.board.size) if self.owner[t] < 0)
            if free:
                for _ in range(n):
                    seat = self._setup_next
                    if self.players[seat].active:
                        self.pending = Decision(Kind.CLAIM, seat, territories=free)
                        return
                    self._setup_next = (seat + 1) % n
                return  # unreachable while a player is active
            self._phase = Phase.SETUP_PLACE
        for _ in range(n):
            seat = self._setup_next
            player = self.players[seat]
            if player.active and player.reserve > 0:
                self.pending = Decision(Kind.PLACE, seat, armies=self._setup_armies(seat))
                return
            self._setup_next = (seat + 1) % n
        self._ask_capital()

    def _setup_armies(self, seat: int) -> int:
        """Armies a player places at one set-up step."""
        if self.rules.two_player != "off":
            return neutrallib.setup_armies(self, seat)
        return 1

    def _ask_capital(self) -> None:
        """Capital Risk: after the set-up, each player in turn secretly picks an own territory
        as capital (seed 001); then play begins."""
        if self.rules.capitals == "on":
            n = len(self.players)
            for step in range(n):
                player = self.players[(self.first_player + step) % n]
                if player.active and player.capital < 0:
                    self._phase = Phase.CAPITALS
                    own = tuple(legal.own_territories(self, player.seat))
                    self.pending = Decision(Kind.CAPITAL, player.seat, territories=own)
                    return
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
        handler = self._handler(action)
        events: list[Event] = []
        self._pending_events = events
        handler(self, action, False)
        self.history.append(action)
        if self.places is None:
            if self._points_due and self._won_on_points():
                self._finish("points", winner=self.current)
            elif self.rules.missions == "2000":
                self._claim_mission_2000()
            elif self.rules.capitals == "on":
                self._claim_capitals()
        return events

    def check(self, action: Action) -> None:
        """Raise :class:`IllegalAction` if :meth:`apply` would refuse ``action``; change nothing."""
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
        if handler is None:
            raise IllegalAction(f"not an action: {type(action).__name__}")
        return handler

    def _expect(self, kind: Kind, what: str) -> Decision:
        d = self.pending
        if d is None or d.kind is not kind:
            asked = d.kind.value if d is not None else "nothing"
            raise IllegalAction(f"{what} is not allowed now: the pending decision is {asked}")
        return d

    def _territory(self, value: object, what: str) -> int:
        if type(value) is not int or not 0 <= value < self.board.size:
            raise IllegalAction(f"{what} {value!r} is not a territory (0..{self.board.size - 1})")
        return value

    def _on_claim(self, action: Claim, dry: bool) -> None:
        d = self._expect(Kind.CLAIM, "claim")
        t = self._territory(action.territory, "claim:")
        if self.owner[t] >= 0:
            raise IllegalAction(f"claim: {self.board.name_of(t)} is already taken")
        if t not in d.territories:  # Risiko! Master: the quadrant being claimed comes first
            raise IllegalAction(f"claim: {self.board.name_of(t)} is not in the quadrant to fill")
        if dry:
            return
        armies = masterlib.claim_armies(self.rules)
        self._last_claimed = t
        self._take(d.player, t, armies)
        self.players[d.player].reserve -= armies
        self._pending_events.append(Claimed(d.player, t))
        self._setup_next = (d.player + 1) % len(self.players)
        self._ask_setup()

    def _on_place(self, action: Place, dry: bool) -> None:
        d = self._expect(Kind.PLACE, "place")
        placements = action.placements
        if not isinstance(placements, tuple) or not placements or len(placements) > self.board.size:
            raise IllegalAction(f"place: give one to {self.board.size} (territory, armies) pairs")
        total = 0
        owner = self.owner
        for pair in placements:
            if not isinstance(pair, tuple) or len(pair) != 2:
                raise IllegalAction(f"place: {pair!r} is not a (territory, armies) pair")
            t = self._territory(pair[0], "place:")
            n = pair[1]
            if owner[t] != d.player and not self._teams:
                raise IllegalAction(f"place: {self.board.name_of(t)} is not yours")
            if type(n) is not int or n <= 0:
                raise IllegalAction(
                    f"place: {n!r} armies on {self.board.name_of(t)} must be at least 1"
                )
            total += n
        if total != d.armies:
            raise IllegalAction(f"place: placed {total} armies, must place exactly {d.armies}")
        why = teamlib.place_error(self, d.player, placements) if self._teams else ""
        if why:
            raise IllegalAction(why)
        if dry:
            return
        armies = self.armies
        for t, n in placements:
            if self._teams:
                teamlib.add(self, d.player, t, n)
            else:
                armies[t] += n
        self._pending_events.append(Placed(d.player, placements))
        if self._phase is Phase.SETUP_PLACE:
            self.players[d.player].reserve -= d.armies
            self._setup_next = (d.player + 1) % len(self.players)
            if self.rules.two_player == "off" or not neutrallib.ask_setup_neutrals(self, d.player):
                self._ask_setup()
        else:
            self.placed_this_turn += d.armies
            self.reserve = 0
            if not self._after_reinforce(d.armies):
                self._ask_attack()

    def _on_trade(self, action: Trade, dry: bool) -> None:
        d = self._expect(Kind.TRADE, "trade")
        player = self.players[d.player]
        chosen = action.cards
        if (
            not isinstance(chosen, tuple)
            or len(chosen) != 3
            or any(type(c) is not int for c in chosen)
        ):
            raise IllegalAction("trade: give exactly three card numbers")
        if len(set(chosen)) != 3:
            raise IllegalAction("trade: the three cards must be different")
        hand = player.cards
        missing = [c for c in chosen if c not in hand]
        if missing:
            raise IllegalAction(f"trade: you do not hold card {missing[0]}")
        insignia = [self.board.card_insignia[c] for c in chosen]
        if not cardlib.is_set(insignia):
            raise IllegalAction(f"trade: {', '.join(insignia)} is not a set")
        pictured = [c for c in chosen if c < self.board.size and self.owner[c] == d.player]
        bonus_at = action.bonus_territory
        if type(bonus_at) is not int:
            raise IllegalAction("trade: bonus_territory must be a territory number or -1")
        if bonus_at != -1 and bonus_at not in pictured:
            raise IllegalAction(
                "trade: the bonus territory must be an own territory shown on a traded card"
            )
        if dry:
            return
        value = self.next_trade_value(insignia)
        value += sum(self.board.extra_armies(c) for c in chosen)  # Risiko! Master cards
        self.trade_count += 1
        for c in chosen:
            hand.remove(c)
        if self.rules.traded_cards == "bottom":
            self.deck[0:0] = sorted(chosen)
        else:
            self.discard.extend(sorted(chosen))
        bonus = 0
        where = -1
        mode = self.rules.card_territory_bonus
        if pictured and (mode == "per_set" or (mode == "per_turn" and self.bonus_this_turn < 2)):
            bonus = 2
            where = bonus_at if bonus_at != -1 else pictured[0]
            self.armies[where] += bonus
            self.bonus_this_turn += bonus
        self.reserve += value
        self._pending_events.append(Traded(d.player, tuple(chosen), value, where, bonus))
        if d.forced and self._phase is Phase.REINFORCE:
            # docs/rules.md §1: a full hand obliges one set (000, 001, 004); 002 also the second
            self._trade_until = 3 if self.rules.forced_trade == "every_set" else 1 << 30
        self._ask_trade_or_place()

    def _on_attack(self, action: Attack, dry: bool) -> None:
        d = self._expect(Kind.ATTACK, "attack")
        p = d.player
        src = self._territory(action.source, "attack: source")
        dst = self._territory(action.target, "attack: target")
        name = self.board.name_of
        if not self._teams and not self.commands(p, self.owner[src]):
            raise IllegalAction(f"attack: {name(src)} is not yours")
        if dst not in self.board.adjacency[src]:
            raise IllegalAction(f"attack: {name(dst)} does not border {name(src)}")
        if self._teams:
            most, why = teamlib.attack_error(self, p, src, dst)
            if why:
                raise IllegalAction(why)
        elif not self.is_enemy(p, dst):
            raise IllegalAction(f"attack: {name(dst)} is yours")
        elif self.owner[dst] == self.owner[src]:
            raise IllegalAction(f"attack: {name(dst)} is your ally's, as {name(src)} is")
        else:
            most = attack_dice(self.armies[src])
        if most < 1:
            raise IllegalAction(f"attack: {name(src)} needs at least 2 armies to attack")
        dice = action.dice
        least = masterlib.least_attack_dice(self, dst)
        if type(dice) is not int or not least <= dice <= most:
            raise IllegalAction(
                f"attack: {dice!r} dice; from {name(src)} against {name(dst)} "
                f"you may roll {least} to {most}"
            )
        if masterlib.protected(self, dst):
            raise IllegalAction(
                f"attack: {name(dst)} is its owner's last territory; no one may be eliminated "
                f"before round {self.rules.eliminate_from_round}"
            )
        if dry:
            return
        if alliancelib.active(self) and not alliancelib.attempt_starts(self, src, dst):
            self._ask_attack()  # the last attempt's die turned that ally away: ask again
            return
        self.attacked_this_turn = True
        self._battle = (src, dst, dice)
        chooser = self._defence_chooser(self.owner[dst])
        def_most = legal.defence_dice(self, dst)
        if def_most > 1 and self.rules.defender_dice == "choice" and chooser >= 0:
            self.pending = Decision(
                Kind.DEFEND, chooser, maximum=def_most, source=src, target=dst, attack_dice=dice
            )
            return
        self._fight(def_most)

    def _defence_chooser(self, defender: int) -> int:
        """The seat that chooses ``defender``'s defence dice (-1: nobody, the most dice)."""
        if self.rules.two_player != "off":
            return neutrallib.defence_chooser(self, defender)
        return defender if self.players[defender].active else -1

    def _after_reinforce(self, placed: int) -> bool:
        """Hook after the turn's reinforcements are placed: True if it posed a decision
        (the 2000 neutral's share; the active neutrals' ally reinforcements)."""
        if self._phase is not Phase.REINFORCE or self.rules.two_player == "off":
            return False
        if alliancelib.active(self):
            return alliancelib.ask_reinforce_ally(self, first=True)
        return neutrallib.after_reinforce(self, placed + self.bonus_this_turn)

    def _on_defend(self, action: Defend, dry: bool) -> None:
        d = self._expect(Kind.DEFEND, "defend")
        dice = action.dice
        if type(dice) is not int or not 1 <= dice <= d.maximum:
            raise IllegalAction(f"defend: {dice!r} dice; you may roll 1 to {d.maximum}")
        if not dry:
            self._fight(dice)

    def _on_occupy(self, action: Occupy, dry: bool) -> None:
        d = self._expect(Kind.OCCUPY, "occupy")
        n = action.armies
        if type(n) is not int or not d.minimum <= n <= d.maximum:
            raise IllegalAction(f"occupy: {n!r} armies; move {d.minimum} to {d.maximum}")
        if not dry:
            self._occupy(n)

    def _on_fortify(self, action: Fortify, dry: bool) -> None:
        d = self._expect(Kind.FORTIFY, "fortify")
        p = d.player
        src = self._territory(action.source, "fortify: source")
        dst = self._territory(action.target, "fortify: target")
        name = self.board.name_of
        if self._teams:
            most, why = teamlib.fortify_error(self, p, src, dst)
            if why:
                raise IllegalAction(why)
        elif self.owner[src] != p or self.owner[dst] != p:
            raise IllegalAction(
                f"fortify: {name(src) if self.owner[src] != p else name(dst)} is not yours"
            )
        elif src == dst:
            raise IllegalAction("fortify: source and target are the same territory")
        else:
            most = movable_armies(self.armies[src]) + 1 - masterlib.garrison(self, src, p)
        n = action.armies
        if type(n) is not int or not 1 <= n <= most:
            raise IllegalAction(
                f"fortify: {n!r} armies; from {name(src)} move 1 to {most} (a garrison stays)"
            )
        if d.target >= 0 and (dst != d.target or src not in d.territories):
            raise IllegalAction(
                f"fortify: this strategic move goes into {name(d.target)}, once from each neighbour"
            )
        if self._teams:
            pass  # checked by teamlib.fortify_error
        elif self.rules.fortify in ("adjacent", "many_into_one"):
            if dst not in self.board.adjacency[src]:
                raise IllegalAction(f"fortify: {name(dst)} does not border {name(src)}")
        elif not self._connected(p, src, dst):
            raise IllegalAction(
                f"fortify: no chain of your territories joins {name(src)} to {name(dst)}"
            )
        if dry:
            return
        if self._teams:
            teamlib.move(self, p, src, dst, n)
        else:
            self.armies[src] -= n
            self.armies[dst] += n
        self._pending_events.append(Fortified(p, src, dst, n))
        if self.rules.fortify == "many_into_one":
            self._moved_from.append(src)
            sources = tuple(
                sorted({s for s, _, _ in legal.fortifies(self, p, dst, self._moved_from)})
            )
            if sources:
                self.pending = Decision(Kind.FORTIFY, p, target=dst, territories=sources)
                return
        self._end_turn()

    def _on_capital(self, action: Capital, dry: bool) -> None:
        d = self._expect(Kind.CAPITAL, "capital")
        t = self._territory(action.territory, "capital:")
        if t not in d.territories:
            raise IllegalAction(f"capital: {self.board.name_of(t)} is not yours")
        if dry:
            return
        self.players[d.player].capital = t
        # seed 001: "De plasserer det RISK-kortet som representerer dette området foran seg -
        # med billedsiden ned": the capital's card leaves the deck
        if t in self.deck:
            self.deck.remove(t)
            self.set_aside.append(t)
        self._pending_events.append(CapitalChosen(d.player, t))
        self._ask_capital()

    def _on_pass(self, action: Pass, dry: bool) -> None:
        d = self.pending
        kind = d.kind if d is not None else None
        if kind in (Kind.BRIBE, Kind.REINFORCE_ALLY, Kind.FORTIFY_ALLY):
            if not dry:
                alliancelib.on_pass(self, kind)
            return
        if kind is Kind.TRADE and d is not None and d.forced:
            raise IllegalAction("pass is not allowed now: a trade is forced")
        if kind is Kind.ATTACK and d is not None and d.forced:
            raise IllegalAction(
                f"pass is not allowed now: you placed {self.placed_this_turn} armies, so you "
                "must attack at least once this turn (Risiko! Master Expert)"
            )
        if kind not in (Kind.TRADE, Kind.ATTACK, Kind.FORTIFY, Kind.BUILD_CENTRE):
            asked = kind.value if kind is not None else "nothing"
            raise IllegalAction(f"pass is not allowed now: the pending decision is {asked}")
        if dry:
            return
        if kind is Kind.TRADE:
            self._trade_until = 1 << 30
            self._ask_place()
        elif kind is Kind.BUILD_CENTRE:
            self._ask_place(build=False)
        elif kind is Kind.ATTACK:
            self._ask_fortify()
        else:
            self._end_turn()

    def _on_build_centre(self, action: BuildCentre, dry: bool) -> None:
        d = self._expect(Kind.BUILD_CENTRE, "build_centre")
        t = self._territory(action.territory, "build_centre:")
        if t not in d.territories:
            raise IllegalAction(
                f"build_centre: {self.board.name_of(t)} is not yours or already has a centre"
            )
        if dry:
            return
        self.centres.append(t)
        self.reserve -= d.armies
        self._pending_events.append(CentreBuilt(d.player, t, d.armies))
        self._ask_place()

    def _on_forfeit(self, action: Forfeit, dry: bool) -> None:
        seat = action.player
        if (
            type(seat) is not int
            or not 0 <= seat < len(self.players)
            or not self.players[seat].active
        ):
            raise IllegalAction(f"forfeit: seat {seat!r} is not in the game")
        if not dry:
            self.forfeit_now(seat, action.reason)

    # ------------------------------------------------------------------ forfeits
    def forfeit_now(self, seat: int, reason: str) -> None:
        player = self.players[seat]
        player.forfeited = True
        player.neutral = True
        if self._teams:
            teamlib.pass_hand(self, seat)  # the team's hand stays with the team
        self.discard.extend(player.cards)
        player.cards.clear()
        player.missions = []
        player.reserve = 0
        self.out_order.append(seat)
        events = self._pending_events
        events.append(Forfeited(seat, str(reason)[:200]))
        if len(self.active_players()) <= 1 or (self._teams and teamlib.team_left(self)):
            if self.pending is not None and self.pending.kind is Kind.OCCUPY:
                self._move_in(self._battle[2])
            self._finish("last player standing")
            return
        d = self.pending
        if d is None:
            return
        if self._phase is Phase.CAPITALS:
            if d.player == seat:
                self._ask_capital()
            return
        if self._phase in (Phase.CLAIM, Phase.SETUP_PLACE):
            if d.player == seat:
                self._setup_next = (seat + 1) % len(self.players)
                self._ask_setup()
            return
        if d.kind is Kind.DEFEND and d.player == seat:
            self._fight(d.maximum)
        elif self.current == seat:
            if d.kind is Kind.OCCUPY:
                self._move_in(self._battle[2])
            self.reserve = 0
            self.conquered_this_turn = False
            self._end_turn()

    # ------------------------------------------------------------------ missions
    def mission_done(self, seat: int, mission: int) -> bool:
        """Whether ``seat`` has achieved ``mission`` in the present position."""
        deck = self.mission_deck
        if deck is None:
            return False
        m = deck.missions[mission]
        if m.destroy >= 0 and m.destroy != seat and self.destroyed_by[m.destroy] >= 0:
            # destroyed by another: with fallback_24 the card was already turned into
            # "occupy 24" (see _destroyed); this is option destroyed_by_other=completed
            return True
        return missionlib.progress(
            m,
            self.board,
            self.owner,
            self.armies,
            seat,
            self.destroyed_by,
            self.conquests_this_turn,
        ).done

    def _won_on_points(self) -> bool:
        """Risiko! Master: the player to move holds enough points and quadrants (checked once
        the armies of a conquest have moved in)."""
        seat, d = self.current, self.pending
        if d is not None and d.kind is Kind.OCCUPY:
            return False
        self._points_due = False
        if seat < 0 or self.round == 0 or not self.players[seat].active:
            return False
        return masterlib.has_won(self.board, self.owner, seat, self.rules)

    def _claim_mission_2000(self) -> None:
        """The player whose turn it is wins as soon as its mission is fulfilled; a mission
        fulfilled in another's turn is claimed when its holder's turn comes (seed 001: "en
        spiller kun kan erklære seier under sin tur")."""
        d = self.pending
        if d is None or self.round == 0 or d.player != self.current or d.kind is Kind.OCCUPY:
            return
        seat = self.current
        held = self.players[seat].missions
        if held and self.mission_done(seat, held[0]):
            self._pending_events.append(MissionShown(seat, held[0], True))
            self._finish("mission", winner=seat)

    def _claim_capitals(self) -> None:
        """The player whose turn it is wins holding enough capitals, its own included."""
        d = self.pending
        if d is None or self.round == 0 or d.player != self.current or d.kind is Kind.OCCUPY:
            return
        capitals = [p.capital for p in self.players]
        if capitallib.has_won(self.owner, capitals, self.current):
            self._finish("capitals", winner=self.current)

    def _declare_2004(self, moment: str) -> None:
        """Declare at most one fulfilled mission of the current player whose card names this
        ``moment`` (seed 000: one a turn, "at the moment the card states"); a declared mission
        stays done. After three, the fourth is shown to all; after four, the player wins."""
        deck = self.mission_deck
        seat = self.current
        player = self.players[seat]
        if deck is None or self._declared_this_turn or not player.active:
            return
        declared = self.declared[seat]
        for m in player.missions:
            if m in declared or deck.missions[m].moment != moment:
                continue
            if not self.mission_done(seat, m):
                continue
            declared.append(m)
            self._declared_this_turn = True
            events = self._pending_events
            events.append(MissionShown(seat, m, True))
            if len(declared) == len(player.missions):
                self._finish("missions", winner=seat)
            elif len(declared) == len(player.missions) - 1:
                last = next(x for x in player.missions if x not in declared)
                events.append(MissionShown(seat, last, False))
            return

    def _capture(self, by: int, loser: int, capital: int) -> None:
        """``by`` took ``loser``'s capital (seed 001): the loser announces it and hands over
        every card; its armies on that continent are taken off, and each such territory gets
        one army of the conqueror from reserve (new armies, none from the board)."""
        if self.capital_known[loser]:
            return  # announced at its first capture; later it is a captured capital like any
        self.capital_known[loser] = True
        victim = self.players[loser]
        taken = victim.cards
        self.players[by].cards.extend(taken)
        victim.cards = []
        replaced = capitallib.replaced_on_capture(self.board, self.owner, capital, loser)
        removed = sum(self.armies[t] for t in replaced)
        for t in replaced:
            self._take(by, t, 1)
        self._pending_events.append(
            CapitalConquered(by, loser, capital, len(taken), replaced, removed)
        )

    def _destroyed(self, loser: int, by: int) -> None:
        """``by`` took ``loser``'s last army: record it for the "destroy" missions."""
        self.destroyed_by[loser] = by
        deck = self.mission_deck
        if deck is None or self.rules.destroyed_by_other != "fallback_24":
            return
        fallback = deck.fallback()
        if self.rules.missions != "2000":
            return
        for p in self.players:
            if p.seat != by and p.missions and deck.missions[p.missions[0]].destroy == loser:
                p.missions[0] = fallback  # the card text: "... your mission is: occupy 24"

    # ------------------------------------------------------------------ turn flow
    def _start_turn(self, seat: int) -> None:
        self.current = seat
        self.conquered_this_turn = False
        self.bonus_this_turn = 0
        self.conquests_this_turn = 0
        self._declared_this_turn = False
        self.placed_this_turn = 0
        self.attacked_this_turn = False
        self._moved_from = []
        self._points_due = self.rules.victory != "conquest"
        events = self._pending_events
        events.append(TurnStarted(seat, self.round))
        if self.rules.missions == "2004":
            self._declare_2004("turn_start")
            if self.places is not None:
                return
        self._phase = Phase.REINFORCE
        if alliancelib.active(self) and alliancelib.ask_bribe(self):
            return
        self._begin_reinforce()

    def _begin_reinforce(self) -> None:
        seat = self.current
        from_territories, from_continents = self.reinforcements(seat)
        self._pending_events.append(Reinforced(seat, from_territories, from_continents))
        self.reserve = from_territories + from_continents
        self._trade_until = self.rules.must_trade_at
        self._phase = Phase.REINFORCE
        self._ask_trade_or_place()

    def _ask_trade_or_place(self) -> None:
        seat = self.current
        hand = self.players[seat].cards
        # a trade is forced only with a set to trade (3 or 4 cards may hold none)
        if len(hand) >= 3 and cardlib.has_set(hand, self.board.card_insignia):
            if len(hand) >= self._trade_until:
                self.pending = Decision(Kind.TRADE, seat, forced=True)
                return
            if self._phase is Phase.REINFORCE:
                self.pending = Decision(Kind.TRADE, seat)
                return
        self._ask_place()

    def _ask_place(self, build: bool = True) -> None:
        sites = (
            masterlib.centre_sites(self.rules, self.owner, self.centres, self.reserve, self.current)
            if build
            else ()
        )
        if sites:
            self.pending = Decision(
                Kind.BUILD_CENTRE,
                self.current,
                armies=masterlib.CENTRE_COST,
                territories=sites,
            )
            return
        if self.reserve > 0:
            self.pending = Decision(Kind.PLACE, self.current, armies=self.reserve)
        else:
            self._ask_attack()

    def _ask_attack(self) -> None:
        self._phase = Phase.ATTACK
        if self._can_attack(self.current):
            forced = masterlib.must_attack(
                self.rules, self.placed_this_turn, self.attacked_this_turn
            )
            self.pending = Decision(Kind.ATTACK, self.current, forced=forced)
        else:
            self._ask_fortify()

    def _ask_fortify(self) -> None:
        if alliancelib.active(self):
            alliancelib.end_attempt(self)  # the attacks are over
        self._phase = Phase.FORTIFY
        if self._can_fortify(self.current):
            self.pending = Decision(Kind.FORTIFY, self.current)
        else:
            self._end_turn()

    def _can_attack(self, p: int) -> bool:
        owner, armies = self.owner, self.armies
        src, dst, _ = self._battle
        if (
            src >= 0
            and owner[src] == p
            and armies[src] > 1
            and owner[dst] != p
            and self.rules.attacker_dice == "any"
            and not self.rules.eliminate_from_round
        ):
            return True  # the usual case, found without a scan: the last battle can go on
        return next(legal.iter_attacks(self, p), None) is not None

    def _can_fortify(self, p: int) -> bool:
        if self._teams:
            return teamlib.can_fortify(self, p)
        if self.rules.garrison > 1:
            return any(True for _ in legal.fortifies(self, p))
        owner, armies, neighbours = self.owner, self.armies, self.board.neighbours
        for t in range(len(owner)):
            if owner[t] == p and armies[t] > 1:
                for n in neighbours[t]:
                    if owner[n] == p:
                        return True
        return False

    def _connected(self, p: int, src: int, dst: int) -> bool:
        owner, neighbours = self.owner, self.board.neighbours
        seen = {src}
        queue = deque((src,))
        while queue:
            for n in neighbours[queue.popleft()]:
                if n == dst:
                    return True
                if n not in seen and owner[n] == p:
                    seen.add(n)
                    queue.append(n)
        return False

    def _fight(self, defend_dice: int) -> None:
        src, dst, attack_dice = self._battle
        # team game: the attacker's own armies, maybe on a team-mate's territory (docs/rules.md §4)
        attacker = self.current if self._teams else self.owner[src]
        defender = self.owner[dst]
        a = self.rng.attack(attacker).roll(attack_dice)
        d = self.rng.defend(defender).roll(defend_dice)
        lost_a, lost_d = compare(a, d)
        hit: list[int] = []
        if self._teams:
            teamlib.add(self, attacker, src, -lost_a)
            hit = teamlib.lose_defenders(self, dst, lost_d)
        else:
            self.armies[src] -= lost_a
            self.armies[dst] -= lost_d
        events = self._pending_events
        events.append(Battle(attacker, defender, src, dst, tuple(a), tuple(d), lost_a, lost_d))
        if self.armies[dst] > 0:
            if not (self._teams and self._team_destroyed(hit, attacker, 0)):
                self._ask_attack()
            return
        self._take(attacker, dst, 0)
        self._points_due = self.rules.victory != "conquest"
        # an ally's conquest earns no card (seed 000: "Et voi saada yhtään aluekorttia
        # käyttäessäsi liittolaista alueen valtaamisessa")
        self.conquered_this_turn = self.conquered_this_turn or attacker == self.current
        self.conquests_this_turn += 1
        events.append(Conquered(attacker, defender, src, dst))
        self._eliminated_now = False
        if self._teams and self._team_destroyed(hit, attacker, attack_dice):
            return
        # a forfeited seat already left the game: taking its last territory eliminates no one
        if self.rules.capitals == "on" and self.players[defender].capital == dst:
            self._capture(attacker, defender, dst)
        if self.territory_count[defender] == 0:
            self._destroyed(defender, self.current)
        if self.territory_count[defender] == 0 and not self.players[defender].forfeited:
            self._eliminate(defender, self.current)  # an ally's victim's cards: its player's
            if len(self.active_players()) <= 1:
                self._move_in(attack_dice)
                self._finish("conquest")
                return
        own = teamlib.own_armies(self, attacker, src) if self._teams else self.armies[src]
        most = own - masterlib.garrison(self, src, attacker)
        if most <= attack_dice:
            self._occupy(attack_dice)
        else:
            self.pending = Decision(
                Kind.OCCUPY,
                self.current,
                minimum=attack_dice,
                maximum=most,
                source=src,
                target=dst,
            )

    def _team_destroyed(self, hit: list[int], attacker: int, dice: int) -> bool:
        """A team game's battle: eliminate each seat ``hit`` that has no armies left (on a
        shared territory it may lose its last one without a conquest); the first elimination
        ends the game (seed 000: "Se joukkue voittaa, joka ensimmäisenä onnistuu tuhoamaan
        jonkun vastapuolen pelaajan joukot"), the conqueror's ``dice`` armies moved in first.
        Whether it ended."""
        self._eliminated_now = False
        for seat in hit:
            if self.territory_count[seat] == 0 and not self.players[seat].forfeited:
                self._eliminate(seat, attacker)
        if self._eliminated_now:
            if dice:
                self._move_in(dice)
            self._finish("team conquest", winner=attacker)
        return self._eliminated_now

    def _move_in(self, n: int) -> None:
        src, dst, _ = self._battle
        if self._teams:
            teamlib.move(self, self.current, src, dst, n)
            self._pending_events.append(Occupied(self.current, src, dst, n))
            return
        self.armies[src] -= n
        self.armies[dst] += n
        self._pending_events.append(Occupied(self.owner[src], src, dst, n))

    def _occupy(self, n: int) -> None:
        self._move_in(n)
        if alliancelib.active(self):
            alliancelib.end_attempt(self)  # the conquest ends the attempt
        seat = self.current
        if (
            self._eliminated_now
            and self.rules.elimination_trade == "immediate"
            and len(self.players[seat].cards) >= self.rules.elimination_trade_at
        ):
            self._phase = Phase.ELIMINATION_TRADE
            self._trade_until = ELIMINATION_HAND + 1
            self.reserve = 0
            self._ask_trade_or_place()
            return
        self._ask_attack()

    def _eliminate(self, loser: int, by: int) -> None:
        victim = self.players[loser]
        victim.eliminated = True
        taken = victim.cards
        self.players[by].cards.extend(taken)
        self._pending_events.append(Eliminated(loser, by, len(taken)))
        victim.cards = []
        victim.missions = []  # seeds 000, 001: missions go back unseen, never to the conqueror
        if not victim.neutral:  # a neutral colour destroyed has no place in the result
            self.out_order.append(loser)
        self._eliminated_now = True

    def _end_turn(self) -> None:
        if (
            alliancelib.active(self)
            and self.players[self.current].active
            and not alliancelib.fortify_allies_done(self)
            and alliancelib.ask_fortify_ally(self, first=True)
        ):
            return
        seat = self.current
        events = self._pending_events
        if self.rules.missions == "2004":
            self._declare_2004("turn_end")
            if self.places is not None:
                return
        if self.conquered_this_turn and self.players[seat].active:
            card = self._draw()
            if card >= 0:
                self.players[seat].cards.append(card)
                events.append(CardDrawn(seat, card))
        if self._teams:
            teamlib.pass_hand(self, seat)  # seed 000: to the next team-mate
        self._battle = (-1, -1, 0)
        nxt = self._next_active(seat)
        n = len(self.players)
        if (nxt - self.first_player) % n <= (seat - self.first_player) % n:
            self.round += 1
            limit = self.rules.turn_limit
            if limit and self.round > limit:
                self._finish("turn limit")
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

    def _take(self, seat: int, territory: int, armies: int) -> None:
        previous = self.owner[territory]
        if previous >= 0:
            self.territory_count[previous] -= 1
        self.owner[territory] = seat
        self.armies[territory] = armies
        self.territory_count[seat] += 1

    def _finish(self, reason: str, winner: int = -1) -> None:
        """End the game: ``winner`` (a mission's) first, the other players still in by
        territories (Risiko! Master Expert: territory values) then armies, then those who
        left, the last to leave first (a team game: :func:`hegemon.referee.teams.places`)."""
        if self._teams:
            self._end(teamlib.places(self, teamlib.team_of(winner) if winner >= 0 else -1), reason)
            return
        active = self.active_players()
        key = {
            p: (
                masterlib.score(self.board, self.owner, p, self.rules.victory)
                if self.rules.victory == "values"
                else self.territory_count[p],
                sum(a for t, a in enumerate(self.armies) if self.owner[t] == p),
            )
            for p in active
        }
        ranked = sorted(active, key=lambda p: (p == winner, key[p]), reverse=True)
        places = [0] * self.player_count
        for i, p in enumerate(ranked):
            tied = i and key[p] == key[ranked[i - 1]] and ranked[i - 1] != winner
            places[p] = places[ranked[i - 1]] if tied else i + 1
        for i, p in enumerate(reversed(self.out_order)):
            places[p] = len(active) + i + 1
        self._end(tuple(places), reason)

    def _end(self, places: tuple[int, ...], reason: str) -> None:
        self.places = places
        self.finish_reason = reason
        self.pending = None
        self._pending_events.append(GameOver(self.places, reason))

    # ------------------------------------------------------------------ copies
    def clone(self) -> Game:
        """An independent copy (for search bots); the dice stream continues identically."""
        other = object.__new__(Game)
        for name, value in self.__dict__.items():
            other.__dict__[name] = list(value) if isinstance(value, list) else value
        other.players = [
            Player(
                p.seat,
                list(p.cards),
                p.reserve,
                p.eliminated,
                p.forfeited,
                p.neutral,
                p.team,
                p.ally_of,
                list(p.missions),
                p.capital,
            )
            for p in self.players
        ]
        other.stacks = {t: dict(s) for t, s in self.stacks.items()}
        other.declared = [list(d) for d in self.declared]
        other.rng = self.rng.copy()
        return other


_Handler = Callable[[Game, Any, bool], None]
_HANDLERS: dict[type, _Handler] = {
    Claim: Game._on_claim,
    Place: Game._on_place,
    Trade: Game._on_trade,
    Attack: Game._on_attack,
    Defend: Game._on_defend,
    Occupy: Game._on_occupy,
    Fortify: Game._on_fortify,
    Pass: Game._on_pass,
    Capital: Game._on_capital,
    BuildCentre: Game._on_build_centre,
    Forfeit: Game._on_forfeit,
    PlaceNeutral: neutrallib.on_place_neutral,
    Bribe: alliancelib.on_bribe,
    ReinforceAlly: alliancelib.on_reinforce_ally,
    FortifyAlly: alliancelib.on_fortify_ally,
}
