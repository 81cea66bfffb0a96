"""``hegemon web``: the web server over the arena database (Starlette on uvicorn).

Every HTML page has a JSON twin under ``/api/`` (the same dict, from
:mod:`hegemon.leaderboard.web.data`); ``/api`` lists them. Endpoints are plain functions:
Starlette runs them in its thread pool, so a slow board fit never blocks other requests. The
hot pages (a season's board, the game list) are kept rendered for each viewer until the
database or a board in memory changes (:mod:`.kept`, :mod:`.changes`); a kept page is
served from the event loop, only a page to make goes to the thread pool.

The pages are public, except a bot's logs and fault details, seen only by its owner and the
admins (:mod:`.visibility`); who is asking is :mod:`.auth`. Which path reaches which endpoint
is the one table :mod:`.routes`; the endpoints are :mod:`.endpoints`, one module a subject.
An arena without accounts has nothing to sign in to: its pages are read-only.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Sequence

from starlette.applications import Starlette
from starlette.middleware import Middleware

from hegemon.leaderboard.accounts.throttle import LoginThrottle
from hegemon.leaderboard.live.watch import LiveWatch, StreamLimits
from hegemon.leaderboard.store import Store

from .auth import account_middleware
from .changes import Changes
from .data import Arena
from .fitter import Fitter
from .kept import Kept
from .limits import BodyLimits, WebLimits
from .routes import CSRF_EXEMPT, ROUTES

PAGES_KEPT = 512
"""Rendered pages kept at most (least recently served dropped first): the game list's pages
and filters, and every signed-in viewer's pages, are many keys."""


def make_app(
    store: Store,
    trusted_proxies: Sequence[str] = (),
    throttle: LoginThrottle | None = None,
    fitter: Fitter | None = None,
    limits: WebLimits | None = None,
) -> Starlette:
    """The web application over ``store``: the routes of :data:`.routes.ROUTES`, whose
    endpoints read what they serve from the app's state (:mod:`.endpoints.common`).
    ``trusted_proxies``: the addresses of reverse proxies whose X-Forwarded-For/-Proto headers
    are believed (none: every header is ignored); ``throttle``: how sign-ins are slowed
    (default: :meth:`LoginThrottle.default`); ``fitter``: where boards are refitted in the
    background (default: in a thread here); ``limits``: what one client may take
    (:mod:`.limits`)."""
    middleware = [Middleware(BodyLimits, limits=limits)]
    middleware += account_middleware(store, trusted_proxies, csrf_exempt=CSRF_EXEMPT)
    app = Starlette(routes=ROUTES, middleware=middleware)
    app.state.arena = Arena(store, fitter)
    app.state.throttle = throttle or LoginThrottle.default()
    app.state.changes = Changes(store)
    app.state.pages = Kept(PAGES_KEPT)
    app.state.live = LiveWatch(store)  # the games in play, shared by their spectators
    app.state.live_streams = StreamLimits()
    return app


def warm_then_freeze(arena: Arena) -> None:
    """Fit every board (:meth:`Arena.warm`), then take what the server holds by then out of
    the garbage collector's sight (``gc.freeze``): the modules, templates and boards loaded,
    over a hundred thousand objects that live as long as the server, which every full
    collection walked again — 100-200 ms with the interpreter's lock held, every second or
    so under load, while every request waited (the p99 of ``benchmarks/web_load.py``). A
    full collection then walks only what was made since."""
    try:
        arena.warm()
    finally:
        gc.collect()  # the garbage of start-up is freed, not kept for good
        gc.freeze()


def serve(
    db: str | None = None,
    host: str = "127.0.0.1",
    port: int = 8000,
    trusted_proxies: Sequence[str] = (),
    stop: threading.Event | None = None,
    limits: WebLimits | None = None,
) -> None:
    """Serve the web pages of the arena database ``db`` (default: the usual one) until stopped
    (Ctrl-C, SIGTERM, or ``stop`` set — even before the server listens: then it never does).
    The boards are fitted in the background from the start (a big arena's take a while).
    Forwarded headers are believed only from ``trusted_proxies``; ``limits``: what one client
    may take (see :func:`make_app`)."""
    import uvicorn

    from .stoppable import StoppableServer

    stop = stop or threading.Event()
    with Store(db, create=False) as store:
        fitter = Fitter(store.secret_url())
        limits = limits or WebLimits()
        app = make_app(store, trusted_proxies, fitter=fitter, limits=limits)
        warm = threading.Thread(
            target=warm_then_freeze, args=(app.state.arena,), name="hegemon-web-warm", daemon=True
        )
        warm.start()
        # uvicorn's own forwarded-header handling trusts 127.0.0.1 by default: off, ours decides
        config = uvicorn.Config(
            app,
            host=host,
            port=port,
            log_level="warning",
            proxy_headers=False,
            **limits.uvicorn_options(),
        )
        try:
            if not stop.is_set():
                StoppableServer(config, stop).run()
        except KeyboardInterrupt:  # uvicorn raises a Ctrl-C again once it has stopped
            pass
        finally:
            fitter.close()
