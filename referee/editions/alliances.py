"""Active neutrals (docs/rules.md §5, ``two-player-2004-active``; seed 000 "AKTIIVINEN
PUOLUEETTOMUUSPELI"): bribes, the three-position alliance tracks, allies reinforced, attacking
and fortifying for their player, and the die after attacks on or with neutrals.

Each neutral colour's track position is its ``Player.ally_of``: -1 uncommitted, else the
player it is allied to. Its bribe cards are its ``Player.cards`` (face down: only their count
is public). The turn (seed 000: "1. Puolueettomien lahjominen 2. Vahvistusjoukkojen
hankkiminen ja sijoittaminen 3. Liittoutuneiden vahvistaminen 4. Taistelu 5. Ryhmittäminen
6. Liittoutuneiden ryhmittäminen 7. Aluekortin hankkiminen"): :class:`AlliancesPart` asks
the bribe as a turn starts, the allies' reinforcements after the player's own, rolls the
attempts' dice around attacks, and asks the allies' moves before the turn ends.

A *conquest attempt* is a run of rolls from one territory against one territory. It ends with
the conquest, or when the player next does anything else (another attack, stop attacking);
then a die is rolled for each neutral involved (the attacked one, the ally that attacked):
1–4 moves it one step away from the player, 5–6 leaves it. When that die turns away the ally
whose territory the player's next attack comes from, that attack is not made (the armies are
no longer the player's to command) and the player is asked again.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar, Protocol, cast

from ..actions import Bribe, FortifyAlly, ReinforceAlly
from ..decisions import Decision, Kind, Phase
from ..errors import IllegalAction
from ..events import AllegianceChanged, AllyFortified, AllyReinforced, Bribed
from ..formulas import movable_armies
from ..holdings import Holdings
from .contract import Edition, Handler
from .neutrals import placed_per_seat

if TYPE_CHECKING:
    from ..game import Game
    from ..position import Position
    from ..rules import RuleSet

MODE = "2004_active"
BRIBE_LIMIT = 5  # seed 000: "ET VOI antaa korttia puolueettomalle, jolla on jo viisi korttia"
STAYS_FROM = 5  # seed 000: "Jos saat silmäluvuksi viisi tai kuusi, ... säilyttää asemansa"
NO_ATTEMPT = (-1, -1, -1, -1)  # (source, target, attacking seat, target's seat)
_DONE = [-1]  # ``ally_todo`` once this turn's ally moves were all asked


def _neutrals(game: Game) -> range:
    return range(game.player_count, len(game.players))


def allies(game: Game, player: int) -> list[int]:
    """The neutral colours allied to ``player`` that still hold territory."""
    return [
        s
        for s in _neutrals(game)
        if game.players[s].ally_of == player and game.territory_count[s] > 0
    ]


class AlliedHoldings(Holdings):
    """Active neutrals' board: a player also commands its allies' armies (it attacks from
    their territories onto any other colour; its own are moved as in the classic game)."""

    def __init__(self) -> None:
        super().__init__(allied=True)

    def commanded(self, state: Position, seat: int) -> Sequence[int]:
        return (seat, *cast(_Allied, state).allies(seat))


class _Allied(Protocol):
    def allies(self, player: int) -> list[int]: ...


def _step(game: Game, neutral: int, toward: int, roll: int = 0) -> None:
    """Move ``neutral`` one step toward ``toward`` (away from the other player when
    ``toward`` is that other player's opponent): opponent's ally -> uncommitted -> ally."""
    player = game.players[neutral]
    other = 1 - toward
    new = -1 if player.ally_of == other else toward
    if new != player.ally_of:
        player.ally_of = new
        game.emit(AllegianceChanged(neutral, new, roll))


@dataclass(slots=True)
class AlliancesPart(Edition):
    """Active neutrals in play: the allies still to ask this turn, and the conquest attempt
    in progress."""

    ally_todo: list[int] = field(default_factory=list)
    attempt: tuple[int, int, int, int] = NO_ATTEMPT

    @classmethod
    def create(cls, game: Game) -> AlliancesPart | None:
        return cls() if game.rules.two_player == MODE else None

    def copy(self) -> AlliancesPart:
        return AlliancesPart(list(self.ally_todo), self.attempt)

    @classmethod
    def holdings_for(cls, rules: RuleSet) -> Holdings | None:
        return AlliedHoldings() if rules.two_player == MODE else None

    # -------------------------------------------------------------- 1. bribes
    def reinforcing(self, game: Game) -> bool:
        """As a turn starts: pose the player's bribe (seed 000: "Vuorosi alussa sinulla on
        mahdollisuus antaa aluekortti ... puolueettomalle") while it holds cards and some
        neutral still takes one. False when there is nothing to ask (the reinforcements come
        next)."""
        self.ally_todo = []
        self.attempt = NO_ATTEMPT
        return self._ask_bribe(game)

    def _ask_bribe(self, game: Game) -> bool:
        seat = game.current
        hand = game.players[seat].cards
        room = {
            s: BRIBE_LIMIT - len(game.players[s].cards)
            for s in _neutrals(game)
            if game.territory_count[s] > 0 and len(game.players[s].cards) < BRIBE_LIMIT
        }
        if not hand or not room:
            return False
        most = min(len(hand), max(room.values()))
        game.ask(Decision(Kind.BRIBE, seat, maximum=most, seats=tuple(room)))
        return True

    def on_bribe(self, game: Game, action: Bribe, dry: bool) -> None:
        """Check (and unless ``dry`` apply) cards given face down to a neutral: each moves it
        one step toward the giver (seed 000: "Aina kun annat aluekortin puolueettomalle,
        siirrä kanuunaa yksi asema lähemmäs itseäsi")."""
        d = game.expect(Kind.BRIBE, "bribe")
        neutral, cards = action.neutral, action.cards
        if neutral not in d.seats:
            raise IllegalAction(
                f"bribe: {neutral!r} is not a neutral you may bribe "
                f"({', '.join(map(str, d.seats))})"
            )
        room = BRIBE_LIMIT - len(game.players[neutral].cards)
        if not 1 <= len(cards) <= room:
            raise IllegalAction(
                f"bribe: give 1 to {room} cards to neutral {neutral} "
                f"(it holds at most {BRIBE_LIMIT})"
            )
        if len(set(cards)) != len(cards):
            raise IllegalAction("bribe: the cards must be different")
        hand = game.players[d.player].cards
        missing = [c for c in cards if c not in hand]
        if missing:
            raise IllegalAction(f"bribe: you do not hold card {missing[0]}")
        if dry:
            return
        for c in cards:
            hand.remove(c)
        game.players[neutral].cards.extend(cards)
        game.emit(Bribed(d.player, neutral, len(cards)))
        for _ in cards:
            _step(game, neutral, d.player)
        if not self._ask_bribe(game):
            game.begin_reinforce()

    # -------------------------------------------------------------- 3. reinforce allies
    def after_place(self, game: Game, placed: int) -> bool:
        if game.phase is not Phase.REINFORCE:
            return False
        self.ally_todo = allies(game, game.current)
        return self._ask_reinforce_ally(game)

    def _ask_reinforce_ally(self, game: Game) -> bool:
        """After the player's own reinforcements and after each ally's: roll a die for the
        next ally and pose its placement (seed 000: "Valitse liittolainen ja heitä yhtä
        arpakuutiota ... Sijoita arpakuution silmäluvun osoittama määrä yksiköitä mille tahansa
        kyseiselle liittolaiselle kuuluvalle alueelle"). False when no ally is left."""
        seat = game.current
        while self.ally_todo:
            ally = self.ally_todo.pop(0)
            if game.territory_count[ally] and game.players[ally].ally_of == seat:
                roll = game.rng.neutral(seat).roll(1)[0]
                game.ask(Decision(Kind.REINFORCE_ALLY, seat, armies=roll, seats=(ally,)))
                return True
        return False

    def on_reinforce_ally(self, game: Game, action: ReinforceAlly, dry: bool) -> None:
        """Check (and unless ``dry`` apply) the rolled armies placed on the ally's
        territories."""
        d = game.expect(Kind.REINFORCE_ALLY, "reinforce_ally")
        ally = d.seats[0]
        placements = action.placements
        placed_per_seat(game, placements, "reinforce_ally", (ally,), d.armies)
        if dry:
            return
        for t, n in placements:
            game.armies[t] += n
        game.emit(AllyReinforced(d.player, ally, d.armies, placements))
        if not self._ask_reinforce_ally(game):
            game.ask_attack()

    # -------------------------------------------------------------- 4. attacks
    def attack_starts(self, game: Game, source: int, target: int) -> bool:
        """Before an attack from ``source`` on ``target`` is made: end the previous conquest
        attempt if this one is another. False when that attempt's die turned away the ally
        whose armies this attack would use (the attack is then not made)."""
        src, dst, _, _ = self.attempt
        if (src, dst) != (source, target):
            self.attempt_over(game)
            if not game.commands(game.current, game.owner[source]):
                return False
            self.attempt = (source, target, game.owner[source], game.owner[target])
        return True

    def attempt_over(self, game: Game) -> None:
        """The conquest attempt in progress is over (a conquest, another attack, the attacks
        stopped): a die per neutral involved moves it away from the player on 1–4 (seed 000:
        "Jos saat silmäluvuksi 1, 2, 3 tai 4, siirrä puolueettoman kanuunaa yhden aseman
        verran itsestäsi POISPÄIN ... Jos käytät liittolaista hyökätäksesi toista
        puolueetonta kohti, heitä yhtä arpakuutiota jokaisen puolueettoman armeijan
        puolesta")."""
        _, _, attacker, defender = self.attempt
        self.attempt = NO_ATTEMPT
        if attacker < 0:
            return
        seat = game.current
        involved = [s for s in (defender, attacker) if s >= game.player_count]
        for neutral in involved:
            if game.territory_count[neutral] == 0:
                continue  # destroyed: no army left to change sides
            roll = game.rng.neutral(seat).roll(1)[0]
            if roll < STAYS_FROM:
                _step(game, neutral, 1 - seat, roll)

    # -------------------------------------------------------------- 6. fortify allies
    def turn_ending(self, game: Game) -> bool:
        """Before the turn ends: pose the allies' free moves (seed 000: "Voit myös tehdä yhden
        vapaan siirron jokaisen liittolaisesi puolesta"), once a turn."""
        if not game.players[game.current].active or self.ally_todo == _DONE:
            return False
        self.attempt_over(game)
        self.ally_todo = allies(game, game.current)
        return self._ask_fortify_ally(game)

    def _ask_fortify_ally(self, game: Game) -> bool:
        """Pose the next ally's one free move. False when no ally has a move left to be
        asked."""
        seat = game.current
        while self.ally_todo:
            ally = self.ally_todo.pop(0)
            if game.players[ally].ally_of == seat and game.holdings.can_fortify(
                game, ally, game.limits
            ):
                game.ask(Decision(Kind.FORTIFY_ALLY, seat, seats=(ally,)))
                return True
        self.ally_todo = list(_DONE)  # this turn's ally moves are done
        return False

    def on_fortify_ally(self, game: Game, action: FortifyAlly, dry: bool) -> None:
        """Check (and unless ``dry`` apply) the ally's move, as the player's own under the rule
        set's ``fortify`` option ("Lujita näiden joukkojen asemia samoin kuin lujittaisit omia
        asemiasi"), through the ally's own territories."""
        d = game.expect(Kind.FORTIFY_ALLY, "fortify_ally")
        ally = d.seats[0]
        src = game.territory(action.source, "fortify_ally: source")
        dst = game.territory(action.target, "fortify_ally: target")
        name = game.board.name_of
        if game.owner[src] != ally or game.owner[dst] != ally:
            wrong = src if game.owner[src] != ally else dst
            raise IllegalAction(f"fortify_ally: {name(wrong)} is not your ally {ally}'s")
        if src == dst:
            raise IllegalAction("fortify_ally: source and target are the same territory")
        n = action.armies
        most = movable_armies(game.armies[src])
        if not 1 <= n <= most:
            raise IllegalAction(f"fortify_ally: {n!r} armies; from {name(src)} move 1 to {most}")
        if not any(
            t == dst for s, t, _ in game.holdings.fortifies(game, ally, game.limits) if s == src
        ):
            raise IllegalAction(f"fortify_ally: {name(dst)} cannot be reached from {name(src)}")
        if dry:
            return
        game.armies[src] -= n
        game.armies[dst] += n
        game.emit(AllyFortified(d.player, ally, ((src, dst, n),)))
        if not self._ask_fortify_ally(game):
            game.end_turn()

    handlers: ClassVar[dict[type, Handler]] = {
        Bribe: on_bribe,
        ReinforceAlly: on_reinforce_ally,
        FortifyAlly: on_fortify_ally,
    }
    passes: ClassVar[frozenset[Kind]] = frozenset(
        {Kind.BRIBE, Kind.REINFORCE_ALLY, Kind.FORTIFY_ALLY}
    )

    # -------------------------------------------------------------- declining
    def passed(self, game: Game, kind: Kind) -> None:
        """The player declined a bribe, an ally's reinforcement or an ally's move."""
        d = game.pending
        if kind is Kind.BRIBE:
            game.begin_reinforce()
        elif kind is Kind.REINFORCE_ALLY and d is not None:
            game.emit(AllyReinforced(d.player, d.seats[0], d.armies, ()))
            if not self._ask_reinforce_ally(game):
                game.ask_attack()
        elif not self._ask_fortify_ally(game):
            game.end_turn()
