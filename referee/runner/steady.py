"""The referee process's garbage collector, tuned for its steady state.

A referee holds a great many long-lived objects (modules, rule sets, boards, links, protobuf
classes) and makes a great many short-lived ones per decision (views, requests, events). The
collector's older generations would walk the long-lived ones again and again for nothing:
once start-up is over, :func:`settle` collects once and freezes everything alive out of
the collector's sight (``gc.freeze``, as the web server does), so later collections walk only
what the games made since. The arena's runner process calls it before its first game; a
process that also runs other code (a test suite) should not: frozen objects are invisible to
``gc.get_referrers`` too. Reference counting still frees frozen objects; only a reference
cycle among them would outlive its use, and the start-up objects live as long as the process.
"""

from __future__ import annotations

import gc

_settled: list[bool] = []  # [True] once settled (a module-level flag, no global statement)


def settle() -> None:
    """Collect, then freeze every object alive now out of the collector's sight: once per
    process (later calls do nothing, so a game's own objects are never frozen)."""
    if _settled:
        return
    _settled.append(True)
    gc.collect()
    gc.freeze()
