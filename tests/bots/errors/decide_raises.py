"""A bot whose own code raises in a decision (for tests/runner/test_bot_errors.py)."""

from hegemon.sdk import Bot, run


def strongest(view):
    return {"Alaska": 1}["no such territory"]  # the bot's bug: line 7


class Raises(Bot):
    name = "decide-raises"

    def place(self, view, decision):
        return strongest(view)


if __name__ == "__main__":
    run(Raises())
