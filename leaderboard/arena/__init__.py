"""``hegemon arena``: the web server with accounts, the runners that play check games and the
seasons' and ladders' matches, and each ladder's matchmaker, in one command.

One job per module: :mod:`.checks` (a runner's check games of submitted versions),
:mod:`.runner` (one runner process: check games beside matches), :mod:`.matchmaking` (filling
the ladders' queues), :mod:`.supervisor` (the processes of ``hegemon arena``).
"""
