from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class ProtocolVersion(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    PROTOCOL_VERSION_UNSPECIFIED: _ClassVar[ProtocolVersion]
    PROTOCOL_VERSION_1: _ClassVar[ProtocolVersion]

class DefendPolicy(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    DEFEND_POLICY_ASK: _ClassVar[DefendPolicy]
    DEFEND_POLICY_MOST: _ClassVar[DefendPolicy]

class OccupyPolicy(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    OCCUPY_POLICY_ASK: _ClassVar[OccupyPolicy]
    OCCUPY_POLICY_MIN: _ClassVar[OccupyPolicy]
    OCCUPY_POLICY_ALL: _ClassVar[OccupyPolicy]
    OCCUPY_POLICY_KEEP: _ClassVar[OccupyPolicy]

class Insignia(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    INSIGNIA_UNSPECIFIED: _ClassVar[Insignia]
    INSIGNIA_INFANTRY: _ClassVar[Insignia]
    INSIGNIA_CAVALRY: _ClassVar[Insignia]
    INSIGNIA_ARTILLERY: _ClassVar[Insignia]
    INSIGNIA_WILD: _ClassVar[Insignia]

class DecisionKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    DECISION_KIND_UNSPECIFIED: _ClassVar[DecisionKind]
    DECISION_KIND_CLAIM: _ClassVar[DecisionKind]
    DECISION_KIND_PLACE: _ClassVar[DecisionKind]
    DECISION_KIND_TRADE: _ClassVar[DecisionKind]
    DECISION_KIND_ATTACK: _ClassVar[DecisionKind]
    DECISION_KIND_DEFEND: _ClassVar[DecisionKind]
    DECISION_KIND_OCCUPY: _ClassVar[DecisionKind]
    DECISION_KIND_FORTIFY: _ClassVar[DecisionKind]
    DECISION_KIND_PLACE_NEUTRAL: _ClassVar[DecisionKind]
    DECISION_KIND_CAPITAL: _ClassVar[DecisionKind]
    DECISION_KIND_BRIBE: _ClassVar[DecisionKind]
    DECISION_KIND_REINFORCE_ALLY: _ClassVar[DecisionKind]
    DECISION_KIND_FORTIFY_ALLY: _ClassVar[DecisionKind]
    DECISION_KIND_BUILD_CENTRE: _ClassVar[DecisionKind]
PROTOCOL_VERSION_UNSPECIFIED: ProtocolVersion
PROTOCOL_VERSION_1: ProtocolVersion
DEFEND_POLICY_ASK: DefendPolicy
DEFEND_POLICY_MOST: DefendPolicy
OCCUPY_POLICY_ASK: OccupyPolicy
OCCUPY_POLICY_MIN: OccupyPolicy
OCCUPY_POLICY_ALL: OccupyPolicy
OCCUPY_POLICY_KEEP: OccupyPolicy
INSIGNIA_UNSPECIFIED: Insignia
INSIGNIA_INFANTRY: Insignia
INSIGNIA_CAVALRY: Insignia
INSIGNIA_ARTILLERY: Insignia
INSIGNIA_WILD: Insignia
DECISION_KIND_UNSPECIFIED: DecisionKind
DECISION_KIND_CLAIM: DecisionKind
DECISION_KIND_PLACE: DecisionKind
DECISION_KIND_TRADE: DecisionKind
DECISION_KIND_ATTACK: DecisionKind
DECISION_KIND_DEFEND: DecisionKind
DECISION_KIND_OCCUPY: DecisionKind
DECISION_KIND_FORTIFY: DecisionKind
DECISION_KIND_PLACE_NEUTRAL: DecisionKind
DECISION_KIND_CAPITAL: DecisionKind
DECISION_KIND_BRIBE: DecisionKind
DECISION_KIND_REINFORCE_ALLY: DecisionKind
DECISION_KIND_FORTIFY_ALLY: DecisionKind
DECISION_KIND_BUILD_CENTRE: DecisionKind

class HelloRequest(_message.Message):
    __slots__ = ("protocol_version", "referee_version")
    PROTOCOL_VERSION_FIELD_NUMBER: _ClassVar[int]
    REFEREE_VERSION_FIELD_NUMBER: _ClassVar[int]
    protocol_version: int
    referee_version: str
    def __init__(self, protocol_version: _Optional[int] = ..., referee_version: _Optional[str] = ...) -> None: ...

class HelloReply(_message.Message):
    __slots__ = ("name", "version", "protocol_version", "rule_sets", "author", "view_deltas", "legal_answers", "decide_stream")
    NAME_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    PROTOCOL_VERSION_FIELD_NUMBER: _ClassVar[int]
    RULE_SETS_FIELD_NUMBER: _ClassVar[int]
    AUTHOR_FIELD_NUMBER: _ClassVar[int]
    VIEW_DELTAS_FIELD_NUMBER: _ClassVar[int]
    LEGAL_ANSWERS_FIELD_NUMBER: _ClassVar[int]
    DECIDE_STREAM_FIELD_NUMBER: _ClassVar[int]
    name: str
    version: str
    protocol_version: int
    rule_sets: _containers.RepeatedScalarFieldContainer[str]
    author: str
    view_deltas: bool
    legal_answers: bool
    decide_stream: bool
    def __init__(self, name: _Optional[str] = ..., version: _Optional[str] = ..., protocol_version: _Optional[int] = ..., rule_sets: _Optional[_Iterable[str]] = ..., author: _Optional[str] = ..., view_deltas: _Optional[bool] = ..., legal_answers: _Optional[bool] = ..., decide_stream: _Optional[bool] = ...) -> None: ...

class StartGameRequest(_message.Message):
    __slots__ = ("game_id", "seat", "seat_names", "rules", "board", "time_control", "missions", "protocol_version")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SEAT_NAMES_FIELD_NUMBER: _ClassVar[int]
    RULES_FIELD_NUMBER: _ClassVar[int]
    BOARD_FIELD_NUMBER: _ClassVar[int]
    TIME_CONTROL_FIELD_NUMBER: _ClassVar[int]
    MISSIONS_FIELD_NUMBER: _ClassVar[int]
    PROTOCOL_VERSION_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    seat: int
    seat_names: _containers.RepeatedScalarFieldContainer[str]
    rules: RuleSet
    board: Board
    time_control: TimeControl
    missions: _containers.RepeatedCompositeFieldContainer[MissionCard]
    protocol_version: int
    def __init__(self, game_id: _Optional[str] = ..., seat: _Optional[int] = ..., seat_names: _Optional[_Iterable[str]] = ..., rules: _Optional[_Union[RuleSet, _Mapping]] = ..., board: _Optional[_Union[Board, _Mapping]] = ..., time_control: _Optional[_Union[TimeControl, _Mapping]] = ..., missions: _Optional[_Iterable[_Union[MissionCard, _Mapping]]] = ..., protocol_version: _Optional[int] = ...) -> None: ...

class StartGameReply(_message.Message):
    __slots__ = ("policies",)
    POLICIES_FIELD_NUMBER: _ClassVar[int]
    policies: Policies
    def __init__(self, policies: _Optional[_Union[Policies, _Mapping]] = ...) -> None: ...

class Policies(_message.Message):
    __slots__ = ("defend", "occupy", "keep")
    DEFEND_FIELD_NUMBER: _ClassVar[int]
    OCCUPY_FIELD_NUMBER: _ClassVar[int]
    KEEP_FIELD_NUMBER: _ClassVar[int]
    defend: DefendPolicy
    occupy: OccupyPolicy
    keep: int
    def __init__(self, defend: _Optional[_Union[DefendPolicy, str]] = ..., occupy: _Optional[_Union[OccupyPolicy, str]] = ..., keep: _Optional[int] = ...) -> None: ...

class RuleSet(_message.Message):
    __slots__ = ("preset", "options")
    class OptionsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    PRESET_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    preset: str
    options: _containers.ScalarMap[str, str]
    def __init__(self, preset: _Optional[str] = ..., options: _Optional[_Mapping[str, str]] = ...) -> None: ...

class Board(_message.Message):
    __slots__ = ("name", "territories", "continents", "cards", "wild_cards")
    NAME_FIELD_NUMBER: _ClassVar[int]
    TERRITORIES_FIELD_NUMBER: _ClassVar[int]
    CONTINENTS_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    WILD_CARDS_FIELD_NUMBER: _ClassVar[int]
    name: str
    territories: _containers.RepeatedCompositeFieldContainer[Territory]
    continents: _containers.RepeatedCompositeFieldContainer[Continent]
    cards: _containers.RepeatedCompositeFieldContainer[Card]
    wild_cards: int
    def __init__(self, name: _Optional[str] = ..., territories: _Optional[_Iterable[_Union[Territory, _Mapping]]] = ..., continents: _Optional[_Iterable[_Union[Continent, _Mapping]]] = ..., cards: _Optional[_Iterable[_Union[Card, _Mapping]]] = ..., wild_cards: _Optional[int] = ...) -> None: ...

class Territory(_message.Message):
    __slots__ = ("index", "name", "continent", "insignia", "value", "neighbours")
    INDEX_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    CONTINENT_FIELD_NUMBER: _ClassVar[int]
    INSIGNIA_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    NEIGHBOURS_FIELD_NUMBER: _ClassVar[int]
    index: int
    name: str
    continent: int
    insignia: Insignia
    value: int
    neighbours: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, index: _Optional[int] = ..., name: _Optional[str] = ..., continent: _Optional[int] = ..., insignia: _Optional[_Union[Insignia, str]] = ..., value: _Optional[int] = ..., neighbours: _Optional[_Iterable[int]] = ...) -> None: ...

class Continent(_message.Message):
    __slots__ = ("index", "name", "bonus", "territories")
    INDEX_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    BONUS_FIELD_NUMBER: _ClassVar[int]
    TERRITORIES_FIELD_NUMBER: _ClassVar[int]
    index: int
    name: str
    bonus: int
    territories: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, index: _Optional[int] = ..., name: _Optional[str] = ..., bonus: _Optional[int] = ..., territories: _Optional[_Iterable[int]] = ...) -> None: ...

class Card(_message.Message):
    __slots__ = ("id", "territory", "insignia", "extra_armies")
    ID_FIELD_NUMBER: _ClassVar[int]
    TERRITORY_FIELD_NUMBER: _ClassVar[int]
    INSIGNIA_FIELD_NUMBER: _ClassVar[int]
    EXTRA_ARMIES_FIELD_NUMBER: _ClassVar[int]
    id: int
    territory: int
    insignia: Insignia
    extra_armies: int
    def __init__(self, id: _Optional[int] = ..., territory: _Optional[int] = ..., insignia: _Optional[_Union[Insignia, str]] = ..., extra_armies: _Optional[int] = ...) -> None: ...

class MissionCard(_message.Message):
    __slots__ = ("id", "rank", "text")
    ID_FIELD_NUMBER: _ClassVar[int]
    RANK_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    id: int
    rank: str
    text: str
    def __init__(self, id: _Optional[int] = ..., rank: _Optional[str] = ..., text: _Optional[str] = ...) -> None: ...

class TimeControl(_message.Message):
    __slots__ = ("decision_ms", "time_bank_ms", "increment_ms")
    DECISION_MS_FIELD_NUMBER: _ClassVar[int]
    TIME_BANK_MS_FIELD_NUMBER: _ClassVar[int]
    INCREMENT_MS_FIELD_NUMBER: _ClassVar[int]
    decision_ms: int
    time_bank_ms: int
    increment_ms: int
    def __init__(self, decision_ms: _Optional[int] = ..., time_bank_ms: _Optional[int] = ..., increment_ms: _Optional[int] = ...) -> None: ...

class DecideRequest(_message.Message):
    __slots__ = ("game_id", "view", "decision", "events", "error", "strikes", "time_bank_ms", "deadline_ms", "delta", "legal", "number")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    VIEW_FIELD_NUMBER: _ClassVar[int]
    DECISION_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    STRIKES_FIELD_NUMBER: _ClassVar[int]
    TIME_BANK_MS_FIELD_NUMBER: _ClassVar[int]
    DEADLINE_MS_FIELD_NUMBER: _ClassVar[int]
    DELTA_FIELD_NUMBER: _ClassVar[int]
    LEGAL_FIELD_NUMBER: _ClassVar[int]
    NUMBER_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    view: View
    decision: Decision
    events: _containers.RepeatedCompositeFieldContainer[Event]
    error: str
    strikes: int
    time_bank_ms: int
    deadline_ms: int
    delta: bool
    legal: LegalAnswers
    number: int
    def __init__(self, game_id: _Optional[str] = ..., view: _Optional[_Union[View, _Mapping]] = ..., decision: _Optional[_Union[Decision, _Mapping]] = ..., events: _Optional[_Iterable[_Union[Event, _Mapping]]] = ..., error: _Optional[str] = ..., strikes: _Optional[int] = ..., time_bank_ms: _Optional[int] = ..., deadline_ms: _Optional[int] = ..., delta: _Optional[bool] = ..., legal: _Optional[_Union[LegalAnswers, _Mapping]] = ..., number: _Optional[int] = ...) -> None: ...

class LegalAnswers(_message.Message):
    __slots__ = ("pass_allowed", "sets", "attacks", "moves", "territories")
    PASS_ALLOWED_FIELD_NUMBER: _ClassVar[int]
    SETS_FIELD_NUMBER: _ClassVar[int]
    ATTACKS_FIELD_NUMBER: _ClassVar[int]
    MOVES_FIELD_NUMBER: _ClassVar[int]
    TERRITORIES_FIELD_NUMBER: _ClassVar[int]
    pass_allowed: bool
    sets: _containers.RepeatedCompositeFieldContainer[CardSet]
    attacks: _containers.RepeatedCompositeFieldContainer[AttackOption]
    moves: _containers.RepeatedCompositeFieldContainer[MoveOption]
    territories: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, pass_allowed: _Optional[bool] = ..., sets: _Optional[_Iterable[_Union[CardSet, _Mapping]]] = ..., attacks: _Optional[_Iterable[_Union[AttackOption, _Mapping]]] = ..., moves: _Optional[_Iterable[_Union[MoveOption, _Mapping]]] = ..., territories: _Optional[_Iterable[int]] = ...) -> None: ...

class CardSet(_message.Message):
    __slots__ = ("cards",)
    CARDS_FIELD_NUMBER: _ClassVar[int]
    cards: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, cards: _Optional[_Iterable[int]] = ...) -> None: ...

class AttackOption(_message.Message):
    __slots__ = ("source", "target", "least_dice", "most_dice")
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    TARGET_FIELD_NUMBER: _ClassVar[int]
    LEAST_DICE_FIELD_NUMBER: _ClassVar[int]
    MOST_DICE_FIELD_NUMBER: _ClassVar[int]
    source: int
    target: int
    least_dice: int
    most_dice: int
    def __init__(self, source: _Optional[int] = ..., target: _Optional[int] = ..., least_dice: _Optional[int] = ..., most_dice: _Optional[int] = ...) -> None: ...

class MoveOption(_message.Message):
    __slots__ = ("source", "target", "most_armies")
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    TARGET_FIELD_NUMBER: _ClassVar[int]
    MOST_ARMIES_FIELD_NUMBER: _ClassVar[int]
    source: int
    target: int
    most_armies: int
    def __init__(self, source: _Optional[int] = ..., target: _Optional[int] = ..., most_armies: _Optional[int] = ...) -> None: ...

class DecideReply(_message.Message):
    __slots__ = ("game_id", "action", "full_view", "notes", "number", "refused", "refused_code")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    FULL_VIEW_FIELD_NUMBER: _ClassVar[int]
    NOTES_FIELD_NUMBER: _ClassVar[int]
    NUMBER_FIELD_NUMBER: _ClassVar[int]
    REFUSED_FIELD_NUMBER: _ClassVar[int]
    REFUSED_CODE_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    action: Action
    full_view: bool
    notes: Notes
    number: int
    refused: str
    refused_code: int
    def __init__(self, game_id: _Optional[str] = ..., action: _Optional[_Union[Action, _Mapping]] = ..., full_view: _Optional[bool] = ..., notes: _Optional[_Union[Notes, _Mapping]] = ..., number: _Optional[int] = ..., refused: _Optional[str] = ..., refused_code: _Optional[int] = ...) -> None: ...

class Notes(_message.Message):
    __slots__ = ("text", "marks")
    TEXT_FIELD_NUMBER: _ClassVar[int]
    MARKS_FIELD_NUMBER: _ClassVar[int]
    text: str
    marks: _containers.RepeatedCompositeFieldContainer[Mark]
    def __init__(self, text: _Optional[str] = ..., marks: _Optional[_Iterable[_Union[Mark, _Mapping]]] = ...) -> None: ...

class Mark(_message.Message):
    __slots__ = ("territory", "to", "label", "colour")
    TERRITORY_FIELD_NUMBER: _ClassVar[int]
    TO_FIELD_NUMBER: _ClassVar[int]
    LABEL_FIELD_NUMBER: _ClassVar[int]
    COLOUR_FIELD_NUMBER: _ClassVar[int]
    territory: int
    to: int
    label: str
    colour: str
    def __init__(self, territory: _Optional[int] = ..., to: _Optional[int] = ..., label: _Optional[str] = ..., colour: _Optional[str] = ...) -> None: ...

class View(_message.Message):
    __slots__ = ("seat", "round", "current", "owner", "armies", "seats", "hand", "trade_count", "next_trade_value", "missions", "capital", "stacks", "centres", "changed")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    ROUND_FIELD_NUMBER: _ClassVar[int]
    CURRENT_FIELD_NUMBER: _ClassVar[int]
    OWNER_FIELD_NUMBER: _ClassVar[int]
    ARMIES_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    TRADE_COUNT_FIELD_NUMBER: _ClassVar[int]
    NEXT_TRADE_VALUE_FIELD_NUMBER: _ClassVar[int]
    MISSIONS_FIELD_NUMBER: _ClassVar[int]
    CAPITAL_FIELD_NUMBER: _ClassVar[int]
    STACKS_FIELD_NUMBER: _ClassVar[int]
    CENTRES_FIELD_NUMBER: _ClassVar[int]
    CHANGED_FIELD_NUMBER: _ClassVar[int]
    seat: int
    round: int
    current: int
    owner: _containers.RepeatedScalarFieldContainer[int]
    armies: _containers.RepeatedScalarFieldContainer[int]
    seats: _containers.RepeatedCompositeFieldContainer[SeatInfo]
    hand: _containers.RepeatedScalarFieldContainer[int]
    trade_count: int
    next_trade_value: int
    missions: _containers.RepeatedScalarFieldContainer[int]
    capital: int
    stacks: _containers.RepeatedCompositeFieldContainer[Stack]
    centres: _containers.RepeatedScalarFieldContainer[int]
    changed: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, seat: _Optional[int] = ..., round: _Optional[int] = ..., current: _Optional[int] = ..., owner: _Optional[_Iterable[int]] = ..., armies: _Optional[_Iterable[int]] = ..., seats: _Optional[_Iterable[_Union[SeatInfo, _Mapping]]] = ..., hand: _Optional[_Iterable[int]] = ..., trade_count: _Optional[int] = ..., next_trade_value: _Optional[int] = ..., missions: _Optional[_Iterable[int]] = ..., capital: _Optional[int] = ..., stacks: _Optional[_Iterable[_Union[Stack, _Mapping]]] = ..., centres: _Optional[_Iterable[int]] = ..., changed: _Optional[_Iterable[int]] = ...) -> None: ...

class SeatInfo(_message.Message):
    __slots__ = ("seat", "territories", "armies", "cards", "eliminated", "forfeited", "neutral", "team", "ally_of", "capital", "shown_missions")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TERRITORIES_FIELD_NUMBER: _ClassVar[int]
    ARMIES_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    ELIMINATED_FIELD_NUMBER: _ClassVar[int]
    FORFEITED_FIELD_NUMBER: _ClassVar[int]
    NEUTRAL_FIELD_NUMBER: _ClassVar[int]
    TEAM_FIELD_NUMBER: _ClassVar[int]
    ALLY_OF_FIELD_NUMBER: _ClassVar[int]
    CAPITAL_FIELD_NUMBER: _ClassVar[int]
    SHOWN_MISSIONS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    territories: int
    armies: int
    cards: int
    eliminated: bool
    forfeited: bool
    neutral: bool
    team: int
    ally_of: int
    capital: int
    shown_missions: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, seat: _Optional[int] = ..., territories: _Optional[int] = ..., armies: _Optional[int] = ..., cards: _Optional[int] = ..., eliminated: _Optional[bool] = ..., forfeited: _Optional[bool] = ..., neutral: _Optional[bool] = ..., team: _Optional[int] = ..., ally_of: _Optional[int] = ..., capital: _Optional[int] = ..., shown_missions: _Optional[_Iterable[int]] = ...) -> None: ...

class Stack(_message.Message):
    __slots__ = ("territory", "seat", "armies")
    TERRITORY_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    ARMIES_FIELD_NUMBER: _ClassVar[int]
    territory: int
    seat: int
    armies: int
    def __init__(self, territory: _Optional[int] = ..., seat: _Optional[int] = ..., armies: _Optional[int] = ...) -> None: ...

class Decision(_message.Message):
    __slots__ = ("kind", "player", "armies", "minimum", "maximum", "source", "target", "attack_dice", "forced", "territories", "seats")
    KIND_FIELD_NUMBER: _ClassVar[int]
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    ARMIES_FIELD_NUMBER: _ClassVar[int]
    MINIMUM_FIELD_NUMBER: _ClassVar[int]
    MAXIMUM_FIELD_NUMBER: _ClassVar[int]
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    TARGET_FIELD_NUMBER: _ClassVar[int]
    ATTACK_DICE_FIELD_NUMBER: _ClassVar[int]
    FORCED_FIELD_NUMBER: _ClassVar[int]
    TERRITORIES_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    kind: DecisionKind
    player: int
    armies: int
    minimum: int
    maximum: int
    source: int
    target: int
    attack_dice: int
    forced: bool
    territories: _containers.RepeatedScalarFieldContainer[int]
    seats: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, kind: _Optional[_Union[DecisionKind, str]] = ..., player: _Optional[int] = ..., armies: _Optional[int] = ..., minimum: _Optional[int] = ..., maximum: _Optional[int] = ..., source: _Optional[int] = ..., target: _Optional[int] = ..., attack_dice: _Optional[int] = ..., forced: _Optional[bool] = ..., territories: _Optional[_Iterable[int]] = ..., seats: _Optional[_Iterable[int]] = ...) -> None: ...

class Action(_message.Message):
    __slots__ = ("claim", "place", "trade", "attack", "defend", "occupy", "fortify", "pass_", "capital", "bribe", "place_neutral", "reinforce_ally", "fortify_ally", "build_centre")
    CLAIM_FIELD_NUMBER: _ClassVar[int]
    PLACE_FIELD_NUMBER: _ClassVar[int]
    TRADE_FIELD_NUMBER: _ClassVar[int]
    ATTACK_FIELD_NUMBER: _ClassVar[int]
    DEFEND_FIELD_NUMBER: _ClassVar[int]
    OCCUPY_FIELD_NUMBER: _ClassVar[int]
    FORTIFY_FIELD_NUMBER: _ClassVar[int]
    PASS__FIELD_NUMBER: _ClassVar[int]
    CAPITAL_FIELD_NUMBER: _ClassVar[int]
    BRIBE_FIELD_NUMBER: _ClassVar[int]
    PLACE_NEUTRAL_FIELD_NUMBER: _ClassVar[int]
    REINFORCE_ALLY_FIELD_NUMBER: _ClassVar[int]
    FORTIFY_ALLY_FIELD_NUMBER: _ClassVar[int]
    BUILD_CENTRE_FIELD_NUMBER: _ClassVar[int]
    claim: Claim
    place: Place
    trade: Trade
    attack: Attack
    defend: Defend
    occupy: Occupy
    fortify: Fortify
    pass_: Pass
    capital: Capital
    bribe: Bribe
    place_neutral: PlaceNeutral
    reinforce_ally: ReinforceAlly
    fortify_ally: FortifyAlly
    build_centre: BuildCentre
    def __init__(self, claim: _Optional[_Union[Claim, _Mapping]] = ..., place: _Optional[_Union[Place, _Mapping]] = ..., trade: _Optional[_Union[Trade, _Mapping]] = ..., attack: _Optional[_Union[Attack, _Mapping]] = ..., defend: _Optional[_Union[Defend, _Mapping]] = ..., occupy: _Optional[_Union[Occupy, _Mapping]] = ..., fortify: _Optional[_Union[Fortify, _Mapping]] = ..., pass_: _Optional[_Union[Pass, _Mapping]] = ..., capital: _Optional[_Union[Capital, _Mapping]] = ..., bribe: _Optional[_Union[Bribe, _Mapping]] = ..., place_neutral: _Optional[_Union[PlaceNeutral, _Mapping]] = ..., reinforce_ally: _Optional[_Union[ReinforceAlly, _Mapping]] = ..., fortify_ally: _Optional[_Union[FortifyAlly, _Mapping]] = ..., build_centre: _Optional[_Union[BuildCentre, _Mapping]] = ...) -> None: ...

class Claim(_message.Message):
    __slots__ = ("territory",)
    TERRITORY_FIELD_NUMBER: _ClassVar[int]
    territory: int
    def __init__(self, territory: _Optional[int] = ...) -> None: ...

class Placement(_message.Message):
    __slots__ = ("territory", "armies")
    TERRITORY_FIELD_NUMBER: _ClassVar[int]
    ARMIES_FIELD_NUMBER: _ClassVar[int]
    territory: int
    armies: int
    def __init__(self, territory: _Optional[int] = ..., armies: _Optional[int] = ...) -> None: ...

class Place(_message.Message):
    __slots__ = ("placements",)
    PLACEMENTS_FIELD_NUMBER: _ClassVar[int]
    placements: _containers.RepeatedCompositeFieldContainer[Placement]
    def __init__(self, placements: _Optional[_Iterable[_Union[Placement, _Mapping]]] = ...) -> None: ...

class Trade(_message.Message):
    __slots__ = ("cards", "bonus_territory")
    CARDS_FIELD_NUMBER: _ClassVar[int]
    BONUS_TERRITORY_FIELD_NUMBER: _ClassVar[int]
    cards: _containers.RepeatedScalarFieldContainer[int]
    bonus_territory: int
    def __init__(self, cards: _Optional[_Iterable[int]] = ..., bonus_territory: _Optional[int] = ...) -> None: ...

class Attack(_message.Message):
    __slots__ = ("source", "target", "dice", "until", "until_target", "occupy")
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    TARGET_FIELD_NUMBER: _ClassVar[int]
    DICE_FIELD_NUMBER: _ClassVar[int]
    UNTIL_FIELD_NUMBER: _ClassVar[int]
    UNTIL_TARGET_FIELD_NUMBER: _ClassVar[int]
    OCCUPY_FIELD_NUMBER: _ClassVar[int]
    source: int
    target: int
    dice: int
    until: int
    until_target: int
    occupy: OccupyShare
    def __init__(self, source: _Optional[int] = ..., target: _Optional[int] = ..., dice: _Optional[int] = ..., until: _Optional[int] = ..., until_target: _Optional[int] = ..., occupy: _Optional[_Union[OccupyShare, _Mapping]] = ...) -> None: ...

class OccupyShare(_message.Message):
    __slots__ = ("numerator", "denominator")
    NUMERATOR_FIELD_NUMBER: _ClassVar[int]
    DENOMINATOR_FIELD_NUMBER: _ClassVar[int]
    numerator: int
    denominator: int
    def __init__(self, numerator: _Optional[int] = ..., denominator: _Optional[int] = ...) -> None: ...

class Defend(_message.Message):
    __slots__ = ("dice",)
    DICE_FIELD_NUMBER: _ClassVar[int]
    dice: int
    def __init__(self, dice: _Optional[int] = ...) -> None: ...

class Occupy(_message.Message):
    __slots__ = ("armies",)
    ARMIES_FIELD_NUMBER: _ClassVar[int]
    armies: int
    def __init__(self, armies: _Optional[int] = ...) -> None: ...

class Move(_message.Message):
    __slots__ = ("source", "target", "armies")
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    TARGET_FIELD_NUMBER: _ClassVar[int]
    ARMIES_FIELD_NUMBER: _ClassVar[int]
    source: int
    target: int
    armies: int
    def __init__(self, source: _Optional[int] = ..., target: _Optional[int] = ..., armies: _Optional[int] = ...) -> None: ...

class Fortify(_message.Message):
    __slots__ = ("source", "target", "armies", "more")
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    TARGET_FIELD_NUMBER: _ClassVar[int]
    ARMIES_FIELD_NUMBER: _ClassVar[int]
    MORE_FIELD_NUMBER: _ClassVar[int]
    source: int
    target: int
    armies: int
    more: _containers.RepeatedCompositeFieldContainer[Move]
    def __init__(self, source: _Optional[int] = ..., target: _Optional[int] = ..., armies: _Optional[int] = ..., more: _Optional[_Iterable[_Union[Move, _Mapping]]] = ...) -> None: ...

class Pass(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class Capital(_message.Message):
    __slots__ = ("territory",)
    TERRITORY_FIELD_NUMBER: _ClassVar[int]
    territory: int
    def __init__(self, territory: _Optional[int] = ...) -> None: ...

class Bribe(_message.Message):
    __slots__ = ("neutral", "cards")
    NEUTRAL_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    neutral: int
    cards: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, neutral: _Optional[int] = ..., cards: _Optional[_Iterable[int]] = ...) -> None: ...

class PlaceNeutral(_message.Message):
    __slots__ = ("placements",)
    PLACEMENTS_FIELD_NUMBER: _ClassVar[int]
    placements: _containers.RepeatedCompositeFieldContainer[Placement]
    def __init__(self, placements: _Optional[_Iterable[_Union[Placement, _Mapping]]] = ...) -> None: ...

class ReinforceAlly(_message.Message):
    __slots__ = ("placements",)
    PLACEMENTS_FIELD_NUMBER: _ClassVar[int]
    placements: _containers.RepeatedCompositeFieldContainer[Placement]
    def __init__(self, placements: _Optional[_Iterable[_Union[Placement, _Mapping]]] = ...) -> None: ...

class FortifyAlly(_message.Message):
    __slots__ = ("moves",)
    MOVES_FIELD_NUMBER: _ClassVar[int]
    moves: _containers.RepeatedCompositeFieldContainer[Move]
    def __init__(self, moves: _Optional[_Iterable[_Union[Move, _Mapping]]] = ...) -> None: ...

class BuildCentre(_message.Message):
    __slots__ = ("territory",)
    TERRITORY_FIELD_NUMBER: _ClassVar[int]
    territory: int
    def __init__(self, territory: _Optional[int] = ...) -> None: ...

class Event(_message.Message):
    __slots__ = ("first_player", "dealt", "claimed", "placed", "turn_started", "reinforced", "traded", "battle", "conquered", "occupied", "eliminated", "fortified", "card_drawn", "deck_reshuffled", "forfeited", "game_over", "neutral_placed", "capital_chosen", "capital_conquered", "bribed", "allegiance_changed", "ally_reinforced", "ally_fortified", "centre_built", "mission_shown")
    FIRST_PLAYER_FIELD_NUMBER: _ClassVar[int]
    DEALT_FIELD_NUMBER: _ClassVar[int]
    CLAIMED_FIELD_NUMBER: _ClassVar[int]
    PLACED_FIELD_NUMBER: _ClassVar[int]
    TURN_STARTED_FIELD_NUMBER: _ClassVar[int]
    REINFORCED_FIELD_NUMBER: _ClassVar[int]
    TRADED_FIELD_NUMBER: _ClassVar[int]
    BATTLE_FIELD_NUMBER: _ClassVar[int]
    CONQUERED_FIELD_NUMBER: _ClassVar[int]
    OCCUPIED_FIELD_NUMBER: _ClassVar[int]
    ELIMINATED_FIELD_NUMBER: _ClassVar[int]
    FORTIFIED_FIELD_NUMBER: _ClassVar[int]
    CARD_DRAWN_FIELD_NUMBER: _ClassVar[int]
    DECK_RESHUFFLED_FIELD_NUMBER: _ClassVar[int]
    FORFEITED_FIELD_NUMBER: _ClassVar[int]
    GAME_OVER_FIELD_NUMBER: _ClassVar[int]
    NEUTRAL_PLACED_FIELD_NUMBER: _ClassVar[int]
    CAPITAL_CHOSEN_FIELD_NUMBER: _ClassVar[int]
    CAPITAL_CONQUERED_FIELD_NUMBER: _ClassVar[int]
    BRIBED_FIELD_NUMBER: _ClassVar[int]
    ALLEGIANCE_CHANGED_FIELD_NUMBER: _ClassVar[int]
    ALLY_REINFORCED_FIELD_NUMBER: _ClassVar[int]
    ALLY_FORTIFIED_FIELD_NUMBER: _ClassVar[int]
    CENTRE_BUILT_FIELD_NUMBER: _ClassVar[int]
    MISSION_SHOWN_FIELD_NUMBER: _ClassVar[int]
    first_player: FirstPlayer
    dealt: Dealt
    claimed: Claimed
    placed: Placed
    turn_started: TurnStarted
    reinforced: Reinforced
    traded: Traded
    battle: Battle
    conquered: Conquered
    occupied: Occupied
    eliminated: Eliminated
    fortified: Fortified
    card_drawn: CardDrawn
    deck_reshuffled: DeckReshuffled
    forfeited: Forfeited
    game_over: GameOver
    neutral_placed: NeutralPlaced
    capital_chosen: CapitalChosen
    capital_conquered: CapitalConquered
    bribed: Bribed
    allegiance_changed: AllegianceChanged
    ally_reinforced: AllyReinforced
    ally_fortified: AllyFortified
    centre_built: CentreBuilt
    mission_shown: MissionShown
    def __init__(self, first_player: _Optional[_Union[FirstPlayer, _Mapping]] = ..., dealt: _Optional[_Union[Dealt, _Mapping]] = ..., claimed: _Optional[_Union[Claimed, _Mapping]] = ..., placed: _Optional[_Union[Placed, _Mapping]] = ..., turn_started: _Optional[_Union[TurnStarted, _Mapping]] = ..., reinforced: _Optional[_Union[Reinforced, _Mapping]] = ..., traded: _Optional[_Union[Traded, _Mapping]] = ..., battle: _Optional[_Union[Battle, _Mapping]] = ..., conquered: _Optional[_Union[Conquered, _Mapping]] = ..., occupied: _Optional[_Union[Occupied, _Mapping]] = ..., eliminated: _Optional[_Union[Eliminated, _Mapping]] = ..., fortified: _Optional[_Union[Fortified, _Mapping]] = ..., card_drawn: _Optional[_Union[CardDrawn, _Mapping]] = ..., deck_reshuffled: _Optional[_Union[DeckReshuffled, _Mapping]] = ..., forfeited: _Optional[_Union[Forfeited, _Mapping]] = ..., game_over: _Optional[_Union[GameOver, _Mapping]] = ..., neutral_placed: _Optional[_Union[NeutralPlaced, _Mapping]] = ..., capital_chosen: _Optional[_Union[CapitalChosen, _Mapping]] = ..., capital_conquered: _Optional[_Union[CapitalConquered, _Mapping]] = ..., bribed: _Optional[_Union[Bribed, _Mapping]] = ..., allegiance_changed: _Optional[_Union[AllegianceChanged, _Mapping]] = ..., ally_reinforced: _Optional[_Union[AllyReinforced, _Mapping]] = ..., ally_fortified: _Optional[_Union[AllyFortified, _Mapping]] = ..., centre_built: _Optional[_Union[CentreBuilt, _Mapping]] = ..., mission_shown: _Optional[_Union[MissionShown, _Mapping]] = ...) -> None: ...

class FirstPlayer(_message.Message):
    __slots__ = ("player", "purpose")
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    PURPOSE_FIELD_NUMBER: _ClassVar[int]
    player: int
    purpose: str
    def __init__(self, player: _Optional[int] = ..., purpose: _Optional[str] = ...) -> None: ...

class Dealt(_message.Message):
    __slots__ = ("player", "territories")
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    TERRITORIES_FIELD_NUMBER: _ClassVar[int]
    player: int
    territories: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, player: _Optional[int] = ..., territories: _Optional[_Iterable[int]] = ...) -> None: ...

class Claimed(_message.Message):
    __slots__ = ("player", "territory")
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    TERRITORY_FIELD_NUMBER: _ClassVar[int]
    player: int
    territory: int
    def __init__(self, player: _Optional[int] = ..., territory: _Optional[int] = ...) -> None: ...

class Placed(_message.Message):
    __slots__ = ("player", "placements")
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    PLACEMENTS_FIELD_NUMBER: _ClassVar[int]
    player: int
    placements: _containers.RepeatedCompositeFieldContainer[Placement]
    def __init__(self, player: _Optional[int] = ..., placements: _Optional[_Iterable[_Union[Placement, _Mapping]]] = ...) -> None: ...

class TurnStarted(_message.Message):
    __slots__ = ("player", "round")
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    ROUND_FIELD_NUMBER: _ClassVar[int]
    player: int
    round: int
    def __init__(self, player: _Optional[int] = ..., round: _Optional[int] = ...) -> None: ...

class Reinforced(_message.Message):
    __slots__ = ("player", "from_territories", "from_continents")
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    FROM_TERRITORIES_FIELD_NUMBER: _ClassVar[int]
    FROM_CONTINENTS_FIELD_NUMBER: _ClassVar[int]
    player: int
    from_territories: int
    from_continents: int
    def __init__(self, player: _Optional[int] = ..., from_territories: _Optional[int] = ..., from_continents: _Optional[int] = ...) -> None: ...

class Traded(_message.Message):
    __slots__ = ("player", "cards", "value", "bonus_territory", "bonus")
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    BONUS_TERRITORY_FIELD_NUMBER: _ClassVar[int]
    BONUS_FIELD_NUMBER: _ClassVar[int]
    player: int
    cards: _containers.RepeatedScalarFieldContainer[int]
    value: int
    bonus_territory: int
    bonus: int
    def __init__(self, player: _Optional[int] = ..., cards: _Optional[_Iterable[int]] = ..., value: _Optional[int] = ..., bonus_territory: _Optional[int] = ..., bonus: _Optional[int] = ...) -> None: ...

class Battle(_message.Message):
    __slots__ = ("attacker", "defender", "source", "target", "attack_dice", "defend_dice", "attacker_losses", "defender_losses")
    ATTACKER_FIELD_NUMBER: _ClassVar[int]
    DEFENDER_FIELD_NUMBER: _ClassVar[int]
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    TARGET_FIELD_NUMBER: _ClassVar[int]
    ATTACK_DICE_FIELD_NUMBER: _ClassVar[int]
    DEFEND_DICE_FIELD_NUMBER: _ClassVar[int]
    ATTACKER_LOSSES_FIELD_NUMBER: _ClassVar[int]
    DEFENDER_LOSSES_FIELD_NUMBER: _ClassVar[int]
    attacker: int
    defender: int
    source: int
    target: int
    attack_dice: _containers.RepeatedScalarFieldContainer[int]
    defend_dice: _containers.RepeatedScalarFieldContainer[int]
    attacker_losses: int
    defender_losses: int
    def __init__(self, attacker: _Optional[int] = ..., defender: _Optional[int] = ..., source: _Optional[int] = ..., target: _Optional[int] = ..., attack_dice: _Optional[_Iterable[int]] = ..., defend_dice: _Optional[_Iterable[int]] = ..., attacker_losses: _Optional[int] = ..., defender_losses: _Optional[int] = ...) -> None: ...

class Conquered(_message.Message):
    __slots__ = ("player", "previous_owner", "source", "territory")
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    PREVIOUS_OWNER_FIELD_NUMBER: _ClassVar[int]
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    TERRITORY_FIELD_NUMBER: _ClassVar[int]
    player: int
    previous_owner: int
    source: int
    territory: int
    def __init__(self, player: _Optional[int] = ..., previous_owner: _Optional[int] = ..., source: _Optional[int] = ..., territory: _Optional[int] = ...) -> None: ...

class Occupied(_message.Message):
    __slots__ = ("player", "source", "territory", "armies")
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    TERRITORY_FIELD_NUMBER: _ClassVar[int]
    ARMIES_FIELD_NUMBER: _ClassVar[int]
    player: int
    source: int
    territory: int
    armies: int
    def __init__(self, player: _Optional[int] = ..., source: _Optional[int] = ..., territory: _Optional[int] = ..., armies: _Optional[int] = ...) -> None: ...

class Eliminated(_message.Message):
    __slots__ = ("player", "by", "cards_taken")
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    BY_FIELD_NUMBER: _ClassVar[int]
    CARDS_TAKEN_FIELD_NUMBER: _ClassVar[int]
    player: int
    by: int
    cards_taken: int
    def __init__(self, player: _Optional[int] = ..., by: _Optional[int] = ..., cards_taken: _Optional[int] = ...) -> None: ...

class Fortified(_message.Message):
    __slots__ = ("player", "source", "target", "armies")
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    TARGET_FIELD_NUMBER: _ClassVar[int]
    ARMIES_FIELD_NUMBER: _ClassVar[int]
    player: int
    source: int
    target: int
    armies: int
    def __init__(self, player: _Optional[int] = ..., source: _Optional[int] = ..., target: _Optional[int] = ..., armies: _Optional[int] = ...) -> None: ...

class CardDrawn(_message.Message):
    __slots__ = ("player", "card")
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    player: int
    card: int
    def __init__(self, player: _Optional[int] = ..., card: _Optional[int] = ...) -> None: ...

class DeckReshuffled(_message.Message):
    __slots__ = ("cards",)
    CARDS_FIELD_NUMBER: _ClassVar[int]
    cards: int
    def __init__(self, cards: _Optional[int] = ...) -> None: ...

class Forfeited(_message.Message):
    __slots__ = ("player", "reason")
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    player: int
    reason: str
    def __init__(self, player: _Optional[int] = ..., reason: _Optional[str] = ...) -> None: ...

class GameOver(_message.Message):
    __slots__ = ("places", "reason")
    PLACES_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    places: _containers.RepeatedScalarFieldContainer[int]
    reason: str
    def __init__(self, places: _Optional[_Iterable[int]] = ..., reason: _Optional[str] = ...) -> None: ...

class NeutralPlaced(_message.Message):
    __slots__ = ("player", "neutral", "placements")
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    NEUTRAL_FIELD_NUMBER: _ClassVar[int]
    PLACEMENTS_FIELD_NUMBER: _ClassVar[int]
    player: int
    neutral: int
    placements: _containers.RepeatedCompositeFieldContainer[Placement]
    def __init__(self, player: _Optional[int] = ..., neutral: _Optional[int] = ..., placements: _Optional[_Iterable[_Union[Placement, _Mapping]]] = ...) -> None: ...

class CapitalChosen(_message.Message):
    __slots__ = ("player", "territory")
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    TERRITORY_FIELD_NUMBER: _ClassVar[int]
    player: int
    territory: int
    def __init__(self, player: _Optional[int] = ..., territory: _Optional[int] = ...) -> None: ...

class CapitalConquered(_message.Message):
    __slots__ = ("player", "previous_owner", "territory", "cards_taken", "replaced", "armies_removed")
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    PREVIOUS_OWNER_FIELD_NUMBER: _ClassVar[int]
    TERRITORY_FIELD_NUMBER: _ClassVar[int]
    CARDS_TAKEN_FIELD_NUMBER: _ClassVar[int]
    REPLACED_FIELD_NUMBER: _ClassVar[int]
    ARMIES_REMOVED_FIELD_NUMBER: _ClassVar[int]
    player: int
    previous_owner: int
    territory: int
    cards_taken: int
    replaced: _containers.RepeatedScalarFieldContainer[int]
    armies_removed: int
    def __init__(self, player: _Optional[int] = ..., previous_owner: _Optional[int] = ..., territory: _Optional[int] = ..., cards_taken: _Optional[int] = ..., replaced: _Optional[_Iterable[int]] = ..., armies_removed: _Optional[int] = ...) -> None: ...

class Bribed(_message.Message):
    __slots__ = ("player", "neutral", "cards")
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    NEUTRAL_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    player: int
    neutral: int
    cards: int
    def __init__(self, player: _Optional[int] = ..., neutral: _Optional[int] = ..., cards: _Optional[int] = ...) -> None: ...

class AllegianceChanged(_message.Message):
    __slots__ = ("neutral", "ally_of", "roll")
    NEUTRAL_FIELD_NUMBER: _ClassVar[int]
    ALLY_OF_FIELD_NUMBER: _ClassVar[int]
    ROLL_FIELD_NUMBER: _ClassVar[int]
    neutral: int
    ally_of: int
    roll: int
    def __init__(self, neutral: _Optional[int] = ..., ally_of: _Optional[int] = ..., roll: _Optional[int] = ...) -> None: ...

class AllyReinforced(_message.Message):
    __slots__ = ("player", "ally", "roll", "placements")
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    ALLY_FIELD_NUMBER: _ClassVar[int]
    ROLL_FIELD_NUMBER: _ClassVar[int]
    PLACEMENTS_FIELD_NUMBER: _ClassVar[int]
    player: int
    ally: int
    roll: int
    placements: _containers.RepeatedCompositeFieldContainer[Placement]
    def __init__(self, player: _Optional[int] = ..., ally: _Optional[int] = ..., roll: _Optional[int] = ..., placements: _Optional[_Iterable[_Union[Placement, _Mapping]]] = ...) -> None: ...

class AllyFortified(_message.Message):
    __slots__ = ("player", "ally", "moves")
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    ALLY_FIELD_NUMBER: _ClassVar[int]
    MOVES_FIELD_NUMBER: _ClassVar[int]
    player: int
    ally: int
    moves: _containers.RepeatedCompositeFieldContainer[Move]
    def __init__(self, player: _Optional[int] = ..., ally: _Optional[int] = ..., moves: _Optional[_Iterable[_Union[Move, _Mapping]]] = ...) -> None: ...

class CentreBuilt(_message.Message):
    __slots__ = ("player", "territory", "cost")
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    TERRITORY_FIELD_NUMBER: _ClassVar[int]
    COST_FIELD_NUMBER: _ClassVar[int]
    player: int
    territory: int
    cost: int
    def __init__(self, player: _Optional[int] = ..., territory: _Optional[int] = ..., cost: _Optional[int] = ...) -> None: ...

class MissionShown(_message.Message):
    __slots__ = ("player", "mission", "completed")
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    MISSION_FIELD_NUMBER: _ClassVar[int]
    COMPLETED_FIELD_NUMBER: _ClassVar[int]
    player: int
    mission: int
    completed: bool
    def __init__(self, player: _Optional[int] = ..., mission: _Optional[int] = ..., completed: _Optional[bool] = ...) -> None: ...

class EndGameRequest(_message.Message):
    __slots__ = ("game_id", "places", "reason")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    PLACES_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    places: _containers.RepeatedScalarFieldContainer[int]
    reason: str
    def __init__(self, game_id: _Optional[str] = ..., places: _Optional[_Iterable[int]] = ..., reason: _Optional[str] = ...) -> None: ...

class EndGameReply(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...
