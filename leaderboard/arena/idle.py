"""How a local runner (trio) waits when it finds nothing to do: on the database's notification
(:class:`~.wakeup.Listener`, PostgreSQL) or, on SQLite, a look every ``poll`` seconds.

SQLite keeps the poll: the arena is one machine and its database a local file, so a look is a
read of a few pages the operating system holds in memory — no server, no connection, no network
— and SQLite has no way to tell another process that a row changed."""

from __future__ import annotations

import trio

from .wakeup import Hearing


class Idle:
    """Waits of an idle runner's loops. Take :meth:`mark` *before* looking for work, then
    :meth:`wait` with it: work announced in between ends the wait at once."""

    def __init__(self, listener: Hearing | None, poll: float) -> None:
        self.listener, self.poll = listener, poll

    def mark(self) -> int:
        return self.listener.bell.rings if self.listener is not None else 0

    async def wait(self, mark: int) -> None:
        """Until work is announced (or the listener's timeout: :func:`.wakeup.wait_limit`)."""
        if self.listener is None:
            await trio.sleep(self.poll)
            return
        bell = self.listener.bell
        rung = trio.Event()
        token = trio.lowlevel.current_trio_token()

        def wake() -> None:  # called in the listener's thread
            try:
                token.run_sync_soon(rung.set)
            except trio.RunFinishedError:
                pass

        bell.subscribe(wake)
        try:
            if bell.rings != mark:
                return
            with trio.move_on_after(self.listener.timeout(self.poll)):
                await rung.wait()
        finally:
            bell.unsubscribe(wake)
