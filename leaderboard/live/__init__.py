"""Games watched as they are played (issue 35 item 7).

The runner playing a match keeps its record so far in the database (:mod:`.feed`, every
:data:`~.feed.FLUSH` seconds, into :class:`~hegemon.leaderboard.store.live.LiveGameRow`); the
web servers read those rows (:mod:`.watch`) and stream each game's public form (:mod:`.public`)
to its spectators, :data:`~.public.DELAY` decisions behind what is stored. A spectator costs the
runner nothing: the runner writes the same rows whether a hundred people watch or nobody does.
"""
