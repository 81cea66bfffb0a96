"""hegemon: a tournament referee and bot arena for the Risk family of world-conquest games.

The installed packages are ``hegemon.referee`` (the rules engine and the match runner),
``hegemon.sdk`` (the Python bot SDK), ``hegemon.leaderboard`` (seasons, ratings, the CLI) and
``hegemon.sample_bots``. In the source tree they live in the top-level folders of the same
names; this folder only links them under the project's name.
"""
