"""A bot that tells, at every decision, what it has been told so far: the running digest of
every event it received in this game, its hand and its missions (one line on stderr), then
plays as the sample bot ``aggressive`` does (it conquers, so it holds cards). The ``hegemon
replay --at`` tests compare its line in the original game with its line when it is put in the
same seat at the same decision."""

from __future__ import annotations

import hashlib
import json
import sys

from hegemon.sample_bots.aggressive import AggressiveBot
from hegemon.sdk import Policies, run


class Witness(AggressiveBot):
    name = "witness"
    # asked every decision, once: no standing orders, no pressed attacks (the SDK would call
    # ``attack`` again on views it simulates, and the witness would count their events twice)
    policies = Policies()
    press_attacks = False

    def decide(self, view, decision):
        memory = view.context.memory if view.context is not None else {}
        digest = memory.get("digest", hashlib.sha256(b"witness"))
        told = memory.get("told", 0)
        for event in view.events:
            digest.update(json.dumps(event.to_dict(), sort_keys=True).encode())
        memory["digest"], memory["told"] = digest, told + len(view.events)
        print(
            f"witness told={memory['told']} digest={digest.hexdigest()[:16]} "
            f"hand={list(view.hand)} missions={list(view.missions)}",
            file=sys.stderr,
            flush=True,
        )
        return super().decide(view, decision)


if __name__ == "__main__":
    run(Witness())
