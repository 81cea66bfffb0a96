"""The form on a bot's page that asks for test games of that version (shown to its owner)."""

from __future__ import annotations

from markupsafe import Markup


def challenge_form(bot_id: int, csrf: str, max_games: int) -> Markup:
    """The owner's "test games" form of version ``bot_id`` (``POST /bot/{id}/challenges``)."""
    return Markup(
        "<h2>Test games</h2><p class=note>Unrated games of this version against active bots "
        "you name (comma-separated) or, left empty, its neighbours on the ladder.</p>"
        '<form class=challenge method=post action="/bot/{}/challenges">'
        '<input type=hidden name=csrf value="{}">'
        "<label>against <input name=vs placeholder=neighbours maxlength=500></label> "
        '<label>games <input name=games type=number min=1 max="{}" value=10></label> '
        "<label>ladder <input name=ladder maxlength=100 placeholder=(the only one)></label> "
        "<button>play test games</button></form>"
    ).format(bot_id, csrf, max_games)
