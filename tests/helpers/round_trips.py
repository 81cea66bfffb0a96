"""Counting a store's round trips to its database: each statement, each BEGIN (psycopg sends
it before a transaction's first statement), each COMMIT or ROLLBACK, and each ping of a pooled
connection. Used by the round-trip test and ``benchmarks/round_trips.py``."""

from __future__ import annotations

from collections import Counter

from sqlalchemy import event
from sqlalchemy.engine import Engine

KINDS = {
    "before_cursor_execute": "statements",
    "begin": "begins",
    "commit": "commits",
    "rollback": "rollbacks",
}


def count_round_trips(engine: Engine) -> Counter[str]:
    """A counter of ``engine``'s round trips by kind (statements, begins, commits, rollbacks,
    pings), counting from now on; ``sum(counter.values())`` is the total."""
    counted: Counter[str] = Counter()
    for name, kind in KINDS.items():

        def count(*_: object, kind: str = kind) -> None:
            counted[kind] += 1

        event.listen(engine, name, count)
    ping = engine.dialect.do_ping

    def counted_ping(dbapi: object) -> bool:
        counted["pings"] += 1
        return bool(ping(dbapi))

    engine.dialect.do_ping = counted_ping  # type: ignore[method-assign]
    return counted
