"""The sample bots a name alone selects (``--bot planner``, ``hegemon bot add NAME planner``).

A module of its own, so that the list is not part of the files a registered sample bot is
stored with (its package ``__init__``): adding a name changes no registered bot's hash.
"""

NAMES = ("random", "aggressive", "continental", "planner", "mcts")
"""Weakest first, but for ``mcts``: planner with a search on top, which does not beat planner
yet (docs/strong-bots.md); each is the module ``hegemon.sample_bots.NAME``."""
