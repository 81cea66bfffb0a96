"""What a challenge shows its owner (its page, ``GET /api/challenges/{id}``, ``hegemon
challenge``): who played, how far it is, each game with the tested version's place, how often
it finished ahead of each opponent and, against one opponent, the SPRT of the run so far
(:mod:`hegemon.leaderboard.sprt`, as ``hegemon bench`` prints it: each game scored 1, ½ or 0)."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from sqlmodel import col, select

from ..sprt import Sprt, estimate
from ..store import BotRow, ChallengeRow, SeasonRow, Store

SPRT_ELO = (0.0, 20.0)
"""H0 and H1 of the challenge's SPRT: not stronger, or 20 Elo stronger (``hegemon bench``'s)."""


def score(places: list[int], mine: int, theirs: int) -> float:
    """The tested version's score against one opponent in a game: 1 ahead, ½ level, 0 behind."""
    if places[mine] == places[theirs]:
        return 0.5
    return 1.0 if places[mine] < places[theirs] else 0.0


def sprt_summary(scores: list[float]) -> dict[str, Any]:
    """The SPRT of ``scores`` (one a game): its counts, Elo ± interval, LLR, bounds, verdict
    and the line ``hegemon bench`` would print."""
    test = Sprt([0.0, 0.5, 1.0], *SPRT_ELO)
    for value in scores:
        test.add(value)
    est = estimate(scores)
    verdict = test.verdict
    said = {"H1": "H1 accepted: stronger", "H0": "H0 accepted: not stronger"}.get(
        verdict or "", "undecided: more games needed"
    )
    return {
        "games": len(scores),
        "wins": scores.count(1.0),
        "draws": scores.count(0.5),
        "losses": scores.count(0.0),
        "score": est.score,
        "elo": est.text(),
        "llr": round(test.llr, 3),
        "bounds": [round(test.lower, 3), round(test.upper, 3)],
        "elo0": SPRT_ELO[0],
        "elo1": SPRT_ELO[1],
        "verdict": verdict,
        "line": f"games {len(scores)} · score {est.score:.3f} · {est.text()} · "
        f"LLR {test.llr:+.2f} ({test.lower:+.2f}, {test.upper:+.2f}) · {said}",
    }


def challenge_data(store: Store, challenge: ChallengeRow) -> dict[str, Any]:
    """A challenge as its owner sees it (no other member's logs or fault details: a game's
    page gives those to whoever may see them)."""
    season = store.get_season(challenge.season_id)
    assert season is not None and season.id is not None
    ids = [challenge.bot_id, *challenge.opponents]
    with store.session() as s:
        labels = {
            b.id: b.label for b in s.exec(select(BotRow).where(col(BotRow.id).in_(ids))).all()
        }
        ladder = s.get(SeasonRow, challenge.ladder_id) if challenge.ladder_id else None
    progress = store.progress(season.id)
    games: list[dict[str, Any]] = []
    versus: dict[int, list[float]] = defaultdict(list)
    for match, game in store.games(season.id):
        mine = match.seats.index(challenge.bot_id)
        games.append(
            {
                "id": game.id,
                "number": match.number,
                "seats": [labels.get(b, f"bot#{b}") for b in match.seats],
                "place": game.places[mine],
                "places": game.places,
                "faults": len(game.faults),
                "url": f"/game/{game.id}",
            }
        )
        for seat, other in enumerate(match.seats):
            if other != challenge.bot_id:
                versus[other].append(score(game.places, mine, seat))
    opponents = [
        {
            "bot": labels.get(b, f"bot#{b}"),
            "games": len(versus[b]),
            "ahead": versus[b].count(1.0) + versus[b].count(0.5) / 2,
        }
        for b in challenge.opponents
    ]
    one = challenge.opponents[0] if len(challenge.opponents) == 1 else None
    return {
        "id": challenge.id,
        "bot": labels.get(challenge.bot_id, f"bot#{challenge.bot_id}"),
        "bot_id": challenge.bot_id,
        "opponents": opponents,
        "chosen": challenge.note,
        "ladder": ladder.name if ladder else None,
        "rules": season.preset,
        "players": season.players,
        "games": challenge.games,
        "done": progress.done,
        "void": progress.void,
        "status": season.status,
        "finished": progress.complete,
        "created_at": challenge.created_at.isoformat(),
        "mean_place": sum(g["place"] for g in games) / len(games) if games else None,
        "results": games,
        "sprt": sprt_summary(versus[one]) if one is not None else None,
        "url": f"/challenge/{challenge.id}",
    }


def get_challenge(store: Store, challenge_id: int) -> ChallengeRow | None:
    """The challenge with this id, if any."""
    with store.session() as s:
        return s.get(ChallengeRow, challenge_id)


def challenges_of(store: Store, owner_id: int) -> list[ChallengeRow]:
    """``owner_id``'s challenges, newest first."""
    with store.session() as s:
        query = select(ChallengeRow).where(col(ChallengeRow.owner_id) == owner_id)
        return list(s.exec(query.order_by(col(ChallengeRow.id).desc())).all())


def challenge_of_season(store: Store, season_name: str) -> ChallengeRow | None:
    """The challenge whose games the season named ``season_name`` holds, if it is one."""
    with store.session() as s:
        query = select(ChallengeRow).join(
            SeasonRow, col(SeasonRow.id) == col(ChallengeRow.season_id)
        )
        return s.exec(query.where(col(SeasonRow.name) == season_name)).first()
