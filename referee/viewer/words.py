"""A game's events (and actions) in words, for the terminal (``hegemon replay``, via
:mod:`hegemon.leaderboard.cli.progress`) and the web replay (:mod:`hegemon.referee.viewer.replay`)
alike: :class:`EventWords`."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from hegemon.referee.bottext import terminal_text

if TYPE_CHECKING:
    from hegemon.referee.board import Board

__all__ = ["EventWords"]


class EventWords:
    """A game's events and actions in words, its seats and territories by name.

    ``territory`` names a territory by index; ``card`` a card by index (the board's labels).
    :meth:`event` is one event as a sentence (the web replay's log), :meth:`turn` a turn's
    notable events as short phrases (``hegemon replay``), :meth:`action` a decision."""

    def __init__(
        self,
        seats: list[str],
        territory: Callable[[int], str],
        card: Callable[[int], str] | None = None,
    ):
        self.seats = seats
        self.territory = territory
        self.card_label = card or (lambda c: f"card {c}")

    @classmethod
    def of(cls, board: Board, seats: list[str]) -> EventWords:
        """The words of a game on ``board``."""
        return cls(seats, board.name_of, board.card_label)

    def t(self, territory: int) -> str:
        return self.territory(territory) if territory >= 0 else "-"

    def s(self, seat: int) -> str:
        return self.seats[seat] if 0 <= seat < len(self.seats) else f"seat {seat}"

    def card(self, card: int) -> str:
        return "a card" if card < 0 else self.card_label(card)

    def event(self, e: dict[str, Any]) -> str:
        k = e["event"]
        s, t = self.s, self.t
        if k == "first_player":
            return f"{s(e['player'])} won the roll to {e['purpose']} first"
        if k == "dealt":
            return f"{s(e['player'])} was dealt {len(e['territories'])} territories"
        if k == "claimed":
            return f"{s(e['player'])} claimed {t(e['territory'])}"
        if k == "placed":
            where = ", ".join(f"{n} on {t(x)}" for x, n in e["placements"])
            return f"{s(e['player'])} placed {where}"
        if k == "turn_started":
            return f"round {e['round']}: {s(e['player'])}'s turn"
        if k == "reinforced":
            return (
                f"{s(e['player'])} gets {e['from_territories'] + e['from_continents']} armies "
                f"({e['from_territories']} for territories, {e['from_continents']} for continents)"
            )
        if k == "traded":
            cards = ", ".join(self.card(c) for c in e["cards"])
            bonus = f", +{e['bonus']} on {t(e['bonus_territory'])}" if e["bonus"] else ""
            return f"{s(e['player'])} traded {cards} for {e['value']} armies{bonus}"
        if k == "battle":
            return (
                f"{t(e['source'])} attacks {t(e['target'])}: "
                f"attack {'-'.join(map(str, e['attack_dice']))} vs defence "
                f"{'-'.join(map(str, e['defend_dice']))} → attacker loses "
                f"{e['attacker_losses']}, defender loses {e['defender_losses']}"
            )
        if k == "conquered":
            return f"{s(e['player'])} conquered {t(e['territory'])} from {s(e['previous_owner'])}"
        if k == "occupied":
            return f"{s(e['player'])} moved {e['armies']} into {t(e['territory'])}"
        if k == "eliminated":
            return (
                f"{s(e['player'])} was eliminated by {s(e['by'])} ({e['cards_taken']} cards taken)"
            )
        if k == "fortified":
            return (
                f"{s(e['player'])} fortified {t(e['target'])} "
                f"with {e['armies']} from {t(e['source'])}"
            )
        if k == "card_drawn":
            return f"{s(e['player'])} drew {self.card(e['card'])}"
        if k == "deck_reshuffled":
            return f"the deck was reshuffled ({e['cards']} cards)"
        if k == "forfeited":
            return f"{s(e['player'])} forfeited: {e['reason']}"
        if k == "game_over":
            order = sorted(range(len(e["places"])), key=lambda p: e["places"][p])
            return (
                "game over ("
                + str(e["reason"])
                + "): "
                + ", ".join(f"{e['places'][p]}. {s(p)}" for p in order)
            )
        return json.dumps(e)

    def action(self, a: list[Any]) -> str:
        k, t = a[0], self.t
        if k == "claim":
            return f"claim {t(a[1])}"
        if k == "place":
            return "place " + ", ".join(f"{n} on {t(x)}" for x, n in a[1])
        if k == "trade":
            return "trade " + ", ".join(self.card(c) for c in a[1])
        if k == "attack":
            return f"attack {t(a[2])} from {t(a[1])} with {a[3]} dice"
        if k == "defend":
            return f"defend with {a[1]} dice"
        if k == "occupy":
            return f"occupy with {a[1]}"
        if k == "fortify":
            return f"fortify {t(a[2])} with {a[3]} from {t(a[1])}"
        if k == "capital":
            return f"capital {t(a[1])}"
        if k == "pass":
            return "pass"
        if k == "forfeit":
            return f"referee: forfeit {self.s(a[1])}"
        return json.dumps(a)

    def turn(self, events: list[dict[str, Any]]) -> list[str]:
        """One phrase per notable event of a turn (its battles counted in one), rich markup
        for emphasis; the turn's player is the subject the phrases leave out."""
        name, territory = self.s, self.t
        lines = []
        battles = 0
        for e in events:
            kind = e["event"]
            if kind == "battle":
                battles += 1
            elif kind == "reinforced":
                lines.append(
                    f"receives {e['from_territories']} + {e['from_continents']} (continents)"
                )
            elif kind == "traded":
                lines.append(
                    f"trades a set for {e['value']}"
                    + (
                        f" (+{e['bonus']} on {territory(e['bonus_territory'])})"
                        if e["bonus"]
                        else ""
                    )
                )
            elif kind == "conquered":
                lines.append(
                    f"conquers {territory(e['territory'])} from {name(e['previous_owner'])}"
                )
            elif kind == "eliminated":
                lines.append(
                    f"[bold]eliminates {name(e['player'])}[/] and takes {e['cards_taken']} cards"
                )
            elif kind == "fortified":
                source, target = territory(e["source"]), territory(e["target"])
                lines.append(f"fortifies {target} with {e['armies']} from {source}")
            elif kind == "capital_chosen":  # the full record: replays come after the game
                lines.append(f"{name(e['player'])} chooses {territory(e['territory'])} as capital")
            elif kind == "capital_conquered":
                lines.append(
                    f"[bold]captures {name(e['previous_owner'])}'s capital "
                    f"{territory(e['territory'])}[/] and takes {e['cards_taken']} cards"
                )
            elif kind == "mission_shown":
                done = "completes" if e["completed"] else "shows"
                lines.append(f"{name(e['player'])} {done} mission {e['mission']}")
            elif kind == "forfeited":
                lines.append(f"[red]{name(e['player'])} forfeits: {terminal_text(e['reason'])}[/]")
            elif kind == "game_over":
                lines.append(f"[bold]game over ({e['reason']})[/]")
        if battles:
            lines.insert(1 if lines else 0, f"fights {battles} battle(s)")
        return lines
