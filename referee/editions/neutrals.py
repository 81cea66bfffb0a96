"""Two players and neutral armies (docs/rules.md §5): the neutral colours' set-up, the 2000
edition's neutral reinforcements, and who rolls a neutral's defence.

A two-player game has seats 0 and 1 for the players and, after them, one seat per neutral
colour (``Player.neutral``, never a turn, never a place in the result): one in
``two-player-2000`` (seed 001) and ``two-player-classic`` (seed 002), four in the 2004
editions (seed 000). :class:`NeutralsPart` plugs these rules into a game; the active
neutrals' alliances are :mod:`hegemon.referee.editions.alliances`.

Readings where the seeds are silent (each documented in docs/rules.md §5 and docs/editions.md
"Two players"):

- 001 places the armies "as with 3-6 players" and does not say who places the neutral's: the
  two players do, one neutral army with each of their own set-up armies, until the neutral's
  are all placed (as seed 000 prints for its 2004 game).
- 002 says only that the neutral holds 40 armies on "neutral territory": a third of the
  territories (14) is dealt to the neutral from the shuffled territory cards, the players
  claim the rest in turn, then place as in 001.
- 001's wild cards, taken out for the deal, go back into the deck afterwards, as its 3–6
  player deal says ("legger jokerne inn i kortstokken").
- 001's neutral share is half of *all* the reinforcements the mover received that turn:
  territories, continents, sets traded and the cards' territory bonus.
- The player not attacking chooses a neutral's defence dice in every edition (002 and 000
  print it; 001 says the neutral defends "som en vanlig motstander").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from ..actions import PlaceNeutral
from ..decisions import Decision, Kind, Phase
from ..errors import IllegalAction
from ..events import Dealt, FirstPlayer, NeutralPlaced
from .contract import Edition, Handler

if TYPE_CHECKING:
    from ..game import Game


#: Per ``two_player`` option: each player's starting armies, and each neutral's.
ARMIES: dict[str, tuple[int, tuple[int, ...]]] = {
    "2000": (40, (28,)),  # seed 001
    "classic": (40, (40,)),  # seed 002
    "2004_passive": (36, (24, 24, 24, 24)),  # seed 000
    "2004_active": (36, (24, 24, 24, 24)),
}
PLAYERS = 2


def neutral_count(two_player: str) -> int:
    """How many neutral colours the ``two_player`` option plays with (0: not a two-player
    game)."""
    return len(ARMIES[two_player][1]) if two_player in ARMIES else 0


def is_neutral_colour(game: Game, seat: int) -> bool:
    """A neutral colour's seat (not a player's, nor a forfeited player's)."""
    return seat >= game.player_count


def neutral_seats(game: Game) -> range:
    """The neutral colours' seats."""
    return range(game.player_count, len(game.players))


def opponent(game: Game, seat: int) -> int:
    """The other player of a two-player game."""
    return PLAYERS - 1 - seat


# ------------------------------------------------------------------ set-up
def _hand_sizes(game: Game) -> list[int]:
    """How many territory cards each seat is dealt (players first, then the neutrals)."""
    size = game.board.size
    mode = game.rules.two_player
    if mode == "2000":  # seed 001: "del ut 14 kort til hver spiller, inklusive den nøytrale"
        share = size // 3
        rest = size - share
        return [rest - rest // 2, rest // 2, share]
    if mode == "classic":  # the neutral's third; the players claim the rest
        return [0, 0, size // 3]
    # seed 000: "Jaa molemmille pelaajille yhdeksän aluekorttia ja kuusi korttia jokaiselle
    # puolueettomalle" (9 each, 6 per neutral on the 42-territory board)
    share = size // 7
    rest = size - 4 * share
    return [rest - rest // 2, rest // 2, share, share, share, share]


def setup(game: Game) -> None:
    """Set up a two-player game: starting armies, the territories dealt (to the neutrals at
    least), who places first; then pose the first set-up decision."""
    own, neutral = ARMIES[game.rules.two_player]
    for p in game.players[:PLAYERS]:
        p.reserve = own
    for p, armies in zip(game.players[PLAYERS:], neutral, strict=True):
        p.reserve = armies
    rng = game.rng.setup
    first = rng.below(PLAYERS)  # 001: left of the dealer; 000, 002: who rolls highest
    cards = list(range(game.board.size))
    rng.shuffle(cards)
    start = 0
    for seat, count in enumerate(_hand_sizes(game)):
        hand = sorted(cards[start : start + count])
        start += count
        if not hand:
            continue
        for t in hand:
            game.take(seat, t, 1)
        game.players[seat].reserve -= len(hand)
        game.emit(Dealt(seat, tuple(hand)))
    if game.rules.two_player == "classic":
        game.emit(FirstPlayer(first, "place"))
        phase = Phase.CLAIM
    else:
        game.emit(FirstPlayer(first, "play" if game.rules.two_player == "2000" else "place"))
        phase = Phase.SETUP_PLACE
    game.first_player = first
    game.deck = list(range(game.board.card_count))  # the wild cards back in, reshuffled
    game.rng.deck.shuffle(game.deck)
    game.start_setup(phase, first)


def setup_armies(game: Game, seat: int) -> int:
    """Armies a player places at one set-up step: 3 in the 2004 editions (seed 000: "kolme
    yksikköä kerrallaan"), else 1."""
    step = 3 if game.rules.two_player.startswith("2004") else 1
    return min(step, game.players[seat].reserve)


def ask_setup_neutrals(game: Game, seat: int) -> bool:
    """After ``seat``'s set-up placement: pose its placement of one army for each neutral
    that still has armies to place (seed 000: "yksi yksikkö jokaista puolueetonta kohden").
    False when there is none left."""
    seats = tuple(
        s for s in neutral_seats(game) if game.players[s].reserve > 0 and game.territory_count[s]
    )
    if not seats:
        return False
    game.ask(Decision(Kind.PLACE_NEUTRAL, seat, armies=len(seats), maximum=1, seats=seats))
    return True


# ------------------------------------------------------------------ the 2000 reinforcements
def after_reinforce(game: Game, received: int) -> bool:
    """After the player to move placed its reinforcements (``received`` armies in all): in
    the 2000 edition, the other player places half of them, rounded down, for the neutral
    (seed 001: "HALVPARTEN av de totale forsterkningene ... Resterende teller ikke ... Den
    andre spilleren setter ut den nøytrale forsterkningen i nøytrale områder ETTER at den
    første spilleren har utplassert sine forsterkninger"). True if that was posed."""
    if game.rules.two_player != "2000":
        return False
    seats = tuple(s for s in neutral_seats(game) if game.territory_count[s])
    half = received // 2
    if not seats or half <= 0:
        return False
    game.ask(Decision(Kind.PLACE_NEUTRAL, opponent(game, game.current), armies=half, seats=seats))
    return True


def placed_per_seat(
    game: Game,
    placements: tuple[tuple[int, int], ...],
    what: str,
    seats: tuple[int, ...],
    armies: int,
) -> dict[int, int]:
    """Check ``placements`` — (territory, armies) pairs on territories of ``seats`` adding up
    to ``armies`` — and return the armies each of those seats gets; raise
    :class:`IllegalAction` saying what is wrong."""
    name = game.board.name_of
    if not placements or len(placements) > game.board.size:
        raise IllegalAction(f"{what}: give one to {game.board.size} (territory, armies) pairs")
    per_seat: dict[int, int] = {}
    for pair in placements:
        t, n = pair
        t = game.territory(t, f"{what}:")
        if game.owner[t] not in seats:
            whose = " or ".join(map(str, seats))
            raise IllegalAction(f"{what}: {name(t)} is not a territory of seat {whose}")
        if n <= 0:
            raise IllegalAction(f"{what}: {n!r} armies on {name(t)} must be at least 1")
        per_seat[game.owner[t]] = per_seat.get(game.owner[t], 0) + n
    total = sum(per_seat.values())
    if total != armies:
        raise IllegalAction(f"{what}: placed {total} armies, must place exactly {armies}")
    return per_seat


def on_place_neutral(game: Game, action: PlaceNeutral, dry: bool) -> None:
    """Check (and unless ``dry`` apply) armies placed for the neutrals of the decision."""
    d = game.expect(Kind.PLACE_NEUTRAL, "place_neutral")
    placements = action.placements
    per_seat = placed_per_seat(game, placements, "place_neutral", d.seats, d.armies)
    if d.maximum:
        for seat, n in per_seat.items():
            if n > d.maximum:
                raise IllegalAction(
                    f"place_neutral: {n} armies for neutral {seat}; at most {d.maximum} each"
                )
    if dry:
        return
    for t, n in placements:
        game.armies[t] += n
    setup = game.phase is Phase.SETUP_PLACE
    for seat in sorted(per_seat):
        if setup:
            game.players[seat].reserve -= per_seat[seat]
        mine = tuple(p for p in placements if game.owner[p[0]] == seat)
        game.emit(NeutralPlaced(d.player, seat, mine))
    if setup:
        game.ask_setup()
    else:
        game.ask_attack()


# ------------------------------------------------------------------ defence
def defence_chooser(game: Game, defender: int) -> int:
    """Who chooses the defence dice of ``defender``'s territory: the defender itself while it
    plays; for a neutral colour, the player not attacking (seed 002: "viskab teine mängija
    selle riigi eest täringut"; seed 000: "vastustajasi heittää arpakuutioita puolueettoman
    armeijan puolustamiseksi"); nobody (-1: the most dice) for a forfeited seat."""
    if game.players[defender].active:
        return defender
    if is_neutral_colour(game, defender) and game.current >= 0:
        other = opponent(game, game.current)
        return other if game.players[other].active else -1
    return -1


# ------------------------------------------------------------------ the part in a game
@dataclass(slots=True)
class NeutralsPart(Edition):
    """A two-player game's neutral colours (their state is their seats: ``Player.neutral``,
    ``reserve``, ``cards``); the active neutrals' alliances are a part of their own."""

    @classmethod
    def create(cls, game: Game) -> NeutralsPart | None:
        return cls() if neutral_count(game.rules.two_player) else None

    def copy(self) -> NeutralsPart:
        return NeutralsPart()

    def deal(self, game: Game) -> bool:
        setup(game)
        return True

    def setup_armies(self, game: Game, seat: int, armies: int) -> int:
        return setup_armies(game, seat)

    def after_setup_place(self, game: Game, seat: int) -> bool:
        return ask_setup_neutrals(game, seat)

    def after_place(self, game: Game, placed: int) -> bool:
        if game.phase is not Phase.REINFORCE:
            return False
        return after_reinforce(game, placed + game.bonus_this_turn)

    def defence_chooser(self, game: Game, defender: int, chooser: int) -> int:
        return defence_chooser(game, defender)

    def goes_on_alone(self, game: Game) -> bool:
        """Seed 002: "Mängu võitmiseks peate hävitama kõik teised mängijad ja hõivama kõik 42
        territooriumi" — destroy all other players *and* hold all 42 territories: with the
        opponent gone the game goes on while a neutral territory stands (seed 001, by contrast,
        ends it "uansett hvordan de nøytrale troppene står")."""
        return game.rules.two_player == "classic" and any(
            game.territory_count[s] for s in neutral_seats(game)
        )

    def on_place_neutral(self, game: Game, action: PlaceNeutral, dry: bool) -> None:
        on_place_neutral(game, action, dry)

    handlers: ClassVar[dict[type, Handler]] = {PlaceNeutral: on_place_neutral}
