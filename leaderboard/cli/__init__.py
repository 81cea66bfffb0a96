"""The ``hegemon`` command line, all of it: :mod:`.app` builds the root app from one module per
command group; :mod:`.common` holds what they share (options and their defaults, the database).

``hegemon --help`` imports only typer and rich: each command imports the engine, the match
runner or the database when it runs.
"""

from __future__ import annotations

from .app import app, main

__all__ = ["app", "main"]
