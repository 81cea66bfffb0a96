"""Playing seasons: ``hegemon season run`` and what it needs, one module a job.

* :mod:`.schedule` — the matches of a season (seats, seeds), made once at ``season create``;
* :mod:`.limits` — the runner's tunable limits (light: ``hegemon --help`` reads them);
* :mod:`.runner` — :class:`~.runner.SeasonRunner`, the claim–play–record–commit loop;
* :mod:`.state` — :class:`~.state.RunState`, what a run has done so far;
* :mod:`.retry` — store calls off the event loop, retried through database outages;
* :mod:`.records` — where a game's record goes, written whole or not at all;
* :mod:`.commands` — a registered bot's files and start command on this machine;
* :mod:`.liveness` — worker ids, and whether a worker of this machine is gone;
* :mod:`.signals` — a run stopped cleanly by SIGINT/SIGTERM;
* :mod:`.pool` — ``--workers N``: one run over several worker processes;
* :mod:`.child` — one such worker process.

This package imports nothing itself, so that reading :mod:`.limits` stays cheap.
"""
