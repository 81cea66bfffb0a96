"""Bot names: what a registered or submitted bot may be called."""

from __future__ import annotations

import re

from .sources import RegistryError

NAME_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")


def validate_name(name: str) -> str:
    name = name.strip()
    if not NAME_PATTERN.match(name):
        raise RegistryError(
            f"bad bot name {name!r}: use letters, digits, '_', '-', '.' "
            "(up to 64, starting with a letter or digit)"
        )
    return name
