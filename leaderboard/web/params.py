"""Numbers from a request, checked before they reach the database or a loop: a route's id, a
form's whole number or seconds, a query's page size. Every number a request can carry is read
here, so none can be a 500 (SQLite's integer overflow, ``int('²')``, a billion-game season):

* a route's id that is not a plain decimal number a database column can hold (30 digits,
  ``²``, ``-1``) names nothing, so the page is a 404 with a message (:func:`database_id`);
* a form's number outside its range is a 400 with one line naming the field
  (:func:`whole_number`, :func:`seconds`, raising :class:`ParamError`);
* a query's paging number is clamped into its range, blank or bad meaning the default
  (:func:`clamped`).
"""

from __future__ import annotations

import math

MAX_ID = 2**63 - 1
"""The largest id a database integer column holds."""

MAX_DIGITS = len(str(MAX_ID))


class ParamError(ValueError):
    """A number of a request that is not one or not in its range, said in one line."""


def database_id(text: object) -> int | None:
    """``text`` as a database id (ASCII digits, at most :data:`MAX_ID`), else None."""
    if isinstance(text, int) and not isinstance(text, bool):
        return text if 0 <= text <= MAX_ID else None
    value = str(text)
    if not (value.isascii() and value.isdigit()) or len(value) > MAX_DIGITS:
        return None
    number = int(value)
    return number if number <= MAX_ID else None


def whole_number(text: str, what: str, low: int = 0, high: int = MAX_ID) -> int:
    """``text`` (spaces around it dropped) as a whole number from ``low`` to ``high``, else
    :class:`ParamError` naming ``what``."""
    value = text.strip()
    digits = value.removeprefix("-")
    if not (digits.isascii() and digits.isdigit()):
        raise ParamError(f"{what} must be a whole number; got {value[:30]!r}")
    longest = len(str(max(abs(low), abs(high))))
    if len(digits) > longest:  # past either end (and no 4,300-digit int() to compute)
        number = low - 1 if value.startswith("-") else high + 1
    else:
        number = int(value)
    if number < low:
        raise ParamError(f"{what} must be at least {low}; got {value[:30]}")
    if number > high:
        raise ParamError(f"{what} must be at most {high}; got {value[:30]}")
    return number


def seconds(text: str, what: str, high: float = 86_400.0) -> float:
    """``text`` as a number of seconds from 0 to ``high`` (no ``inf``, no ``nan``), else
    :class:`ParamError` naming ``what``."""
    value = text.strip()
    try:
        number = float(value) if len(value) <= 40 else math.nan
    except ValueError:
        number = math.nan
    if not 0 <= number <= high:  # nan fails this too
        raise ParamError(
            f"{what} must be a number of seconds from 0 to {high:g}; got {value[:30]!r}"
        )
    return number


def clamped(text: str | None, default: int, low: int = 0, high: int = 10_000) -> int:
    """A query's number (``?page=``, ``?limit=``) within ``low``..``high``; blank or not a
    whole number: ``default``."""
    if text is None:
        return default
    try:
        return max(low, min(high, whole_number(text, "n", -MAX_ID, MAX_ID)))
    except ParamError:
        return default
