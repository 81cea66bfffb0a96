"""Risiko! Master's Base, Expert and Master rules, each from its rulebook text (seed 003,
``003_42a7c49e87aa0720.txt``; docs/rules.md §7), played through ``Game.apply``."""

from __future__ import annotations

from itertools import product

import pytest

from hegemon.referee import (
    Attack,
    Claim,
    Defend,
    Fortify,
    Game,
    GameSetupError,
    Occupy,
    Pass,
    Place,
    RulesError,
    Trade,
    make_rules,
)
from hegemon.referee.actions import BuildCentre
from hegemon.referee.compose import compose, draw_layout
from hegemon.referee.decisions import Decision, Kind
from hegemon.referee.dice import compare
from hegemon.referee.editions.master import victory_threshold
from hegemon.referee.events import (
    Battle,
    CardDrawn,
    CentreBuilt,
    Conquered,
    Eliminated,
    Fortified,
    Traded,
    TurnStarted,
)
from tests.helpers.game import arrange, give_cards, of, pending, refused, setup_done

BASE, EXPERT, MASTER = "risiko-master-base", "risiko-master-expert", "risiko-master-master"


def duel(preset, armies_me=10, armies_foe=1, **options):
    """The current seat ``me`` holds ``a`` beside ``foe``'s ``b``; foe also holds one far
    territory (so ``b`` is not its last); a third seat holds the rest.
    Returns (game, me, foe, a, b)."""
    game = setup_done(preset, **options)
    me = game.current
    foe, third = (me + 1) % 4, (me + 2) % 4
    board = game.board
    a = max(range(board.size), key=lambda t: (len(board.neighbours[t]), -t))
    b = board.neighbours[a][0]
    far = next(t for t in range(board.size) if t not in (a, b) and t not in board.adjacency[a])
    owner = [third] * board.size
    owner[a], owner[b], owner[far] = me, foe, foe
    owner[board.size - 1] = (me + 3) % 4 if board.size - 1 not in (a, b, far) else third
    armies = [2] * board.size
    armies[a], armies[b] = armies_me, armies_foe
    arrange(game, owner, armies)
    return game, me, foe, a, b


def place_on(game, territory):
    d = pending(game)
    assert d.kind is Kind.PLACE
    return game.apply(Place(((territory, d.armies),)))


# ---------------------------------------------------------------------- set-up
def test_occupation_by_twos_within_a_quadrant():
    """Seed 003, Regolamento Base, "OCCUPAZIONE INIZIALE DEI TERRITORI": "Il giocatore di turno
    occupa un territorio a sua scelta con DUE carri. Il giocatore successivo deve occupare,
    sempre con DUE carri, un territorio libero a sua scelta, purchè facente parte dello stesso
    Quadrante. Si procede così fino a che il Quadrante non è stato interamente occupato,
    quindi, si può passare ad un altro Quadrante a scelta del giocatore di turno"."""
    game = Game(make_rules(BASE), players=4, seed=5)
    board = game.board
    assert len(pending(game).territories) == board.size  # the first claim: anywhere
    sigma = board.continents[-1]
    first = sigma.territories[0]
    game.apply(Claim(first))
    assert game.armies[first] == 2
    d = pending(game)
    assert set(d.territories) == set(sigma.territories) - {first}
    outside = board.continents[0].territories[0]
    refused(game, Claim(outside), "quadrant")
    for t in sigma.territories[1:]:
        game.apply(Claim(t))
    assert len(pending(game).territories) == board.size - len(sigma.territories)  # any quadrant
    while game.round == 0:
        game.apply(Claim(pending(game).territories[0]))
    # no other set-up armies: every territory holds the 2 it was claimed with
    assert set(game.armies) == {2}
    assert game.territory_count == [board.size // 4] * 4
    assert pending(game).kind in (Kind.PLACE, Kind.TRADE)


def test_the_territory_count_must_be_a_multiple_of_the_players():
    """Seed 003, "PREPARAZIONE DEL GIOCO": "facendo in modo che il totale dei territori in gioco
    sia multiplo del numero dei giocatori"."""
    spec = next(
        layout.spec
        for layout in (draw_layout(seed, 3) for seed in range(50))
        if compose(layout).board.size % 4
    )
    rules = make_rules(BASE, {"map": spec})
    with pytest.raises(GameSetupError, match="multiple of 4"):
        Game(rules, players=4, seed=1)
    Game(rules, players=3, seed=1)


# ---------------------------------------------------------------------- reinforcements
@pytest.mark.parametrize(
    "preset, territories, due",
    [
        (BASE, 8, 2),  # the rulebook's example "8 : 2 = 2", a misprint for 8 : 3
        (BASE, 2, 0),
        (BASE, 1, 0),
        (BASE, 13, 4),
        (EXPERT, 8, 3),
        (EXPERT, 3, 3),
        (EXPERT, 2, 2),
        (EXPERT, 1, 1),
        (EXPERT, 13, 4),
    ],
)
def test_reinforcements(preset, territories, due):
    """Seed 003, Base "i suoi rinforzi": "dividere per tre il numero di territori in suo
    possesso, arrotondando il risultato per difetto ... Un giocatore con meno di 3 territori
    non ha diritto ad alcun rinforzo"; Expert "RINFORZI": "riceve sempre un minimo di 3 armate
    fino a che possiede almeno 3 territori. Se scende a 2 territori ne riceve 2 e se scende a
    1 ne riceve una sola"."""
    game = setup_done(preset)
    me = game.current
    board = game.board
    # spread over quadrants so that no quadrant is whole
    mine = [
        c.territories[1 + i // len(board.continents)]
        for i, c in zip(range(territories), list(board.continents) * 3, strict=False)
    ]
    owner = [(me + 1 + t % 3) % 4 for t in range(board.size)]
    for t in mine:
        owner[t] = me
    arrange(game, owner)
    assert game.reinforcements(me) == (due, 0)


def test_quadrant_bonus():
    """Seed 003, Base: "A queste armate si devono aggiungere quelle derivanti dall'occupazione
    completa di ogni Quadrante in base a quanto indicato sul Quadrante stesso"."""
    game = setup_done(BASE)
    me = game.current
    board = game.board
    sigma = board.continents[-1]
    owner = [(me + 1) % 4] * board.size
    for t in sigma.territories:
        owner[t] = me
    arrange(game, owner)
    assert game.reinforcements(me) == (len(sigma.territories) // 3, sigma.bonus)


# ---------------------------------------------------------------------- cards
def _cards(board, *insignia):
    chosen: list[int] = []
    for ins in insignia:
        chosen.append(
            next(
                c
                for c in range(board.card_count)
                if board.card_insignia[c] == ins and c not in chosen and board.extra_armies(c) == 0
            )
        )
    return tuple(chosen)


@pytest.mark.parametrize(
    "insignia, value",
    [
        (("infantry", "infantry", "infantry"), 8),
        (("cavalry", "cavalry", "cavalry"), 8),
        (("infantry", "cavalry", "artillery"), 10),
        (("wild", "artillery", "artillery"), 12),
    ],
)
def test_card_sets_8_10_12(insignia, value):
    """Seed 003, "TRIS DI CARTE": "Tre figure uguali = 8 armate Tre figure diverse = 10 Jolly
    più due figure uguali = 12"."""
    game = setup_done(BASE)
    me = game.current
    cards = _cards(game.board, *insignia)
    give_cards(game, me, cards)
    game.pending = Decision(Kind.TRADE, me)
    reserve = game.reserve
    events = game.apply(Trade(cards))
    assert of(events, Traded)[0].value == value
    assert game.reserve == reserve + value
    assert game.trade_count == 1
    assert game.next_trade_value(game.board.card_insignia[c] for c in cards) == value  # fixed


def test_cards_with_extra_armies_add_them_when_traded():
    """Seed 003: "Su alcune carte è presente anche la sagoma di uno o due carri. Questi carri
    supplementa-[ri]" (the sentence is cut off; docs/rules.md §7: "added when the card is
    traded")."""
    game = setup_done(BASE)
    me = game.current
    board = game.board
    extra = [c for c in range(board.card_count) if board.extra_armies(c) == 2]
    first = extra[0]
    ins = board.card_insignia[first]
    rest = [c for c in range(board.card_count) if board.card_insignia[c] == ins and c != first]
    rest = [c for c in rest if board.extra_armies(c) == 0][:2]
    cards = (first, rest[0], rest[1])
    give_cards(game, me, cards)
    game.pending = Decision(Kind.TRADE, me)
    reserve = game.reserve
    events = game.apply(Trade(cards))
    assert of(events, Traded)[0].value == 8 + 2
    assert game.reserve == reserve + 10


# ---------------------------------------------------------------------- combat
def test_the_defender_may_roll_three_dice():
    """Seed 003, "COMBATTIMENTI": "Il difensore, a sua volta, può difendersi con un massimo di
    tre carri"."""
    game, _me, foe, a, b = duel(BASE, armies_me=10, armies_foe=5)
    place_on(game, a)
    game.apply(Attack(a, b, 3))
    d = pending(game)
    assert (d.kind, d.player, d.maximum) == (Kind.DEFEND, foe, 3)
    events = game.apply(Defend(3))
    assert len(of(events, Battle)[0].defend_dice) == 3


def test_battle_counts_for_three_defender_dice_match_mapdata():
    """docs/map-data.md §4, enumerated over every roll: 1 v 3, 2 v 3 and 3 v 3 (the Risiko! rule of
    seed 003: "Il dado dell'attaccante con il valore più alto con quello di valore più alto del
    difensore ... In caso di parità, vince sempre il difensore")."""
    expected = {
        1: {(0, 1): 225, (1, 0): 1071},
        2: {(0, 2): 979, (1, 1): 1981, (2, 0): 4816},
        3: {(0, 3): 6420, (1, 2): 10017, (2, 1): 12348, (3, 0): 17871},
    }
    for attack, counts in expected.items():
        found: dict[tuple[int, int], int] = {}
        for roll in product(range(1, 7), repeat=attack + 3):
            high_first = sorted(roll[:attack], reverse=True), sorted(roll[attack:], reverse=True)
            outcome = compare(*high_first)
            found[outcome] = found.get(outcome, 0) + 1
        assert found == counts


def test_drawing_the_card_ends_the_turn():
    """Seed 003, "CONQUISTA DELLA CARTA": "non si può prendere più di una carta per turno ...
    Prendere la carta indica, senza possibilità di ripensamenti, la decisione di terminare il
    proprio turno di gioco"."""
    game, me, _foe, a, b = duel(BASE, armies_me=30, armies_foe=1)
    place_on(game, a)
    events = game.apply(Attack(a, b, 3))
    if pending(game).kind is Kind.DEFEND:
        events += game.apply(Defend(1))
    while not of(events, Conquered):
        events = game.apply(Attack(a, b, 3))
    if pending(game).kind is Kind.OCCUPY:
        game.apply(Occupy(pending(game).minimum))
    game.apply(Pass())  # no more attacks
    events = game.apply(Pass())  # no strategic move: the card is drawn and the turn is over
    drawn = [i for i, e in enumerate(events) if type(e) is CardDrawn]
    started = [i for i, e in enumerate(events) if type(e) is TurnStarted]
    assert len(drawn) == 1 and events[drawn[0]].player == me
    assert started and started[0] > drawn[0] and game.current != me


def test_base_strategic_move_is_one_to_one_adjacent():
    """Seed 003, "SPOSTAMENTO STRATEGICO": "Una sola volta a turno, alla FINE di tutti i
    combattimenti ... da un proprio territorio (uno solo) tanti carri quanti si desidera in un
    qualsiasi proprio territorio adiacente"."""
    game = setup_done(BASE)
    me = game.current
    board = game.board
    a = max(range(board.size), key=lambda t: (len(board.neighbours[t]), -t))
    n1 = board.neighbours[a][0]
    far = next(t for t in range(board.size) if t != a and t not in board.adjacency[a])
    owner = [(me + 1) % 4] * board.size
    owner[a] = owner[n1] = owner[far] = me
    arrange(game, owner, [2] * board.size)
    place_on(game, far)
    while pending(game).kind is Kind.ATTACK:
        game.apply(Pass())
    game.armies[a] = 9
    refused(game, Fortify(a, far, 1), "does not border")
    events = game.apply(Fortify(a, n1, 8))  # as many as wished, one stays
    assert game.armies[a] == 1
    assert of(events, Fortified) and of(events, TurnStarted)  # one move, then the turn ends


# ---------------------------------------------------------------------- Expert
def test_expert_defender_always_rolls_the_most_dice():
    """Seed 003, Expert "LIMITAZIONI ALLA REGOLA DEGLI ATTACCHI": "Il difensore deve sempre
    difendersi con il massimo possibile dei carri a disposizione"."""
    game, _me, _foe, a, b = duel(EXPERT, armies_me=10, armies_foe=5)
    place_on(game, a)
    events = game.apply(Attack(a, b, 3))
    assert len(of(events, Battle)[0].defend_dice) == 3  # no DEFEND decision was posed


def test_expert_attacker_never_rolls_fewer_dice_than_the_defender():
    """Seed 003, Expert: "L'attaccante non può mai effettuare un attacco lanciando un numero di
    dadi inferiore a quello del difensore"."""
    game, _me, _foe, a, b = duel(EXPERT, armies_me=10, armies_foe=3)
    place_on(game, a)
    refused(game, Attack(a, b, 2), "3 to 3")
    assert all(x.dice == 3 for x in game.legal_actions() if isinstance(x, Attack) and x.target == b)
    game.apply(Attack(a, b, 3))
    # three armies roll two dice at most: a defender of 3 cannot be attacked from there
    game.armies[a], game.armies[b] = 3, 3
    game.pending = Decision(Kind.ATTACK, game.current)
    refused(game, Attack(a, b, 2), "3 to 2")
    offered = [x for x in game.legal_actions() if isinstance(x, Attack) and x.source == a]
    assert offered and all(x.target != b and x.dice == 2 for x in offered)  # others hold 2


def test_expert_compulsory_attack_after_placing_three():
    """Seed 003, Expert "OBBLIGO DI ATTACCO": "Chi ha messo in campo almeno 3 armate è obbligato
    ad attaccare almeno una volta nel turno in corso"."""
    game, _me, _foe, a, b = duel(EXPERT, armies_me=10, armies_foe=1)
    assert pending(game).armies >= 3
    place_on(game, a)
    d = pending(game)
    assert d.kind is Kind.ATTACK and d.forced
    assert Pass() not in game.legal_actions()
    refused(game, Pass(), "must attack")
    assert not isinstance(game.default_action(), Pass)
    game.armies[b] = 5  # survives one battle
    game.apply(Attack(a, b, 3))
    d = pending(game)
    assert d.kind is Kind.ATTACK and not d.forced
    game.apply(Pass())


def test_expert_garrison_of_three_on_borders():
    """Seed 003, Expert "GUARNIGIONE MINIMA": "un giocatore non può mai effettuare uno
    spostamento strategico, lasciando meno di 3 armate di difesa su un proprio territorio
    confinante con uno o più territori nemici. In tutti gli altri casi, la guarnigione minima
    è di un carro per territorio"."""
    game = setup_done(EXPERT)
    me = game.current
    board = game.board
    quadrant = board.continents[0].territories
    owner = [(me + 1) % 4] * board.size
    for t in quadrant:
        owner[t] = me
    arrange(game, owner, [2] * board.size)
    front = next(t for t in quadrant if any(owner[n] != me for n in board.neighbours[t]))
    inside = [t for t in quadrant if all(owner[n] == me for n in board.neighbours[t])]
    to = next(n for n in board.neighbours[front] if owner[n] == me)
    game.armies[front] = 8
    game.pending = Decision(Kind.FORTIFY, me)
    refused(game, Fortify(front, to, 6), "garrison")
    if inside:
        src = inside[0]
        game.armies[src] = 5
        dst = board.neighbours[src][0]
        assert Fortify(src, dst, 4) in game.legal_actions()
    events = game.apply(Fortify(front, to, 5))
    assert of(events, Fortified)[0].armies == 5 and game.armies[front] == 3


def test_expert_strategic_move_many_into_one():
    """Seed 003, Expert "SPOSTAMENTO STRATEGICO": "Un giocatore può spostare in un proprio
    territorio tutte le armate che desidera che siano adiacenti al [territorio]"."""
    game = setup_done(EXPERT)
    me = game.current
    board = game.board
    hub = max(range(board.size), key=lambda t: (len(board.neighbours[t]), -t))
    ring = list(board.neighbours[hub])
    owner = [(me + 1) % 4] * board.size
    for t in (hub, *ring):
        owner[t] = me
    arrange(game, owner, [2] * board.size)
    for t in ring:
        game.armies[t] = 6
    game.pending = Decision(Kind.FORTIFY, me)
    first, second = ring[:2]
    game.apply(Fortify(first, hub, 1))
    d = pending(game)
    assert d.kind is Kind.FORTIFY and d.target == hub and first not in d.territories
    other = next((n for n in board.neighbours[second] if n != hub and owner[n] == me), None)
    if other is not None:
        refused(game, Fortify(second, other, 1), "into")
    refused(game, Fortify(first, hub, 1), "once from each")
    before = game.armies[hub]
    game.apply(Fortify(second, hub, 1))
    assert game.armies[hub] == before + 1
    game.apply(Pass())
    assert game.current != me


def test_expert_no_elimination_before_round_five():
    """Seed 003, Expert "ELIMINAZIONE DI UN GIOCATORE": "A partire dal quinto turno di gioco, è
    possibile eliminare un avversario, conquistando il suo ultimo territorio"."""
    game, _me, foe, a, b = duel(EXPERT, armies_me=20, armies_foe=1)
    far = next(t for t in range(game.board.size) if game.owner[t] == foe and t != b)
    game.owner[far] = (foe + 1) % 4
    game.territory_count[foe] -= 1
    game.territory_count[(foe + 1) % 4] += 1
    assert game.round < 5
    place_on(game, a)
    refused(game, Attack(a, b, 1), "before round 5")
    assert not any(isinstance(x, Attack) and x.target == b for x in game.legal_actions())
    game.round = 5
    game.pending = Decision(Kind.ATTACK, game.current)
    events = game.apply(Attack(a, b, 1))
    assert of(events, Battle)


def test_expert_eliminator_uses_the_cards_from_its_next_reinforcement():
    """Seed 003, Expert: "Chi riesce in questa impresa, si aggiudica tutte le carte eventualmente
    in mano al difensore (anche se non potrà utilizzarle fino alla sua prossima fase di
    rinforzo)"."""
    game, me, foe, a, b = duel(EXPERT, armies_me=40, armies_foe=1)
    far = next(t for t in range(game.board.size) if game.owner[t] == foe and t != b)
    game.owner[far] = (foe + 1) % 4
    game.territory_count[foe] -= 1
    game.territory_count[(foe + 1) % 4] += 1
    game.round = 5
    board = game.board
    give_cards(
        game, foe, [c for c in range(board.card_count) if board.card_insignia[c] == "infantry"][:6]
    )
    place_on(game, a)
    events = game.apply(Attack(a, b, 1))
    while not of(events, Eliminated):
        events = game.apply(Attack(a, b, 1))
    assert len(game.players[me].cards) == 6
    assert pending(game).kind in (Kind.OCCUPY, Kind.ATTACK)  # no trade now


# ---------------------------------------------------------------------- victory
def test_victory_threshold_example():
    """Seed 003, Expert "VITTORIA": "23 Alfa + 31 Delta + 28 Omega + 32 Tau + 45 Epsilon + 16
    Sigma = 175:2=87,5+1=88,5=88"."""
    assert victory_threshold(175) == 88
    assert setup_done(EXPERT).board.total_value() == 175


def _points_position(preset, quadrants, extra_value):
    """me holds ``quadrants`` whole plus territories of other quadrants worth at least
    ``extra_value`` (territories under Base), and is about to conquer one more.
    Returns (game, me)."""
    game = setup_done(preset)
    me = game.current
    board = game.board
    owner = [(me + 1 + t % 3) % 4 for t in range(board.size)]
    for c in board.continents[:quadrants]:
        for t in c.territories:
            owner[t] = me
    got = 0
    for c in board.continents[quadrants:]:
        for t in c.territories[1:]:
            if got < extra_value:
                owner[t] = me
                got += board.territories[t].value if preset != BASE else 1
    arrange(game, owner, [2] * board.size)
    return game, me


def conquer_one(game, me):
    """Place everything on a border territory and take a neighbour with 1 army (one that
    completes no quadrant)."""
    board = game.board

    def others_in_quadrant(t):
        quadrant = board.continents[board.territories[t].continent]
        return sum(1 for x in quadrant.territories if game.owner[x] != me)

    src, dst = next(
        (t, n) for t in range(board.size) if game.owner[t] == me
        for n in board.neighbours[t] if game.owner[n] != me and others_in_quadrant(n) > 1
    )  # fmt: skip
    game.armies[src], game.armies[dst] = 30, 1
    place_on(game, src)
    events: list = []
    while not of(events, Conquered):
        events += game.apply(Attack(src, dst, 3))
        if not game.over and pending(game).kind is Kind.DEFEND:
            events += game.apply(Defend(1))
    if not game.over and pending(game).kind is Kind.OCCUPY:
        events += game.apply(Occupy(pending(game).minimum))
    return events


def test_expert_victory_by_values_with_two_quadrants():
    """Seed 003, Expert "VITTORIA": "Chi riesce ad entrare in possesso di un totale di punti,
    pari alla metà più uno di quelli iniziali (arrotondando per difetto), controllando almeno 2
    quadranti, si aggiudica la partita"."""
    board = setup_done(EXPERT).board
    two = sum(board.territories[t].value for c in board.continents[:2] for t in c.territories)
    game, me = _points_position(EXPERT, 2, 88 - two)
    values = sum(board.territories[t].value for t in range(board.size) if game.owner[t] == me)
    assert values >= 88
    conquer_one(game, me)  # the points are checked whenever territories change hands
    assert game.over and game.finish_reason == "points" and game.places[me] == 1


def test_values_without_two_whole_quadrants_do_not_win():
    """Seed 003, Expert "VITTORIA": "... controllando almeno 2 quadranti"."""
    game, me = _points_position(EXPERT, 1, 120)
    conquer_one(game, me)
    assert not game.over


def test_base_victory_by_half_the_territories_with_two_quadrants():
    """Seed 003, Regolamento Base, "SCOPO DEL GIOCO": "entrare in possesso di almeno la metà dei
    territori, controllando completamente almeno due Quadranti"."""
    board = setup_done(BASE).board
    two = sum(len(c.territories) for c in board.continents[:2])
    game, me = _points_position(BASE, 2, board.size // 2 - two - 1)
    assert game.territory_count[me] * 2 == board.size - 2  # one short of half
    conquer_one(game, me)
    assert game.territory_count[me] * 2 == board.size
    assert game.over and game.finish_reason == "points" and game.places[me] == 1


# ---------------------------------------------------------------------- Master
def test_master_production_centres():
    """Seed 003, Regole Master, "CENTRI DI PRODUZIONE": "Un Centro di Produzione costa come 3
    carri e può essere messo su qualsiasi territorio ancora privo di un Centro di Produzione
    ... una volta collocato, appartiene a chi controlla quel territorio. Un Centro di
    Produzione non viene mai distrutto." What it produces is hegemon's rule (option
    ``centre_production``: armies added to the owner's reinforcements, 1 by default)."""
    game = setup_done(MASTER)
    me = game.current
    d = pending(game)
    assert d.kind is Kind.BUILD_CENTRE and d.armies == 3
    assert set(d.territories) == {t for t in range(game.board.size) if game.owner[t] == me}
    reserve = game.reserve
    site = d.territories[0]
    refused(game, BuildCentre(next(t for t in range(game.board.size) if game.owner[t] != me)))
    events = game.apply(BuildCentre(site))
    assert of(events, CentreBuilt) == [CentreBuilt(me, site, 3)]
    assert game.reserve == reserve - 3 and game.centres == [site]
    if pending(game).kind is Kind.BUILD_CENTRE:
        assert site not in pending(game).territories
        game.apply(Pass())
    due = game.reinforcements(me)
    game.centres.append(
        next(t for t in range(game.board.size) if game.owner[t] == me and t != site)
    )
    assert game.reinforcements(me)[0] == due[0] + 1
    # it belongs to whoever controls the territory
    other = (me + 1) % 4
    game.owner[site] = other
    assert game.reinforcements(other)[0] >= 1
    from hegemon.referee.editions.master import centre_armies

    assert centre_armies(game.rules, game.owner, game.centres, other) == 1


def test_master_centre_production_is_an_option_and_at_most_fifteen():
    """Seed 003: "Il numero massimo di Centri di Produzione che possono essere costruiti è dato
    dal numero di gettoni trasparenti contenuti nella confezione" (15 "Coperture")."""
    game = setup_done(MASTER, centre_production=2)
    me = game.current
    own = [t for t in range(game.board.size) if game.owner[t] == me]
    game.centres[:] = own[:1]
    from hegemon.referee.editions.master import centre_armies

    assert centre_armies(game.rules, game.owner, game.centres, me) == 2
    game.centres[:] = list(range(15))
    game.reserve = 10
    from hegemon.referee.editions.master import centre_sites

    assert centre_sites(game.rules, game.owner, game.centres, game.reserve, me) == ()
    assert not make_rules(EXPERT).centre_production
    with pytest.raises(RulesError, match="out of range"):
        make_rules(MASTER, {"centre_production": 9})


def test_a_game_ended_by_the_turn_limit_ranks_by_territory_values():
    """Expert and Master race for points (seed 003 "VITTORIA"), so a game cut short ranks the
    players by their territory values (hegemon's rule; then armies)."""
    game = setup_done(EXPERT, turn_limit=1)
    board = game.board
    me = game.current
    richest = max(
        board.continents, key=lambda c: sum(board.territories[t].value for t in c.territories)
    )
    owner = [(me + 1 + t % 3) % 4 for t in range(board.size)]
    for t in richest.territories[1:]:
        owner[t] = me
    arrange(game, owner, [2] * board.size)
    while not game.over:
        d = pending(game)
        game.apply(
            Pass()
            if d.kind in (Kind.ATTACK, Kind.FORTIFY, Kind.TRADE) and not d.forced
            else game.default_action()
        )
    assert game.finish_reason == "turn limit"
    values = [
        sum(board.territories[t].value for t in range(board.size) if game.owner[t] == s)
        for s in range(4)
    ]
    places = game.places
    assert places is not None
    order = sorted(range(4), key=lambda s: places[s])
    assert [values[s] for s in order] == sorted(values, reverse=True)
