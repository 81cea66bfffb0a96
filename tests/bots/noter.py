"""A bot that writes notes and marks on every decision (for tests/runner/test_notes.py): a
secret that must reach no other seat, words hostile to whoever shows them, a note far over the
limit now and then, and marks both good and malformed (no such territory, a colour outside the
palette)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the checkout, in the sandbox

from hegemon.sdk import Bot, run

SECRET = "SECRET-NOTE-of-the-noter"
HOSTILE = "\x1b[2J\x00<!--<script>alert(1)</script>\u202e[bold red]x[/]"


class Noter(Bot):
    name = "noter"

    def decide(self, view, decision):
        assert view.context is not None
        n = view.context.decisions
        view.note(f"{SECRET} {n} {HOSTILE}")
        if n % 10 == 3:
            view.note("x" * 5000)  # over the 1 KiB of a decision: cut, with its marker
        mine = [t for t, o in enumerate(view.owner) if o == view.seat]
        if mine:
            first = mine[0]
            view.mark(first, label=f"mine {HOSTILE}", colour="green")
            neighbour = view.board.neighbours[first][0]
            view.mark(first, neighbour, "look", "red")
        view.mark(10_000, label="nowhere")  # no such territory: dropped with a reason
        view.mark(0, colour="chartreuse")  # not in the palette: dropped with a reason
        return super().decide(view, decision)


if __name__ == "__main__":
    run(Noter())
