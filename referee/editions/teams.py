"""Team Risk (docs/rules.md §4; seed 000, the section "JOUKKUE", 4–6 players in two teams).

The rulebook's text, which each rule here follows (seed ``000_3f7912df253811fb.txt``):

- seating: "Pelaajien tulee istua siten, että molemmat joukkueet pääsevät vuorotellen
  pelaamaan" — the teams play in turn: seat ``s`` is on team ``s % 2``;
- shared territories and control: "Pelaajat voivat jakaa alueita oman joukkueensa jäsenien
  kesken. Pelaaja, jolla on eniten yksiköitä jollakin alueella, hallitsee kyseistä aluetta.
  Jos kahdella pelaajalla eniten yksiköitä, KUKAAN ei hallitse kyseistä aluetta";
- reinforcements count the territories a player controls, and "Saadakseen maanosabonuksen
  yksittäisen pelaajan täytyy omistaa kyseisen maanosan kaikki alueet";
- card values by insignia: "Kultainen ratsuväki -merkki ei ole käytössä";
- "Oman joukkueeseen kuuluvan pelaajan joukkoja kohti ei voi hyökätä" (no attacks on
  team-mates);
- fortify "yhdeltä alueelta, jossa sinulla on yksiköitä, mille tahansa toiselle alueelle
  edellyttäen, että siellä on omiasi tai muiden oman joukkueen jäsenien yksiköitä", along
  "ystävällismielistä maaperää" (territories holding armies of the team);
- "Joukkue jakaa aluekortit keskenään ... Anna joukkueen kortit seuraavalle pelaajalle oman
  vuorosi loputtua": one shared hand, handed to the next team-mate when a turn ends;
- "Se joukkue voittaa, joka ensimmäisenä onnistuu tuhoamaan jonkun vastapuolen pelaajan
  joukot": the first elimination ends the game, the eliminating team wins.

Where the rulebook is silent, hegemon reads it so (documented in docs/rules.md §4 and
docs/editions.md "Team games"):

- a seat always leaves at least one of its *own* armies on a territory it attacks or moves
  from (the classic "one army stays", per seat), so a seat leaves the board only by defeat;
- reinforcements go on territories where the seat has armies;
- a shared territory defends as one: its controller (on a tie, one of the seats holding the
  most) rolls, with dice for all the armies there, and each army lost comes off the largest
  holding there;
- the team's hand is seen by every member of the team (the team shares it); only the seat
  whose turn it is trades from it. Opponents see only its size.

State: ``game.owner[t]`` is the territory's *primary* seat (its controller whenever someone
controls it; on a tie one of the tied seats), ``game.armies[t]`` the primary's armies and
``game.stacks[t]`` every other seat's (all of one team: a conquest empties a territory).
``game.territory_count[s]`` counts the territories where ``s`` has armies. A seat's view shows
``owner`` as the *controller* (-1 on a tie), ``armies`` as the controller's (0 on a tie) and
every other seat's armies as stacks (:func:`public_board`).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from .. import formulas
from ..holdings import AttackLimits, Holdings, Stacks
from .contract import Edition

if TYPE_CHECKING:
    from ..board import Board
    from ..game import Game
    from ..position import Position
    from ..rules import RuleSet

TEAM_PLAYERS = (4, 5, 6)  # seed 000: "4 6 pelaajaa kahdessa joukkueessa"
TEAMS = 2


def team_of(seat: int) -> int:
    """The team of ``seat``: teams alternate around the table."""
    return seat % TEAMS


def on(rules: RuleSet) -> bool:
    """Whether ``rules`` is a team game."""
    return getattr(rules, "teams", "off") == "on"


# ------------------------------------------------------------------ reading a position
class _Position(Protocol):
    @property
    def board(self) -> Board: ...
    @property
    def owner(self) -> Sequence[int]: ...
    @property
    def armies(self) -> Sequence[int]: ...


class TeamState(Protocol):
    """What the team rules read and change of a :class:`hegemon.referee.game.Game` (named
    structurally: the game imports this module)."""

    board: Board
    rules: RuleSet
    owner: list[int]
    armies: list[int]
    territory_count: list[int]
    players: list[Any]
    out_order: list[int]

    @property
    def stacks(self) -> dict[int, dict[int, int]]: ...
    @property
    def player_count(self) -> int: ...

    def active_players(self) -> list[int]: ...


def holdings(state: _Position) -> list[dict[int, int]]:
    """Per territory: every seat with armies there and how many (a game or a view).

    A game keeps ``stacks`` as {territory: {seat: armies}}, a view as (territory, seat,
    armies) triples; ``owner``/``armies`` add the primary (game) or controller (view)."""
    owner, armies = state.owner, state.armies
    table: list[dict[int, int]] = [
        {owner[t]: armies[t]} if owner[t] >= 0 and armies[t] > 0 else {} for t in range(len(owner))
    ]
    stacks: Any = getattr(state, "stacks", ())
    if isinstance(stacks, Mapping):
        for t, held in stacks.items():
            table[t].update(held)
    else:
        for t, seat, n in stacks:
            if n > 0:
                table[t][seat] = n
    return table


def team_table(state: _Position) -> list[int]:
    """Per territory: the team whose armies are on it (-1: empty)."""
    return [team_of(next(iter(h))) if h else -1 for h in holdings(state)]


def controller(held: Mapping[int, int]) -> int:
    """The seat controlling a territory with ``held`` armies: the one with the most, -1 on a
    tie ("KUKAAN ei hallitse") or when empty."""
    best, seat, tied = 0, -1, False
    for s, n in held.items():
        if n > best:
            best, seat, tied = n, s, False
        elif n == best:
            tied = True
    return -1 if tied else seat


def controllers(state: _Position) -> list[int]:
    """Per territory: its controlling seat, -1 on a tie."""
    return [controller(h) for h in holdings(state)]


def reinforcements(board: Board, control: Sequence[int], seat: int) -> tuple[int, int]:
    """(from territories, from continents) due to ``seat``: the territories it controls, and
    the bonus of every continent whose every territory it controls alone."""
    count = sum(1 for c in control if c == seat)
    return (
        formulas.territory_reinforcements(count),
        formulas.continent_reinforcements(board, control, seat),
    )


def friendly_reach(board: Board, teams: Sequence[int], team: int, source: int) -> list[int]:
    """Territories reachable from ``source`` through territories holding ``team``'s armies
    (``source`` excluded; ascending)."""
    seen = {source}
    queue = deque((source,))
    nbrs = board.neighbours
    while queue:
        for n in nbrs[queue.popleft()]:
            if n not in seen and teams[n] == team:
                seen.add(n)
                queue.append(n)
    seen.discard(source)
    return sorted(seen)


def own_territories(state: _Position, seat: int) -> list[int]:
    """Territories where ``seat`` has armies (where it may place)."""
    return [t for t, h in enumerate(holdings(state)) if h.get(seat, 0) > 0]


def iter_attacks(state: _Position, seat: int) -> Iterator[tuple[int, int, int]]:
    """Every (source, target, most dice) attack of ``seat``: from its own armies (two or
    more there) into a bordering territory of the other team."""
    held = holdings(state)
    team = team_of(seat)
    nbrs = state.board.neighbours
    for t, h in enumerate(held):
        most = formulas.attack_dice(h.get(seat, 0))
        if most:
            for n in nbrs[t]:
                if held[n] and team_of(next(iter(held[n]))) != team:
                    yield (t, n, most)


def fortifies(state: _Position, seat: int, adjacent: bool) -> Iterator[tuple[int, int, int]]:
    """Every (source, target, most armies) fortify move of ``seat``: its own armies (one
    stays) to a territory of its team, bordering (``adjacent``) or through its team's."""
    held = holdings(state)
    team = team_of(seat)
    teams = [team_of(next(iter(h))) if h else -1 for h in held]
    board = state.board
    for t, h in enumerate(held):
        most = formulas.movable_armies(h.get(seat, 0))
        if most < 1:
            continue
        if adjacent:
            targets: Sequence[int] = [n for n in board.neighbours[t] if teams[n] == team]
        else:
            targets = friendly_reach(board, teams, team, t)
        for n in targets:
            yield (t, n, most)


def border_territories(state: _Position, seat: int) -> list[int]:
    """Territories where ``seat`` has armies bordering the other team."""
    teams = team_table(state)
    team, nbrs = team_of(seat), state.board.neighbours
    return [
        t
        for t in own_territories(state, seat)
        if any(teams[n] >= 0 and teams[n] != team for n in nbrs[t])
    ]


def defence_dice(state: _Position, rules: RuleSet, territory: int) -> int:
    """Most dice a shared territory defends with: for all the armies on it."""
    total = sum(holdings(state)[territory].values())
    return formulas.defence_dice(total, rules.defender_two_dice_from)


def public_board(
    game: TeamState,
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[tuple[int, int, int], ...]]:
    """(owner, armies, stacks) as a view shows them: the controller (-1 on a tie), its
    armies (0 on a tie), and every other seat's armies as (territory, seat, armies)."""
    owner: list[int] = []
    armies: list[int] = []
    stacks: list[tuple[int, int, int]] = []
    for t, held in enumerate(holdings(game)):
        c = controller(held) if held else game.owner[t]
        owner.append(c)
        armies.append(held.get(c, 0))
        stacks.extend((t, s, n) for s, n in sorted(held.items()) if s != c)
    return tuple(owner), tuple(armies), tuple(stacks)


def seat_totals(game: TeamState) -> tuple[list[int], list[int]]:
    """(territories controlled, armies on the board) per seat."""
    n = game.player_count
    controlled, armies = [0] * n, [0] * n
    for held in holdings(game):
        c = controller(held)
        if c >= 0:
            controlled[c] += 1
        for s, k in held.items():
            armies[s] += k
    return controlled, armies


# ------------------------------------------------------------------ changing a game
def assign(game: TeamState) -> None:
    """Seat the two teams alternately (seed 000)."""
    for p in game.players:
        p.team = team_of(p.seat)


def own_armies(game: TeamState, seat: int, t: int) -> int:
    """The armies ``seat`` has on ``t``."""
    if game.owner[t] == seat:
        return game.armies[t]
    return game.stacks.get(t, {}).get(seat, 0)


def add(game: TeamState, seat: int, t: int, n: int) -> None:
    """Give ``seat`` ``n`` more armies on ``t`` (fewer if negative), keeping the primary the
    seat with the most armies there (the present primary on a tie) and the presence counts."""
    stacks = game.stacks
    if game.owner[t] == seat:
        game.armies[t] += n
    else:
        held = stacks.setdefault(t, {})
        before = held.get(seat, 0)
        after = before + n
        if after > 0:
            held[seat] = after
        else:
            held.pop(seat, None)
        if before == 0 < after:
            game.territory_count[seat] += 1
        elif after <= 0 < before:
            game.territory_count[seat] -= 1
        if not held:
            del stacks[t]
    _settle(game, t)


def _settle(game: TeamState, t: int) -> None:
    """Make the seat with the most armies on ``t`` its primary (the lowest seat among equals,
    unless the primary is one of them)."""
    held = game.stacks.get(t)
    if not held:
        return
    primary, mine = game.owner[t], game.armies[t]
    best = max(held.values())
    if mine >= best:
        return
    seat = min(s for s, k in held.items() if k == best)
    del held[seat]
    if mine > 0:
        held[primary] = mine
    else:
        game.territory_count[primary] -= 1
    game.owner[t], game.armies[t] = seat, best
    if not held:
        del game.stacks[t]


def lose_defenders(game: TeamState, t: int, losses: int) -> list[int]:
    """Take ``losses`` armies off ``t``, each from its largest holding; return the seats that
    lost armies there."""
    hit: list[int] = []
    for _ in range(losses):
        seat = game.owner[t]
        if game.armies[t] == 0:
            break
        if seat not in hit:
            hit.append(seat)
        game.armies[t] -= 1
        if game.armies[t] == 0 and t in game.stacks:
            game.territory_count[seat] -= 1
            held = game.stacks[t]
            best = max(held.values())
            nxt = min(s for s, k in held.items() if k == best)
            game.owner[t], game.armies[t] = nxt, held.pop(nxt)
            if not held:
                del game.stacks[t]
        else:
            _settle(game, t)
    return hit


def next_mate(game: TeamState, seat: int) -> int:
    """The next active seat of ``seat``'s team after it in turn order (``seat`` if none)."""
    n = game.player_count
    for step in range(1, n):
        other = (seat + step) % n
        if team_of(other) == team_of(seat) and game.players[other].active:
            return other
    return seat


def pass_hand(game: TeamState, seat: int) -> None:
    """Hand the team's cards held by ``seat`` to its next team-mate (seed 000)."""
    mate = next_mate(game, seat)
    if mate != seat:
        game.players[mate].cards.extend(game.players[seat].cards)
        game.players[seat].cards = []


def places(game: TeamState, winner_team: int) -> tuple[int, ...]:
    """A team game's places: each seat's place is its team's, ranked as ties are (the winners
    1, the others one more than the winners: 1, 1, 3, 3 for two teams of two). Without a
    winner (a turn limit) the team controlling more territories, then with more armies, is
    ahead; equal teams share place 1. A forfeited seat comes after both teams, the last to
    leave first."""
    controlled, armies = seat_totals(game)
    standing = {team_of(s) for s in game.active_players()}
    if winner_team < 0 and len(standing) == 1:
        winner_team = standing.pop()
    if winner_team < 0:
        key = [
            (
                sum(c for s, c in enumerate(controlled) if team_of(s) == team),
                sum(a for s, a in enumerate(armies) if team_of(s) == team),
            )
            for team in range(TEAMS)
        ]
        if key[0] != key[1]:
            winner_team = 0 if key[0] > key[1] else 1
    result = [0] * game.player_count
    staying = [p.seat for p in game.players if not p.forfeited]
    ahead = [s for s in staying if winner_team in (-1, team_of(s))]
    for s in staying:
        result[s] = 1 if s in ahead else len(ahead) + 1
    for i, seat in enumerate(reversed([s for s in game.out_order if game.players[s].forfeited])):
        result[seat] = len(staying) + i + 1
    return tuple(result)


# ------------------------------------------------------------------ the turn's actions
def place_error(game: TeamState, seat: int, placements: Sequence[tuple[int, int]]) -> str:
    """Why a placement is refused (a territory where ``seat`` has no armies), or ""."""
    for t, _ in placements:
        if own_armies(game, seat, t) <= 0:
            return f"place: you have no armies on {game.board.name_of(t)}"
    return ""


def attack_error(game: TeamState, seat: int, src: int, dst: int) -> tuple[int, str]:
    """(the most dice, "") for an attack from ``seat``'s own armies on the other team, else
    (0, why it is refused)."""
    name = game.board.name_of
    mine = own_armies(game, seat, src)
    if mine <= 0:
        return 0, f"attack: you have no armies on {name(src)}"
    if team_of(game.owner[dst]) == team_of(seat):
        return 0, f"attack: {name(dst)} is held by your team"
    return formulas.attack_dice(mine), ""


def fortify_error(game: TeamState, seat: int, src: int, dst: int) -> tuple[int, str]:
    """(the most armies ``seat`` may move, "") for a fortify move the team rules allow, else
    (0, why it is refused)."""
    name = game.board.name_of
    mine = own_armies(game, seat, src)
    team = team_of(seat)
    why = ""
    if mine <= 0:
        why = f"you have no armies on {name(src)}"
    elif team_of(game.owner[dst]) != team:
        why = f"{name(dst)} holds no armies of your team"
    elif src == dst:
        why = "source and target are the same territory"
    elif game.rules.fortify == "adjacent":
        if dst not in game.board.adjacency[src]:
            why = f"{name(dst)} does not border {name(src)}"
    elif dst not in friendly_reach(game.board, team_table(game), team, src):
        why = f"no chain of your team's territories joins {name(src)} to {name(dst)}"
    return (0, f"fortify: {why}") if why else (formulas.movable_armies(mine), "")


def team_left(game: TeamState) -> bool:
    """Whether a team has no seat still playing (all its members forfeited)."""
    return len({team_of(s) for s in game.active_players()}) < TEAMS


# ------------------------------------------------------------------ the board rules
class TeamHoldings(Holdings):
    """Team play's board: the seats of a team share territories (``game.stacks``), a seat
    moves and fights with its own armies there, a shared territory defends as one."""

    def __init__(self) -> None:
        # seed 000: "Se joukkue voittaa, joka ensimmäisenä onnistuu tuhoamaan jonkun
        # vastapuolen pelaajan joukot": the first elimination ends the game
        super().__init__(shared=True, elimination_ends="team conquest")

    def own_territories(self, state: Position, seat: int) -> list[int]:
        return own_territories(state, seat)

    def border_territories(self, state: Position, seat: int) -> list[int]:
        return border_territories(state, seat)

    def attacks(
        self, state: Position, seat: int, limits: AttackLimits
    ) -> Iterator[tuple[int, int, int]]:
        return iter_attacks(state, seat)

    def fortifies(
        self,
        state: Position,
        seat: int,
        limits: AttackLimits,
        into: int = -1,
        used: Sequence[int] = (),
    ) -> Iterator[tuple[int, int, int]]:
        return fortifies(state, seat, state.rules.fortify == "adjacent")

    def can_fortify(self, state: Position, seat: int, limits: AttackLimits) -> bool:
        return next(self.fortifies(state, seat, limits), None) is not None

    def defence_dice(self, state: Position, territory: int) -> int:
        return defence_dice(state, state.rules, territory)

    def own_armies(self, game: Game, seat: int, territory: int) -> int:
        return own_armies(game, seat, territory)

    def add(self, game: Game, seat: int, territory: int, n: int) -> None:
        add(game, seat, territory, n)

    def lose(self, game: Game, territory: int, losses: int) -> list[int]:
        return lose_defenders(game, territory, losses)

    def place_error(self, game: Game, seat: int, placements: Sequence[tuple[int, int]]) -> str:
        return place_error(game, seat, placements)

    def attack_error(self, game: Game, seat: int, src: int, dst: int) -> tuple[int, str]:
        return attack_error(game, seat, src, dst)

    def fortify_error(self, game: Game, seat: int, src: int, dst: int) -> tuple[int, str]:
        return fortify_error(game, seat, src, dst)

    def public_board(self, game: Game) -> tuple[Sequence[int], Sequence[int], Stacks]:
        return public_board(game)

    def seat_totals(self, game: Game) -> tuple[list[int], list[int]]:
        return seat_totals(game)

    def hand(self, game: Game, seat: int) -> tuple[int, ...]:
        """The team's shared hand, which every member of ``seat``'s team sees (seed 000:
        "Joukkue jakaa aluekortit keskenään"): the cards its team-mates hold; nothing once
        ``seat`` has left the game."""
        if not game.players[seat].active:
            return tuple(game.players[seat].cards)
        team = team_of(seat)
        return tuple(c for p in game.players if team_of(p.seat) == team for c in p.cards)


# ------------------------------------------------------------------ the part in a game
@dataclass(slots=True)
class TeamsPart(Edition):
    """Team Risk in play: the armies of seats other than a territory's primary
    (``stacks[t] = {seat: armies}``; the game shows them as ``Game.stacks``). The engine asks
    this part about shared territories wherever a placement, an attack, a battle or a move
    touches them."""

    stacks: dict[int, dict[int, int]] = field(default_factory=dict)

    @classmethod
    def create(cls, game: Game) -> TeamsPart | None:
        if not on(game.rules):
            return None
        assign(game)
        return cls()

    def copy(self) -> TeamsPart:
        return TeamsPart({t: dict(s) for t, s in self.stacks.items()})

    @classmethod
    def holdings_for(cls, rules: RuleSet) -> Holdings | None:
        return TeamHoldings() if on(rules) else None

    def reinforcements(self, game: Game, player: int, due: tuple[int, int]) -> tuple[int, int]:
        return reinforcements(game.board, controllers(game), player)

    def turn_ended(self, game: Game, seat: int) -> None:
        pass_hand(game, seat)  # seed 000: to the next team-mate

    def seat_left(self, game: Game, seat: int) -> None:
        pass_hand(game, seat)  # the team's hand stays with the team

    def decided(self, game: Game) -> bool:
        return team_left(game)

    def places(self, game: Game, winner: int) -> tuple[int, ...] | None:
        return places(game, team_of(winner) if winner >= 0 else -1)
