"""Where ``hegemon login`` keeps its token: ``$XDG_CONFIG_HOME/hegemon/credentials.json``
(default ``~/.config``), readable by the user alone (mode 0600 from its creation: the token is
never on disk for anyone else to read, not even for an instant)."""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass
from pathlib import Path

FILE_NAME = "credentials.json"


@dataclass(frozen=True)
class Credentials:
    """The arena signed in to: its URL, the user's name, and the API token."""

    url: str
    user: str
    token: str


def config_dir() -> Path:
    """hegemon's folder in the user's configuration (XDG)."""
    base = os.environ.get("XDG_CONFIG_HOME", "").strip() or "~/.config"
    return Path(base).expanduser().absolute() / "hegemon"


def credentials_path() -> Path:
    return config_dir() / FILE_NAME


def save(credentials: Credentials) -> Path:
    """Write the credentials, mode 0600, replacing any before; returns the file."""
    path = credentials_path()
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    temporary = path.with_name(f".{FILE_NAME}.{os.getpid()}")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        json.dump(asdict(credentials), out)
    os.replace(temporary, path)
    return path


def load() -> Credentials | None:
    """The stored credentials, or None (never signed in, signed out, or an unreadable file)."""
    try:
        data = json.loads(credentials_path().read_text(encoding="utf-8"))
        return Credentials(str(data["url"]), str(data["user"]), str(data["token"]))
    except (OSError, ValueError, KeyError, TypeError):
        return None


def forget() -> bool:
    """Remove the stored credentials; False if there were none."""
    try:
        credentials_path().unlink()
    except FileNotFoundError:
        return False
    return True
