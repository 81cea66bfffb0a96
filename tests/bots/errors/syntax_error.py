"""A bot with a syntax error (for tests/test_bot_errors.py)."""

from hegemon.sdk import Bot, run


class Broken(Bot):
    name = "syntax-error"

    def attack(self, view, decision:
        return None


if __name__ == "__main__":
    run(Broken())
