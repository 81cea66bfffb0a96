"""A file named like the standard library's random: it must never be imported in its place."""

raise ImportError("the bot's own random.py hid the standard library's random")
