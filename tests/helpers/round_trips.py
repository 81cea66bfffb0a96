"""Counting a store's round trips to its database: each statement, each BEGIN (psycopg sends
it before a transaction's first statement), each COMMIT or ROLLBACK (none of either on an
autocommit connection), and each ping of a pooled connection. Used by the round-trip test
and ``benchmarks/round_trips.py``."""

from __future__ import annotations

from collections import Counter
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Connection, Engine

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

        def count(conn: Connection, *_: object, kind: str = kind) -> None:
            # an autocommit connection sends no BEGIN, and nothing to end (psycopg knows no
            # transaction is open); its statements still count
            if kind == "statements" or not _autocommit(conn):
                counted[kind] += 1

        event.listen(engine, name, count)
    ping = engine.dialect.do_ping

    def counted_ping(dbapi: Any) -> bool:
        counted["pings"] += 1
        return bool(ping(dbapi))

    engine.dialect.do_ping = counted_ping  # type: ignore[method-assign,assignment]
    return counted


def _autocommit(conn: Connection) -> bool:
    return conn.get_execution_options().get("isolation_level") == "AUTOCOMMIT"
