"""A quicker ``__init__`` for the frozen, slotted dataclasses the engine builds on its hot path
(events, actions, decisions).

A frozen dataclass's generated ``__init__`` stores each field with
``object.__setattr__(self, name, value)``, which looks the name up on every call; this one
stores it through the field's slot descriptor, bound once, which takes about half the time.
Everything else (the signature and its defaults, equality, hashing, immutability, ``replace``)
stays the dataclass's own.

A class compiled by mypyc (a module of :data:`hegemon.referee.native.COMPILED`) is left as it
is: its constructor, written in the class, is compiled and stores into the instance directly;
its fields are no slot descriptors to bind.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from types import FunctionType
from typing import Any, TypeVar

__all__ = ["compiled", "mypyc_attr", "quick_init"]

T = TypeVar("T")

try:  # mypyc reads the decorator as it compiles a module; at run time it changes nothing
    from mypy_extensions import mypyc_attr
except ImportError:  # an installation without mypy (and so without a compiled engine)

    def mypyc_attr(*attrs: str, **kwattrs: object) -> Callable[[T], T]:
        return lambda cls: cls


def quick_init(cls: type[T]) -> type[T]:
    """Give the frozen, slotted dataclass ``cls`` the quicker ``__init__`` (unless it is compiled:
    its own is quicker still); return ``cls``."""
    if compiled(cls):
        return cls
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


def compiled(cls: type) -> bool:
    """Whether ``cls`` was compiled by mypyc with a constructor of its own: its ``__init__`` is
    no Python function but a compiled method (a slot wrapper)."""
    init = cls.__dict__.get("__init__")
    return init is not None and not isinstance(init, FunctionType)
