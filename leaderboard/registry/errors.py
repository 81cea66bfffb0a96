"""The registry's one error type, in a module of its own so every part of the registry (files,
limits, archives) can raise it without importing the others."""

from __future__ import annotations

from typing import Any


class RegistryError(Exception):
    """A bot that cannot be registered, checked or run; ``str(exc)`` is one line for the user.
    ``check`` is the failed check game's result when that is why."""

    check: Any = None
