"""Calling a function at trio's next wait (the runner freezes the bots it paused ``soon``
there): not before the asking task waits, once however often asked, again when asked again."""

from __future__ import annotations

import trio

from hegemon.referee.runner.lull import at_next_wait


def test_a_call_runs_once_when_the_asking_task_next_waits():
    calls: list[str] = []

    async def main() -> list[list[str]]:
        seen = []
        done = trio.Event()

        def freeze() -> None:
            calls.append("freeze")
            done.set()

        at_next_wait(lambda: calls.append("first"))
        at_next_wait(freeze)
        at_next_wait(freeze)
        seen.append(list(calls))  # the task has not waited yet
        await done.wait()
        seen.append(list(calls))
        done = trio.Event()
        at_next_wait(freeze)
        seen.append(list(calls))
        await done.wait()
        seen.append(list(calls))
        return seen

    assert trio.run(main) == [
        [],
        ["first", "freeze"],
        ["first", "freeze"],
        ["first", "freeze", "freeze"],
    ]
