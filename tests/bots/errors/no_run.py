"""A bot that forgets to call run() (for tests/runner/test_bot_errors.py)."""

from hegemon.sdk import Bot


class Forgetful(Bot):
    name = "no-run"
