"""The web views of the arena: the replay viewer (one self-contained HTML file per game), the
read-only web server over the arena database with its JSON API, and the static report.

Entry points: :func:`write_replay_html`, :func:`serve`, :func:`write_report`, and
:func:`hegemon.leaderboard.web.commands.register` for the command line.
"""

from __future__ import annotations

from hegemon.referee.viewer import replay_data, replay_html, write_replay_html

__all__ = ["replay_data", "replay_html", "write_replay_html"]
