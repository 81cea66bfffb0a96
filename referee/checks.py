"""The classic actions' checks (docs/rules.md §1): each reads an action against the pending
decision and the position, and returns what :class:`hegemon.referee.game.Game` applies, or
raises :class:`hegemon.referee.errors.IllegalAction` saying what is wrong, with nothing
changed. They use only the game's public API, as the edition parts do.
"""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING

from . import cards as cardlib
from . import master as masterlib
from . import teams as teamlib
from .actions import Attack, Claim, Fortify, Place, Trade
from .decisions import Decision, Kinds
from .errors import IllegalAction
from .formulas import attack_dice, movable_armies

if TYPE_CHECKING:
    from .game import Game


def claim(game: Game, action: Claim) -> tuple[Decision, int]:
    """(the decision, the territory claimed)."""
    d = game.expect(Kinds.CLAIM, "claim")
    t = game.territory(action.territory, "claim:")
    if game.owner[t] >= 0:
        raise IllegalAction(f"claim: {game.board.name_of(t)} is already taken")
    if t not in d.territories:  # Risiko! Master: the quadrant being claimed comes first
        raise IllegalAction(f"claim: {game.board.name_of(t)} is not in the quadrant to fill")
    return d, t


def place(game: Game, action: Place) -> Decision:
    """The decision, once every (territory, armies) pair is the placer's and they add up."""
    d = game.expect(Kinds.PLACE, "place")
    board, placements = game.board, action.placements
    if not placements or len(placements) > board.size:
        raise IllegalAction(f"place: give one to {board.size} (territory, armies) pairs")
    total = 0
    owner = game.owner
    teams = game.rules.teams == "on"
    for pair in placements:
        t, n = pair
        t = game.territory(t, "place:")
        if owner[t] != d.player and not teams:
            raise IllegalAction(f"place: {board.name_of(t)} is not yours")
        if n <= 0:
            raise IllegalAction(f"place: {n!r} armies on {board.name_of(t)} must be at least 1")
        total += n
    if total != d.armies:
        raise IllegalAction(f"place: placed {total} armies, must place exactly {d.armies}")
    why = teamlib.place_error(game, d.player, placements) if teams else ""
    if why:
        raise IllegalAction(why)
    return d


def trade(game: Game, action: Trade) -> tuple[Decision, tuple[int, ...], list[str], list[int]]:
    """(the decision, the three cards, their insignia, the own territories the traded cards
    show)."""
    d = game.expect(Kinds.TRADE, "trade")
    chosen = action.cards
    if len(set(chosen)) != 3:
        raise IllegalAction("trade: the three cards must be different")
    hand = game.players[d.player].cards
    missing = [c for c in chosen if c not in hand]
    if missing:
        raise IllegalAction(f"trade: you do not hold card {missing[0]}")
    insignia = [game.board.card_insignia[c] for c in chosen]
    if not cardlib.is_set(insignia, game.rules.card_values):
        raise IllegalAction(f"trade: {', '.join(insignia)} is not a set")
    shown = [game.board.card_territory(c) for c in chosen]
    pictured = [t for t in shown if t >= 0 and game.owner[t] == d.player]
    bonus_at = action.bonus_territory
    if bonus_at != -1 and bonus_at not in pictured:
        raise IllegalAction(
            "trade: the bonus territory must be an own territory shown on a traded card"
        )
    return d, chosen, insignia, pictured


def attack(game: Game, action: Attack) -> tuple[int, int, int]:
    """(source, target, dice) of an attack the player to move may make."""
    p = game.expect(Kinds.ATTACK, "attack").player
    src = game.territory(action.source, "attack: source")
    dst = game.territory(action.target, "attack: target")
    board, owner = game.board, game.owner
    name = board.name_of
    teams = game.rules.teams == "on"
    if not teams and owner[src] != p and not game.commands(p, owner[src]):
        raise IllegalAction(f"attack: {name(src)} is not yours")
    if dst not in board.adjacency[src]:
        raise IllegalAction(f"attack: {name(dst)} does not border {name(src)}")
    if teams:
        most, why = teamlib.attack_error(game, p, src, dst)
        if why:
            raise IllegalAction(why)
    elif owner[dst] == p:
        raise IllegalAction(f"attack: {name(dst)} is yours")
    elif owner[dst] == owner[src]:
        raise IllegalAction(f"attack: {name(dst)} is your ally's, as {name(src)} is")
    else:
        most = attack_dice(game.armies[src])
    if most < 1:
        raise IllegalAction(f"attack: {name(src)} needs at least 2 armies to attack")
    dice = action.dice
    least = masterlib.least_attack_dice(game, dst)
    if not least <= dice <= most:
        raise IllegalAction(
            f"attack: {dice!r} dice; from {name(src)} against {name(dst)} "
            f"you may roll {least} to {most}"
        )
    if game.rules.eliminate_from_round > 1 and masterlib.protected(game, dst):
        raise IllegalAction(
            f"attack: {name(dst)} is its owner's last territory; no one may be eliminated "
            f"before round {game.rules.eliminate_from_round}"
        )
    return src, dst, dice


def fortify(game: Game, action: Fortify) -> tuple[Decision, int, int, int]:
    """(the decision, source, target, armies) of a fortify move under the rule set's
    ``fortify`` and ``garrison`` options (a team game: :func:`teams.fortify_error`)."""
    d = game.expect(Kinds.FORTIFY, "fortify")
    p = d.player
    src = game.territory(action.source, "fortify: source")
    dst = game.territory(action.target, "fortify: target")
    owner, name = game.owner, game.board.name_of
    teams = game.rules.teams == "on"
    if teams:
        most, why = teamlib.fortify_error(game, p, src, dst)
        if why:
            raise IllegalAction(why)
    elif owner[src] != p or owner[dst] != p:
        raise IllegalAction(f"fortify: {name(src) if owner[src] != p else name(dst)} is not yours")
    elif src == dst:
        raise IllegalAction("fortify: source and target are the same territory")
    else:
        most = movable_armies(game.armies[src]) + 1 - masterlib.garrison(game, src, p)
    n = action.armies
    if not 1 <= n <= most:
        raise IllegalAction(
            f"fortify: {n!r} armies; from {name(src)} move 1 to {most} (a garrison stays)"
        )
    if d.target >= 0 and (dst != d.target or src not in d.territories):
        raise IllegalAction(
            f"fortify: this strategic move goes into {name(d.target)}, once from each neighbour"
        )
    if teams:
        pass  # checked by teamlib.fortify_error
    elif game.rules.fortify in ("adjacent", "many_into_one"):
        if dst not in game.board.adjacency[src]:
            raise IllegalAction(f"fortify: {name(dst)} does not border {name(src)}")
    elif not connected(game, p, src, dst):
        raise IllegalAction(
            f"fortify: no chain of your territories joins {name(src)} to {name(dst)}"
        )
    return d, src, dst, n


def connected(game: Game, p: int, src: int, dst: int) -> bool:
    """Whether a chain of ``p``'s territories joins ``src`` to ``dst``."""
    owner, neighbours = game.owner, game.board.neighbours
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
