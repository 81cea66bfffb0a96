"""What the public sees of a game in play: its replay data (:func:`~hegemon.leaderboard.web.
replay.replay_data`) cut to what every seat was shown, and :data:`DELAY` decisions behind.

A finished game's record is public whole (the seed, every hand); a game in play is not: a
spectator — a bot's author among them — must learn nothing a seat's own view does not give,
and not sooner. So the live form has no seed, no card in any hand (only how many), every
event as the other seats were told it (a drawn card, a secret capital), each fault by its kind
alone, no notes; and it stops :data:`DELAY` decisions short of what the runner has stored.
Every step is exactly the step of the finished game's :func:`public_replay` (a prefix of it),
which ``tests/web/test_live.py`` checks at every update.
"""

from __future__ import annotations

from typing import Any

DELAY = 5
"""Decisions a live page stays behind the runner's stored record while the game is in play:
by the time a spectator sees a decision, the seats it concerned have each been asked again."""

HIDDEN_CARD = "?"
"""A card in a hand, as the public sees it while the game is played."""

_SHARED = ("title", "seats", "rules", "teams", "points", "map", "initial")
"""The parts of the replay data that are public from the start."""


def public_event(entry: dict[str, Any]) -> dict[str, Any]:
    """An event as every seat but its own was told it (its redacted text, when it has one)."""
    if "r" not in entry:
        return entry
    return {**{k: v for k, v in entry.items() if k not in ("r", "s")}, "t": entry["r"]}


def public_step(step: dict[str, Any]) -> dict[str, Any]:
    """One decision without its private parts: no notes, the action's public text, the events'
    redacted texts, hands as their sizes."""
    out = {k: v for k, v in step.items() if k not in ("notes", "ar", "h", "ev")}
    if "ar" in step:
        out["a"] = step["ar"]
    out["ev"] = [public_event(e) for e in step.get("ev", [])]
    if "h" in step:
        out["h"] = [[HIDDEN_CARD] * len(hand) for hand in step["h"]]
    return out


def public_replay(data: dict[str, Any]) -> dict[str, Any]:
    """Replay data (a game so far, or a finished one) in its live, public form: every step
    (:func:`shown` cuts the last ones), no seed, no result, no final position."""
    return {
        **{k: data.get(k) for k in _SHARED},
        "seed": None,
        "result": None,
        "opening": [public_event(e) for e in data.get("opening", [])],
        "steps": [public_step(s) for s in data.get("steps", [])],
    }


def shown(steps: int) -> int:
    """How many of a game's ``steps`` stored so far a spectator sees while it is played."""
    return max(0, steps - DELAY)
