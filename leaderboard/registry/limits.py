"""How large a registered bot may be: its files' total size and count, enforced when a bot is
added, when its archive is packed and when it is unpacked on another machine.

The defaults suit a bot with its own small data (a trained policy, a ``node_modules``); an arena
sets its own through the environment its commands, runners and web server share:
``HEGEMON_BOT_MAX_BYTES`` (bytes, a whole number; the suffixes ``K``, ``M``, ``G`` count in
1024s) and ``HEGEMON_BOT_MAX_FILES``.

>>> limits = FileLimits(max_bytes=10, max_files=2)
>>> try:
...     limits.check(size=11, files=1, what="bot")
... except FileLimitError as exc:
...     print(exc)
bot: its files take 11 bytes (at most 10 B; set HEGEMON_BOT_MAX_BYTES to change)
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from .errors import RegistryError

MAX_BYTES_ENV = "HEGEMON_BOT_MAX_BYTES"
MAX_FILES_ENV = "HEGEMON_BOT_MAX_FILES"
DEFAULT_MAX_BYTES = 64 * 1024 * 1024
DEFAULT_MAX_FILES = 5000
_UNITS = {"": 1, "K": 1024, "M": 1024**2, "G": 1024**3}


class FileLimitError(RegistryError):
    """A bot over the arena's limits, or a limit set wrongly; ``str(exc)`` is one line."""


def _human(size: int) -> str:
    for unit, factor in (("GiB", 1024**3), ("MiB", 1024**2), ("KiB", 1024)):
        if size >= factor and size % factor == 0:
            return f"{size // factor} {unit}"
    return f"{size} B"


def _parse(name: str, text: str, units: bool) -> int:
    cleaned = text.strip().upper().removesuffix("B").removesuffix("I")
    factor = 1
    if units and cleaned and cleaned[-1] in _UNITS:
        factor = _UNITS[cleaned[-1]]
        cleaned = cleaned[:-1]
    if not cleaned.isdigit() or int(cleaned) < 1:
        raise FileLimitError(f"{name}={text!r}: give a whole number above 0")
    return int(cleaned) * factor


@dataclass(frozen=True)
class FileLimits:
    """The most bytes (the files' total size) and files a bot may have."""

    max_bytes: int = DEFAULT_MAX_BYTES
    max_files: int = DEFAULT_MAX_FILES

    @classmethod
    def from_env(cls) -> FileLimits:
        """The arena's limits: the environment's, else the defaults."""
        raw_bytes = os.environ.get(MAX_BYTES_ENV, "").strip()
        raw_files = os.environ.get(MAX_FILES_ENV, "").strip()
        return cls(
            max_bytes=_parse(MAX_BYTES_ENV, raw_bytes, True) if raw_bytes else DEFAULT_MAX_BYTES,
            max_files=_parse(MAX_FILES_ENV, raw_files, False) if raw_files else DEFAULT_MAX_FILES,
        )

    def check_files(self, files: int, what: str) -> None:
        """Refuse more files than allowed."""
        if files > self.max_files:
            raise FileLimitError(
                f"{what}: it holds more than {self.max_files} files "
                f"(set {MAX_FILES_ENV} to change): give a folder that holds just the bot"
            )

    def check(self, size: int, files: int, what: str) -> None:
        """Refuse a bot of ``size`` bytes in ``files`` files if either is over its limit."""
        self.check_files(files, what)
        if size > self.max_bytes:
            raise FileLimitError(
                f"{what}: its files take {size} bytes (at most {_human(self.max_bytes)}; "
                f"set {MAX_BYTES_ENV} to change)"
            )
