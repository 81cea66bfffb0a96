"""The legal answers of a pending decision as the protocol's ``LegalAnswers`` (sent to a bot
that asked for them in its Hello).

Everything is read off :func:`hegemon.referee.legal.actions`, the engine's own list of the
answers it accepts, so what a bot is told is exactly what the referee will take."""

from __future__ import annotations

from hegemon.referee.actions import Attack, Fortify, FortifyAlly, Pass, Place, ReinforceAlly, Trade
from hegemon.referee.decisions import Decision, Kinds
from hegemon.referee.legal import actions, own_territories
from hegemon.referee.view import View

from . import bot_pb2 as pb


def legal_answers(view: View, decision: Decision) -> pb.LegalAnswers:
    """The legal answers of ``decision`` in ``view`` (the deciding seat's own view)."""
    out = pb.LegalAnswers()
    dice: dict[tuple[int, int], list[int]] = {}  # (source, target): [least, most]
    moves: dict[tuple[int, int], int] = {}
    sets: list[list[int]] = []
    places: set[int] = set()
    # attacks first: an ATTACK decision lists one per (source, target, dice), most of all
    for action in actions(view, decision, view.hand, every_amount=False):
        kind = type(action)
        if kind is Attack:
            assert isinstance(action, Attack)
            key = (action.source, action.target)
            rolled = action.dice
            least_most = dice.get(key)
            if least_most is None:
                dice[key] = [rolled, rolled]
            elif rolled < least_most[0]:
                least_most[0] = rolled
            elif rolled > least_most[1]:
                least_most[1] = rolled
        elif kind is Pass:
            out.pass_allowed = True
        elif kind is Trade:
            sets.append(sorted(action.cards))  # type: ignore[union-attr]
        elif kind is Fortify or kind is FortifyAlly:
            assert isinstance(action, (Fortify, FortifyAlly))
            key = (action.source, action.target)
            moves[key] = max(moves.get(key, 0), action.armies)
        elif kind is Place or kind is ReinforceAlly:
            assert isinstance(action, (Place, ReinforceAlly))
            places.update(t for t, _ in action.placements)
    if decision.kind is Kinds.PLACE_NEUTRAL:  # the engine lists canonical splits only
        places = {t for s in decision.seats for t in own_territories(view, s)}
    for cards in sorted(sets):
        out.sets.add(cards=cards)
    add_attack = out.attacks.add
    for (s, t), (lo, hi) in dice.items():
        add_attack(source=s, target=t, least_dice=lo, most_dice=hi)
    add_move = out.moves.add
    for (s, t), n in moves.items():
        add_move(source=s, target=t, most_armies=n)
    out.territories.extend(sorted(places))
    return out
