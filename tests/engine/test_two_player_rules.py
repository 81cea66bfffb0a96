"""The two-player editions (docs/rules.md §5), a test per rule, each quoting its rulebook:
seed 001 (``/work/shared/seeds/001_f03a81e7fef51d36.txt``, Norwegian 2000) for
``two-player-2000``, seed 002 (``002_1bde8207fa067e2b.txt``, Estonian) for
``two-player-classic``, seed 000 (``000_3f7912df253811fb.txt``, Finnish 2004) for
``two-player-2004-passive`` and ``two-player-2004-active``."""

from __future__ import annotations

import pytest

from hegemon.referee import (
    Attack,
    Bribe,
    Decision,
    Defend,
    FortifyAlly,
    Game,
    GameSetupError,
    IllegalAction,
    Kind,
    Occupy,
    Pass,
    Place,
    PlaceNeutral,
    ReinforceAlly,
    Trade,
    make_rules,
)
from hegemon.referee.events import (
    AllegianceChanged,
    AllyFortified,
    AllyReinforced,
    Battle,
    Bribed,
    CardDrawn,
    Dealt,
    Eliminated,
    NeutralPlaced,
    TurnStarted,
)
from tests.helpers.two_player import (
    PASS_KINDS,
    PRESETS,
    advance_to,
    arrange,
    decision,
    new_game,
    set_up,
)

N_AM, S_AM = range(9), range(9, 13)
EUROPE, AFRICA = range(13, 20), range(20, 26)
HOLDINGS_2004 = {2: range(26, 31), 3: range(31, 35), 4: range(35, 38), 5: range(38, 42)}


def layout_2004(game: Game, armies: int = 3) -> None:
    """Player 0: the Americas; player 1: Europe and Africa; the four neutrals share Asia and
    Australia (2: Ural..Irkutsk, 3: Mongolia..China, 4: Middle East..Siam, 5: Australia)."""
    owner = [0] * 13 + [1] * 13
    for seat, where in HOLDINGS_2004.items():
        owner += [seat] * len(where)
    arrange(game, owner, [armies] * 42)


def active_turn(
    seed: int = 0, ally_of: dict[int, int] | None = None, hand: tuple[int, ...] = ()
) -> Game:
    """A two-player-2004-active game on :func:`layout_2004` at the start of player 0's turn:
    allies as given, ``hand`` player 0's only cards, its first decision pending."""
    game = set_up("two-player-2004-active", seed)
    layout_2004(game)
    for p in game.players:
        p.cards.clear()
        p.ally_of = -1
    for seat, player in (ally_of or {}).items():
        game.players[seat].ally_of = player
    game.players[0].cards[:] = list(hand)
    game.pending = None
    game._start_turn(0)
    return game


def to_attack(game: Game) -> None:
    """From a turn's start, through bribes, trades, placements and ally reinforcements (each
    declined or put on the first territory) to the attack decision."""
    advance_to(game, Kind.ATTACK, game.current)


def predicted_neutral_die(game: Game, seat: int, count: int = 1) -> list[int]:
    """The next ``count`` dice ``seat`` rolls for neutrals (from a copy of the game's chance)."""
    stream = game.rng.copy().neutral(seat)
    return [stream.roll(1)[0] for _ in range(count)]


# ------------------------------------------------------------------ presets and seats
def test_two_player_presets_take_two_players_and_the_others_refuse_two():
    """Seed 001: "Spillet egner seg for to til seks spillere"; "RISK med 2 spillere: I spillet
    med 2 spillere brukes en nøytral hær" — two players get a neutral, three to six do not."""
    for preset in PRESETS:
        game = new_game(preset)
        assert game.player_count == 2
        assert all(p.neutral and not p.forfeited for p in game.players[2:])
        with pytest.raises(GameSetupError, match="for 2 players"):
            Game(make_rules(preset), 3, 0)
    with pytest.raises(GameSetupError, match="3 to 6 players"):
        Game(make_rules("classic"), 2, 0)


# ------------------------------------------------------------------ 2000 (seed 001)
def test_2000_forty_each_a_neutral_of_28_and_14_cards_dealt_to_each():
    """Seed 001: "Hver spiller velger en farge og teller opp 40 bataljoner hver. En tredje
    farge tildeles en nøytral styrke på 28 bataljoner. Ta ut jokerne ... del ut 14 kort til
    hver spiller, inklusive den nøytrale styrken." """
    game = new_game("two-player-2000", seed=4)
    dealt = {e.player: e.territories for e in game.opening_events if type(e) is Dealt}
    assert sorted(dealt) == [0, 1, 2] and all(len(t) == 14 for t in dealt.values())
    while game.round == 0:
        game.apply(game.default_action())
    totals = [sum(a for t, a in enumerate(game.armies) if game.owner[t] == s) for s in range(3)]
    assert totals == [40, 40, 28]
    assert len(game.players) == 3 and game.players[2].neutral


def test_2000_the_neutral_gets_half_the_reinforcements_placed_by_the_other_player():
    """Seed 001: "Den mottar et antall forsterkninger som tilsvarer HALVPARTEN av de totale
    forsterkningene ... Resterende teller ikke ... (17:2 = 8 ...) Den andre spilleren setter
    ut den nøytrale forsterkningen i nøytrale områder ETTER at den første spilleren har
    utplassert sine forsterkninger." """
    game = set_up("two-player-2000", seed=1)
    mover = game.current
    other = 1 - mover
    due = sum(game.reinforcements(mover))  # no cards yet: no trade
    d = decision(game)
    assert d.kind is Kind.PLACE and d.player == mover  # the mover places first
    own = next(t for t in range(42) if game.owner[t] == mover)
    game.apply(Place(((own, d.armies),)))
    d = decision(game)
    assert d.kind is Kind.PLACE_NEUTRAL and d.player == other and d.seats == (2,)
    assert d.armies == due // 2
    with pytest.raises(IllegalAction, match="not a territory of seat 2"):
        game.apply(PlaceNeutral(((own, d.armies),)))
    neutral_t = next(t for t in range(42) if game.owner[t] == 2)
    before = game.armies[neutral_t]
    events = game.apply(PlaceNeutral(((neutral_t, d.armies),)))
    assert NeutralPlaced(other, 2, ((neutral_t, d.armies),)) in events
    assert game.armies[neutral_t] == before + d.armies
    assert decision(game).kind is Kind.ATTACK and decision(game).player == mover


def test_2000_half_of_17_is_8():
    """Seed 001: "En spiller mottar totalt 17 forsterkninger i begynnelsen av sin omgang. Den
    nøytrale styrken får da 8 tropper (17:2 = 8, rest på ett stk. teller ikke)" — here 12 from
    36 territories and 5 for North America."""
    game = set_up("two-player-2000", seed=2)
    mover = game.current
    owner = [mover] * 42  # 37 territories, North America the only whole continent
    for t, seat in ((12, 1 - mover), (19, 2), (25, 1 - mover), (37, 2), (41, 1 - mover)):
        owner[t] = seat
    arrange(game, owner, [2] * 42)
    game.pending = None
    game._start_turn(mover)
    assert decision(game).armies == 12 + 5
    game.apply(Place(((0, decision(game).armies),)))
    assert decision(game).kind is Kind.PLACE_NEUTRAL and decision(game).armies == 8


def test_2000_the_neutral_never_takes_a_turn_attacks_or_fortifies():
    """Seed 001: "Den nøytrale hæren kan ALDRI angripe, og mottar derfor heller ingen
    RISK-kort. Den nøytrale hæren kan heller ikke foreta troppemanøvrer ... får vedkommende
    heller ikke sin egen spilletur." """
    game = set_up("two-player-2000", seed=3, turn_limit=6)
    turns = []
    while not game.over:
        d = decision(game)
        assert d.player in (0, 1)
        turns += [e.player for e in game.apply(game.default_action()) if type(e) is TurnStarted]
        assert not game.players[2].cards
    assert set(turns) == {0, 1}


# ------------------------------------------------------------------ classic (seed 002)
def test_classic_forty_each_and_forty_neutral_armies():
    """Seed 002: "Kuid mängu kaasaegsed tõlgendused annavad neile mõlemale ainult 40 armeed ja
    loovad neutraalse territooriumi veel 40 armeega." """
    game = set_up("two-player-classic", seed=5)
    totals = [sum(a for t, a in enumerate(game.armies) if game.owner[t] == s) for s in range(3)]
    assert totals == [40, 40, 40]
    assert min(game.owner) >= 0  # every territory taken


@pytest.mark.parametrize("preset", ["two-player-classic", "two-player-2004-passive"])
def test_the_other_player_rolls_a_neutrals_defence(preset):
    """Seed 002: "Kui üks mängija ründab neutraalset riiki, viskab teine mängija selle riigi
    eest täringut." Seed 000: "Kun teet hyökkäyksen puolueetonta armeijaa vastaan passiivisessa
    pelissä, vastustajasi heittää arpakuutioita puolueettoman armeijan puolustamiseksi." """
    game = set_up(preset, seed=6)
    mover = game.current
    to_attack(game)
    source, target = next(
        (s, n)
        for s in range(42)
        if game.owner[s] == mover
        for n in game.board.neighbours[s]
        if game.owner[n] >= 2
    )
    game.armies[source], game.armies[target] = 5, 3
    game.apply(Attack(source, target, 3))
    d = decision(game)
    assert d.kind is Kind.DEFEND and d.player == 1 - mover and d.maximum == 2
    defender = game.owner[target]
    battle = game.apply(Defend(1))[0]
    assert isinstance(battle, Battle)
    assert len(battle.defend_dice) == 1 and battle.defender == defender


# ------------------------------------------------------------------ 2004 (seed 000)
def test_2004_thirty_six_each_four_neutrals_of_24_nine_and_six_cards():
    """Seed 000: "Kumpikin pelaaja ... laskee itselleen 36 aloitusyksikköä. Ota jokaista
    neljää puolueetonta armeijaa varten 24 aloitusyksikköä ... Jaa molemmille pelaajille
    yhdeksän aluekorttia ja kuusi korttia jokaiselle puolueettomalle." """
    game = new_game("two-player-2004-passive", seed=7)
    dealt = {e.player: len(e.territories) for e in game.opening_events if type(e) is Dealt}
    assert dealt == {0: 9, 1: 9, 2: 6, 3: 6, 4: 6, 5: 6}
    while game.round == 0:
        game.apply(game.default_action())
    totals = [sum(a for t, a in enumerate(game.armies) if game.owner[t] == s) for s in range(6)]
    assert totals == [36, 36, 24, 24, 24, 24]


def test_2004_set_up_three_own_armies_and_one_on_each_neutral():
    """Seed 000: "pelaajat vuorottelevat ja sijoittavat kolme yksikköä kerrallaan
    hallitsemilleen alueille ... Sijoittakaa vuorollanne yksi yksikkö jokaista puolueetonta
    kohden (puolueettoman hallitsemalle alueelle)." """
    game = new_game("two-player-2004-active", seed=8)
    d = decision(game)
    assert d.kind is Kind.PLACE and d.armies == 3
    game.apply(game.default_action())
    d = decision(game)
    assert d.kind is Kind.PLACE_NEUTRAL and d.seats == (2, 3, 4, 5) and d.maximum == 1
    first = {s: next(t for t in range(42) if game.owner[t] == s) for s in d.seats}
    with pytest.raises(IllegalAction, match="at most 1 each"):
        game.apply(PlaceNeutral(((first[2], 2), (first[3], 1), (first[4], 1))))
    events = game.apply(PlaceNeutral(tuple((t, 1) for t in first.values())))
    assert [e.neutral for e in events if type(e) is NeutralPlaced] == [2, 3, 4, 5]
    assert decision(game).kind is Kind.PLACE and decision(game).player != d.player


def test_2004_passive_neutrals_are_never_reinforced_nor_moved():
    """Seed 000: "Puolueettomat armeijat pysyvät pelilaudalla, kunnes ne tuhotaan. Niitä ei
    voi siirtää, ne eivät voi saada vahvistusjoukkoja eivätkä ne voi hyökätä." """
    game = set_up("two-player-2004-passive", seed=9)
    neutral = [a for t, a in enumerate(game.armies) if game.owner[t] >= 2]
    for _ in range(6):
        kinds = set()
        while True:
            d = decision(game)
            kinds.add(d.kind)
            events = game.apply(
                Pass() if d.kind in (Kind.ATTACK, Kind.FORTIFY) else game.default_action()
            )
            if any(type(e) is TurnStarted for e in events):
                break
        assert kinds <= {Kind.PLACE, Kind.TRADE, Kind.ATTACK, Kind.FORTIFY}
    assert [a for t, a in enumerate(game.armies) if game.owner[t] >= 2] == neutral


@pytest.mark.parametrize("preset", [p for p in PRESETS if p != "two-player-classic"])
def test_destroying_the_opponent_wins_whatever_the_neutrals_hold(preset):
    """Seed 001: "Hensikten med dette spillet er å tilintetgjøre alle troppene som tilhører
    motstanderen. Den første spilleren som klarer dette, vinner, uansett hvordan de nøytrale
    troppene står." Seed 000: "Pelin tarkoituksena on tuhota vastustajasi." """
    game = set_up(preset, seed=10)
    mover = game.current
    owner = list(game.owner)
    victim = 1 - mover
    last = next(t for t in range(42) if owner[t] == victim)
    source = game.board.neighbours[last][0]
    owner = [mover if o == victim else o for o in owner]
    owner[last], owner[source] = victim, mover
    arrange(game, owner, [1] * 42)
    game.armies[source] = 30
    game.players[mover].cards.clear()
    game.players[victim].cards.clear()
    to_attack(game)
    while not game.over:
        d = decision(game)
        if d.kind is Kind.ATTACK:
            game.apply(Attack(source, last, 3))
        else:
            game.apply(game.default_action())
    assert game.places == ((1, 2) if mover == 0 else (2, 1))
    assert game.finish_reason == "conquest"
    assert any(game.owner[t] >= 2 for t in range(42))  # the neutrals still stand


# ------------------------------------------------------------------ active neutrals (seed 000)
def test_a_bribe_moves_the_neutral_one_step_toward_the_giver():
    """Seed 000: "Vuorosi alussa sinulla on mahdollisuus antaa aluekortti ... puolueettomalle
    ... Siirrä puolueettoman kanuunaa seuraavaksi YHDEN aseman verran. Jos kanuuna on
    esimerkiksi sitoutumattomassa asemassa, siirrä kanuuna itsellesi omaksi liittolaiseksesi." """
    game = active_turn(seed=11, hand=(0, 1))
    d = decision(game)
    assert d.kind is Kind.BRIBE and d.player == 0 and d.seats == (2, 3, 4, 5) and d.maximum == 2
    events = game.apply(Bribe(3, (1,)))
    assert Bribed(0, 3, 1) in events and AllegianceChanged(3, 0, 0) in events
    assert game.players[3].ally_of == 0 and game.players[3].cards == [1]
    assert game.players[0].cards == [0]


def test_two_cards_turn_the_opponents_ally_into_yours():
    """Seed 000: "Jos esimerkiksi joku puolueeton on vastustajasi liittolainen ja annat
    puolueettomalle kaksi aluekorttia, voit nyt siirtää kanuunaa kaksi asemaa kohti itseäsi.
    Näin puolueettomasta tulee sinun liittolaisesi." """
    game = active_turn(seed=12, ally_of={4: 1}, hand=(5, 6, 7))
    events = game.apply(Bribe(4, (5, 6)))
    assert [e for e in events if type(e) is AllegianceChanged] == [
        AllegianceChanged(4, -1, 0),
        AllegianceChanged(4, 0, 0),
    ]
    assert decision(game).kind is Kind.BRIBE  # more neutrals may be bribed the same turn
    game.apply(Pass())
    assert decision(game).kind is not Kind.BRIBE


def test_a_neutral_holding_five_cards_cannot_be_bribed():
    """Seed 000: "ET VOI antaa korttia puolueettomalle, jolla on jo viisi korttia sellaista
    puolueetonta ei voi enää lahjoa." """
    game = active_turn(seed=13)
    game.players[2].cards[:] = [20, 21, 22, 23, 24]
    game.players[3].cards[:] = [25, 26, 27, 28]
    game.players[0].cards[:] = [0, 1, 2]
    game._start_turn(0)
    d = decision(game)
    assert 2 not in d.seats and 3 in d.seats
    with pytest.raises(IllegalAction, match="not a neutral you may bribe"):
        game.apply(Bribe(2, (0,)))
    with pytest.raises(IllegalAction, match="1 to 1 cards"):
        game.apply(Bribe(3, (0, 1)))


def test_bribe_cards_cannot_be_traded_until_inherited():
    """Seed 000: "Aluekortti jää puolueettomalle, eikä sitä voi vaihtaa vahvistusjoukkoihin,
    ennen kuin kyseinen puolueeton armeija on tuhottu ja jompikumpi pelaajista perii armeijan
    kortit." """
    game = active_turn(seed=14)
    infantry = [c for c in range(42) if game.board.card_insignia[c] == "infantry"][:5]
    game.players[0].cards[:] = infantry
    game._start_turn(0)
    game.apply(Bribe(2, tuple(infantry[:3])))
    game.apply(Pass())
    d = decision(game)
    assert d.kind is not Kind.TRADE  # two cards left: no set
    assert game.players[2].cards == infantry[:3]
    game.pending = Decision(Kind.TRADE, 0)
    with pytest.raises(IllegalAction, match="do not hold"):
        game.apply(Trade((infantry[0], infantry[1], infantry[2])))


def test_allies_are_reinforced_by_a_die_on_their_own_territories_or_not_at_all():
    """Seed 000: "Valitse liittolainen ja heitä yhtä arpakuutiota saadaksesi selville, kuinka
    monta vahvistusjoukkoa liittolainen saa. Sijoita arpakuution silmäluvun osoittama määrä
    yksiköitä mille tahansa kyseiselle liittolaiselle kuuluvalle alueelle ... Sinun EI tarvitse
    vahvistaa liittolaista, jollet halua." """
    game = active_turn(seed=15, ally_of={2: 0, 5: 0})
    advance_to(game, Kind.PLACE, 0)
    (roll,) = predicted_neutral_die(game, 0)
    game.apply(Place(((0, decision(game).armies),)))
    d = decision(game)
    assert d.kind is Kind.REINFORCE_ALLY and d.seats == (2,) and d.armies == roll
    with pytest.raises(IllegalAction, match="not a territory of seat 2"):
        game.apply(ReinforceAlly(((38, roll),)))
    events = game.apply(ReinforceAlly(((26, roll),)))
    assert AllyReinforced(0, 2, roll, ((26, roll),)) in events and game.armies[26] == 3 + roll
    d = decision(game)
    assert d.kind is Kind.REINFORCE_ALLY and d.seats == (5,)
    events = game.apply(Pass())
    assert AllyReinforced(0, 5, d.armies, ()) in events
    assert decision(game).kind is Kind.ATTACK


def test_allies_territories_and_continents_do_not_count_for_reinforcements():
    """Seed 000: "Jätä liittolaistesi hallitsemat alueet ja maanosat pois laskuista
    vahvistusjoukkoja laskiessasi ... Liittolaiset eivät saa bonuksia maanosista." """
    game = active_turn(seed=16, ally_of={5: 0})  # the ally holds all of Australia
    assert game.reinforcements(0) == (13 // 3, 5 + 2)  # the Americas only, not Australia
    assert decision(game).armies == 4 + 7


def test_attacking_with_an_ally_but_never_its_own_colour_nor_you():
    """Seed 000: "Voit omalla vuorollasi hyökätä liittoutuneilla joukoilla samoin kuin
    omillasikin. Liittoutuneet joukot voivat hyökätä vastustajaasi, muita puolueettomia tai
    muita liittoutuneita kohti (mutta ei samaa väriä olevia kohti)." """
    game = active_turn(seed=17, ally_of={4: 0})
    to_attack(game)
    assert game.is_legal(Attack(35, 18, 2))  # ally 4's Middle East onto player 1's S. Europe
    assert game.is_legal(Attack(37, 38, 2))  # ... Siam onto neutral 5's Indonesia
    with pytest.raises(IllegalAction, match="your ally's"):
        game.check(Attack(35, 36, 2))  # Middle East onto India: the same colour
    with pytest.raises(IllegalAction, match="not yours"):
        game.check(Attack(33, 35, 2))  # neutral 3 is nobody's ally
    game.owner[36] = 0
    with pytest.raises(IllegalAction, match="is yours"):
        game.check(Attack(35, 36, 2))  # the ally never attacks its own player


def test_an_allys_conquest_is_the_allys_and_earns_no_card():
    """Seed 000: "Huomaa: Et voi saada yhtään aluekorttia käyttäessäsi liittolaista alueen
    valtaamisessa ... Saat aluekortin vain vallatessasi alueen omien joukkojesi avulla." """
    game = active_turn(seed=18, ally_of={4: 0})
    to_attack(game)
    game.armies[35], game.armies[18] = 40, 1
    events = []
    while game.owner[18] != 4:
        events += game.apply(Attack(35, 18, 3))
        if decision(game).kind is Kind.OCCUPY:
            events += game.apply(Occupy(decision(game).minimum))
    assert game.owner[18] == 4
    while game.current == 0 and not game.over:
        d = decision(game)
        events += game.apply(
            Pass()
            if d.kind in (Kind.ATTACK, Kind.FORTIFY, Kind.FORTIFY_ALLY)
            else game.default_action()
        )
    assert not [e for e in events if type(e) is CardDrawn and e.player == 0]


def test_after_an_attempt_on_a_neutral_a_die_of_1_to_4_moves_it_away():
    """Seed 000: "Kun valloituksesi puolueettoman alueelle (lopputuloksesta riippumatta) on
    päättynyt ... heitä yhtä arpakuutiota. Jos saat silmäluvuksi 1, 2, 3 tai 4, siirrä
    puolueettoman kanuunaa yhden aseman verran itsestäsi POISPÄIN ... Jos saat silmäluvuksi
    viisi tai kuusi, puolueeton tai liittoutunut säilyttää asemansa." (the example: Quebec
    attacked, "Arpakuution silmäluku näyttää numeroa kolme", grey becomes red's ally)"""
    seen = set()
    for seed in range(40):
        game = active_turn(seed=seed)
        to_attack(game)
        game.armies[0], game.armies[29] = 4, 9  # Alaska onto neutral 2's Kamchatka
        game.apply(Attack(0, 29, 3))
        if decision(game).kind is Kind.DEFEND:
            game.apply(Defend(2))
        (roll,) = predicted_neutral_die(game, 0)
        events = game.apply(Pass())  # the attempt ends
        moved = roll <= 4
        assert game.players[2].ally_of == (1 if moved else -1), (seed, roll)
        assert (AllegianceChanged(2, 1, roll) in events) == moved
        seen.add(moved)
        if seen == {True, False}:
            break
    assert seen == {True, False}


def test_an_ally_attacking_another_neutral_rolls_a_die_for_each():
    """Seed 000: "Jos käytät liittolaista hyökätäksesi toista puolueetonta kohti, heitä yhtä
    arpakuutiota jokaisen puolueettoman armeijan puolesta." """
    game = active_turn(seed=19, ally_of={4: 0})
    to_attack(game)
    game.armies[37], game.armies[38] = 9, 9  # ally 4's Siam onto neutral 5's Indonesia
    game.apply(Attack(37, 38, 3))
    if decision(game).kind is Kind.DEFEND:
        game.apply(Defend(2))
    first, second = predicted_neutral_die(game, 0, 2)
    game.apply(Pass())
    assert game.players[5].ally_of == (1 if first <= 4 else -1)  # the attacked one first
    assert game.players[4].ally_of == (-1 if second <= 4 else 0)  # then the ally


def test_destroying_a_neutral_gives_you_its_cards():
    """Seed 000: "Jos tuhoat puolueettoman armeijan (voitat puolueettomien viimeisenkin
    yksikön pelilaudalla) oman tai liittolaisarmeijasi avulla, saat voitetun armeijan
    mahdolliset aluekortit itsellesi." """
    game = active_turn(seed=20, ally_of={4: 0})
    to_attack(game)
    owner = list(game.owner)
    for t in (38, 39, 40):
        owner[t] = 4
    arrange(game, owner, [3] * 37 + [40, 1, 1, 1, 1])  # neutral 5 keeps Eastern Australia
    game.armies[40] = 40
    game.players[5].cards[:] = [3, 4]
    events = []
    while game.owner[41] == 5:
        events += game.apply(Attack(40, 41, 3))
        if decision(game).kind is Kind.OCCUPY:
            events += game.apply(Occupy(decision(game).minimum))
    assert Eliminated(5, 0, 2) in events
    assert {3, 4} <= set(game.players[0].cards) and not game.players[5].cards
    assert game.players[5].eliminated and not game.over


def test_each_ally_gets_one_free_fortifying_move():
    """Seed 000: "6. Liittoutuneiden ryhmittäminen: Voit myös tehdä yhden vapaan siirron
    jokaisen liittolaisesi puolesta. Lujita näiden joukkojen asemia samoin kuin lujittaisit
    omia asemiasi." """
    game = active_turn(seed=21, ally_of={2: 0})
    advance_to(game, Kind.FORTIFY_ALLY, 0)
    d = decision(game)
    assert d.seats == (2,)
    with pytest.raises(IllegalAction, match="not your ally 2's"):
        game.apply(FortifyAlly(26, 19, 1))
    events = game.apply(FortifyAlly(28, 26, 2))  # Yakutsk to Ural through Siberia (connected)
    assert AllyFortified(0, 2, ((28, 26, 2),)) in events
    assert any(type(e) is TurnStarted and e.player == 1 for e in events)


def test_the_active_turn_order():
    """Seed 000: "1. Puolueettomien lahjominen 2. Vahvistusjoukkojen hankkiminen ja
    sijoittaminen 3. Liittoutuneiden vahvistaminen 4. Taistelu 5. Ryhmittäminen
    6. Liittoutuneiden ryhmittäminen 7. Aluekortin hankkiminen" """
    game = active_turn(seed=22, ally_of={2: 0}, hand=(9,))
    kinds = []
    while game.current == 0:
        d = decision(game)
        kinds.append(d.kind)
        game.apply(Pass() if d.kind in PASS_KINDS else game.default_action())
    assert kinds == [
        Kind.BRIBE,
        Kind.PLACE,
        Kind.REINFORCE_ALLY,
        Kind.ATTACK,
        Kind.FORTIFY,
        Kind.FORTIFY_ALLY,
    ]


def test_an_attempt_ends_when_the_player_attacks_elsewhere_and_may_cost_the_next_attack():
    """Seed 000: "Kun valloitus on päättynyt liittoutunutta armeijaa käytettyäsi, heitä yhtä
    arpakuutiota" — the die comes when the attempt ends; hegemon ends it at the player's next
    different attack, and if the die turns away the ally that attack would use, the attack is
    not made and the player is asked again."""
    for seed in range(60):
        game = active_turn(seed=seed, ally_of={4: 0})
        to_attack(game)
        game.armies[35], game.armies[18], game.armies[36] = 9, 9, 9
        game.apply(Attack(35, 18, 3))  # ally 4's Middle East onto player 1's Southern Europe
        if decision(game).kind is Kind.DEFEND:
            game.apply(Defend(2))
        (roll,) = predicted_neutral_die(game, 0)
        if roll > 4:
            continue
        events = game.apply(Attack(36, 33, 3))  # the same ally's India onto Afghanistan
        assert AllegianceChanged(4, -1, roll) in events
        assert not [e for e in events if type(e) is Battle]  # not the ally's any more
        assert decision(game).kind is Kind.ATTACK and not game.is_legal(Attack(36, 33, 3))
        return
    pytest.fail("no seed rolled 1-4")
