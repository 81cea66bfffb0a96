"""The replay viewer, below every layer that shows a game: a record turned into data for the
viewer's script (:func:`replay_data`) or into one self-contained HTML page (:func:`replay_html`,
:func:`write_replay_html`); the events in words (:mod:`.words`); the map's layout
(:mod:`.layout`). The site (``hegemon.leaderboard.web``), the CLI and the learning environment's
notebook view all draw games with it; it loads the rules engine, Jinja2 and nothing else of
hegemon.

Its files: ``static/`` (the viewer's script and the stylesheet the site shares) and
``templates/`` (the viewer's body, and the page that holds it alone)."""

from __future__ import annotations

from .replay import replay_data, replay_html, static_text, write_replay_html

__all__ = ["replay_data", "replay_html", "static_text", "write_replay_html"]
