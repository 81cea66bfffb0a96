"""Learning environments on the referee's own engine (needs the ``env`` extra: pettingzoo,
gymnasium).

- :func:`aec`: a PettingZoo AEC environment, one agent per seat (:mod:`hegemon.env.multi_agent`);
- :func:`single`: a Gymnasium environment, one seat against bots played by the referee's own
  loop (:mod:`hegemon.env.single_agent`), and :func:`vector`, several of them as one vector
  environment, batched over worker processes (:mod:`hegemon.env.batched`);
- :mod:`hegemon.env.records`: a folder of game records (``hegemon games download``) read as
  (observation, action mask, action) samples of one seat's decisions.

The observation and action encoding they share with the SDK's ``PolicyBot`` lives below both,
in :mod:`hegemon.referee.encoding` (numpy and the rules engine only). The environments load on
first use, so importing this package needs neither learning library.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .batched import vector
    from .multi_agent import HegemonAEC, aec
    from .single_agent import HegemonSingle, single

__all__ = ["HegemonAEC", "HegemonSingle", "aec", "single", "vector"]

_HOME = {
    "HegemonAEC": "multi_agent",
    "aec": "multi_agent",
    "HegemonSingle": "single_agent",
    "single": "single_agent",
    "vector": "batched",
}


def __getattr__(name: str) -> Any:
    if name not in _HOME:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f".{_HOME[name]}", __name__), name)
    globals()[name] = value  # asked once
    return value
