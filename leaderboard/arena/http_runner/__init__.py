"""Runners that join an arena over HTTP (``hegemon runner --arena URL --token T``): no database
URL, only a runner token (:mod:`hegemon.leaderboard.store.runner_tokens`).

- :mod:`.protocol`: the JSON of a lease (the match, its season's rules and clock, its seats'
  bots and their archives' digests, its seed) and of a posted result, both sides';
- :mod:`.accept`: the arena's side of a posted result: the lease checked, the record verified
  (the seed against its hash, the engine replaying every action), then stored by the store's
  one finishing path (:meth:`~hegemon.leaderboard.store.claims.ClaimStore.finish_match`);
- :mod:`.client`: the runner's HTTP calls, retried with backoff through network errors;
- :mod:`.archives`: bots' archives fetched by content digest, checked and cached on disk;
- :mod:`.loop`: the runner itself: claim, heartbeat, play (the season runner's own game code),
  post.
"""
