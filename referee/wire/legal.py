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
    dice: dict[tuple[int, int], list[int]] = {}
    moves: dict[tuple[int, int], int] = {}
    sets: list[list[int]] = []
    places: set[int] = set()
    for action in actions(view, decision, view.hand, every_amount=False):
        kind = type(action)
        if kind is Pass:
            out.pass_allowed = True
        elif kind is Trade:
            sets.append(sorted(action.cards))  # type: ignore[union-attr]
        elif kind is Attack:
            assert isinstance(action, Attack)
            least_most = dice.setdefault((action.source, action.target), [action.dice] * 2)
            least_most[0] = min(least_most[0], action.dice)
            least_most[1] = max(least_most[1], action.dice)
        elif kind in (Fortify, FortifyAlly):
            assert isinstance(action, (Fortify, FortifyAlly))
            key = (action.source, action.target)
            moves[key] = max(moves.get(key, 0), action.armies)
        elif kind in (Place, ReinforceAlly):
            assert isinstance(action, (Place, ReinforceAlly))
            places.update(t for t, _ in action.placements)
    if decision.kind is Kinds.PLACE_NEUTRAL:  # the engine lists canonical splits only
        places = {t for s in decision.seats for t in own_territories(view, s)}
    out.sets.extend(pb.CardSet(cards=c) for c in sorted(sets))
    out.attacks.extend(
        pb.AttackOption(source=s, target=t, least_dice=lo, most_dice=hi)
        for (s, t), (lo, hi) in dice.items()
    )
    out.moves.extend(
        pb.MoveOption(source=s, target=t, most_armies=n) for (s, t), n in moves.items()
    )
    out.territories.extend(sorted(places))
    return out
