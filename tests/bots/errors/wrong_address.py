"""A bot that listens on a unix socket of its own choosing, not the one it was given (for
tests/runner/test_bot_errors.py)."""

from hegemon.sdk import Bot, run


class Elsewhere(Bot):
    name = "wrong-address"


if __name__ == "__main__":
    run(Elsewhere(), ["--address", "unix:/tmp/elsewhere.sock"])
