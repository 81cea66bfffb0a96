"""The provisional mark (no numpy here: boards read from a stored fit show it too)."""

PROVISIONAL_GAMES = 10
"""A bot with fewer games than this is marked provisional: its rating rests mostly on the
prior, and its interval is wide."""
