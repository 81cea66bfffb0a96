"""Events: what an action caused, in order. Every event is public except the identity of a drawn
card, which :func:`redact` hides from everyone but the player who drew it."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, ClassVar

from .quickinit import quick_init


@dataclass(frozen=True, slots=True)
class Event:
    tag: ClassVar[str] = "event"

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"event": self.tag}
        name: str
        for name in self.__slots__:
            data[name] = _plain(getattr(self, name))
        return data


def _plain(value: Any) -> Any:
    """Tuples (nested ones too: placements, moves) as lists, as JSON reads them back."""
    return [_plain(v) for v in value] if isinstance(value, tuple) else value


@dataclass(frozen=True, slots=True)
class FirstPlayer(Event):
    """``player`` won the roll for ``purpose`` (``place``: places first; ``play``: plays first)."""

    player: int
    purpose: str
    tag: ClassVar[str] = "first_player"


@dataclass(frozen=True, slots=True)
class Dealt(Event):
    """A ``deal`` set-up gave ``player`` these territories (one army each)."""

    player: int
    territories: tuple[int, ...]
    tag: ClassVar[str] = "dealt"


@dataclass(frozen=True, slots=True)
class Claimed(Event):
    player: int
    territory: int
    tag: ClassVar[str] = "claimed"


@dataclass(frozen=True, slots=True)
class Placed(Event):
    player: int
    placements: tuple[tuple[int, int], ...]
    tag: ClassVar[str] = "placed"

    def to_dict(self) -> dict[str, Any]:
        return {
            "event": self.tag,
            "player": self.player,
            "placements": [list(p) for p in self.placements],
        }


@dataclass(frozen=True, slots=True)
class TurnStarted(Event):
    player: int
    round: int
    tag: ClassVar[str] = "turn_started"


@dataclass(frozen=True, slots=True)
class Reinforced(Event):
    """Armies due at the start of a turn: from territories and from whole continents."""

    player: int
    from_territories: int
    from_continents: int
    tag: ClassVar[str] = "reinforced"


@dataclass(frozen=True, slots=True)
class Traded(Event):
    """A set was traded for ``value`` armies (+``bonus`` placed on ``bonus_territory``)."""

    player: int
    cards: tuple[int, ...]
    value: int
    bonus_territory: int
    bonus: int
    tag: ClassVar[str] = "traded"


@dataclass(frozen=True, slots=True)
class Battle(Event):
    """One roll: dice sorted high to low, and the armies each side lost."""

    attacker: int
    defender: int
    source: int
    target: int
    attack_dice: tuple[int, ...]
    defend_dice: tuple[int, ...]
    attacker_losses: int
    defender_losses: int
    tag: ClassVar[str] = "battle"


@dataclass(frozen=True, slots=True)
class Conquered(Event):
    player: int
    previous_owner: int
    source: int
    territory: int
    tag: ClassVar[str] = "conquered"


@dataclass(frozen=True, slots=True)
class Occupied(Event):
    player: int
    source: int
    territory: int
    armies: int
    tag: ClassVar[str] = "occupied"


@dataclass(frozen=True, slots=True)
class Eliminated(Event):
    """``player`` lost its last territory to ``by``, who took ``cards_taken`` cards."""

    player: int
    by: int
    cards_taken: int
    tag: ClassVar[str] = "eliminated"


@dataclass(frozen=True, slots=True)
class Fortified(Event):
    player: int
    source: int
    target: int
    armies: int
    tag: ClassVar[str] = "fortified"


@dataclass(frozen=True, slots=True)
class CardDrawn(Event):
    """``card`` is -1 in every view but the drawer's."""

    player: int
    card: int
    tag: ClassVar[str] = "card_drawn"


@dataclass(frozen=True, slots=True)
class DeckReshuffled(Event):
    cards: int
    tag: ClassVar[str] = "deck_reshuffled"


@dataclass(frozen=True, slots=True)
class Forfeited(Event):
    """The referee removed ``player`` (a fault); its armies stay on the board as neutral."""

    player: int
    reason: str
    tag: ClassVar[str] = "forfeited"


@dataclass(frozen=True, slots=True)
class GameOver(Event):
    """``places[seat]`` is that seat's finishing place (1 = winner; equal places are ties)."""

    places: tuple[int, ...]
    reason: str
    tag: ClassVar[str] = "game_over"


@dataclass(frozen=True, slots=True)
class MissionShown(Event):
    """``player`` showed ``mission`` to everyone: declared it completed (``completed``), or had
    it revealed as the last of four (mission-2004)."""

    player: int
    mission: int
    completed: bool
    tag: ClassVar[str] = "mission_shown"


@dataclass(frozen=True, slots=True)
class CapitalChosen(Event):
    """``player`` chose its capital: ``territory``, which :func:`redact` hides (-1) from
    everyone else."""

    player: int
    territory: int
    tag: ClassVar[str] = "capital_chosen"


@dataclass(frozen=True, slots=True)
class CapitalConquered(Event):
    """``player`` conquered ``previous_owner``'s capital ``territory`` and took its
    ``cards_taken`` cards; the loser's ``armies_removed`` armies on that continent were taken
    off and each territory in ``replaced`` got 1 army of the conqueror (seed 001)."""

    player: int
    previous_owner: int
    territory: int
    cards_taken: int
    replaced: tuple[int, ...]
    armies_removed: int
    tag: ClassVar[str] = "capital_conquered"


@dataclass(frozen=True, slots=True)
class NeutralPlaced(Event):
    """``player`` placed armies on territories of the neutral ``neutral`` (two-player games:
    at set-up, and the 2000 edition's neutral reinforcements)."""

    player: int
    neutral: int
    placements: tuple[tuple[int, int], ...]
    tag: ClassVar[str] = "neutral_placed"


@dataclass(frozen=True, slots=True)
class Bribed(Event):
    """``player`` gave ``cards`` cards face down to ``neutral``: how many is public, which ones
    is not (two-player 2004 active)."""

    player: int
    neutral: int
    cards: int
    tag: ClassVar[str] = "bribed"


@dataclass(frozen=True, slots=True)
class AllegianceChanged(Event):
    """``neutral`` moved on its alliance track: now allied to ``ally_of`` (-1: uncommitted);
    ``roll`` is the die that moved it, 0 when a bribe did."""

    neutral: int
    ally_of: int
    roll: int
    tag: ClassVar[str] = "allegiance_changed"


@dataclass(frozen=True, slots=True)
class AllyReinforced(Event):
    """``player`` rolled ``roll`` for its ally ``ally`` and placed these armies (none when it
    declined)."""

    player: int
    ally: int
    roll: int
    placements: tuple[tuple[int, int], ...]
    tag: ClassVar[str] = "ally_reinforced"


@dataclass(frozen=True, slots=True)
class AllyFortified(Event):
    """``player`` made its ally ``ally``'s free move: ``moves`` are (source, target, armies)."""

    player: int
    ally: int
    moves: tuple[tuple[int, int, int], ...]
    tag: ClassVar[str] = "ally_fortified"


@dataclass(frozen=True, slots=True)
class CentreBuilt(Event):
    """``player`` built a production centre on ``territory`` for ``cost`` armies (Master)."""

    player: int
    territory: int
    cost: int
    tag: ClassVar[str] = "centre_built"


EVENT_TYPES: dict[str, type[Event]] = {
    cls.tag: cls
    for cls in (
        FirstPlayer,
        Dealt,
        Claimed,
        Placed,
        TurnStarted,
        Reinforced,
        Traded,
        Battle,
        Conquered,
        Occupied,
        Eliminated,
        Fortified,
        CardDrawn,
        DeckReshuffled,
        Forfeited,
        GameOver,
        MissionShown,
        CapitalChosen,
        CapitalConquered,
        NeutralPlaced,
        Bribed,
        AllegianceChanged,
        AllyReinforced,
        AllyFortified,
        CentreBuilt,
    )
}
for _event in EVENT_TYPES.values():
    quick_init(_event)  # every event: built on the hot path


def private_to(event: Event) -> int:
    """The one seat that may see ``event`` whole (a drawn card, a chosen capital), -1 if it is
    public: every other seat gets :func:`redact`'s version."""
    if isinstance(event, (CardDrawn, CapitalChosen)):
        return event.player
    return -1


def fault_kind(reason: str) -> str:
    """The public part of a forfeit's reason: the fault kind alone ("crash", "timeout", …).
    The referee records nothing more; a record written before it did so carries
    ``kind: detail``, and that detail (the bot's own error, its log) is its owner's only."""
    return reason.partition(":")[0].strip()


def redact(event: Event, viewer: int) -> Event:
    """The event as ``viewer`` may see it."""
    if type(event) is CardDrawn and event.player != viewer:
        return replace(event, card=-1)
    if type(event) is CapitalChosen and event.player != viewer:
        return replace(event, territory=-1)
    return event
