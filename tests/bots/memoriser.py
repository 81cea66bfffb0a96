"""A hostile bot that tries to remember deals between games (the duplicate-season tests).

It fingerprints each game's deal (which territories were dealt together: the same in every
rotation of a duplicate table, whichever seat it sits in) and looks the fingerprint up in its
process memory and in a file in its temporary folder. It tells what it found in its first
answer of a game: one army on its lowest own territory if the deal is new to it, on its highest
if it recognises the deal. The rest of its play is the SDK's default.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from typing import ClassVar

from hegemon.sdk import Bot, Place, run

MEMORY_FILE = os.path.join(tempfile.gettempdir(), "memoriser-deals.txt")


def fingerprint(owner) -> str:
    groups: dict[int, list[int]] = {}
    for territory, seat in enumerate(owner):
        groups.setdefault(seat, []).append(territory)
    return hashlib.sha256(repr(sorted(groups.values())).encode()).hexdigest()


def remembered() -> set[str]:
    try:
        with open(MEMORY_FILE, encoding="utf-8") as f:
            return set(f.read().split())
    except OSError:
        return set()


class Memoriser(Bot):
    name = "memoriser"
    seen: ClassVar[set[str]] = set()  # deals seen by this process
    answered: ClassVar[set[str]] = set()  # games whose first answer was given

    def place(self, view, decision):
        if view.game_id in self.answered:
            return super().place(view, decision)
        self.answered.add(view.game_id)
        deal = fingerprint(view.owner)
        known = deal in self.seen or deal in remembered()
        self.seen.add(deal)
        try:
            with open(MEMORY_FILE, "a", encoding="utf-8") as f:
                f.write(deal + "\n")
        except OSError:
            pass
        mine = [t for t, seat in enumerate(view.owner) if seat == decision.player]
        return Place(((max(mine) if known else min(mine), decision.armies),))


if __name__ == "__main__":
    run(Memoriser())
