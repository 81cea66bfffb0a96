"""The environments' text rendering: the public board of a game, as a person reads it."""

from __future__ import annotations

from hegemon.referee.game import Game


def render_text(game: Game) -> str:
    """The public state of ``game``: the round, each seat's totals, the pending decision and
    every territory's owner and armies, by continent. Nothing secret (no hands, no missions)."""
    board = game.board
    lines = [f"{game.rules.preset} on {board.name}, round {game.round}"]
    for p in game.players:
        armies = sum(a for t, a in enumerate(game.armies) if game.owner[t] == p.seat)
        status = "neutral" if p.neutral else "out" if not p.active else "in"
        lines.append(
            f"  seat {p.seat} ({status}): {game.territory_count[p.seat]} territories, "
            f"{armies} armies, {len(p.cards)} cards"
        )
    if game.places is not None:
        lines.append(f"over ({game.finish_reason}): places {list(game.places)}")
    elif game.pending is not None:
        lines.append(f"seat {game.pending.player} to decide: {game.pending.kind.value}")
    for continent in board.continents:
        cells = ", ".join(
            f"{board.name_of(t)} {_owner(game.owner[t])}:{game.armies[t]}"
            for t in continent.territories
        )
        lines.append(f"{continent.name} (+{continent.bonus}): {cells}")
    return "\n".join(lines)


def _owner(seat: int) -> str:
    return "-" if seat < 0 else str(seat)
