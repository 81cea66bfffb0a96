"""Secret missions (docs/rules.md §2): the mission decks as data files, whether a seat has done one,
and the part (:class:`MissionsPart`) that deals, declares and claims them in a game.

The decks live in ``data/missions/``: ``mission-2000.json`` holds the 14 cards of the 2000
edition (seed 001); ``mission-2004.json`` holds 4 ranks x 7 missions of hegemon's own design,
because the printed texts of the 2004 edition (seed 000) are not public. A user may replace
either file (same fields) or load another with :func:`load_deck`.

A mission's goal is a conjunction of simple conditions on the public board (plus, for
"destroy", who destroyed whom; for "conquer N in one turn", the turn's conquests):

>>> deck = builtin_deck("2000")
>>> deck.missions[0].text
'Conquer the continents of Asia and South America.'
>>> len(builtin_deck("2004").missions)
28
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..board import Board
from ..events import MissionShown
from .contract import Edition

if TYPE_CHECKING:
    from ..game import Game

RANKS_2004 = ("captain", "major", "colonel", "general")
MOMENTS = ("turn_start", "turn_end")
_FILES = {"2000": "mission-2000.json", "2004": "mission-2004.json"}


class MissionDataError(ValueError):
    """A mission file that is not a deck of missions."""


@dataclass(frozen=True, slots=True)
class Mission:
    """One mission card. Every non-default condition must hold at once.

    - ``continents``: whole continents (by name) to hold; ``more_continents``: how many other
      whole continents besides them ("a third continent of your choice").
    - ``territories`` held with at least ``armies`` armies each.
    - ``destroy``: a colour (= seat) whose armies must all be destroyed, -1 for none.
    - ``conquests``: territories conquered in the turn; ``stack``: one territory with this
      many armies; ``eliminations``: opponents this seat destroyed.
    - ``rank`` (2004) and ``moment`` (when it is declared: ``turn_start`` | ``turn_end``).
    """

    id: int
    text: str
    rank: str = ""
    moment: str = "turn_end"
    continents: tuple[str, ...] = ()
    more_continents: int = 0
    territories: int = 0
    armies: int = 1
    destroy: int = -1
    conquests: int = 0
    stack: int = 0
    eliminations: int = 0


@dataclass(frozen=True, slots=True)
class Deck:
    """A mission deck: its missions (``missions[i].id == i``) and colour names (2000)."""

    name: str
    missions: tuple[Mission, ...]
    colours: tuple[str, ...] = ()

    def fallback(self) -> int:
        """The "occupy 24 territories" card a destroy mission turns into (-1 if none)."""
        for m in self.missions:
            if m.territories == 24 and m.armies == 1 and m.destroy < 0 and not m.continents:
                return m.id
        return -1

    def dealable(self, players: int) -> list[int]:
        """Ids of the cards in play: "destroy colour X" of absent colours removed (seed 001:
        the general removes the cards of colours not in the game)."""
        return [m.id for m in self.missions if m.destroy < players]

    def of_rank(self, rank: str) -> list[int]:
        return [m.id for m in self.missions if m.rank == rank]


_INTS = ("more_continents", "territories", "armies", "destroy", "conquests", "stack")


def parse_deck(data: Any, source: str = "<missions>") -> Deck:
    """A deck from parsed JSON; raises :class:`MissionDataError` saying what is wrong."""
    if not isinstance(data, dict) or not isinstance(data.get("missions"), list):
        raise MissionDataError(f"{source}: a deck is an object with a 'missions' list")
    missions = []
    for i, raw in enumerate(data["missions"]):
        if not isinstance(raw, dict) or raw.get("id") != i or not isinstance(raw.get("text"), str):
            raise MissionDataError(f"{source}: mission {i} needs 'id': {i} and a 'text'")
        fields: dict[str, Any] = {"id": i, "text": raw["text"]}
        for name in (*_INTS, "eliminations"):
            if name in raw:
                if type(raw[name]) is not int:
                    raise MissionDataError(f"{source}: mission {i}: {name} must be a number")
                fields[name] = raw[name]
        continents = raw.get("continents", [])
        if not isinstance(continents, list) or not all(isinstance(c, str) for c in continents):
            raise MissionDataError(f"{source}: mission {i}: continents must be names")
        fields["continents"] = tuple(continents)
        rank, moment = raw.get("rank", ""), raw.get("moment", "turn_end")
        if rank not in ("", *RANKS_2004) or moment not in MOMENTS:
            raise MissionDataError(f"{source}: mission {i}: bad rank {rank!r} or moment {moment!r}")
        missions.append(Mission(rank=rank, moment=moment, **fields))
    colours = data.get("colours", [])
    return Deck(str(data.get("name", source)), tuple(missions), tuple(map(str, colours)))


def load_deck(path: str | Path) -> Deck:
    """Read a mission deck from a JSON file (the format of ``data/missions/``)."""
    text = Path(path).read_text(encoding="utf-8")
    return parse_deck(json.loads(text), str(path))


@cache
def builtin_deck(edition: str) -> Deck:
    """The deck shipped for ``edition`` (``"2000"`` or ``"2004"``)."""
    name = _FILES.get(edition)
    if name is None:
        raise MissionDataError(f"no mission deck for {edition!r} (available: {', '.join(_FILES)})")
    text = resources.files("hegemon.referee").joinpath("data", "missions", name).read_text("utf-8")
    return parse_deck(json.loads(text), name)


def deck_of(missions_option: str) -> Deck | None:
    """The deck a rule set's ``missions`` option plays with (None: no missions)."""
    return None if missions_option == "none" else builtin_deck(missions_option)


def check_board(deck: Deck, board: Board) -> None:
    """Every continent a mission names exists on ``board``."""
    names = {c.name for c in board.continents}
    for m in deck.missions:
        unknown = [c for c in m.continents if c not in names]
        if unknown:
            raise MissionDataError(f"{deck.name}: mission {m.id} names unknown {unknown}")


@dataclass(frozen=True, slots=True)
class Progress:
    """How far a seat is from one mission: ``remaining`` territories still to take (or
    conquests still to make, armies still to stack), 0 when ``done``."""

    mission: int
    text: str
    done: bool
    remaining: int


def progress(
    mission: Mission,
    board: Board,
    owner: Sequence[int],
    armies: Sequence[int],
    seat: int,
    destroyed_by: Sequence[int] = (),
    conquests: int = 0,
) -> Progress:
    """How far ``seat`` is from ``mission`` on this board.

    ``destroyed_by[x]`` is the seat that destroyed colour x's last army (-1: not yet; an empty
    sequence: unknown, as to a bot). A destroy mission is done only when its holder destroyed
    the colour; the engine deals with the other cases (own colour, destroyed by another).
    """
    gaps: list[int] = []
    if mission.continents or mission.more_continents:
        index = {c.name: c for c in board.continents}
        named = [index[name] for name in mission.continents]
        gaps.extend(sum(owner[t] != seat for t in c.territories) for c in named)
        if mission.more_continents:
            others = sorted(
                sum(owner[t] != seat for t in c.territories)
                for c in board.continents
                if c.name not in mission.continents
            )
            gaps.append(sum(others[: mission.more_continents]))
    if mission.territories:
        held = sum(1 for t, p in enumerate(owner) if p == seat and armies[t] >= mission.armies)
        gaps.append(max(0, mission.territories - held))
    if mission.destroy >= 0:
        by = destroyed_by[mission.destroy] if mission.destroy < len(destroyed_by) else -1
        left = sum(1 for p in owner if p == mission.destroy)
        gaps.append(0 if by == seat else max(1, left))
    if mission.conquests:
        gaps.append(max(0, mission.conquests - conquests))
    if mission.stack:
        best = max((a for t, a in enumerate(armies) if owner[t] == seat), default=0)
        gaps.append(max(0, mission.stack - best))
    if mission.eliminations:
        done = sum(1 for by in destroyed_by if by == seat)
        gaps.append(max(0, mission.eliminations - done))
    remaining = sum(gaps)
    return Progress(mission.id, mission.text, remaining == 0, remaining)


# ------------------------------------------------------------------ the part in a game
@dataclass(slots=True)
class MissionsPart(Edition):
    """Secret missions in play (docs/rules.md §2): the deck, who destroyed whom, the missions
    shown as done, and this turn's conquests and declaration."""

    deck: Deck
    destroyed_by: list[int]  # per colour: who took its last army (-1: nobody yet)
    declared: list[list[int]]  # per seat: the missions shown as done
    conquests_this_turn: int = 0
    declared_this_turn: bool = False

    @classmethod
    def create(cls, game: Game) -> MissionsPart | None:
        deck = deck_of(game.rules.missions)
        if deck is None:
            return None
        check_board(deck, game.board)
        seats = len(game.players)
        return cls(deck, [-1] * seats, [[] for _ in range(seats)])

    def copy(self) -> MissionsPart:
        return MissionsPart(
            self.deck,
            list(self.destroyed_by),
            [list(d) for d in self.declared],
            self.conquests_this_turn,
            self.declared_this_turn,
        )

    def dealt(self, game: Game) -> None:
        """One secret mission each (2000), or one of each rank (2004); the rest stay unseen."""
        rng, deck = game.rng.missions, self.deck
        if game.rules.missions == "2000":
            cards = deck.dealable(len(game.players))
            rng.shuffle(cards)
            for p in game.players:
                card = cards.pop()
                # seed 001 / the card text: your own colour means "occupy 24 territories"
                p.missions = [deck.fallback() if deck.missions[card].destroy == p.seat else card]
            return
        for rank in RANKS_2004:
            pile = deck.of_rank(rank)
            rng.shuffle(pile)
            for p in game.players:
                p.missions.append(pile.pop())

    def done(self, game: Game, seat: int, mission: int) -> bool:
        """Whether ``seat`` has achieved ``mission`` in the present position."""
        m = self.deck.missions[mission]
        if m.destroy >= 0 and m.destroy != seat and self.destroyed_by[m.destroy] >= 0:
            # destroyed by another: with fallback_24 the card was already turned into
            # "occupy 24" (see colour_destroyed); this is option destroyed_by_other=completed
            return True
        return progress(
            m,
            game.board,
            game.owner,
            game.armies,
            seat,
            self.destroyed_by,
            self.conquests_this_turn,
        ).done

    def turn_started(self, game: Game) -> None:
        self.conquests_this_turn = 0
        self.declared_this_turn = False
        self._declare_2004(game, "turn_start")

    def turn_ending(self, game: Game) -> bool:
        return self._declare_2004(game, "turn_end")

    def after_conquest(self, game: Game, attacker: int, defender: int, target: int) -> None:
        self.conquests_this_turn += 1

    def colour_destroyed(self, game: Game, loser: int, by: int) -> None:
        """Record who destroyed ``loser`` for the "destroy" missions (2000: another's destroy
        card for that colour becomes "occupy 24")."""
        self.destroyed_by[loser] = by
        if game.rules.destroyed_by_other != "fallback_24" or game.rules.missions != "2000":
            return
        deck = self.deck
        fallback = deck.fallback()
        for p in game.players:
            if p.seat != by and p.missions and deck.missions[p.missions[0]].destroy == loser:
                p.missions[0] = fallback  # the card text: "... your mission is: occupy 24"

    def eliminated(self, game: Game, loser: int) -> None:
        # seeds 000, 001: missions go back unseen, never to the conqueror
        game.players[loser].missions = []

    def seat_left(self, game: Game, seat: int) -> None:
        game.players[seat].missions = []

    def check_end(self, game: Game) -> None:
        """2000: the player whose turn it is wins as soon as its mission is fulfilled; a
        mission fulfilled in another's turn is claimed when its holder's turn comes (seed 001:
        "en spiller kun kan erklære seier under sin tur")."""
        seat = game.turn_holder()
        if game.rules.missions != "2000" or seat < 0:
            return
        held = game.players[seat].missions
        if held and self.done(game, seat, held[0]):
            game.emit(MissionShown(seat, held[0], True))
            game.finish("mission", winner=seat)

    def _declare_2004(self, game: Game, moment: str) -> bool:
        """Declare at most one fulfilled mission of the current player whose card names this
        ``moment`` (seed 000: one a turn, "at the moment the card states"); a declared mission
        stays done. After three, the fourth is shown to all; after four, the player wins.
        Whether the game ended."""
        seat = game.current
        player = game.players[seat]
        if game.rules.missions != "2004" or self.declared_this_turn or not player.active:
            return False
        declared = self.declared[seat]
        for m in player.missions:
            if m in declared or self.deck.missions[m].moment != moment:
                continue
            if not self.done(game, seat, m):
                continue
            declared.append(m)
            self.declared_this_turn = True
            game.emit(MissionShown(seat, m, True))
            if len(declared) == len(player.missions):
                game.finish("missions", winner=seat)
            elif len(declared) == len(player.missions) - 1:
                last = next(x for x in player.missions if x not in declared)
                game.emit(MissionShown(seat, last, False))
            break
        return game.over
