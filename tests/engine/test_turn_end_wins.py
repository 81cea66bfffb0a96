"""Issue "every edition exactly as printed", item 1: a win in the holder's own turn is recognised
after every applied action of that turn, including the turn's last one when nothing is left to
decide (the engine checks the parts' ``check_end`` at the turn's end too).

Seed 001 ("SLIK VINNER DU!"): "Den første spilleren som klarer å gjennomføre det oppdraget som er
oppgitt på oppdragskortet, vinner. Legg merke til at en spiller kun kan erklære seier under sin
tur." The same holds for capital Risk (seed 001 "Erobring av hovedsteder") and for the Risiko!
Master points victory (seed 003 "VITTORIA")."""

from __future__ import annotations

import pytest

from hegemon.referee import Attack, Fortify, Game, Pass, Place
from hegemon.referee.decisions import Kind
from hegemon.referee.editions.missions import builtin_deck
from hegemon.referee.events import Conquered, Fortified, GameOver, TurnStarted
from tests.helpers.game import arrange, pending, setup_done

EIGHTEEN, OCCUPY_24 = 6, 7
assert builtin_deck("2000").missions[EIGHTEEN].territories == 18


def to_attack(game: Game) -> None:
    """Play the current player's reinforcement phase with the least committal answers."""
    while pending(game).kind is not Kind.ATTACK:
        d = pending(game)
        if d.kind is Kind.PLACE:
            own = [t for t in range(game.board.size) if game.owner[t] == d.player]
            game.apply(Place(((own[0], d.armies),)))
        elif d.kind is Kind.TRADE and d.forced:
            game.apply(game.default_action())
        else:
            game.apply(Pass())


def last_attack(preset: str, players: int, seed: int, plan) -> tuple[Game, int, int, int]:
    """A game at its current player's ATTACK decision, the board arranged by ``plan(game, me)``
    -> (mine, x, y, victim): ``me`` owns ``mine`` and ``x`` (2 armies, the rest 1), ``victim``
    owns ``y`` (next to x); every other territory goes round-robin to the others. Conquering y
    with one die leaves nothing to decide: the turn ends by itself."""
    game = setup_done(preset, players, seed)
    to_attack(game)
    me = game.current
    mine, x, y, victim = plan(game, me)
    others = [p for p in range(players) if p != me]
    owner = []
    for t in range(game.board.size):
        owner.append(me if t in mine or t == x else others[t % len(others)])
    owner[y] = victim
    armies = [2 if t == x else 1 for t in range(game.board.size)]
    arrange(game, owner, armies)
    return game, me, x, y


def conquer_and_end(preset: str, players: int, plan) -> tuple[Game, int, list]:
    """Play the one-die attack from the first seed whose dice take y; its events."""
    for seed in range(40):
        game, me, x, y = last_attack(preset, players, seed, plan)
        events = game.apply(Attack(x, y, 1))
        if game.owner[y] == me:
            return game, me, events
    raise AssertionError("no seed took the territory")


def occupy_24(game: Game, me: int):
    game.players[me].missions = [OCCUPY_24]
    b = game.board
    y = b.index("Ural")
    x = b.index("Ukraine")
    mine = [t for t in range(b.size) if t not in (x, y)][:22]
    return set(mine), x, y, (me + 1) % game.player_count


def capitals_two(game: Game, me: int):
    # 3 players: 2 capitals win (seed 001 "Antall spillere 2-3 ... Antall hovedsteder 2")
    victim = (me + 1) % 3
    third = (me + 2) % 3
    y = game.players[victim].capital
    x = next(
        n
        for n in game.board.neighbours[y]
        if n not in (game.players[third].capital, game.players[me].capital)
    )
    return {game.players[me].capital}, x, y, victim


def master_half(game: Game, me: int):
    # Base: "almeno la metà dei territori" and 2 whole quadrants; 60 territories -> 30
    b = game.board
    mine = set(b.continents[0].territories) | set(b.continents[1].territories)
    y = next(
        t for t in range(b.size) if t not in mine and any(n not in mine for n in b.neighbours[t])
    )
    x = next(n for n in b.neighbours[y] if n not in mine)
    for t in range(b.size):
        if len(mine) >= 28:
            break
        if t not in (x, y):
            mine.add(t)
    return mine, x, y, (me + 1) % game.player_count


@pytest.mark.parametrize(
    ("preset", "players", "plan", "reason"),
    [
        ("mission-2000", 4, occupy_24, "mission"),
        ("capital-2000", 3, capitals_two, "capitals"),
        ("risiko-master-base", 3, master_half, "points"),
    ],
)
def test_a_conquest_that_ends_the_turn_by_itself_wins_in_that_turn(preset, players, plan, reason):
    game, me, events = conquer_and_end(preset, players, plan)
    assert game.places is not None, "the turn passed on and the win was not recognised"
    assert game.finish_reason == reason and game.places[me] == 1
    conquered = next(i for i, e in enumerate(events) if type(e) is Conquered)
    assert not [e for e in events[conquered:] if type(e) is TurnStarted]
    assert type(events[-1]) is GameOver


def test_a_fortify_completing_18_territories_with_2_armies_wins():
    # the example: 18 territories with 2 armies, fortify 1 army into the one with 1
    game = setup_done("mission-2000", 4, 5)
    to_attack(game)
    me = game.current
    game.players[me].missions = [EIGHTEEN]
    b = game.board
    weak = b.continents[0].territories[0]
    strong = next(
        n for n in b.neighbours[weak] if b.territories[n].continent == b.territories[weak].continent
    )
    mine = list(b.continents[0].territories)
    for t in range(b.size):
        if len(mine) < 18 and t not in mine:
            mine.append(t)
    others = [p for p in range(4) if p != me]
    owner = [me if t in mine else others[t % 3] for t in range(b.size)]
    armies = [1] * b.size
    for t in mine:
        armies[t] = 2
    armies[weak], armies[strong] = 1, 3
    arrange(game, owner, armies)
    game.apply(Pass())  # no attack
    assert pending(game).kind is Kind.FORTIFY
    events = game.apply(Fortify(strong, weak, 1))
    assert Fortified(me, strong, weak, 1) in events
    assert game.places is not None, "the turn passed on and the mission was not won"
    assert game.finish_reason == "mission" and game.places[me] == 1
    assert not [e for e in events if type(e) is TurnStarted]
