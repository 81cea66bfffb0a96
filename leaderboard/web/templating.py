"""The Jinja2 templates of every page (``templates/``), escaped by default (autoescape): a bot,
season or user name is text wherever it is shown, whatever it holds. Every page extends
``base.html`` (the top bar, its title, its JSON twin's link); :class:`~.links.Links` says where
its links point (the server's paths, or the static report's files)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from jinja2 import ChoiceLoader, Environment, FileSystemLoader
from markupsafe import Markup
from starlette.requests import Request
from starlette.responses import Response
from starlette.templating import Jinja2Templates

from hegemon.leaderboard.store import UserRow
from hegemon.referee.viewer.templating import TEMPLATES_DIR as VIEWER_TEMPLATES

from .formats import FILTERS
from .links import SERVED, Links

TEMPLATES_DIR = Path(__file__).resolve().parent / "templates"
STATIC_DIR = Path(__file__).resolve().parent / "static"
"""The site's own scripts (the stylesheet and the replay's script are the viewer's)."""

# every value is escaped unless it is Markup: a bot or user name can never inject HTML
# the site's pages, and the viewer's body they include (the game page)
_loader = ChoiceLoader([FileSystemLoader(TEMPLATES_DIR), FileSystemLoader(VIEWER_TEMPLATES)])
_env = Environment(loader=_loader, autoescape=True, auto_reload=False)
_env.filters.update(FILTERS)
templates = Jinja2Templates(env=_env)


def fragment(template: str, **context: Any) -> Markup:
    """Part of a page (``template`` filled with ``context``, escaped), to put in another."""
    return Markup(_env.get_template(template).render(**context))


def page(template: str, title: str, links: Links, api: str | None = None, **context: Any) -> str:
    """A whole page: ``template`` (extending base.html) titled ``title``, its links from
    ``links``, and ``api``: the path of its JSON twin (None: none)."""
    # plain text (see replay_html): a caller may escape or join it as any string
    return str(fragment(template, title=title, links=links, api=api, **context)) + "\n"


def account_nav(user: UserRow | None, has_users: bool, unread: int = 0) -> Markup:
    """The top bar's account links: the signed-in user's (with their ``unread`` notices'
    count), "sign in" (if the arena has accounts), or nothing (an arena without accounts has
    nothing to sign in to)."""
    if user is not None:
        admin = (
            Markup(
                '<a href="/admin/users">users</a><a href="/admin/bots">versions</a>'
                '<a href="/admin/competitions">ladders &amp; seasons</a>'
            )
            if user.is_admin
            else Markup("")
        )
        mine = Markup('<a href="/me/bots">my bots</a>') + notices_link(unread)
        return mine + admin + Markup('<a href="/account">{}</a>').format(user.name)
    return Markup('<a href="/login">sign in</a>') if has_users else Markup("")


def notices_link(unread: int) -> Markup:
    """The top bar's link to one's notifications, with the unread count when there are any."""
    count = Markup(" <span class=unread>{}</span>").format(unread) if unread else Markup("")
    label = Markup("{} unread").format(unread) if unread else Markup("no unread")
    link = Markup('<a href="/me/notifications" class=notices title="{}">notifications{}</a>')
    return link.format(label, count)


def void_form(game_id: int, csrf: str) -> Markup:
    """The admins' button that voids a game (on its page)."""
    return Markup(
        '<form class=admin method=post action="/admin/games/{}/void">'
        '<input type=hidden name=csrf value="{}">'
        "<label>reason <input name=reason maxlength=1000></label> <button>void this game</button>"
        "</form>"
    ).format(game_id, csrf)


def render(
    request: Request, template: str, title: str, nav: Markup, status: int = 200, **context: Any
) -> Response:
    """``template`` filled with ``context`` (escaped), as a whole served page titled ``title``
    with ``nav`` (:func:`account_nav`) in its top bar."""
    links = replace(SERVED, account=nav)
    return templates.TemplateResponse(
        request, template, {"title": title, "links": links, **context}, status_code=status
    )
