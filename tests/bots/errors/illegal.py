"""A bot that answers every placement illegally (for tests/runner/test_bot_errors.py)."""

from hegemon.sdk import Bot, Place, run


class Illegal(Bot):
    name = "illegal"

    def place(self, view, decision):
        return Place(((0, decision.armies + 1000),))


if __name__ == "__main__":
    run(Illegal())
