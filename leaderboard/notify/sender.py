"""Sending the queue of deliveries: each due delivery is claimed (so two notifiers never send it
twice), POSTed once with a bounded timeout, and logged — sent on a 2xx, else tried again after
a growing wait (:data:`BACKOFF`) until :data:`MAX_ATTEMPTS`, then failed. Runs in the arena's
notifier (:mod:`.loop`), never in a runner: a slow or dead receiver costs a game nothing."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

import httpx
from sqlmodel import col, select

from hegemon.leaderboard.store import DeliveryRow, Store, WebhookRow, utcnow
from hegemon.leaderboard.store.notices import FAILED, PENDING, SENT

from .signing import HEADER, signature

TIMEOUT = 5.0
"""Seconds to connect, and again to send and to hear the status line, per try."""
BACKOFF = (10.0, 60.0, 300.0, 1800.0, 7200.0)
"""Seconds before the next try after the 1st, 2nd, … failed one."""
MAX_ATTEMPTS = len(BACKOFF) + 1
BATCH = 20
"""Deliveries claimed at once."""


@dataclass(frozen=True)
class Answer:
    """How one try went: the receiver's status (None: no answer) or the error, in one line."""

    code: int | None
    error: str | None

    @property
    def ok(self) -> bool:
        return self.code is not None and 200 <= self.code < 300


Post = Callable[[str, bytes, dict[str, str]], Answer]


def post(url: str, body: bytes, headers: dict[str, str], timeout: float = TIMEOUT) -> Answer:
    """POST ``body`` to ``url``: the status only (the answer's body is never read)."""
    try:
        with (
            httpx.Client(timeout=timeout, follow_redirects=False) as client,
            client.stream("POST", url, content=body, headers=headers) as answer,
        ):
            code = answer.status_code
    except httpx.HTTPError as exc:
        return Answer(None, _one_line(exc))
    return Answer(code, None if 200 <= code < 300 else f"HTTP {code}")


def _one_line(exc: Exception) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return f"{type(exc).__name__}: {text}"[:300]


def retry_after(attempts: int) -> timedelta | None:
    """The wait after ``attempts`` failed tries, or None: given up."""
    if attempts >= MAX_ATTEMPTS:
        return None
    return timedelta(seconds=BACKOFF[attempts - 1])


def claim_due(store: Store, now: datetime, lease: float) -> list[tuple[DeliveryRow, WebhookRow]]:
    """The pending deliveries due at ``now`` (oldest first), each held for ``lease`` seconds
    (its next try moved past it) so that another notifier leaves it alone meanwhile."""
    query = (
        select(DeliveryRow, WebhookRow)
        .join(WebhookRow, col(WebhookRow.id) == col(DeliveryRow.hook_id))
        .where(col(DeliveryRow.status) == PENDING, col(DeliveryRow.next_at) <= now)
        .order_by(col(DeliveryRow.next_at), col(DeliveryRow.id))
        .limit(BATCH)
    )
    if store.is_postgres:  # SQLite's write transaction already holds every other writer off
        query = query.with_for_update(of=DeliveryRow, skip_locked=True)
    with store.session(write=True) as s:
        due = s.exec(query).all()
        for delivery, _ in due:
            delivery.next_at = now + timedelta(seconds=lease)
            s.add(delivery)
        return [(d, h) for d, h in due]


def record(store: Store, delivery_id: int, answer: Answer, now: datetime) -> DeliveryRow | None:
    """Log one try of ``delivery_id`` and set its next step (sent, again later, or failed)."""
    with store.session(write=True) as s:
        row = s.get(DeliveryRow, delivery_id)
        if row is None:  # its hook was removed meanwhile
            return None
        row.attempts += 1
        row.last_code, row.last_error = answer.code, answer.error
        if answer.ok:
            row.status, row.sent_at = SENT, now
        else:
            wait = retry_after(row.attempts)
            if wait is None:
                row.status = FAILED
            else:
                row.next_at = now + wait
        s.add(row)
        return row


def headers_for(delivery: DeliveryRow, hook: WebhookRow) -> dict[str, str]:
    """A delivery's headers: JSON, its signature, its event and its id (for de-duplication)."""
    return {
        "Content-Type": "application/json",
        "User-Agent": "hegemon-webhooks",
        HEADER: signature(hook.secret, delivery.body.encode()),
        "X-Hegemon-Event": delivery.event,
        "X-Hegemon-Delivery": str(delivery.id),
    }


def deliver_due(
    store: Store,
    now: Callable[[], datetime] = utcnow,
    send: Post | None = None,
    timeout: float = TIMEOUT,
) -> list[DeliveryRow]:
    """Try every delivery due now, once each; returns them as logged after their try."""
    send = send or (lambda url, body, headers: post(url, body, headers, timeout))
    done = []
    for delivery, hook in claim_due(store, now(), lease=3 * timeout + 1):
        assert delivery.id is not None
        answer = send(hook.url, delivery.body.encode(), headers_for(delivery, hook))
        logged = record(store, delivery.id, answer, now())
        if logged is not None:
            done.append(logged)
    return done
