"""mission-2004 (docs/rules.md §2, seed 000 Finnish 2004 edition, "Tehtävä RISK"): each rule tested
from the rulebook text, played through ``Game.apply``. The 28 card texts are hegemon's own
(the printed ones are not public); the rules around them are the rulebook's."""

from __future__ import annotations

import json

import pytest

from hegemon.referee import Game, make_rules
from hegemon.referee.editions.missions import (
    RANKS_2004,
    MissionDataError,
    builtin_deck,
    load_deck,
    parse_deck,
)
from hegemon.referee.events import MissionShown
from hegemon.referee.view import view_for
from hegemon.sdk.helpers import mission_progress
from tests.helpers.game import arrange, pass_turn, setup_done

DECK = builtin_deck("2004")
HOLD_12, HOLD_16, HOLD_20, HOLD_24 = 0, 7, 14, 21  # captain, major, colonel, general
ONE_CONTINENT_AT_START = 6  # captain, declared at the start of the turn


def test_four_ranks_of_seven():
    # seed 000: the mission cards are sorted by the rank on their back (kapteeni, majuri,
    # eversti, kenraali); 28 cards, so 7 a rank (docs/map-data.md §3.2)
    assert len(DECK.missions) == 28
    for rank in RANKS_2004:
        assert len(DECK.of_rank(rank)) == 7


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_each_player_draws_one_of_each_rank(players):
    # seed 000: "Jokainen pelaaja nostaa yhden tehtäväkortin jokaisesta pakasta" — one card from
    # each pile, four missions each; the rest go back to the box unseen
    game = Game(make_rules("mission-2004"), players, players)
    seen = []
    for p in game.players:
        assert [DECK.missions[m].rank for m in p.missions] == list(RANKS_2004)
        seen += p.missions
    assert len(seen) == len(set(seen))


def position(missions, holding):
    """The current seat holds ``missions`` and the first ``holding`` territories; the others
    hold the rest between them and missions they cannot fulfil (so only ours are declared)."""
    game = setup_done("mission-2004", seed=9)
    me = game.current
    others = [p for p in range(4) if p != me]
    owner = [me if t < holding else others[t % 3] for t in range(game.board.size)]
    arrange(game, owner)
    game.players[me].missions = list(missions)
    for p in others:  # a mission none of the others (at most 15 territories) can fulfil
        game.players[p].missions = [HOLD_24] * 4
    return game, me


def shown(events, completed=True):
    return [
        (e.player, e.mission)
        for e in events
        if type(e) is MissionShown and e.completed is completed
    ]


def my_turns(game, me):
    """Events of each of ``me``'s turns, from the end of one to the end of the next."""
    while True:
        events = pass_turn(game)
        while not game.over and game.current != me:
            events += pass_turn(game)
        yield events
        if game.over:
            return


def test_one_mission_a_turn_then_the_fourth_is_shown_then_the_win():
    # seed 000: "Et voi kuitenkaan julistaa kuin yhden tehtävän suoritetuksi yhden vuoron aikana"
    # — at most one mission declared per turn; after three, the fourth is revealed to all;
    # whoever completes all four first wins
    game, me = position([HOLD_12, HOLD_16, HOLD_20, HOLD_24], holding=30)
    turns = my_turns(game, me)
    first = next(turns)
    assert shown(first) == [(me, HOLD_12)] and game.declared[me] == [HOLD_12]
    assert shown(next(turns)) == [(me, HOLD_16)]
    third = next(turns)
    assert shown(third) == [(me, HOLD_20)]
    assert shown(third, completed=False) == [(me, HOLD_24)]  # the fourth, face up to all
    for seat in range(4):
        assert view_for(game, seat).seats[me].shown_missions == (HOLD_12, HOLD_16, HOLD_20, HOLD_24)
    assert not game.over
    last = next(turns)
    assert shown(last) == [(me, HOLD_24)]
    assert game.over and game.finish_reason == "missions" and game.places[me] == 1


def test_a_declared_mission_stays_completed():
    # seed 000: "suoritus on voimassa lopullisesti, vaikka vastustajasi tekisi suorituksesi
    # tyhjäksi" — completion stands even if an opponent undoes it
    game, me = position([HOLD_12, HOLD_16, HOLD_20, HOLD_24], holding=13)
    turns = my_turns(game, me)
    assert shown(next(turns)) == [(me, HOLD_12)]
    owner = list(game.owner)
    lost = [t for t, p in enumerate(owner) if p == me][:5]
    for t in lost:
        owner[t] = (me + 1) % 4
    arrange(game, owner)
    assert game.declared[me] == [HOLD_12]
    assert shown(next(turns)) == []
    assert game.declared[me] == [HOLD_12]


def test_declared_at_the_moment_the_card_states():
    # seed 000: a mission is declared "SINÄ HETKENÄ, joka kortissa ilmoitetaan" — at the moment
    # the card states; this card says "at the start of your turn"
    game, me = position([ONE_CONTINENT_AT_START, HOLD_16, HOLD_20, HOLD_24], holding=0)
    australia = next(c for c in game.board.continents if c.name == "Australia").territories
    owner = list(game.owner)
    for t in australia:
        owner[t] = me
    arrange(game, owner)
    events = pass_turn(game)  # my turn ends: not the card's moment
    assert shown(events) == []
    while game.current != me:
        events = pass_turn(game)
    assert shown(events) == [(me, ONE_CONTINENT_AT_START)]  # as my next turn starts


def test_missions_are_never_inherited():
    # seed 000: the conqueror of an eliminated player gets the territory cards "mutta et
    # tehtäväkortteja" — but not the mission cards
    game = setup_done("mission-2004", seed=4)
    victim = (game.current + 1) % 4
    game._eliminate(victim, game.current)
    assert game.players[victim].missions == []
    assert len(game.players[game.current].missions) == 4


def test_a_deck_file_can_be_replaced(tmp_path):
    # the texts are hegemon's own: a user may load other missions of the same format
    data = {
        "name": "mine",
        "missions": [
            {"id": i, "rank": rank, "text": f"Hold {10 + i} territories.", "territories": 10 + i}
            for i, rank in enumerate(r for r in RANKS_2004 for _ in range(7))
        ],
    }
    path = tmp_path / "deck.json"
    path.write_text(json.dumps(data))
    deck = load_deck(path)
    assert len(deck.missions) == 28 and deck.missions[27].territories == 37
    with pytest.raises(MissionDataError, match="moment"):
        parse_deck({"missions": [{"id": 0, "text": "x", "moment": "noon"}]})
    with pytest.raises(MissionDataError, match="id"):
        parse_deck({"missions": [{"id": 5, "text": "x"}]})


def test_the_revealed_fourth_is_not_done_for_the_sdk():
    # the SDK's mission_progress: the fourth card shown after three declarations is revealed,
    # not completed (seed 000: it is turned face up, "paljastetaan")
    hold_asia = 23
    game, me = position([HOLD_12, HOLD_16, HOLD_20, hold_asia], holding=30)
    turns = my_turns(game, me)
    for _ in range(3):
        next(turns)
    view = view_for(game, me)
    assert view.seats[me].shown_missions == (HOLD_12, HOLD_16, HOLD_20, hold_asia)
    progress = {p.mission: p for p in mission_progress(view)}
    assert [progress[m].done for m in (HOLD_12, HOLD_16, HOLD_20)] == [True] * 3
    assert not progress[hold_asia].done and progress[hold_asia].remaining > 0
