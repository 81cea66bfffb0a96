"""A uvicorn server whose exit flag is a shared :class:`threading.Event`: set before the server
exists (a signal during start-up), by uvicorn's own signal handling, or by anyone else, it
stops the server at its next check — even one made before it listens."""

from __future__ import annotations

import socket
import threading

import uvicorn


class StoppableServer(uvicorn.Server):
    """:class:`uvicorn.Server` that stops once ``stop`` is set (its ``should_exit`` is the
    flag; uvicorn setting ``should_exit`` sets the flag)."""

    def __init__(self, config: uvicorn.Config, stop: threading.Event) -> None:
        self.stop = stop
        super().__init__(config)

    @property
    def should_exit(self) -> bool:
        return self.stop.is_set()

    @should_exit.setter
    def should_exit(self, value: bool) -> None:
        if value:  # uvicorn's __init__ writes False: it never clears a stop already asked for
            self.stop.set()

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        """First answer the requests that wait for something to happen (runners' long-poll
        claims: the app's ``runner_waiting`` room, if one was made), which uvicorn's own
        shutdown would otherwise wait for; then shut down as uvicorn does."""
        room = getattr(getattr(self.config.app, "state", None), "runner_waiting", None)
        if room is not None:
            room.close()
        await super().shutdown(sockets)
