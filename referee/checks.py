"""The classic actions (docs/rules.md §1): each action's check beside its handler.

A check (``claim``, ``place``, ...) reads an action against the pending decision and the
position, and returns what the handler applies, or raises
:class:`hegemon.referee.errors.IllegalAction` saying what is wrong, with nothing changed; it
uses only the game's public API, as the edition parts do. A handler (``on_claim``, ...) is
what :meth:`hegemon.referee.game.Game.apply` calls for its action type: the check, then (unless
``dry``: :meth:`Game.check <hegemon.referee.game.Game.check>`) the change. The handlers are the
engine's own steps: they also move the game's turn state (its ``_``-members), which no edition
part may touch. Where the board works otherwise than in the classic game they ask the rule
set's board rules (``game.holdings``, ``game.limits``), never an edition.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import cards as cardlib
from .actions import Attack, Claim, Defend, Forfeit, Fortify, Occupy, Pass, Place, Trade
from .decisions import Decision, Kinds, Phases, shared
from .errors import IllegalAction
from .events import Claimed, Forfeited, Fortified, Placed, Traded
from .formulas import MAX_ATTACK_DICE, MAX_DEFENCE_DICE, attack_dice, claim_armies, movable_armies
from .holdings import connected

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


def on_claim(game: Game, action: Claim, dry: bool) -> None:
    d, t = claim(game, action)
    if dry:
        return
    armies = claim_armies(game.rules.setup)
    game._last_claimed = t
    game.take(d.player, t, armies)
    game.players[d.player].reserve -= armies
    game._pending_events.append(Claimed(d.player, t))
    game._setup_next = (d.player + 1) % len(game.players)
    game.ask_setup()


def place(game: Game, action: Place) -> Decision:
    """The decision, once every (territory, armies) pair is the placer's and they add up."""
    d = game.expect(Kinds.PLACE, "place")
    board, placements = game.board, action.placements
    if not placements or len(placements) > board.size:
        raise IllegalAction(f"place: give one to {board.size} (territory, armies) pairs")
    total = 0
    owner = game.owner
    shared = game.holdings.shared  # a shared board: the holdings say where a seat may place
    for pair in placements:
        t, n = pair
        t = game.territory(t, "place:")
        if owner[t] != d.player and not shared:
            raise IllegalAction(f"place: {board.name_of(t)} is not yours")
        if n <= 0:
            raise IllegalAction(f"place: {n!r} armies on {board.name_of(t)} must be at least 1")
        total += n
    if total != d.armies:
        raise IllegalAction(f"place: placed {total} armies, must place exactly {d.armies}")
    why = game.holdings.place_error(game, d.player, placements) if shared else ""
    if why:
        raise IllegalAction(why)
    return d


def on_place(game: Game, action: Place, dry: bool) -> None:
    d = place(game, action)
    if dry:
        return
    placements = action.placements
    armies = game.armies
    for t, n in placements:
        if game._shared:
            game.holdings.add(game, d.player, t, n)
        else:
            armies[t] += n
    if game._events:
        game._pending_events.append(Placed(d.player, placements))
    if game._phase is Phases.SETUP_PLACE:
        game.players[d.player].reserve -= d.armies
        game._setup_next = (d.player + 1) % len(game.players)
        if not any(part.after_setup_place(game, d.player) for part in game._parts):
            game.ask_setup()
    else:
        game.reserve = 0
        if not (game._parts and any(part.after_place(game, d.armies) for part in game._parts)):
            game.ask_attack()


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


def on_trade(game: Game, action: Trade, dry: bool) -> None:
    d, chosen, insignia, pictured = trade(game, action)
    if dry:
        return
    hand, bonus_at = game.players[d.player].cards, action.bonus_territory
    value = game.next_trade_value(insignia)
    value += sum(game.board.extra_armies(c) for c in chosen)  # Risiko! Master cards
    game.trade_count += 1
    for c in chosen:
        hand.remove(c)
    if game.rules.traded_cards == "bottom":
        game.deck[0:0] = sorted(chosen)
    else:
        game.discard.extend(sorted(chosen))
    bonus = 0
    where = -1
    mode = game.rules.card_territory_bonus
    if pictured and (mode == "per_set" or (mode == "per_turn" and game.bonus_this_turn < 2)):
        bonus = 2
        where = bonus_at if bonus_at != -1 else pictured[0]
        game.armies[where] += bonus
        game.bonus_this_turn += bonus
    game.reserve += value
    game._pending_events.append(Traded(d.player, tuple(chosen), value, where, bonus))
    if d.forced and game._phase is Phases.REINFORCE:
        # docs/rules.md §1: a full hand obliges one set (000, 001, 004); 002 also the second
        game._trade_until = 3 if game.rules.forced_trade == "every_set" else 1 << 30
    game._ask_trade_or_place()


def attack(game: Game, action: Attack) -> tuple[int, int, int]:
    """(source, target, dice) of an attack the player to move may make."""
    p = game.expect(Kinds.ATTACK, "attack").player
    src = game.territory(action.source, "attack: source")
    dst = game.territory(action.target, "attack: target")
    board, owner = game.board, game.owner
    name = board.name_of
    shared = game.holdings.shared
    if not shared and owner[src] != p and not game.commands(p, owner[src]):
        raise IllegalAction(f"attack: {name(src)} is not yours")
    if dst not in board.adjacency[src]:
        raise IllegalAction(f"attack: {name(dst)} does not border {name(src)}")
    if shared:
        most, why = game.holdings.attack_error(game, p, src, dst)
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
    limits = game.limits
    least = limits.least_dice(game, dst)
    if not least <= dice <= most:
        raise IllegalAction(
            f"attack: {dice!r} dice; from {name(src)} against {name(dst)} "
            f"you may roll {least} to {most}"
        )
    if limits.protected(game, dst):
        raise IllegalAction(f"attack: {name(dst)} {limits.why_protected(game, dst)}")
    return src, dst, dice


def on_attack(game: Game, action: Attack, dry: bool) -> None:
    src, dst, dice = action.source, action.target, action.dice
    d, owner, armies = game.pending, game.owner, game.armies
    if (
        game._classic_attacks
        and d is not None
        and d.kind is Kinds.ATTACK
        and type(src) is int
        and type(dst) is int
        and type(dice) is int
        and 0 <= src < len(owner)
        and dst in game.board.adjacency[src]
        and owner[src] == d.player != owner[dst]
        and 0 < dice < armies[src]
        and dice <= MAX_ATTACK_DICE
    ):
        # the classic game's legal attack, told at a glance (every battle passes here);
        # the full checks below accept exactly these and say what is wrong with the rest.
        # No part has a say: the defender chooses if still in, with the classic dice
        if dry:
            return
        defender = owner[dst]
        chooser = defender if game.players[defender].active else -1
        two = armies[dst] >= game.rules.defender_two_dice_from
        def_most = MAX_DEFENCE_DICE if two else 1
    else:
        src, dst, dice = attack(game, action)
        if dry:
            return
        for part in game._parts:
            if not part.attack_starts(game, src, dst):
                game.ask_attack()  # e.g. the attempt's die turned that ally away: ask again
                return
        chooser = defence_chooser(game, owner[dst])
        def_most = game.holdings.defence_dice(game, dst)
    game._battle = (src, dst, dice)
    if def_most > 1 and game._defender_chooses and chooser >= 0:
        game.pending = shared(
            Kinds.DEFEND, chooser, maximum=def_most, source=src, target=dst, attack_dice=dice
        )
        return
    game._fight(def_most)


def defence_chooser(game: Game, defender: int) -> int:
    """The seat that chooses ``defender``'s defence dice (-1: nobody, the most dice)."""
    chooser = defender if game.players[defender].active else -1
    for part in game._parts:
        chooser = part.defence_chooser(game, defender, chooser)
    return chooser


def on_defend(game: Game, action: Defend, dry: bool) -> None:
    d = game.expect(Kinds.DEFEND, "defend")
    dice = action.dice
    if not 1 <= dice <= d.maximum:
        raise IllegalAction(f"defend: {dice!r} dice; you may roll 1 to {d.maximum}")
    if not dry:
        game._fight(dice)


def on_occupy(game: Game, action: Occupy, dry: bool) -> None:
    d = game.expect(Kinds.OCCUPY, "occupy")
    n = action.armies
    if not d.minimum <= n <= d.maximum:
        raise IllegalAction(f"occupy: {n!r} armies; move {d.minimum} to {d.maximum}")
    if not dry:
        game._occupy(n)


def fortify(game: Game, action: Fortify) -> tuple[Decision, int, int, int]:
    """(the decision, source, target, armies) of a fortify move under the rule set's
    ``fortify`` and ``garrison`` options (a shared board: its holdings' ``fortify_error``)."""
    d = game.expect(Kinds.FORTIFY, "fortify")
    p = d.player
    src = game.territory(action.source, "fortify: source")
    dst = game.territory(action.target, "fortify: target")
    owner, name = game.owner, game.board.name_of
    shared = game.holdings.shared
    if shared:
        most, why = game.holdings.fortify_error(game, p, src, dst)
        if why:
            raise IllegalAction(why)
    elif owner[src] != p or owner[dst] != p:
        raise IllegalAction(f"fortify: {name(src) if owner[src] != p else name(dst)} is not yours")
    elif src == dst:
        raise IllegalAction("fortify: source and target are the same territory")
    else:
        most = movable_armies(game.armies[src]) + 1 - game.limits.garrison(game, src, p)
    n = action.armies
    if not 1 <= n <= most:
        raise IllegalAction(
            f"fortify: {n!r} armies; from {name(src)} move 1 to {most} (a garrison stays)"
        )
    if d.target >= 0 and (dst != d.target or src not in d.territories):
        raise IllegalAction(
            f"fortify: this strategic move goes into {name(d.target)}, once from each neighbour"
        )
    if shared:
        pass  # checked by the holdings' fortify_error
    elif game.rules.fortify in ("adjacent", "many_into_one"):
        if dst not in game.board.adjacency[src]:
            raise IllegalAction(f"fortify: {name(dst)} does not border {name(src)}")
    elif not connected(game, p, src, dst):
        raise IllegalAction(
            f"fortify: no chain of your territories joins {name(src)} to {name(dst)}"
        )
    return d, src, dst, n


def on_fortify(game: Game, action: Fortify, dry: bool) -> None:
    d, src, dst, n = fortify(game, action)
    if dry:
        return
    p = d.player
    if game._shared:
        game.holdings.move(game, p, src, dst, n)
    else:
        game.armies[src] -= n
        game.armies[dst] += n
    game._pending_events.append(Fortified(p, src, dst, n))
    if game.rules.fortify == "many_into_one":
        game._moved_from.append(src)
        sources = tuple(
            sorted(
                {
                    s
                    for s, _, _ in game.holdings.fortifies(
                        game, p, game.limits, dst, game._moved_from
                    )
                }
            )
        )
        if sources:
            game.pending = Decision(Kinds.FORTIFY, p, target=dst, territories=sources)
            return
    game.end_turn()


def on_pass(game: Game, action: Pass, dry: bool) -> None:
    d = game.pending
    kind = d.kind if d is not None else None
    for part in game._parts:
        if kind in part.passes:
            if not dry:
                part.passed(game, kind)
            return
    if kind is Kinds.TRADE and d is not None and d.forced:
        raise IllegalAction("pass is not allowed now: a trade is forced")
    if kind is Kinds.ATTACK and d is not None and d.forced:
        why = next((w for part in game._parts if (w := part.forced_why(game))), "")
        raise IllegalAction(why or "pass is not allowed now: an attack is forced")
    if kind not in (Kinds.TRADE, Kinds.ATTACK, Kinds.FORTIFY):
        asked = kind.value if kind is not None else "nothing"
        raise IllegalAction(f"pass is not allowed now: the pending decision is {asked}")
    if dry:
        return
    if kind is Kinds.TRADE:
        game._trade_until = 1 << 30
        game.ask_place()
    elif kind is Kinds.ATTACK:
        game._ask_fortify()
    else:
        game.end_turn()


def on_forfeit(game: Game, action: Forfeit, dry: bool) -> None:
    seat = action.player
    if not 0 <= seat < len(game.players) or not game.players[seat].active:
        raise IllegalAction(f"forfeit: seat {seat!r} is not in the game")
    if not dry:
        forfeit_seat(game, seat, action.reason)


def forfeit_seat(game: Game, seat: int, reason: str) -> None:
    player = game.players[seat]
    player.forfeited = True
    player.neutral = True
    for part in game._parts:
        part.seat_left(game, seat)
    game.discard.extend(player.cards)
    player.cards.clear()
    player.reserve = 0
    game.out_order.append(seat)
    events = game._pending_events
    events.append(Forfeited(seat, str(reason)[:200]))
    if len(game.active_players()) <= 1 or any(part.decided(game) for part in game._parts):
        if game.pending is not None and game.pending.kind is Kinds.OCCUPY:
            game._move_in(game._battle[2])
        game.finish("last player standing")
        return
    d = game.pending
    if d is None:
        return
    if game._phase is Phases.CAPITALS:
        if d.player == seat:
            game.ask_before_play()
        return
    if game._phase in (Phases.CLAIM, Phases.SETUP_PLACE):
        if d.player == seat:
            game._setup_next = (seat + 1) % len(game.players)
            game.ask_setup()
        return
    if d.kind is Kinds.DEFEND and d.player == seat:
        game._fight(d.maximum)
    elif game.current == seat:
        if d.kind is Kinds.OCCUPY:
            game._move_in(game._battle[2])
        game.reserve = 0
        game.conquered_this_turn = False
        game.end_turn()
