"""A bot that listens on TCP, which the sandbox refuses (for tests/runner/test_bot_errors.py)."""

from hegemon.sdk import Bot, run


class Tcp(Bot):
    name = "tcp-listener"


if __name__ == "__main__":
    run(Tcp(), ["--address", "127.0.0.1:50051"])
