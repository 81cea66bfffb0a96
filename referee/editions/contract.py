"""The hooks through which an edition plugs its own state and rules into the engine.

A :class:`hegemon.referee.game.Game` plays the classic game (docs/rules.md §1) by itself. Every
later edition — secret missions, capitals, Risiko! Master, teams, neutrals, active neutrals — is
an :class:`Edition` *part*: one object holding that edition's state (its fields; :meth:`copy`
makes an independent copy for :meth:`Game.clone <hegemon.referee.game.Game.clone>`) and its
rules (the hooks below). A game holds only the parts its rule set turns on
(:func:`hegemon.referee.editions.parts.parts_for`), so a classic game runs no hook at all.

The engine calls each hook at one moment of the game, on every part in order; the default of
each hook does nothing. A hook returning ``bool`` returns True when it took over (posed a
decision, ended the game): the engine then stops there. Parts change the game only through its
public API (``take``, ``emit``, ``ask``, ``expect``, ``territory``, the ``ask_*`` steps,
``finish``): no part touches a private member of the game (``tests/engine/test_edition_parts.py``
checks it). ``docs/adding-an-edition.md`` walks through writing one.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar, Self

from ..decisions import Kind

if TYPE_CHECKING:
    from ..game import Game
    from ..holdings import AttackLimits, Holdings
    from ..rules import RuleSet

#: An action handler: check ``action`` against the pending decision (raising
#: :class:`hegemon.referee.errors.IllegalAction` with nothing changed) and, unless ``dry``,
#: apply it.
Handler = Callable[[Any, "Game", Any, bool], None]


class Edition(ABC):
    """One edition's part of a game: its state (the subclass's fields) and its rules (hooks)."""

    #: The part's own action kinds: action type -> handler (an unbound method of the part).
    handlers: ClassVar[dict[type, Handler]] = {}
    #: The decision kinds of the part that a ``Pass`` answers (see :meth:`passed`).
    passes: ClassVar[frozenset[Kind]] = frozenset()

    __slots__ = ()

    @classmethod
    @abstractmethod
    def create(cls, game: Game) -> Edition | None:
        """The part for ``game`` (its players seated, nothing dealt yet), or None when the
        rule set does not play this edition."""

    @abstractmethod
    def copy(self) -> Self:
        """An independent copy of the part's state (for :meth:`Game.clone`)."""

    # ------------------------------------------------------------------ the board rules
    # Asked once per rule set (editions.parts.board_rules), for a game and its views alike:
    # the first part in PARTS that answers chooses.
    @classmethod
    def holdings_for(cls, rules: RuleSet) -> Holdings | None:
        """Where armies sit under ``rules`` if this edition changes it (shared territories,
        allies' armies), else None."""
        return None

    @classmethod
    def limits_for(cls, rules: RuleSet) -> AttackLimits | None:
        """What limits an attack or a move under ``rules`` if this edition does (least dice,
        protected territories, garrisons), else None."""
        return None

    # ------------------------------------------------------------------ set-up
    def deal(self, game: Game) -> bool:
        """Set the game up in place of the classic deal (starting armies, territories, first
        player, the deck) and pose the first set-up decision. True if it did."""
        return False

    def dealt(self, game: Game) -> None:
        """After the classic deal, before the first set-up decision (e.g. deal missions)."""

    def setup_armies(self, game: Game, seat: int, armies: int) -> int:
        """Armies ``seat`` places at one set-up step (``armies``: what the parts before say)."""
        return armies

    def after_setup_place(self, game: Game, seat: int) -> bool:
        """After ``seat`` placed set-up armies. True if it posed a decision."""
        return False

    def before_play(self, game: Game) -> bool:
        """Set-up is done and play is about to begin. True if it posed a decision (the engine
        asks again after that decision is answered, through ``game.ask_before_play``)."""
        return False

    # ------------------------------------------------------------------ the turn
    def turn_started(self, game: Game) -> None:
        """A turn began (``game.current``; TurnStarted emitted); the part may end the game."""

    def reinforcing(self, game: Game) -> bool:
        """Before the reinforcements are counted. True if it posed a decision (the part then
        calls ``game.begin_reinforce`` when it is done)."""
        return False

    def reinforcements(self, game: Game, player: int, due: tuple[int, int]) -> tuple[int, int]:
        """Armies due to ``player`` as its turn starts: (from territories, from continents);
        ``due`` is what the classic rules and the parts before say."""
        return due

    def before_place(self, game: Game) -> bool:
        """Before the reinforcements are placed. True if it posed a decision."""
        return False

    def after_place(self, game: Game, placed: int) -> bool:
        """After the player to move placed ``placed`` armies in its turn. True if it posed a
        decision (the part then calls ``game.ask_attack``)."""
        return False

    def attack_forced(self, game: Game) -> bool:
        """Whether the attack decision about to be posed may not be declined."""
        return False

    def attack_starts(self, game: Game, source: int, target: int) -> bool:
        """A legal attack is about to be rolled. False cancels it (the player is asked again)."""
        return True

    def forced_why(self, game: Game) -> str:
        """Why a forced attack may not be declined (the refusal of a ``Pass``), "" if the part
        did not force it."""
        return ""

    def defence_chooser(self, game: Game, defender: int, chooser: int) -> int:
        """Who chooses ``defender``'s defence dice (-1: nobody, the most dice are rolled)."""
        return chooser

    def after_conquest(self, game: Game, attacker: int, defender: int, target: int) -> None:
        """``attacker`` took ``target`` from ``defender`` (before anyone is eliminated)."""

    def colour_destroyed(self, game: Game, loser: int, by: int) -> None:
        """``by``'s turn took ``loser``'s last territory."""

    def eliminated(self, game: Game, loser: int) -> None:
        """``loser`` was eliminated (its cards went to its conqueror)."""

    def attempt_over(self, game: Game) -> None:
        """The player stopped attacking, or its attack ended in a conquest."""

    def turn_ending(self, game: Game) -> bool:
        """Before the turn's card is drawn. True if it posed a decision (the part then calls
        ``game.end_turn``) or ended the game."""
        return False

    def turn_ended(self, game: Game, seat: int) -> None:
        """``seat``'s card was drawn; the next turn is about to start."""

    # ------------------------------------------------------------------ decisions
    def passed(self, game: Game, kind: Kind) -> None:
        """The player declined one of the part's decisions (a kind in :attr:`passes`)."""

    # ------------------------------------------------------------------ the end
    def check_end(self, game: Game) -> None:
        """After every applied action while the game goes on (automatic steps included), and
        at the turn's end before the turn passes on: end it (``game.finish``) if the part's
        victory condition is met. ``game.turn_holder()`` names the seat whose own-turn win
        counts now."""

    def seat_left(self, game: Game, seat: int) -> None:
        """``seat`` forfeited (its cards not yet discarded)."""

    def goes_on_alone(self, game: Game) -> bool:
        """One player is left after a conquest: whether the game still goes on (e.g. seed 002's
        two-player goal: all 42 territories, the neutral ones too)."""
        return False

    def decided(self, game: Game) -> bool:
        """Whether the game is over because of who is left (checked after a forfeit)."""
        return False

    def places(self, game: Game, winner: int) -> tuple[int, ...] | None:
        """The result as the game ends (``winner``: -1 when none), or None for the classic
        ranking."""
        return None
