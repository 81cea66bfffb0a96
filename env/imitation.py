"""A teacher's decisions as the encoder's atomic steps: the labels of behaviour cloning.

A strong sample bot (``planner``) answers whole decisions; the policy answers atomic steps
(:mod:`hegemon.referee.encoding`). :func:`teacher_steps` turns the teacher's answer into the
steps that give it (:func:`hegemon.env.records.steps`, the same translation as for recorded
games), and when no steps give it exactly — an occupation or a move of an amount no bucket
gives, an attack with fewer dice than the most — into the steps of the nearest answer that
some do (the closest amount, the most dice). :func:`labelled_steps` adds what each step is
taken from: the observation and the action mask of the seat's view at that step, the rows a
classifier trains on.

:class:`Apprentice` is the bot that plays the learner's seats while it learns: it asks the
teacher at every decision and keeps the labelled steps, then either plays the teacher's answer
(with probability ``lead``: behaviour cloning on the teacher's own games) or its policy's own
(DAgger: the teacher labels the positions the policy reaches, so it learns to recover from its
own mistakes), keeping the policy's steps for the policy gradient.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import numpy as np

from hegemon.referee import actions as act
from hegemon.referee.decisions import Decision
from hegemon.referee.encoding import Partial, action_mask, answer, encode, to_action
from hegemon.referee.view import View
from hegemon.sdk import Bot, BotView
from hegemon.sdk.network import Floats, Mask, Network

from .records import steps

__all__ = ["Apprentice", "Labelled", "labelled_steps", "teacher_steps"]

Labelled = tuple[Floats, Mask, int]
"""One labelled step: the observation, the action mask and the teacher's action index."""

_NEAREST = 24  # amounts tried on each side of the teacher's before giving up on a decision
_AMOUNTS = (act.Occupy, act.Defend, act.Fortify, act.FortifyAlly)


def teacher_steps(view: View, decision: Decision, action: act.Action) -> list[int] | None:
    """The atomic steps (action indices) that answer ``decision`` as ``action`` does, or as the
    nearest answer the encoder can give; None when there is none (a bribe of several cards)."""
    for candidate in _nearest(action):
        try:
            return steps(view, decision, candidate)  # type: ignore[arg-type]
        except (ValueError, LookupError):  # Inexpressible, or the encoder's own refusal
            continue
    return None


def _nearest(action: act.Action) -> Iterator[act.Action]:
    """``action``, then the answers nearest to it that differ only in an amount or dice."""
    yield action
    if isinstance(action, act.Attack):
        for dice in (3, 2, 1):
            if dice != action.dice:
                yield replace(action, dice=dice)
    elif isinstance(action, _AMOUNTS):
        field = "dice" if isinstance(action, act.Defend) else "armies"
        wanted = int(getattr(action, field))
        for distance in range(1, _NEAREST + 1):
            for n in (wanted - distance, wanted + distance):
                if n >= 1:
                    yield replace(action, **{field: n})  # type: ignore[arg-type]


def labelled_steps(view: View, decision: Decision, action: act.Action) -> list[Labelled]:
    """The teacher's steps (:func:`teacher_steps`) with the observation and mask each is taken
    from; empty when the encoder cannot give the answer."""
    indices = teacher_steps(view, decision, action)
    if indices is None:
        return []
    partial = Partial()
    rows: list[Labelled] = []
    for index in indices:
        observation = encode(view, decision, partial)
        mask = action_mask(view, decision, partial)
        rows.append((observation, mask, index))
        to_action(index, view, decision, partial, mask=mask)
    return rows


class Apprentice(Bot):
    """Plays a learner's seats: the teacher labels every decision; the teacher's answer is
    played with probability ``lead``, else the policy's (sampled, or its likeliest action)."""

    name = "apprentice"

    def __init__(
        self,
        network: Network,
        teacher: Bot | None,
        rng: np.random.Generator,
        lead: float = 0.0,
        sample: bool = True,
    ):
        self.network = network
        self.teacher = teacher
        self.rng = rng
        self.lead = lead
        self.sample = sample
        self.labels: dict[int, list[Labelled]] = {}
        # the policy's own steps, with the seat's share of the map when taken (its shaping)
        self.steps: dict[int, list[tuple[Floats, Mask, int, float]]] = {}

    def decide(self, view: BotView, decision: Decision) -> Any:
        taught = self.teacher.decide(view, decision) if self.teacher is not None else None
        if taught is not None:
            self.labels.setdefault(view.seat, []).extend(labelled_steps(view, decision, taught))
            if self.lead > 0 and float(self.rng.random()) < self.lead:
                return taught
        mine = self.steps.setdefault(view.seat, [])
        share = sum(1 for o in view.owner if o == view.seat) / len(view.owner)

        def choose(observation: Floats, mask: Mask) -> int:
            draw = float(self.rng.random()) if self.sample else None
            index = self.network.choose(observation, mask, draw)
            mine.append((observation, mask, index, share))
            return index

        return answer(view, decision, choose)
