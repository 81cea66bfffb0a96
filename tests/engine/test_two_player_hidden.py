"""Hidden information in the two-player presets: a player never sees the other player's hand
nor the cards given to a neutral (seed 000: "Aseta aluekortti kuvapuoli alaspäin
puolueettoman kanuunan alle" — face down under the neutral's cannon), in its view, in the
events it is told, or in a record's per-seat replay."""

from __future__ import annotations

import random

import pytest

from hegemon.referee import Bribe, Game, Kind, Pass, make_rules
from hegemon.referee.events import Bribed, CardDrawn, Traded
from hegemon.referee.record import Recorder
from hegemon.referee.view import view_for
from hegemon.referee.viewer.replay import replay_data
from hegemon.referee.wire import codec
from hegemon.sample_bots.aggressive import AggressiveBot
from hegemon.sdk import play_local
from tests.helpers.two_player import PRESETS


class Briber(AggressiveBot):
    """The aggressive sample bot (it conquers, so it draws cards) that bribes at every chance
    (its first card to the first neutral offered); records the events it was told."""

    name = "briber"

    def __init__(self) -> None:
        self.told: list[tuple[int, tuple]] = []

    def decide(self, view, decision):
        self.told.append((view.seat, tuple(view.events)))
        if decision.kind is Kind.BRIBE:
            return Bribe(decision.seats[0], (view.hand[0],))
        return super().decide(view, decision)


def hide_others(game: Game, seat: int, rng: random.Random) -> Game:
    """A copy of ``game`` in which every card ``seat`` may not see (the other player's hand,
    the neutrals' bribe cards) is swapped with a random card of the deck."""
    other = game.clone()
    for p in other.players:
        if p.seat == seat:
            continue
        for i, card in enumerate(p.cards):
            if other.deck:
                j = rng.randrange(len(other.deck))
                p.cards[i], other.deck[j] = other.deck[j], card
    return other


@pytest.mark.parametrize("preset", PRESETS)
def test_the_view_does_not_depend_on_cards_the_seat_may_not_see(preset):
    """Non-interference: change every hidden card and each seat's view (and its Decide
    request on the wire) stays byte for byte the same."""
    rng = random.Random(3)
    game = Game(make_rules(preset, {"turn_limit": 8}), 2, 3)
    checked = 0
    while not game.over:
        if game.round and rng.random() < 0.05:
            for seat in (0, 1):
                mine = view_for(game, seat)
                theirs = view_for(hide_others(game, seat, rng), seat)
                assert mine == theirs
                assert (
                    codec.view_to_proto(mine).SerializeToString()
                    == codec.view_to_proto(theirs).SerializeToString()
                )
                checked += 1
        d = game.pending
        assert d is not None
        if d.kind is Kind.BRIBE:
            game.apply(Bribe(d.seats[0], (game.players[d.player].cards[0],)))
        else:
            options = game.legal_actions()
            game.apply(
                options[rng.randrange(len(options))]
                if d.kind is not Kind.ATTACK or rng.random() < 0.9
                else Pass()
            )
    assert checked >= 5


@pytest.mark.parametrize("preset", PRESETS)
def test_events_tell_the_other_player_no_card(preset):
    """Over the protocol, a seat is told another's drawn card as -1 and a bribe as a count;
    the only card ids in events are its own draws and sets traded (public once traded)."""
    bots = [Briber(), Briber()]
    result = play_local(
        bots, preset, seed=21, options={"turn_limit": 12}, protocol=True, strict=True
    )
    assert result.game is not None
    bribes = 0
    for bot in bots:
        for seat, events in bot.told:
            for e in events:
                if type(e) is CardDrawn and e.player != seat:
                    assert e.card == -1
                if type(e) is Bribed:
                    bribes += 1
                    assert isinstance(e.cards, int)  # a count, never which cards
                for name in type(e).__slots__:
                    if name in ("card", "cards") and type(e) not in (CardDrawn, Traded):
                        assert isinstance(getattr(e, name), int), e
    if preset == "two-player-2004-active":
        assert bribes > 0


@pytest.mark.parametrize("preset", PRESETS)
def test_a_records_seat_view_hides_bribes_and_hands(preset):
    """The replay viewer's per-seat view (hegemon.referee.viewer.replay): a bribe shows as
    its count of cards, and the hands shown are each seat's own."""
    rng = random.Random(8)
    game = Game(make_rules(preset, {"turn_limit": 5}), 2, 8)
    recorder = Recorder(game, {"seats": ["a", "b"]})
    bribed = 0
    while not game.over:
        d = game.pending
        assert d is not None
        if d.kind is Kind.BRIBE:
            recorder.apply(Bribe(d.seats[0], (game.players[d.player].cards[0],)))
            bribed += 1
        else:
            options = game.legal_actions()
            recorder.apply(options[rng.randrange(len(options))])
    data = replay_data(recorder.text())
    steps = [s for s in data["steps"] if "bribe" in str(s.get("a"))]
    assert len(steps) == bribed
    for step in steps:
        assert "card(s)" in step["ar"] and "[" not in step["ar"]
    if preset == "two-player-2004-active":
        assert bribed
