"""capital-2000 (docs/rules.md §3, seed 001 Norwegian 2000 edition, "Erobring av hovedsteder"): each
rule tested from the rulebook text, played through ``Game.apply``."""

from __future__ import annotations

import pytest

from hegemon.referee import Attack, Capital, Game, IllegalAction, Occupy, Pass, Place, make_rules
from hegemon.referee.decisions import Kind
from hegemon.referee.editions.capitals import capitals_needed
from hegemon.referee.events import (
    Battle,
    CapitalChosen,
    CapitalConquered,
    GameOver,
    redact,
)
from hegemon.referee.view import view_for
from hegemon.sdk.helpers import CaptureEffect, capital_capture, capitals_to_win, known_capitals
from tests.helpers.game import arrange, give_cards, pending, snapshot


def choosing(players=4, seed=3):
    """A capital-2000 game at its first CAPITAL decision (set-up placed by default)."""
    game = Game(make_rules("capital-2000"), players, seed)
    while pending(game).kind is not Kind.CAPITAL:
        game.apply(game.default_action())
    return game


def test_each_player_secretly_picks_an_own_territory_after_the_setup():
    # seed 001 p. 16: after the usual set-up "skal hver spiller velge ett av områdene til sin
    # hovedstad uten å fortelle de andre om sitt valg" — each picks one of its territories as
    # capital without telling the others
    game = choosing()
    asked = []
    while game.pending.kind is Kind.CAPITAL:
        d = game.pending
        assert game.round == 0 and d.territories == tuple(
            t for t in range(42) if game.owner[t] == d.player
        )
        foreign = next(t for t in range(42) if game.owner[t] != d.player)
        before = snapshot(game)
        with pytest.raises(IllegalAction, match="not yours"):
            game.apply(Capital(foreign))
        assert snapshot(game) == before
        events = game.apply(Capital(d.territories[-1]))
        chosen = [e for e in events if type(e) is CapitalChosen]
        assert chosen == [CapitalChosen(d.player, d.territories[-1])]
        for other in range(4):
            if other != d.player:
                assert redact(chosen[0], other) == CapitalChosen(d.player, -1)
                assert view_for(game, other).seats[d.player].capital == -1
        assert view_for(game, d.player).capital == d.territories[-1]
        asked.append(d.player)
    assert sorted(asked) == [0, 1, 2, 3] and asked[0] == game.first_player
    # seed 001: each puts the capital's territory card face down in front of them: out of the
    # deck for the game
    capitals = [p.capital for p in game.players]
    assert sorted(game.set_aside) == sorted(capitals)
    assert not set(capitals) & set(game.deck) and len(game.deck) == 44 - 4
    assert game.round == 1


def play_to_first_turn(game, pick=lambda d: d.territories[0]):
    while game.round == 0:
        d = game.pending
        game.apply(Capital(pick(d)) if d.kind is Kind.CAPITAL else game.default_action())
    return game


def capture_position():
    """``me`` (current) borders ``loser``'s capital Alaska with 10 armies in Kamchatka; the
    loser also holds Alberta and Ontario in North America and other territories elsewhere."""
    game = play_to_first_turn(choosing(seed=8))
    b = game.board
    me = game.current
    loser, third, fourth = [(me + k) % 4 for k in (1, 2, 3)]
    alaska, kamchatka = b.index("Alaska"), b.index("Kamchatka")
    north_america = set(next(c for c in b.continents if c.name == "North America").territories)
    loser_na = {alaska, b.index("Alberta"), b.index("Ontario")}
    owner, armies = [], []
    others = iter([third, fourth, loser] * 42)
    for t in range(b.size):
        if t in loser_na:
            owner.append(loser)
        elif t in north_america or t == kamchatka:
            owner.append(me)
        else:
            owner.append(next(others))
        armies.append({kamchatka: 10, b.index("Alberta"): 4, b.index("Ontario"): 3}.get(t, 1))
    arrange(game, owner, armies)
    game.players[loser].capital = alaska
    for seat, p in ((me, b.index("Quebec")), (third, None), (fourth, None)):
        game.players[seat].capital = p if p is not None else owner.index(seat)
    give_cards(game, loser, [0, 1, 2])
    while game.pending.kind is not Kind.PLACE:
        game.apply(Pass())
    game.apply(Place(((kamchatka, game.pending.armies),)))
    return game, me, loser, alaska, kamchatka


def conquer(game, source, target):
    events = []
    while game.owner[target] != game.current:
        events += game.apply(Attack(source, target, min(3, game.armies[source] - 1)))
    if game.pending is not None and game.pending.kind is Kind.OCCUPY:
        events += game.apply(Occupy(game.pending.minimum))
    return events


def test_capturing_a_capital_takes_the_cards_and_the_continent():
    # seed 001 p. 16: the owner declares the capital taken and gives all RISK cards to the
    # conqueror; all the loser's armies on that CONTINENT are removed and each emptied
    # territory gets ONE army of the attacker, "fra angriperens reservebunke og IKKE fra
    # bataljoner som allerede er på brettet" (from reserve, not from the board)
    game, me, loser, alaska, kamchatka = capture_position()
    b = game.board
    alberta, ontario = b.index("Alberta"), b.index("Ontario")
    before = sum(game.armies)
    on_board = game.armies[kamchatka]
    events = conquer(game, kamchatka, alaska)
    captured = [e for e in events if type(e) is CapitalConquered]
    assert captured == [CapitalConquered(me, loser, alaska, 3, (alberta, ontario), 7)]
    assert game.players[loser].cards == [] and sorted(game.players[me].cards)[:3] == [0, 1, 2]
    assert (game.owner[alberta], game.armies[alberta]) == (me, 1)
    assert (game.owner[ontario], game.armies[ontario]) == (me, 1)
    lost = sum(e.attacker_losses for e in events if type(e) is Battle)
    # the replacing armies are new: none came from Kamchatka or Alaska
    assert game.armies[kamchatka] + game.armies[alaska] == on_board - lost
    assert sum(game.armies) == before - lost - 1 - 7 + 2  # Alaska's 1 defender, 7 off, 2 new
    # public now: every seat sees whose capital it was
    for seat in range(4):
        assert view_for(game, seat).seats[loser].capital == alaska


@pytest.mark.parametrize("players, needed", [(3, 2), (4, 3), (5, 3), (6, 4)])
def test_capitals_needed_by_player_count(players, needed):
    # seed 001 p. 16: players 2-3 / 4-5 / 6 -> capitals 2 / 3 / 4, own capital INCLUDED
    assert capitals_needed(players) == needed


def winning_position(keep_own: bool):
    """``me`` holds two other capitals and about to take a third's; its own capital is held
    (or lost when not ``keep_own``)."""
    game, me, _loser, alaska, kamchatka = capture_position()
    third, fourth = (me + 2) % 4, (me + 3) % 4
    owner = list(game.owner)
    owner[game.players[third].capital] = me
    if not keep_own:
        owner[game.players[me].capital] = fourth
    arrange(game, owner, game.armies)
    return game, me, alaska, kamchatka


def test_holding_enough_capitals_with_your_own_wins():
    # 4 players: 3 capitals, own included
    game, me, alaska, kamchatka = winning_position(keep_own=True)
    events = conquer(game, kamchatka, alaska)
    assert game.over and game.finish_reason == "capitals" and game.places[me] == 1
    assert type(events[-1]) is GameOver


def test_no_win_without_your_own_original_capital():
    # seed 001 p. 16: "En spiller kan ikke vinne om han ikke fremdeles sitter med sin
    # opprinnelige hovedstad"
    game, me, alaska, kamchatka = winning_position(keep_own=False)
    fourth = (me + 3) % 4
    capital_of_fourth = game.players[fourth].capital
    owner = list(game.owner)
    owner[capital_of_fourth] = me  # three capitals held, but not its own
    arrange(game, owner, game.armies)
    conquer(game, kamchatka, alaska)
    assert not game.over


def test_sdk_helpers_say_what_a_capture_would_do():
    game, me, loser, alaska, kamchatka = capture_position()
    b = game.board
    view = view_for(game, me)
    effect = capital_capture(view, alaska)
    assert effect == CaptureEffect(loser, 3, (b.index("Alberta"), b.index("Ontario")), 7)
    assert capitals_to_win(view) == 3
    assert known_capitals(view) == {me: game.players[me].capital}  # the others are secret
    conquer(game, kamchatka, alaska)
    for seat in range(4):
        known = known_capitals(view_for(game, seat))
        assert known[loser] == alaska and known[seat] == game.players[seat].capital
    assert capitals_to_win(view_for(Game(make_rules("classic"), 3, 1), 0)) == 0


def test_the_text_replay_narrates_captures_and_missions():
    """``hegemon replay`` tells a capital capture and a completed mission in its turn lines."""
    from hegemon.referee.viewer.words import EventWords

    events = [
        {
            "event": "capital_conquered",
            "player": 0,
            "previous_owner": 1,
            "territory": 5,
            "cards_taken": 2,
            "armies_removed": 3,
        },
        {"event": "mission_shown", "player": 0, "mission": 7, "completed": True},
    ]
    lines = EventWords(["north", "south"], lambda t: f"T{t}").turn(events)
    assert lines == [
        "[bold]captures south's capital T5[/] and takes 2 cards",
        "north completes mission 7",
    ]
