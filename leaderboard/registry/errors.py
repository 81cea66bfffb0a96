"""The registry's one error type, in a module of its own so every part of the registry (files,
limits, archives) can raise it without importing the others."""

from __future__ import annotations

import os
from typing import Any

from hegemon.referee.bottext import no_paths


class RegistryError(Exception):
    """A bot that cannot be registered, checked or run; ``str(exc)`` is one line for the user.
    ``check`` is the failed check game's result when that is why."""

    check: Any = None


def relative_to(exc: RegistryError, folder: str | os.PathLike[str]) -> RegistryError:
    """``exc`` (changed in place, returned to be raised) with no path of the server in its
    message: a path in the bot's ``folder`` (a staging or upload folder) is given relative to
    it. A member reads the message; where the arena keeps files is none of their business."""
    exc.args = (no_paths(str(exc), folder), *exc.args[1:])
    return exc
