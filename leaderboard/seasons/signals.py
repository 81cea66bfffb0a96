"""A season run stopped cleanly by SIGINT/SIGTERM: :func:`run_until_signalled`."""

from __future__ import annotations

import signal
from collections.abc import Callable
from typing import Any, Protocol

import trio

from ..store import StoreError
from .state import RunnerError, RunState


class Stoppable(Protocol):
    """A season runner or a set of worker processes: ``run()`` and its ``state``."""

    state: RunState

    async def run(self) -> RunState: ...


async def run_until_signalled(
    runner: Stoppable, on_signal: Callable[[int], Any] | None = None
) -> str | None:
    """Run ``runner`` until it ends or SIGINT/SIGTERM arrives (then it is cancelled: games in
    flight are abandoned, claims given back, ``state.interrupted`` set, ``on_signal(signum)``
    told). Returns the one-line error that stopped the run, if a database or runner error did."""
    failure: list[str] = []
    with trio.open_signal_receiver(signal.SIGINT, signal.SIGTERM) as signals:
        async with trio.open_nursery() as nursery:

            async def body() -> None:
                try:
                    await runner.run()
                except (StoreError, RunnerError) as exc:
                    failure.append(str(exc))
                finally:
                    nursery.cancel_scope.cancel()

            async def watch() -> None:
                async for signum in signals:
                    runner.state.interrupted = True
                    if on_signal is not None:
                        on_signal(signum)
                    nursery.cancel_scope.cancel()
                    return

            nursery.start_soon(body)
            nursery.start_soon(watch)
    return failure[0] if failure else None
