"""An action's shape: every field holds the type its annotation names, exactly (a whole number
is an ``int`` and not a ``bool`` or a float, a tuple is a ``tuple``), before any rule reads it.

:meth:`hegemon.referee.game.Game.apply` refuses a misshapen action with the one-line reason
:func:`shape_error` gives, so what an in-process caller (a bot played locally, the learning
environment, a test) hands the engine is checked the same way whether the engine runs as
Python source or compiled (:mod:`hegemon.referee.native`: compiled code would otherwise meet a
``None`` where an ``int`` belongs with a ``TypeError``, and take ``True`` for 1). The rules'
own checks (:mod:`hegemon.referee.checks`, the edition parts) then judge only the values.

Each action class gets one checker, generated from its fields' annotations as a single
expression (like :mod:`hegemon.referee.quickinit`): it runs on every applied action.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, NamedTuple, get_args

from .actions import Action

#: No action lists more items than this (the largest board has fewer than 100 territories): a
#: longer tuple is refused before its items are looked at.
MAX_ITEMS = 1000


def _ints(value: object, length: int) -> bool:
    return (
        type(value) is tuple
        and len(value) <= MAX_ITEMS
        and (length < 0 or len(value) == length)
        and all(type(item) is int for item in value)
    )


def _pairs(value: object) -> bool:
    return (
        type(value) is tuple
        and len(value) <= MAX_ITEMS
        and all(
            type(pair) is tuple and len(pair) == 2 and type(pair[0]) is int and type(pair[1]) is int
            for pair in value
        )
    )


class _Shape(NamedTuple):
    test: str  # the checker's expression for field {f} of action ``a``
    holds: Callable[[object], bool]  # the same test of a value, to name the field that fails
    what: str


_SHAPES: dict[str, _Shape] = {
    "int": _Shape("type(a.{f}) is int", lambda v: type(v) is int, "a whole number"),
    "str": _Shape("type(a.{f}) is str", lambda v: type(v) is str, "a string"),
    "tuple[int, ...]": _Shape(
        "_ints(a.{f}, -1)", lambda v: _ints(v, -1), "a tuple of whole numbers"
    ),
    "tuple[int, int, int]": _Shape(
        "_ints(a.{f}, 3)", lambda v: _ints(v, 3), "a tuple of three whole numbers"
    ),
    "tuple[tuple[int, int], ...]": _Shape(
        "_pairs(a.{f})", _pairs, "a tuple of (territory, armies) pairs of whole numbers"
    ),
}


def _explain(action: Any, fields: list[tuple[str, str]]) -> str:
    """The first misshapen field of ``action``, in one line."""
    for name, annotation in fields:
        shape, value = _SHAPES[annotation], getattr(action, name)
        if not shape.holds(value):
            shown = repr(value)
            shown = shown if len(shown) <= 60 else shown[:57] + "..."
            return f"{action.tag}: {name} must be {shape.what}, not {shown}"
    return ""


def _checker(cls: type) -> Callable[[Any], str]:
    fields = [(f.name, str(f.type)) for f in dataclasses.fields(cls)]
    unknown = [f"{name}: {annotation}" for name, annotation in fields if annotation not in _SHAPES]
    if unknown:  # a new action's field of a new type: name its shape above
        raise TypeError(f"{cls.__name__} has fields of no known shape: {', '.join(unknown)}")
    tests = " and ".join(_SHAPES[a].test.format(f=name) for name, a in fields) or "True"
    scope: dict[str, Any] = {"_ints": _ints, "_pairs": _pairs, "_explain": _explain}
    scope["_fields"] = fields
    source = f"def check(a):\n    return '' if {tests} else _explain(a, _fields)\n"
    exec(source, scope)  # (generated from the dataclass's own annotations)
    check: Callable[[Any], str] = scope["check"]
    return check


#: Each action class's checker: the empty string for a well-shaped action, else the reason.
CHECKERS: dict[type, Callable[[Any], str]] = {cls: _checker(cls) for cls in get_args(Action)}


def shape_error(action: object) -> str:
    """Why ``action`` is misshapen (one line), or ``""``: also for what is no action at all,
    which the engine refuses for that."""
    check = CHECKERS.get(type(action))
    return check(action) if check is not None else ""
