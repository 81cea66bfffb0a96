"""The web server's fitting process (:class:`.fitter.Fitter` starts it): reads fit requests
on stdin, answers each with the fitted board on stdout. It ends
when its stdin closes — when the server is gone, however it went — even in the middle of a
fit. Run as ``python -P -m hegemon.leaderboard.web.fit_worker``; the first frame is the
database URL (never on the command line: a PostgreSQL URL may hold a password)."""

from __future__ import annotations

import os
import pickle
import queue
import sys
import threading
from typing import IO, Any

from .frames import read_frame, write_frame


def _read(requests: IO[bytes], jobs: queue.Queue[bytes]) -> None:
    while (frame := read_frame(requests)) is not None:
        jobs.put(frame)
    os._exit(0)  # the server is gone: stop now, mid-fit included


def _fit(store: Any, request: tuple[Any, ...]) -> Any:
    from .fits import pooled_board_data, season_board_data, season_history_data

    def season(season_id: int) -> Any:
        found = store.get_season(season_id)
        if found is None:
            raise LookupError(f"no season #{season_id}")
        return found

    if request[0] == "season":
        return season_board_data(store, season(request[1]))
    if request[0] == "history":
        return season_history_data(store, season(request[1]), full=request[2])
    if request[0] == "pooled":
        _, ids, title, preset, seed = request
        return pooled_board_data(store, [season(i) for i in ids], title, preset, seed)
    raise ValueError(f"unknown request {request[0]!r}")


def main() -> None:
    answers = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # anything printed goes to the server's log, never into an answer
    requests = sys.stdin.buffer
    url = read_frame(requests)
    if url is None:
        return
    from hegemon.leaderboard.store import Store

    jobs: queue.Queue[bytes] = queue.Queue()
    threading.Thread(target=_read, args=(requests, jobs), daemon=True).start()
    with Store(url.decode(), create=False) as store:
        while True:
            request = pickle.loads(jobs.get())
            try:
                answer: tuple[str, Any] = ("ok", _fit(store, request))
            except Exception as exc:  # said to the server, which fits the board itself
                answer = ("error", f"{type(exc).__name__}: {exc}")
            try:
                write_frame(answers, pickle.dumps(answer))
            except OSError:  # the server is gone
                os._exit(0)


if __name__ == "__main__":
    main()
