"""A quicker ``__init__`` for the frozen, slotted dataclasses the engine builds on its hot path
(events, actions, decisions).

A frozen dataclass's generated ``__init__`` stores each field with
``object.__setattr__(self, name, value)``, which looks the name up on every call; this one
stores it through the field's slot descriptor, bound once, which takes about half the time.
Everything else (the signature and its defaults, equality, hashing, immutability, ``replace``)
stays the dataclass's own.
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

T = TypeVar("T")


def quick_init(cls: type[T]) -> type[T]:
    """Give the frozen, slotted dataclass ``cls`` the quicker ``__init__``; return ``cls``."""
    params, body = [], []
    scope: dict[str, Any] = {}
    for f in dataclasses.fields(cls):  # type: ignore[arg-type]  # (a dataclass: checked here)
        if not f.init or f.default_factory is not dataclasses.MISSING:
            raise TypeError(f"{cls.__name__}.{f.name}: only plain fields get a quick __init__")
        if f.default is dataclasses.MISSING:
            params.append(f.name)
        else:
            scope[f"_default_{f.name}"] = f.default
            params.append(f"{f.name}=_default_{f.name}")
        scope[f"_set_{f.name}"] = getattr(cls, f.name).__set__
        body.append(f"    _set_{f.name}(self, {f.name})")
    source = f"def __init__(self, {', '.join(params)}):\n" + ("\n".join(body) or "    pass")
    exec(source, scope)  # (as dataclasses builds its own __init__)
    init = scope["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    cls.__init__ = init  # type: ignore[method-assign]
    return cls
