"""A bot that starts and never listens (for tests/runner/test_bot_errors.py)."""

import time

time.sleep(3600)
