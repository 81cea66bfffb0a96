"""What a bot's notes cost the referee: the same seeded in-process games (``play_local`` with
``protocol=True``: every answer through the protocol codec, as over gRPC but without a socket),
once by bots that write nothing and once by the same bots writing a note and two marks on every
decision (the most a bot is likely to write; the game itself is the same).

Prints, per run, the games' CPU per decision (this process) and the record's size per game, and
the last line ``notes: +X % CPU per decision, +Y bytes of record per decision``.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from hegemon.sample_bots.aggressive import AggressiveBot  # noqa: E402
from hegemon.sdk import play_local  # noqa: E402

GAMES = 6
PLAYERS = 4


class Noting(AggressiveBot):
    """The aggressive sample bot, explaining every decision with a note and two marks."""

    def decide(self, view, decision):
        mine = [t for t, o in enumerate(view.owner) if o == view.seat] or [0]
        view.note(f"round {view.round}: {decision.kind.value}; {len(mine)} territories held")
        view.mark(mine[0], label="held", colour="green")
        view.mark(mine[0], view.board.neighbours[mine[0]][0], "next", "red")
        return super().decide(view, decision)


def run(cls: type) -> tuple[float, int, int]:
    """CPU seconds, decisions and record bytes of the seeded games played by ``cls`` bots."""
    cpu = 0.0
    decisions = size = 0
    for seed in range(GAMES):
        bots = [cls() for _ in range(PLAYERS)]
        began = time.process_time()
        result = play_local(bots, "classic", seed=seed, options={"turn_limit": 30}, protocol=True)
        cpu += time.process_time() - began
        decisions += sum(line.startswith('{"type":"action"') for line in result.record.splitlines())
        size += len(result.record.encode())
    return cpu, decisions, size


def main() -> None:
    run(AggressiveBot)  # warm-up: imports, caches
    plain, noted = run(AggressiveBot), run(Noting)
    for name, (cpu, decisions, size) in (("no notes", plain), ("notes", noted)):
        print(
            f"{name:>9}: {GAMES} games, {decisions} decisions, "
            f"{cpu / decisions * 1e6:.0f} µs CPU per decision, "
            f"{size / GAMES:,.0f} bytes of record per game"
        )
    cpu = (noted[0] / noted[1]) / (plain[0] / plain[1]) - 1
    extra = (noted[2] - plain[2]) / noted[1]
    print(f"notes: {cpu:+.0%} CPU per decision, {extra:+.0f} bytes of record per decision")


if __name__ == "__main__":
    main()
