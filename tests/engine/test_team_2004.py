"""Team Risk, preset ``team-2004`` (docs/rules.md §4): each rule tested from its rulebook text, seed
``000_3f7912df253811fb.txt`` (the 2004 Finnish edition, section "JOUKKUE"), quoted in each
test; property tests; the hidden information; the sample bots (Python and Node) playing it."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hegemon.referee import Attack, Defend, Fortify, Game, IllegalAction, Kind, Pass, make_rules
from hegemon.referee.editions import teams as teamlib
from hegemon.referee.events import Battle, Claimed, Placed, Traded, redact
from hegemon.referee.game import GameSetupError
from hegemon.referee.record import replay
from hegemon.referee.view import view_for
from hegemon.referee.wire import bot_pb2_grpc, codec
from hegemon.sdk import (
    armies_of,
    controlled_territories,
    friendly_reach,
    is_enemy_territory,
    is_team_game,
    play_local,
    team_mates,
)
from tests.helpers.game import pending, setup_done
from tests.helpers.league import board_csv, season_of_preset
from tests.helpers.node import node_bot  # noqa: F401 (the running Node bot, a fixture)

SEED_000 = "000_3f7912df253811fb.txt"
PRESET = "team-2004"


# ------------------------------------------------------------------ arranging a position
def hold(game: Game, t: int, held: dict[int, int]) -> None:
    """Overwrite territory ``t``: ``held`` is {seat: armies} (the primary: the most armies,
    the lowest seat among equals), keeping the presence counts."""
    for seat in teamlib.holdings(game)[t]:
        game.territory_count[seat] -= 1
    game.stacks.pop(t, None)
    best = max(held.values())
    primary = min(s for s, n in held.items() if n == best)
    game.owner[t], game.armies[t] = primary, held[primary]
    rest = {s: n for s, n in held.items() if s != primary}
    if rest:
        game.stacks[t] = rest
    for seat in held:
        game.territory_count[seat] += 1


def total_armies(game: Game) -> int:
    """Every army on the board, shared territories' included."""
    return sum(sum(held.values()) for held in teamlib.holdings(game))


def board_of(game: Game, default: dict[int, int], **named: dict[int, int]) -> None:
    """Every territory ``default`` but those named (``Middle_East`` for "Middle East")."""
    index = {game.board.name_of(t).replace(" ", "_"): t for t in range(game.board.size)}
    for t in range(game.board.size):
        hold(game, t, default)
    for name, held in named.items():
        hold(game, index[name], held)


def turn_of(game: Game, seat: int, kind: Kind) -> Game:
    """Play default actions until ``seat``'s own turn poses ``kind``."""
    for _ in range(10_000):
        d = pending(game)
        if d.player == seat == game.current and d.kind is kind:
            return game
        game.apply(game.default_action())
    raise AssertionError(f"seat {seat} was never asked {kind}")


def t(game: Game, name: str) -> int:
    return game.board.index(name)


# ------------------------------------------------------------------ the rules, one test each
def test_seating_alternates_the_two_teams_of_4_to_6_players():
    """Seed 000: "4 6 pelaajaa kahdessa joukkueessa" and "Pelaajien tulee istua siten, että
    molemmat joukkueet pääsevät vuorotellen pelaamaan" (the teams take turns)."""
    for players in (4, 5, 6):
        game = Game(make_rules(PRESET), players, seed=1)
        assert [p.team for p in game.players] == [s % 2 for s in range(players)]
        assert [s.team for s in view_for(game, 0).seats] == [s % 2 for s in range(players)]
    with pytest.raises(GameSetupError, match="4 to 6 players"):
        Game(make_rules(PRESET), 3, seed=1)


def test_card_values_are_by_insignia_without_the_golden_cavalry():
    """Seed 000: "Kultainen ratsuväki -merkki ei ole käytössä. Sen sijaan korttisarjojesi
    aselajitunnukset ratkaisevat, kuinka monta vahvistusjoukkoa saat"."""
    rules = make_rules(PRESET)
    assert rules.card_values == "insignia" and rules.teams == "on"
    assert rules.fortify == "connected"  # the 2004 edition's fortify, as in classic-2004


def test_control_is_by_majority_and_a_tie_is_nobodys():
    """Seed 000, the rulebook's example: "Hänellä [vihreä] ja valkoisilla pelaavalla on
    molemmilla neljä yksikköä Grönlannissa. Tässä tapauksessa vihreistä ja valkoisista
    joukoista kumpikaan ei hallitse Grönlantia. Valkoisilla pelaavalla on kaksi, punaisilla
    kaksi ja vihreillä kolme yksikköä Itäisissä Yhdysvalloissa. Vihreät joukot hallitsevat
    kyseistä aluetta"."""
    red, white, green, yellow = 0, 2, 4, 1  # red, white and green: one team
    game = setup_done(PRESET, players=6, seed=3)
    board_of(
        game,
        {yellow: 1},
        Greenland={green: 4, white: 4},
        Eastern_United_States={white: 2, red: 2, green: 3},
    )
    view = view_for(game, red)
    greenland, eus = t(game, "Greenland"), t(game, "Eastern United States")
    assert view.owner[greenland] == -1 and view.armies[greenland] == 0
    assert {(s, n) for x, s, n in view.stacks if x == greenland} == {(green, 4), (white, 4)}
    assert view.owner[eus] == green and view.armies[eus] == 3
    assert {(s, n) for x, s, n in view.stacks if x == eus} == {(white, 2), (red, 2)}
    assert armies_of(view, eus) == 2 and armies_of(view, eus, green) == 3
    assert controlled_territories(view, green) == [eus]
    assert view.seats[green].territories == 1 and view.seats[white].territories == 0
    # the codec carries the shared territories
    again = codec.view_from_proto(codec.view_to_proto(view), game.rules, game.board)
    assert again.stacks == view.stacks and again.owner == view.owner


def test_reinforcements_count_the_territories_a_player_controls():
    """Seed 000: "Hallitsemiesi alueiden määrää laskiessa sinun on otettava huomioon alueet,
    jotka jaat muiden joukkueesi jäsenien kesken" — with the example "Vihreillä pelaava
    hallitsee yksin seitsemää aluetta pelivuoronsa alussa": green controls 7 alone, the
    Eastern United States by majority, Greenland not (a tie)."""
    white, green, yellow = 2, 4, 1
    game = setup_done(PRESET, players=6, seed=3)
    board_of(
        game,
        {yellow: 1},
        Greenland={green: 4, white: 4},
        Eastern_United_States={white: 2, green: 3},
    )
    for name in ("Peru", "Brazil", "Argentina", "Egypt", "Congo", "Ural", "Siberia"):
        hold(game, t(game, name), {green: 2})
    assert game.reinforcements(green) == (3, 0)  # 8 controlled: max(3, 8 // 3)
    for name in ("Ukraine", "Iceland", "Scandinavia", "Japan"):
        hold(game, t(game, name), {green: 2, white: 1})
    assert game.reinforcements(green) == (4, 0)  # 12 controlled
    assert game.reinforcements(white) == (3, 0)


def test_a_continent_bonus_needs_one_player_controlling_all_of_it():
    """Seed 000: "Saadakseen maanosabonuksen yksittäisen pelaajan täytyy omistaa kyseisen
    maanosan kaikki alueet. Jos maanosan yhdeltäkin alueelta puuttuu määräenemmistö ...,
    maanosabonusta ei voi saada"."""
    game = setup_done(PRESET, players=4, seed=5)
    australia = ["Indonesia", "New_Guinea", "Western_Australia", "Eastern_Australia"]
    board_of(game, {1: 1}, **{name: {0: 3} for name in australia})
    assert game.reinforcements(0)[1] == 2  # one player controls all four
    hold(game, t(game, "New Guinea"), {0: 3, 2: 1})
    assert game.reinforcements(0)[1] == 2  # a team-mate's smaller stack changes nothing
    hold(game, t(game, "New Guinea"), {2: 3})
    assert game.reinforcements(0)[1] == 0 and game.reinforcements(2)[1] == 0  # two players
    hold(game, t(game, "New Guinea"), {0: 3, 2: 3})
    assert game.reinforcements(0)[1] == 0  # a tie: nobody controls New Guinea


def test_team_mates_are_never_attacked():
    """Seed 000: "Oman joukkueeseen kuuluvan pelaajan joukkoja kohti ei voi hyökätä"."""
    game = turn_of(setup_done(PRESET, players=4, seed=7), 0, Kind.ATTACK)
    board_of(game, {1: 1}, India={0: 6}, Siam={2: 1}, Middle_East={0: 1, 2: 1})
    india, siam, china = t(game, "India"), t(game, "Siam"), t(game, "China")
    with pytest.raises(IllegalAction, match="your team"):
        game.check(Attack(india, siam, 3))
    with pytest.raises(IllegalAction, match="your team"):
        game.check(Attack(india, t(game, "Middle East"), 3))
    assert game.is_legal(Attack(india, china, 3))
    view = view_for(game, 0)
    assert is_enemy_territory(view, china) and not is_enemy_territory(view, siam)
    assert not is_enemy_territory(view, t(game, "Middle East"))
    teams = teamlib.team_table(game)
    for action in game.legal_actions():
        if isinstance(action, Attack):
            assert teams[action.target] == 1


def test_fortify_goes_through_team_friendly_territory():
    """Seed 000, the rulebook's example: "Punaisilla joukoilla pelaava voi vuoronsa lopussa
    siirtää joukkojaan Indonesiasta Siamiin (vihreillä joukoilla pelaavan
    joukkueenjäsenen hallinnassa), Intiaan (punaisilla pelaavan hallinnassa), Lähi-Itään
    (valkoisilla ... ja vihreillä pelaavien hallinnassa) ja Itä-Afrikkaan. Tämä on sallittua,
    koska punaisilla pelaavan matka kulki vain ystävällismielisten alueiden halki"; and "Saat
    siirtää joukkojasi muiden joukkueenjäsenten alueille myös vastoin heidän tahtoaan"."""
    red, white, green, enemy = 0, 2, 4, 1
    game = turn_of(setup_done(PRESET, players=6, seed=9), red, Kind.ATTACK)
    board_of(
        game,
        {enemy: 1},
        Indonesia={red: 6},
        Siam={green: 2},
        India={red: 1},
        Middle_East={white: 1, green: 1},
        East_Africa={white: 1},
        Greenland={white: 1},  # a team territory reached only through the enemy
    )
    game.apply(Pass())  # no attack: to the fortify move
    assert pending(game).kind is Kind.FORTIFY
    indonesia = t(game, "Indonesia")
    for name in ("Siam", "India", "Middle East", "East Africa"):
        assert game.is_legal(Fortify(indonesia, t(game, name), 5)), name
    assert not game.is_legal(Fortify(indonesia, t(game, "Greenland"), 1))
    assert not game.is_legal(Fortify(indonesia, t(game, "China"), 1))  # the enemy's
    assert not game.is_legal(Fortify(indonesia, t(game, "Siam"), 6))  # one of red's stays
    assert not game.is_legal(Fortify(t(game, "Siam"), indonesia, 1))  # green's armies
    view = view_for(game, red)
    assert set(friendly_reach(view, indonesia)) == {
        t(game, n) for n in ("Siam", "India", "Middle East", "East Africa")
    }
    game.apply(Fortify(indonesia, t(game, "Siam"), 5))  # against green's will
    assert view_for(game, green).owner[t(game, "Siam")] == red


def test_the_teams_shared_hand_passes_to_the_next_team_mate():
    """Seed 000: "Joukkue jakaa aluekortit keskenään. Kun saat aluekortin, lisää se joukkueesi
    yhteisiin aluekortteihin. Anna joukkueen kortit seuraavalle pelaajalle oman vuorosi
    loputtua"; every member sees the team's hand, the other team only its size."""
    game = turn_of(setup_done(PRESET, players=4, seed=11), 0, Kind.ATTACK)
    game.players[0].cards = [5]  # the team's hand so far
    board_of(game, {1: 2}, India={0: 40}, Siam={3: 1}, Japan={3: 1})
    india, siam = t(game, "India"), t(game, "Siam")
    for _ in range(100):
        if pending(game).kind is not Kind.ATTACK:
            break
        game.apply(Attack(india, siam, 3))
    assert game.owner[siam] == 0 or pending(game).kind is Kind.OCCUPY
    while game.current == 0:
        game.apply(game.default_action())
    hand = game.players[2].cards
    assert len(hand) == 2 and 5 in hand and game.players[0].cards == []
    assert set(view_for(game, 0).hand) == set(hand)  # a team-mate sees it
    assert set(view_for(game, 2).hand) == set(hand)
    for opponent in (1, 3):
        view = view_for(game, opponent)
        assert not set(view.hand) & set(hand)
        assert view.seats[2].cards == 2 and view.seats[0].cards == 0


def test_the_first_team_to_destroy_an_opposing_player_wins():
    """Seed 000: "Se joukkue voittaa, joka ensimmäisenä onnistuu tuhoamaan jonkun vastapuolen
    pelaajan joukot" (and "Joukkue, joka ensimmäisenä tuhoaa YHDEN vastapuolen pelaajan,
    voittaa pelin")."""
    game = turn_of(setup_done(PRESET, players=4, seed=13), 2, Kind.ATTACK)
    board_of(game, {3: 2}, India={2: 60}, Siam={1: 1}, Ural={0: 1})
    india, siam = t(game, "India"), t(game, "Siam")
    for _ in range(100):
        if game.over:
            break
        game.apply(Attack(india, siam, 3))
    assert game.over and game.finish_reason == "team conquest"
    assert game.places == (1, 3, 1, 3)  # each seat's place is its team's
    assert game.players[1].eliminated and not game.players[3].eliminated
    assert game.armies[siam] > 0 and game.owner[siam] == 2  # moved in before the end


def test_a_shared_territory_defends_with_all_its_armies():
    """Seed 000 lets team-mates share a territory ("Pelaajat voivat jakaa alueita oman
    joukkueensa jäsenien kesken"); it is silent on battles, so hegemon's reading (see
    referee/editions/teams.py): all the armies there defend, losses come off the largest holding."""
    game = turn_of(setup_done(PRESET, players=4, seed=15), 0, Kind.ATTACK)
    board_of(game, {2: 1}, India={0: 30}, Siam={1: 1, 3: 1}, China={1: 1})
    india, siam = t(game, "India"), t(game, "Siam")
    assert teamlib.defence_dice(game, game.rules, siam) == 2
    total = total_armies(game)
    game.apply(Attack(india, siam, 3))
    d = pending(game)
    assert d.kind is Kind.DEFEND and d.player in (1, 3) and d.maximum == 2
    (battle,) = [e for e in game.apply(Defend(2)) if isinstance(e, Battle)]
    assert len(battle.defend_dice) == 2
    assert total_armies(game) == total - battle.attacker_losses - battle.defender_losses
    if battle.defender_losses == 1:  # one of the two holdings lost its army, not both
        assert sum(teamlib.holdings(game)[siam].values()) == 1


def test_losing_the_last_army_on_a_shared_territory_destroys_a_player():
    """Seed 000: "Se joukkue voittaa, joka ensimmäisenä onnistuu tuhoamaan jonkun vastapuolen
    pelaajan joukot": a player's armies are destroyed when its last army falls, even where a
    team-mate's armies hold the territory on."""
    game = turn_of(setup_done(PRESET, players=4, seed=17), 0, Kind.ATTACK)
    board_of(game, {3: 2}, India={0: 30}, Siam={1: 1, 3: 1}, Ural={2: 1})
    india, siam = t(game, "India"), t(game, "Siam")
    for _ in range(60):
        if game.over:
            break
        game.apply(Attack(india, siam, 1))
        if not game.over and pending(game).kind is Kind.DEFEND:
            game.apply(Defend(1))
    assert game.over and game.players[1].eliminated
    assert game.places == (1, 3, 1, 3)
    assert teamlib.holdings(game)[siam] == {3: 1}  # seat 3 still holds Siam: no conquest


# ------------------------------------------------------------------ properties
def check_invariants(game: Game) -> None:
    d = game.pending
    if game.round == 0 or (d is not None and d.kind is Kind.OCCUPY):
        return
    held = teamlib.holdings(game)
    for territory, h in enumerate(held):
        assert h and all(n > 0 for n in h.values()), f"empty territory {territory}"
        assert len({teamlib.team_of(s) for s in h}) == 1, "two teams on one territory"
        assert game.armies[territory] == max(h.values())
    for seat in range(game.player_count):
        assert game.territory_count[seat] == sum(1 for h in held if seat in h)
        if game.players[seat].active:  # a seat without armies was eliminated
            assert game.territory_count[seat] > 0, f"seat {seat} plays on without armies"


def play_random(seed: int, players: int, choices: random.Random, steps: int):
    """A team game of random legal actions; yields (game, action, events) after each."""
    game = Game(make_rules(PRESET, {"turn_limit": 30}), players, seed)
    for _ in range(steps):
        if game.over:
            return
        options = game.legal_actions()
        action = options[0] if choices.random() < 0.2 else choices.choice(options)
        before = total_armies(game)
        events = game.apply(action)
        yield game, action, events, before


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from([4, 5, 6]), pick=st.randoms())
def test_properties_armies_conserved_no_empty_territory_only_legal_moves(seed, players, pick):
    """Armies change only by claims, placements, trade bonuses and battle losses; after the
    set-up no territory is empty and no two teams share one; every listed action is accepted;
    an attack on a team-mate is refused and changes nothing; the team's hand is with the seat
    to play."""
    for game, _action, events, before in play_random(seed, players, pick, 400):
        change = 0
        for e in events:
            if isinstance(e, Claimed):
                change += 1
            elif isinstance(e, Placed):
                change += sum(n for _, n in e.placements)
            elif isinstance(e, Traded):
                change += e.bonus
            elif isinstance(e, Battle):
                change -= e.attacker_losses + e.defender_losses
        assert total_armies(game) == before + change
        check_invariants(game)
        d = game.pending
        if d is not None and d.kind is Kind.ATTACK:
            teams = teamlib.team_table(game)
            mine = teamlib.own_territories(game, d.player)
            for s in mine:
                for n in game.board.neighbours[s]:
                    if teams[n] == teamlib.team_of(d.player):
                        snapshot = (list(game.owner), list(game.armies), game.history[:])
                        with pytest.raises(IllegalAction):
                            game.apply(Attack(s, n, 1))
                        assert snapshot == (list(game.owner), list(game.armies), game.history)
        if d is not None and game.round and d.kind in (Kind.TRADE, Kind.PLACE):
            team = [p for p in game.players if teamlib.team_of(p.seat) == teamlib.team_of(d.player)]
            assert all(not p.cards for p in team if p.seat != d.player)


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from([4, 5, 6]), pick=st.integers(0, 99))
def test_same_seed_same_game(seed, players, pick):
    def run():
        out, last = [], None
        for game, action, events, _ in play_random(seed, players, random.Random(pick), 400):
            out.append((action, tuple(events)))
            last = game
        assert last is not None
        return out, last.places, list(last.owner), list(last.armies), dict(last.stacks)

    assert run() == run()


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from([4, 5, 6]), pick=st.randoms())
def test_hidden_information_opponents_hands_never_reach_a_seat(seed, players, pick):
    """Each seat's view and Decide request show its team's hand and never a card the other
    team holds; another seat's drawn card reaches it as -1."""
    for game, _action, events, _ in play_random(seed, players, pick, 300):
        for seat in range(players):
            team = teamlib.team_of(seat)
            theirs = {c for p in game.players if p.team != team for c in p.cards}
            ours = {c for p in game.players if p.team == team for c in p.cards}
            view = view_for(game, seat)
            assert not set(view.hand) & theirs
            if game.players[seat].active:
                assert set(view.hand) == ours
            request = codec.view_to_proto(view, [redact(e, seat) for e in events])
            assert not set(request.view.hand) & theirs
            for e in request.events:
                if e.WhichOneof("kind") == "card_drawn" and e.card_drawn.player != seat:
                    assert e.card_drawn.card == -1


# ------------------------------------------------------------------ the bots
def test_sdk_team_helpers_answer_a_classic_game_too():
    game = setup_done("classic", players=4, seed=2)
    view = view_for(game, 0)
    assert not is_team_game(view) and team_mates(view) == []
    own = [x for x in range(game.board.size) if game.owner[x] == 0]
    assert controlled_territories(view) == own
    assert all(armies_of(view, x) == game.armies[x] for x in own)
    assert all(is_enemy_territory(view, x) != (x in own) for x in range(game.board.size))
    view = view_for(Game(make_rules(PRESET), 6, seed=2), 1)
    assert is_team_game(view) and team_mates(view) == [3, 5]


def test_every_python_sample_bot_plays_team_games_legally():
    """Strict: the first refused answer fails (every seat position, 4 to 6 players)."""
    from hegemon.sample_bots.aggressive import AggressiveBot
    from hegemon.sample_bots.continental import ContinentalBot
    from hegemon.sample_bots.minimal import Minimal
    from hegemon.sample_bots.planner import PlannerBot
    from hegemon.sample_bots.random import RandomBot

    kinds = [RandomBot, AggressiveBot, ContinentalBot, PlannerBot, Minimal]
    for players, seed in ((4, 21), (5, 22), (6, 23), (4, 24)):
        bots = [kinds[(seed + i) % len(kinds)]() for i in range(players)]
        result = play_local(bots, PRESET, seed=seed, options={"turn_limit": 25}, strict=True)
        assert result.places and not result.faults


def test_the_node_bot_plays_every_seat_of_a_team_game_legally(node_bot):
    """The Node sample bot over real gRPC in all four seats of a team game, to the end."""
    channel, proc = node_bot
    stub = bot_pb2_grpc.BotStub(channel)
    rules = make_rules(PRESET, {"turn_limit": 30})
    game = Game(rules, 4, seed=31)
    ids = [f"team-node-seat{s}" for s in range(4)]
    for seat in range(4):
        start = codec.start_game_request(
            ids[seat], seat, ["node"] * 4, rules, game.board, decision_ms=5000, time_bank_ms=60_000
        )
        stub.StartGame(start, timeout=10)
    decisions = 0
    while not game.over:
        seat = pending(game).player
        request = codec.view_to_proto(view_for(game, seat), game_id=ids[seat], deadline_ms=5000)
        action = codec.action_from_proto(stub.Decide(request, timeout=10), game_id=ids[seat])
        try:
            game.apply(action)
        except IllegalAction as exc:
            pytest.fail(f"the Node bot's {action} is illegal: {exc.reason}")
        decisions += 1
    assert proc.poll() is None and decisions > 100
    assert game.places is not None and sorted(game.places) in ([1, 1, 3, 3], [1, 1, 1, 1])


@pytest.mark.slow
def test_a_season_of_team_games_between_the_sample_bots(tmp_path, monkeypatch, capsys):
    """``hegemon season run`` with the sample bots as real processes (the issue-11 season test
    on team-2004): every game played once, no forfeit, every record replays; each seat's place
    is its team's, and the leaderboard reads them."""
    season_of_preset(PRESET, tmp_path, monkeypatch)
    for path in sorted((tmp_path / "records" / PRESET).glob("*.jsonl")):
        game = replay(path.read_text()).game
        assert game is not None and game.places is not None
        assert sorted(game.places) in ([1, 1, 3, 3], [1, 1, 1, 1])
    board = board_csv(tmp_path, PRESET)
    assert board.count("\n") == 5, board  # the header and the four sample bots
    with capsys.disabled():
        print(f"\nteam-2004 season, 4 games:\n{board}")


def test_team_seasons_spread_partnerships():
    """A team season's schedule makes every pair of bots team-mates about equally often (a
    player's place is its team's, so a partner it always had would share its rating), and
    still seats every bot in every seat about equally often."""
    from collections import Counter

    from hegemon.leaderboard.seasons.schedule import make_schedule, partner_counts

    bots = list(range(1, 9))
    spreads = {}
    for teams in (False, True):
        schedule = make_schedule(bots, 4, 60, seed=7, teams=teams)
        counts = partner_counts([m.seats for m in schedule])
        together = [counts.get((a, b), 0) for a in bots for b in bots if a < b]
        spreads[teams] = max(together) - min(together)
        seats = Counter((bot, i) for m in schedule for i, bot in enumerate(m.seats))
        assert max(seats.values()) - min(seats.values()) <= 2
        assert Counter(b for m in schedule for b in m.seats) == Counter(dict.fromkeys(bots, 30))
    assert spreads[True] <= 1 < spreads[False]
    again = make_schedule(bots, 4, 60, seed=7, teams=True)
    assert again == make_schedule(bots, 4, 60, seed=7, teams=True)  # deterministic
