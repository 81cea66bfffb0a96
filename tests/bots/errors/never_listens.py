"""A bot that starts and never listens (for tests/test_bot_errors.py)."""

import time

time.sleep(3600)
