"""The sample bots a name alone selects (``--bot planner``, ``hegemon bot add NAME planner``).

A module of its own, so that the list is not part of the files a registered sample bot is
stored with (its package ``__init__``): adding a name changes no registered bot's hash.
"""

TOUR = ("random", "aggressive", "continental", "planner")
"""The four of clearly different strength, weakest first: the demo's season and the test
suite's fixtures seat these."""

NAMES = (*TOUR, "mcts", "trained")
"""Every sample bot; each is the module ``hegemon.sample_bots.NAME``. ``mcts`` is planner with
a search on top, which does not beat planner yet (docs/strong-bots.md); ``trained`` plays a
policy network trained by ``hegemon train`` (docs/training.md)."""
