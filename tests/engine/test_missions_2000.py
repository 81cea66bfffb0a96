"""mission-2000 (docs/rules.md §2, seed 001 Norwegian 2000 edition; docs/map-data.md §2): each rule
tested from its rulebook text, played through ``Game.apply``."""

from __future__ import annotations

import pytest

from hegemon.referee import Attack, Game, Occupy, Pass, Place, make_rules
from hegemon.referee.decisions import Kind
from hegemon.referee.editions.missions import builtin_deck
from hegemon.referee.events import GameOver, MissionShown
from hegemon.referee.view import view_for
from tests.helpers.game import arrange, pass_turn, pending, setup_done

DECK = builtin_deck("2000")
ASIA_AFRICA, EIGHTEEN, OCCUPY_24 = 1, 6, 7
DESTROY = {colour: 8 + colour for colour in range(6)}


def test_the_deck_holds_the_14_cards():
    # seed 001 p. 3: "14 oppdragskort"; docs/map-data.md §2.1 lists them
    assert len(DECK.missions) == 14
    assert [m.destroy for m in DECK.missions[8:]] == list(range(6))
    assert DECK.fallback() == OCCUPY_24


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_cards_of_absent_colours_are_removed_and_one_card_each(players):
    # seed 001 p. 5: with fewer than 6 players the general removes the mission cards of the
    # colours not in the game; each player gets one card
    dealt = set()
    for seed in range(60):
        game = Game(make_rules("mission-2000"), players, seed)
        held = [p.missions for p in game.players]
        assert all(len(m) == 1 for m in held)
        real = [m[0] for m in held if m[0] != OCCUPY_24]
        assert len(real) == len(set(real))  # each card dealt once
        for seat, (m,) in enumerate(held):
            assert DECK.missions[m].destroy < players
            # the card text: drawing your own colour makes the mission "occupy 24"
            assert DECK.missions[m].destroy != seat
            dealt.add(m)
    assert dealt <= set(DECK.dealable(players)) | {OCCUPY_24}
    assert len(dealt) == 8 + players


def asia_africa_position(**options):
    """``me`` (the current seat) holds all of Asia and Africa but Ural, which is the only
    territory of ``victim``; Ukraine (mine, 10 armies) borders it."""
    game = setup_done("mission-2000", seed=5, **options)
    b = game.board
    me = game.current
    victim, holder, fourth = [(me + k) % 4 for k in (1, 2, 3)]
    ural, ukraine = b.index("Ural"), b.index("Ukraine")
    asia_africa = {t for c in b.continents if c.name in ("Asia", "Africa") for t in c.territories}
    owner, armies = [], []
    rest = iter([holder, fourth] * 42)
    for t in range(b.size):
        owner.append(me if t in asia_africa or t == ukraine else next(rest))
        armies.append(10 if t == ukraine else 1)
    owner[ural] = victim
    arrange(game, owner, armies)
    game.players[me].missions = [ASIA_AFRICA]
    game.players[victim].missions = [EIGHTEEN]
    game.players[holder].missions = [DESTROY[victim]]
    game.players[fourth].missions = [EIGHTEEN]
    while pending(game).kind is not Kind.PLACE:
        game.apply(Pass())
    game.apply(Place(((ukraine, pending(game).armies),)))
    return game, me, victim, holder, ural, ukraine


def take_ural(game, ural, ukraine):
    events = []
    while game.owner[ural] != game.current:
        events += game.apply(Attack(ukraine, ural, 3))
    if game.pending is not None and game.pending.kind is Kind.OCCUPY:
        events += game.apply(Occupy(game.pending.minimum))
    return events


def test_fulfilling_your_mission_in_your_turn_wins_at_once():
    # seed 001 p. 12: the first player to carry out the mission on the card wins
    game, me, _victim, _holder, ural, ukraine = asia_africa_position()
    assert not game.over
    events = take_ural(game, ural, ukraine)
    assert game.over and game.finish_reason == "mission"
    assert game.places[me] == 1
    assert MissionShown(me, ASIA_AFRICA, True) in events
    assert type(events[-1]) is GameOver


def test_one_elimination_completing_two_missions_the_own_one_wins():
    # the German rules (docs/map-data.md §2.2, P6): B, holding Asia + Africa, destroys the last
    # green army and so also completes A's "destroy green"; B wins
    game, me, _victim, holder, ural, ukraine = asia_africa_position(destroyed_by_other="completed")
    take_ural(game, ural, ukraine)
    assert game.over and game.places[me] == 1 and game.places[holder] != 1


def me_destroys_victim_without_winning(**options):
    game, me, victim, holder, ural, ukraine = asia_africa_position(**options)
    game.players[me].missions = [EIGHTEEN]
    events = take_ural(game, ural, ukraine)
    assert not game.over and game.players[victim].eliminated
    return game, me, victim, holder, events


def test_completed_in_another_players_turn_is_claimed_on_the_holders_turn():
    # seed 001 p. 12: "en spiller kun kan erklære seier under sin tur" — a mission completed in
    # another player's turn must wait for its holder's turn (option destroyed_by_other=completed)
    game, me, _victim, holder, _events = me_destroys_victim_without_winning(
        destroyed_by_other="completed"
    )
    assert game.current == me and not game.over  # not during my turn
    while not game.over:
        assert game.current != holder
        pass_turn(game)
    assert game.current == holder
    assert game.finish_reason == "mission" and game.places[holder] == 1


def test_destroyed_by_another_falls_back_to_24_territories():
    # docs/map-data.md §2.2 (a), the card text: "... or they have already been destroyed by another
    # player, your mission is: Occupy 24 territories" (option destroyed_by_other=fallback_24)
    game, _me, _victim, holder, _events = me_destroys_victim_without_winning()
    assert game.players[holder].missions == [OCCUPY_24]
    assert view_for(game, holder).missions == (OCCUPY_24,)
    while game.current != holder:
        pass_turn(game)
    assert not game.over


def test_destroying_your_target_yourself_wins():
    # the "destroy colour X" card, played by its holder
    game, me, victim, _holder, ural, ukraine = asia_africa_position()
    game.players[me].missions = [DESTROY[victim]]
    take_ural(game, ural, ukraine)
    assert game.over and game.places[me] == 1 and game.finish_reason == "mission"


def test_an_eliminated_players_mission_goes_back_unseen():
    # seed 001 p. 12: the destroyed player "leverer oppdragskortene usett tilbake til generalen"
    # — the mission cards go back to the general unseen; the conqueror gets only the RISK cards
    _game, me, victim, _holder, events = me_destroys_victim_without_winning()
    assert _game.players[victim].missions == []
    assert not [e for e in events if type(e) is MissionShown]
    assert _game.players[me].missions == [EIGHTEEN]


def test_a_fulfilled_mission_of_another_seat_does_not_end_the_turn():
    # only the holder may claim, in the holder's turn
    game, me, victim, holder, ural, ukraine = asia_africa_position()
    game.players[me].missions = [EIGHTEEN]
    game.players[holder].missions = [OCCUPY_24]
    owner = list(game.owner)
    count = 0
    for t in range(game.board.size):
        if owner[t] == me and count < 25:
            owner[t] = holder
            count += 1
    owner[ukraine], owner[ural] = me, victim
    arrange(game, owner, game.armies)
    game.apply(Pass())  # stop attacking
    assert not game.over
    while game.current != holder:
        pass_turn(game)
    assert game.over and game.places[holder] == 1
