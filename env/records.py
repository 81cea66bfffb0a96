"""Game records as learning data: one seat's decisions as (observation, action mask, action).

A folder of records (``hegemon games download`` writes ``game-ID.jsonl``; any ``*.jsonl``
record is read) becomes the samples an imitation learner trains on, in the environments' own
encoding (:mod:`hegemon.referee.encoding`)::

    skipped: list[str] = []
    for sample in decisions("games/", seat="mybot", skipped=skipped):
        ...  # sample.observation, sample.mask, sample.action
    observations, masks, actions = stack(decisions("games/", seat=0))

Each record is first checked as ``hegemon verify`` does (its shape, then the engine's replay of
every event), then replayed once more: at each decision of the chosen seat, the seat's view
(``view_for``, the referee's redaction: never another seat's cards, missions or capital) is
encoded and the recorded engine action is turned back into the encoder's atomic steps — a
placement over several territories is a territory step and an amount step per territory, an
attack its source then its target — one :class:`Sample` per step, each with the observation and
mask that step is taken from. Feeding the samples' actions to ``to_action`` with one
:class:`~hegemon.referee.encoding.Partial` per decision rebuilds the recorded action (a placement's
pairs sorted by territory, as the encoder gives them).

Nothing is raised for a bad input: a record that cannot be read or does not verify, a record
without the chosen seat, or a decision the encoder cannot express (an attack with fewer dice
than the most, a fortify amount no bucket gives, a bribe of several cards, …) is left out, and
a one-line reason is appended to ``skipped``. Private lines (a seat's faults and notes) are
skipped; so is the referee's stand-in answer after a fault of the seat (no choice of its bot)
and a forfeit.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from hegemon.referee import actions as act
from hegemon.referee.decisions import Decision
from hegemon.referee.encoding import (
    PASS,
    Layout,
    Partial,
    action_mask,
    encode,
    layout_of,
    to_action,
)
from hegemon.referee.game import Game
from hegemon.referee.record import RecordError, game_from_record
from hegemon.referee.record_check import check_lines, checked_replay
from hegemon.referee.view import View, view_for

__all__ = ["Sample", "decisions", "stack", "steps"]


@dataclass(frozen=True, eq=False)  # (arrays: compared by identity, not element-wise)
class Sample:
    """One atomic step of the seat's answer: what it saw, what it could do, what it did."""

    observation: np.ndarray  # float32, layout.features: encode(view, decision, partial)
    mask: np.ndarray  # int8, layout.actions: action_mask(view, decision, partial)
    action: int  # the index taken (legal by the mask)
    game: str  # the record's file name without .jsonl (game-ID for a download)
    n: int  # the record's action line ("n") this step answers
    seat: int  # the seat it answers for


class Inexpressible(ValueError):
    """An engine action the encoder has no steps for; its message says why."""


_PLACINGS = (act.Place, act.PlaceNeutral, act.ReinforceAlly)


def canonical(action: act.Action) -> act.Action:
    """``action`` as the encoder gives it: a placement's pairs merged per territory and sorted
    (the engine applies them alike in any order), any other action as it is."""
    if isinstance(action, _PLACINGS):
        merged: dict[int, int] = {}
        for t, n in action.placements:
            merged[t] = merged.get(t, 0) + n
        return type(action)(tuple(sorted((t, n) for t, n in merged.items() if n)))
    return action


def steps(view: View, decision: Decision, action: act.PlayerAction) -> list[int]:
    """The encoder's atomic steps (action indices) that answer ``decision`` with ``action``
    from ``view``: fed to :func:`~hegemon.referee.encoding.to_action` with one ``Partial``, the
    last gives ``canonical(action)``. Raises :class:`Inexpressible` saying why when none do."""
    target = canonical(action)
    partial = Partial()
    taken: list[int] = []
    for _ in range(4 * layout_of(view.board).territories + 8):  # a placement's steps at most
        mask = action_mask(view, decision, partial)
        index = _next_step(view, decision, partial, target, mask)
        taken.append(index)
        done = to_action(index, view, decision, partial, mask=mask)
        if done is not None:
            if done != target:
                raise Inexpressible(f"the encoder gives {_show(done)} instead")
            return taken
    raise Inexpressible("no steps reach it")  # (a placement the steps never complete)


def _next_step(
    view: View, decision: Decision, partial: Partial, action: act.Action, mask: np.ndarray
) -> int:
    """The index of the next step toward ``action``."""
    layout = layout_of(view.board)
    legal = [int(i) for i in np.flatnonzero(mask)]
    if isinstance(action, act.Pass):
        return _allowed(PASS, legal, "passing")
    if isinstance(action, act.Claim | act.Capital | act.BuildCentre):
        return _allowed(layout.territory(action.territory), legal, "that territory")
    if isinstance(action, act.Attack):
        t = action.target if partial.source >= 0 else action.source
        return _allowed(layout.territory(t), legal, "that attack")
    if isinstance(action, act.Fortify | act.FortifyAlly):
        if partial.source < 0:
            return _allowed(layout.territory(action.source), legal, "that move")
        if partial.target < 0:
            return _allowed(layout.territory(action.target), legal, "that move")
        return _completing(view, decision, partial, action, legal)
    if isinstance(action, act.Defend | act.Occupy | act.Trade):
        return _completing(view, decision, partial, action, legal)
    if isinstance(action, _PLACINGS):
        return _placing_step(view, decision, partial, action, legal)
    if isinstance(action, act.Bribe):
        if partial.seat < 0:
            relative = (action.neutral - view.seat) % len(view.seats)
            return _allowed(layout.seat(relative), legal, "bribing that neutral")
        if len(action.cards) != 1:
            raise Inexpressible(f"a bribe gives one card, not {len(action.cards)}")
        slot = view.hand.index(action.cards[0]) if action.cards[0] in view.hand else -1
        return _allowed(layout.card(slot), legal, "giving that card")
    raise Inexpressible(f"no step gives {action.tag}")


def _allowed(index: int, legal: list[int], what: str) -> int:
    if index not in legal:
        raise Inexpressible(f"the mask does not allow {what}")
    return index


def _completing(
    view: View, decision: Decision, partial: Partial, action: act.Action, legal: list[int]
) -> int:
    """The legal index whose step completes exactly ``action`` (an amount bucket, a set)."""
    for index in legal:
        if to_action(index, view, decision, copy.deepcopy(partial)) == action:
            return index
    raise Inexpressible("no amount bucket or listed set gives it")


def _placing_step(
    view: View,
    decision: Decision,
    partial: Partial,
    action: act.Place | act.PlaceNeutral | act.ReinforceAlly,
    legal: list[int],
) -> int:
    """The next step of a placement: the lowest territory still short of its armies, then
    the largest amount bucket not beyond what it still needs."""
    layout = layout_of(view.board)
    wanted = dict(action.placements)
    if partial.territory < 0:
        for t, n in sorted(wanted.items()):
            if partial.placed.get(t, 0) < n:
                return _allowed(layout.territory(t), legal, f"placing on territory {t}")
        raise Inexpressible("the placement is complete before its armies are placed")
    need = wanted[partial.territory] - partial.placed.get(partial.territory, 0)
    best, most = -1, 0
    for index in legal:
        trial = copy.deepcopy(partial)
        to_action(index, view, decision, trial)
        gives = trial.placed.get(partial.territory, 0) - partial.placed.get(partial.territory, 0)
        if most < gives <= need:
            best, most = index, gives
    if best < 0:
        raise Inexpressible("no amount bucket places what it needs")
    return best


def _show(action: act.Action) -> str:
    return str(act.action_to_list(action)).replace(" ", "")


def decisions(
    folder: str | Path,
    seat: int | str,
    *,
    layout: Layout | None = None,
    skipped: list[str] | None = None,
) -> Iterator[Sample]:
    """The samples of ``seat``'s decisions in every record of ``folder`` (a folder of
    ``*.jsonl`` records, read in name order, or one record file). ``seat`` is a seat index, or
    a name of the header's ``seats``: a label (``mybot@v3``) or a bot's name (``mybot``, any
    version), every seat it names. Only games on a map of ``layout``'s sizes are read (default:
    the first game read's), so that every sample has the same shape. Reasons for what is left
    out are appended to ``skipped``."""
    reasons: list[str] = skipped if skipped is not None else []
    root = Path(folder)
    paths = sorted(root.glob("*.jsonl")) if root.is_dir() else [root]
    for path in paths:
        game = path.name.removesuffix(".jsonl")
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            reasons.append(f"{game}: cannot read it ({type(exc).__name__})")
            continue
        opened = _open(text, game, seat, reasons)
        if opened is None:
            continue
        lines, engine, seats = opened
        sizes = layout_of(engine.board)
        if layout is not None and sizes != layout:
            reasons.append(
                f"{game}: a map of {sizes.territories} territories and {sizes.continents} "
                f"continents, not the {layout.territories} and {layout.continents} of the "
                "samples (give layout= to choose)"
            )
            continue
        layout = sizes
        yield from _replay(lines, engine, game, seats, reasons)


def _open(
    text: str, game: str, seat: int | str, skipped: list[str]
) -> tuple[list[dict[str, Any]], Game, list[int]] | None:
    """A record's checked lines, its game set up, and the seats ``seat`` names in it; None
    (the reason appended to ``skipped``) for a record that does not verify or lacks the seat."""
    verdict = checked_replay(text)
    if not verdict.ok:
        skipped.append(f"{game}: does not verify: {verdict.message}")
        return None
    try:
        lines = check_lines(text)
        engine = game_from_record(lines)
    except RecordError as exc:  # (checked above: kept for a record that changed since)
        skipped.append(f"{game}: {exc}")
        return None
    seats = _seats(lines[0], engine, seat)
    if not seats:
        skipped.append(f"{game}: no seat {seat!r} (seats: {_names(lines[0], engine)})")
        return None
    return lines, engine, seats


def _seats(head: dict[str, Any], engine: Game, seat: int | str) -> list[int]:
    """The seats ``seat`` names in a record (the deciding players only)."""
    if isinstance(seat, int):
        return [seat] if 0 <= seat < engine.player_count else []
    names = head.get("seats") or []
    return [
        s
        for s, name in enumerate(names[: engine.player_count])
        if name == seat or name.rsplit("@v", 1)[0] == seat
    ]


def _names(head: dict[str, Any], engine: Game) -> str:
    names = head.get("seats") or [f"{s}" for s in range(engine.player_count)]
    return ", ".join(names[: engine.player_count])


def _replay(
    lines: Iterable[dict[str, Any]], engine: Game, game: str, seats: list[int], skipped: list[str]
) -> Iterator[Sample]:
    """Replay a verified record's actions, yielding the samples of ``seats``' decisions."""
    stand_in: set[int] = set()  # seats whose next action is the referee's, after a fault
    for line in lines:
        if line["type"] == "fault":
            stand_in.add(line["seat"])
        if line["type"] != "action":
            continue
        action = act.action_from_list(line["action"])
        decision = engine.pending
        player = decision.player if decision is not None else -1
        if decision is not None and player in seats and not isinstance(action, act.Forfeit):
            if player in stand_in:
                skipped.append(f"{game}: action {line['n']} is the referee's, after a fault")
            else:
                yield from _samples(engine, player, decision, action, game, line["n"], skipped)
        stand_in.discard(player)
        engine.apply(action)


def _samples(
    engine: Game,
    seat: int,
    decision: Decision,
    action: act.PlayerAction,
    game: str,
    n: int,
    skipped: list[str],
) -> Iterator[Sample]:
    view = view_for(engine, seat)
    try:
        indices = steps(view, decision, action)
    except (ValueError, LookupError) as why:  # Inexpressible, or the encoder's own refusal
        skipped.append(f"{game}: seat {seat}'s action {n} {_show(action)} cannot be encoded: {why}")
        return
    partial = Partial()
    for index in indices:
        obs = encode(view, decision, partial)
        mask = action_mask(view, decision, partial)
        yield Sample(obs, mask, index, game, n, seat)
        to_action(index, view, decision, partial, mask=mask)


def stack(samples: Iterable[Sample]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(observations, masks, actions)`` as arrays for a classifier: float32 of shape
    (samples, features), int8 of shape (samples, actions) and int64 of shape (samples,)."""
    rows = list(samples)
    if not rows:
        return (
            np.zeros((0, 0), dtype=np.float32),
            np.zeros((0, 0), dtype=np.int8),
            np.zeros(0, dtype=np.int64),
        )
    return (
        np.stack([s.observation for s in rows]),
        np.stack([s.mask for s in rows]),
        np.asarray([s.action for s in rows], dtype=np.int64),
    )
