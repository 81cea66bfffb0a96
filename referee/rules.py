"""Rule sets: named presets of named options (docs/rules.md §6), each option overridable by name.

>>> rules = make_rules("classic", {"fortify": "connected"})
>>> rules.fortify, rules.card_values
('connected', 'escalating')
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields, replace
from typing import Any

from .board import MapError
from .compose import EXAMPLE, PREFIX, map_board


class RulesError(ValueError):
    """An unknown preset, option or value; the message lists what is allowed."""


@dataclass(frozen=True, slots=True)
class Option:
    name: str
    choices: tuple[str, ...] | None  # None: a whole number within [low, high]
    help: str
    low: int = 0
    high: int = 0
    prefix: str = ""  # a text option: any value starting with it is allowed too

    def parse(self, raw: Any) -> str | int:
        if self.choices is None:
            try:
                value = int(raw)
                if isinstance(raw, bool) or (isinstance(raw, float) and raw != value):
                    raise ValueError
            except (TypeError, ValueError, OverflowError):
                raise RulesError(
                    f"option {self.name}: {raw!r} is not a whole number "
                    f"(allowed: {self.low}..{self.high})"
                ) from None
            if not self.low <= value <= self.high:
                raise RulesError(
                    f"option {self.name}: {value} is out of range "
                    f"(allowed: {self.low}..{self.high})"
                )
            return value
        text = str(raw)
        if self.prefix and text.startswith(self.prefix):
            return text
        if text not in self.choices:
            raise RulesError(
                f"option {self.name}: {raw!r} is not allowed (allowed: {', '.join(self.choices)})"
            )
        return text

    def allowed(self) -> str:
        if self.choices is None:
            return f"{self.low}..{self.high}"
        return ", ".join(self.choices) + (f", {self.prefix}…" if self.prefix else "")


OPTIONS: dict[str, Option] = {
    o.name: o
    for o in (
        Option(
            "map",
            ("classic",),
            "the board: a built-in map, or a Risiko! Master world 'tiles:A,B,C/D,E,F'",
            prefix="tiles:",
        ),
        Option(
            "setup",
            ("claim", "deal", "quadrants"),
            "claim territories in turn, deal the territory cards, or (Risiko! Master) claim "
            "with 2 armies each, in the same quadrant until it is full",
        ),
        Option(
            "first_player",
            ("first_placer", "reroll", "random"),
            "who plays first: whoever placed first, a new roll, or left of a random dealer",
        ),
        Option(
            "card_values",
            ("escalating", "golden_cavalry", "insignia", "master"),
            "value of a traded set: 4,6,8,10,12,15,+5 | the golden cavalry track | by insignia"
            " | Risiko! Master: 3 equal 8, 3 different 10, wild + 2 equal 12 (no other set),"
            " + cards' extras",
        ),
        Option(
            "card_territory_bonus",
            ("off", "per_set", "per_turn"),
            "+2 armies on an own territory shown on a traded card: "
            "never | per set | at most 2 a turn",
        ),
        Option(
            "traded_cards",
            ("bottom", "discard"),
            "traded cards go under the deck, "
            "or to a discard pile reshuffled when the deck runs out",
        ),
        Option(
            "must_trade_at",
            None,
            "cards held at the start of a turn that force a trade (0: never, Risiko! Master)",
            0,
            10,
        ),
        Option(
            "defender_dice",
            ("choice", "max"),
            "the defender chooses its dice, or always rolls the most",
        ),
        Option("defender_two_dice_from", None, "armies a defender needs to roll two dice", 2, 3),
        Option(
            "elimination_trade",
            ("immediate", "next_turn"),
            "after taking an eliminated player's cards: "
            "trade at once, or at the next reinforcement",
        ),
        Option(
            "elimination_trade_at",
            None,
            "cards that force an immediate trade after an elimination",
            5,
            6,
        ),
        Option(
            "fortify",
            ("adjacent", "connected", "many_into_one"),
            "fortify to a neighbour, along a chain of own territories, or into one territory "
            "from any of its own neighbours (Risiko! Master Expert)",
        ),
        Option(
            "forced_trade",
            ("one_set", "every_set"),
            "a forced trade obliges one set (000, 001, 004), "
            "or every set held while the hand is still full (002: 'and the second, if complete')",
        ),
        Option(
            "missions",
            ("none", "2000", "2004"),
            "secret missions: none | the 14 cards of 2000 (001) | 4 ranks of 2004 (000)",
        ),
        Option(
            "destroyed_by_other",
            ("fallback_24", "completed"),
            "'destroy colour X' when someone else destroys X: occupy 24 instead "
            "(card text) | counts as completed (US and German rules)",
        ),
        Option("capitals", ("off", "on"), "capital Risk (001 advanced): secret capitals"),
        Option(
            "two_player",
            ("off", "2000", "classic", "2004_passive", "2004_active"),
            "two players and neutral armies (docs/rules.md §5): off | one neutral of 28 (001) | "
            "one neutral of 40 (002) | four passive neutrals of 24 (000) | four active ones",
        ),
        # Risiko! Master (docs/rules.md §7, seed 003)
        Option(
            "reinforcement_minimum",
            ("three", "none", "expert"),
            "armies due for territories: at least 3 | none under 3 territories (Master Base) "
            "| at least 3, or 2 with 2, 1 with 1 (Master Expert)",
        ),
        Option("defender_most_dice", None, "most dice a defender rolls (3 in Risiko!)", 2, 3),
        Option(
            "attacker_dice",
            ("any", "at_least_defender"),
            "the attacker may never roll fewer dice than the defender will (Master Expert)",
        ),
        Option(
            "must_attack_after",
            None,
            "whoever placed at least this many armies must attack once that turn (0: never)",
            0,
            1000,
        ),
        Option(
            "garrison",
            None,
            "armies a move must leave on a territory bordering an enemy (Master Expert: 3)",
            1,
            3,
        ),
        Option(
            "eliminate_from_round", None, "no player can be eliminated before this round", 0, 100
        ),
        Option(
            "victory",
            ("conquest", "half_territories", "values"),
            "win by: world conquest | half the territories (Master Base) | territory values "
            "of floor(total/2 + 1) (Master Expert)",
        ),
        Option("victory_quadrants", None, "whole quadrants a points victory needs", 0, 6),
        Option(
            "centre_production",
            None,
            "production centres (Master): 0 off; else armies each centre adds to its owner's "
            "reinforcements (hegemon's rule: the rulebook does not say)",
            0,
            5,
        ),
        Option(
            "teams",
            ("off", "on"),
            "team Risk (000): two teams in alternating seats sharing territories",
        ),
        Option(
            "turn_limit",
            None,
            "end the game after this many rounds (0: none set, and hegemon plays the game with "
            "its default round limit: docs/rules.md §6)",
            0,
            100_000,
        ),
    )
}


@dataclass(frozen=True, slots=True)
class RuleSet:
    """The complete, validated options of one game. Build with :func:`make_rules`."""

    preset: str
    map: str
    setup: str
    first_player: str
    card_values: str
    card_territory_bonus: str
    traded_cards: str
    must_trade_at: int
    defender_dice: str
    defender_two_dice_from: int
    elimination_trade: str
    elimination_trade_at: int
    fortify: str
    forced_trade: str
    missions: str
    destroyed_by_other: str
    capitals: str
    turn_limit: int
    two_player: str = "off"
    reinforcement_minimum: str = "three"
    defender_most_dice: int = 2
    attacker_dice: str = "any"
    must_attack_after: int = 0
    garrison: int = 1
    eliminate_from_round: int = 0
    victory: str = "conquest"
    victory_quadrants: int = 0
    centre_production: int = 0
    teams: str = "off"

    def options(self) -> dict[str, Any]:
        """Every option and its value (the preset name excluded)."""
        data = asdict(self)
        del data["preset"]
        return data

    def to_dict(self) -> dict[str, Any]:
        """Every option, as a game record's header holds it: an option added for the later
        editions is left out while the preset has it off (the classic presets' records stay
        byte-identical to those written before it existed; :func:`rules_from_dict` restores
        it from the preset)."""
        data = asdict(self)
        base = PRESETS[self.preset]
        for name, off in _LATER_OPTIONS.items():
            if data[name] == off == base[name]:
                del data[name]
        return data

    def overridden(self) -> dict[str, Any]:
        """The options that differ from the preset's own values."""
        base = PRESETS[self.preset]
        return {k: v for k, v in self.options().items() if base[k] != v}


# Risiko! Master options (docs/rules.md §7) and their value in the other editions.
_MASTER_OFF: dict[str, Any] = {
    "reinforcement_minimum": "three",
    "defender_most_dice": 2,
    "attacker_dice": "any",
    "must_attack_after": 0,
    "garrison": 1,
    "eliminate_from_round": 0,
    "victory": "conquest",
    "victory_quadrants": 0,
    "centre_production": 0,
}

# Options of the later editions (issue 11), and their value when the edition is not played.
_LATER_OPTIONS: dict[str, Any] = {
    "forced_trade": "one_set",
    "missions": "none",
    "destroyed_by_other": "fallback_24",
    "capitals": "off",
    "two_player": "off",
    **_MASTER_OFF,
    "teams": "off",
}

_CLASSIC = {
    "map": "classic",
    "setup": "claim",
    "first_player": "first_placer",
    "card_values": "escalating",
    "card_territory_bonus": "per_turn",
    "traded_cards": "discard",
    "must_trade_at": 5,
    "defender_dice": "choice",
    "defender_two_dice_from": 2,
    "elimination_trade": "immediate",
    "elimination_trade_at": 6,
    "fortify": "adjacent",
    "forced_trade": "one_set",
    "missions": "none",
    "destroyed_by_other": "fallback_24",
    "capitals": "off",
    "turn_limit": 0,
    "two_player": "off",
    **_MASTER_OFF,
    "teams": "off",
}

PRESETS: dict[str, dict[str, Any]] = {
    "classic": dict(_CLASSIC),
    "classic-2004": {
        **_CLASSIC,
        "first_player": "reroll",
        "card_values": "golden_cavalry",
        "card_territory_bonus": "off",
        "elimination_trade_at": 5,
        "fortify": "connected",
    },
    "classic-2000": {
        **_CLASSIC,
        "setup": "deal",
        "first_player": "random",
        "card_territory_bonus": "per_set",
        "traded_cards": "bottom",
        "defender_two_dice_from": 3,
        "elimination_trade": "next_turn",
        "elimination_trade_at": 5,
    },
}
# The editions with a secret objective (docs/rules.md §2–§3, §6).
PRESETS["mission-2000"] = {
    **PRESETS["classic-2000"],
    "card_values": "insignia",
    "missions": "2000",
}
PRESETS["capital-2000"] = {**PRESETS["classic-2000"], "capitals": "on"}
PRESETS["mission-2004"] = {
    **PRESETS["classic-2004"],
    "card_values": "insignia",
    "missions": "2004",
}
# Team Risk (docs/rules.md §4, seed 000 "JOUKKUE"): the 2004 board with insignia values.
PRESETS["team-2004"] = {**PRESETS["classic-2004"], "card_values": "insignia", "teams": "on"}

# The two-player editions (docs/rules.md §5): each on its edition's core rules.
PRESETS["two-player-2000"] = {
    **PRESETS["classic-2000"],
    "card_values": "insignia",  # 001's basic game, of which the two-player game is part
    "two_player": "2000",
}
# Capital Risk for two (seed 001: the advanced rules "gjelder for både 2 spillere og fra 3-6
# spillere", 2 capitals for 2-3 players): the two-player game, with its neutral army, plus capitals.
PRESETS["two-player-capital-2000"] = {**PRESETS["two-player-2000"], "capitals": "on"}
PRESETS["two-player-classic"] = {**PRESETS["classic"], "two_player": "classic"}
PRESETS["two-player-2004-passive"] = {**PRESETS["classic-2004"], "two_player": "2004_passive"}
PRESETS["two-player-2004-active"] = {**PRESETS["classic-2004"], "two_player": "2004_active"}
# Risiko! Master (seed 003, docs/rules.md §7). The default map is the rulebook's victory example
# (Alfa, Delta, Omega, Tau, Epsilon, Sigma: 175 points, 60 territories, so 3 to 6 players).
PRESETS["risiko-master-base"] = {
    **_CLASSIC,
    "map": EXAMPLE,
    "setup": "quadrants",
    "first_player": "first_placer",
    "card_values": "master",
    "card_territory_bonus": "off",
    # seed 003 "TRIS DI CARTE": the player "può giocare uno o più tris" — may, never must: no
    # hand limit; and cards "possono essere utilizzate solo all'inizio del turno, nella fase dei
    # rinforzi" — so no trade in mid-turn after an elimination either
    "must_trade_at": 0,
    "elimination_trade": "next_turn",
    "defender_most_dice": 3,
    "defender_two_dice_from": 2,
    "reinforcement_minimum": "none",
    "victory": "half_territories",
    "victory_quadrants": 2,
}
PRESETS["risiko-master-expert"] = {
    **PRESETS["risiko-master-base"],
    "reinforcement_minimum": "expert",
    "defender_dice": "max",
    "attacker_dice": "at_least_defender",
    "must_attack_after": 3,
    "garrison": 3,
    "eliminate_from_round": 5,
    "elimination_trade": "next_turn",
    "fortify": "many_into_one",
    "victory": "values",
}
PRESETS["risiko-master-master"] = {
    **PRESETS["risiko-master-expert"],
    "centre_production": 1,
}

PRESET_HELP = {
    "classic": "world domination as in the Estonian and Romanian (US-style) rules",
    "classic-2004": "world domination, 2004 Finnish edition: golden cavalry, connected fortify",
    "classic-2000": "world domination, 2000 Norwegian edition 'advanced': dealt territories",
    "mission-2000": "secret missions, 2000 Norwegian edition (its default game): one of 14 "
    "missions each, won on the holder's own turn",
    "capital-2000": "capital Risk, 2000 Norwegian edition 'advanced': secret capitals; hold "
    "2 (2-3 players), 3 (4-5) or 4 (6) with your own",
    "mission-2004": "secret missions, 2004 Finnish edition: four missions each (captain, major, "
    "colonel, general; hegemon's own texts), one declared a turn",
    "two-player-2000": "two players and a neutral of 28 armies, 2000 Norwegian edition: the "
    "neutral gets half of each player's reinforcements, placed by the other player",
    "two-player-capital-2000": "capital Risk for two, 2000 Norwegian edition: two-player-2000 "
    "(a neutral of 28) with secret capitals; hold 2 capitals, your own included, to win",
    "two-player-classic": "two players and a neutral of 40 armies (Estonian rules): the "
    "neutral only defends, its dice rolled by the other player; hold all 42 territories to win",
    "two-player-2004-passive": "two players and four passive neutrals of 24, 2004 Finnish "
    "edition: they only defend, the other player rolling for them",
    "two-player-2004-active": "two players and four active neutrals, 2004 Finnish edition: "
    "bribes, alliance tracks, allies that attack and fortify",
    "risiko-master-base": "Risiko! Master, Base level: a world of 6 tiles, claimed by twos; "
    "44 special cards, sets 8/10/12 traded only while reinforcing, never forced; "
    "half the territories and 2 whole quadrants win",
    "risiko-master-expert": "Risiko! Master, Expert level: 3 defender dice always, compulsory "
    "attack, 3-army garrisons; half the territory values and 2 whole quadrants win",
    "risiko-master-master": "Risiko! Master, Master level: Expert plus production centres "
    "(3 armies each, at most 15; each adds 1 army to its owner's reinforcements)",
    "team-2004": "team Risk, 2004 Finnish edition: two teams of 2-3 in alternating seats "
    "share territories; the first team to destroy one opponent wins",
}


def make_rules(preset: str = "classic", overrides: Mapping[str, Any] | None = None) -> RuleSet:
    """The rule set of ``preset`` with single options overridden by name.

    Raises :class:`RulesError` naming the allowed presets, options or values.
    """
    if preset not in PRESETS:
        raise RulesError(f"unknown rule set '{preset}' (available: {', '.join(PRESETS)})")
    values = dict(PRESETS[preset])
    for name, raw in (overrides or {}).items():
        option = OPTIONS.get(name)
        if option is None:
            raise RulesError(f"unknown option '{name}' (options: {', '.join(OPTIONS)})")
        values[name] = option.parse(raw)
    if str(values["map"]).startswith(PREFIX):
        try:
            map_board(values["map"])  # composed once, then cached
        except MapError as exc:
            raise RulesError(f"option map: {exc}") from None
    return RuleSet(preset=preset, **values)


def rules_from_dict(data: Mapping[str, Any]) -> RuleSet:
    """Rebuild a rule set from :meth:`RuleSet.to_dict` output (e.g. a game record)."""
    if not isinstance(data, Mapping) or "preset" not in data:
        raise RulesError("a rule set needs its 'preset'")
    known = {f.name for f in fields(RuleSet)} - {"preset"}
    return make_rules(data["preset"], {k: v for k, v in data.items() if k in known})


def parse_overrides(pairs: list[str]) -> dict[str, str]:
    """Parse ``NAME=VALUE`` strings from a command line."""
    result: dict[str, str] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name:
            raise RulesError(f"option {pair!r} must look like NAME=VALUE")
        result[name.strip()] = value.strip()
    return result


def with_options(rules: RuleSet, **overrides: Any) -> RuleSet:
    """A copy of ``rules`` with options replaced (validated)."""
    for name, raw in overrides.items():
        if name not in OPTIONS:
            raise RulesError(f"unknown option '{name}' (options: {', '.join(OPTIONS)})")
        overrides[name] = OPTIONS[name].parse(raw)
    return replace(rules, **overrides)
