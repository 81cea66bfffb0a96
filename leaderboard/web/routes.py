"""Every route of the web server, in one table: which method and path reach which endpoint
(:mod:`.endpoints`). A new page or action is a function in its subject's module and a row
here; the access-control test (``tests/web/test_accounts_web.py``) reads this table and fails
on a route without a row of its own (who may open it)."""

from __future__ import annotations

from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from .endpoints import (
    accounts,
    admin,
    api,
    challenges,
    events,
    live,
    notices,
    pages,
    pins,
    runner_api,
    submissions,
    teams,
)
from .endpoints.accounts import TOKENS_PATH
from .limits import RESULT_PATH
from .templating import STATIC_DIR

_VIEWER = ("hegemon.referee.viewer", "static")
"""The replay viewer's files (a package and its folder, as Starlette finds them)."""

GET, POST = ["GET"], ["POST"]

ROUTES: list[BaseRoute] = [
    # the pages (.endpoints.pages)
    Route("/", pages.index),
    Route("/season/{name}", pages.season),
    Route("/season/{name}/live", pages.season_live),
    Route("/bots", pages.bots),
    Route("/bot/{bot_id}", pages.bot),
    Route("/games", pages.games),
    Route("/game/{game_id}", pages.game),
    # their JSON twins (.endpoints.api)
    Route("/api", api.api_doc),
    Route("/api/leaderboard", api.leaderboard),
    Route("/api/seasons", api.seasons),
    Route("/api/seasons/{name}", api.season),
    Route("/api/seasons/{name}/history", api.history),
    Route("/api/bots", api.bots),
    Route("/api/bots/{bot_id}", api.bot),
    Route("/api/bots/{bot_id}/history", api.bot_history),
    Route("/api/games", api.games),
    Route("/api/games/{game_id}", api.game),
    Route("/api/games/{game_id}/record", api.record),
    Route("/api/games/{game_id}/logs/{seat}", api.log),
    # games in play, followed live (.endpoints.live)
    Route("/live/{match_id}", live.live_page),
    Route("/live/{match_id}/events", live.live_events),
    Route("/api/live", live.api_live),
    # accounts (.endpoints.accounts)
    Route("/login", accounts.login_form, methods=GET),
    Route("/login", accounts.login, methods=POST),
    Route("/logout", accounts.logout, methods=POST),
    Route("/signup", accounts.signup_form, methods=GET),
    Route("/signup", accounts.signup, methods=POST),
    Route("/account", accounts.account, methods=GET),
    Route("/account/password", accounts.change_password, methods=POST),
    Route("/account/tokens", accounts.new_token, methods=POST),
    Route("/account/tokens/{token_id}/revoke", accounts.revoke, methods=POST),
    Route(TOKENS_PATH, accounts.api_token, methods=POST),
    Route("/api/me", accounts.api_me, methods=GET),
    Route("/api/me/bots", api.my_bots, methods=GET),
    # notifications and webhooks (.endpoints.notices)
    Route("/me/notifications", notices.notifications, methods=GET),
    Route("/me/notifications/read", notices.read, methods=POST),
    Route("/api/notifications", notices.api_notifications, methods=GET),
    Route("/account/hooks", notices.new_hook, methods=POST),
    Route("/account/hooks/{hook_id}/delete", notices.delete_hook, methods=POST),
    Route("/account/digest", notices.digest, methods=POST),
    # test games on demand (.endpoints.challenges)
    Route("/api/challenges", challenges.api_create, methods=POST),
    Route("/api/challenges/{challenge_id}", challenges.api_challenge, methods=GET),
    Route("/api/me/challenges", challenges.api_mine, methods=GET),
    Route("/challenge/{challenge_id}", challenges.challenge_page, methods=GET),
    Route("/bot/{bot_id}/challenges", challenges.form_create, methods=POST),
    # the admins' (.endpoints.admin)
    Route("/admin/users", admin.users, methods=GET),
    Route("/admin/users/{name}/disable", admin.disable_user, methods=POST),
    Route("/admin/users/{name}/enable", admin.enable_user, methods=POST),
    Route("/admin/games/{game_id}/void", admin.void, methods=POST),
    Route("/admin/bots", admin.bot_versions, methods=GET),
    Route("/admin/bots/{name}/disable", admin.disable_bot, methods=POST),
    Route("/admin/bots/{name}/enable", admin.enable_bot, methods=POST),
    Route("/admin/competitions", admin.competitions, methods=GET),
    Route("/admin/ladders", admin.create_ladder_form, methods=POST),
    Route("/admin/seasons", admin.create_season_form, methods=POST),
    # submitting bots (.endpoints.submissions)
    Route("/api/bots/{name}/versions", submissions.api_submit, methods=POST),
    Route("/api/versions/{bot_id}", submissions.api_version, methods=GET),
    Route("/me/bots", submissions.my_bots, methods=GET),
    Route("/me/bots", submissions.upload, methods=POST),
    Route("/me/bots/{bot_id}/log", submissions.check_log, methods=GET),
    # teams (.endpoints.teams)
    Route("/teams/{name}", teams.team_page, methods=GET),
    Route("/teams", teams.create, methods=POST),
    Route("/teams/{name}/{action}", teams.action, methods=POST),
    Route("/api/teams/{name}", teams.api_team, methods=GET),
    Route("/api/me/teams", teams.api_my_teams, methods=GET),
    Route("/api/teams", teams.create, methods=POST),
    Route("/api/teams/{name}/{action}", teams.action, methods=POST),
    # final events (.endpoints.events)
    Route("/events", events.events, methods=GET),
    Route("/event/{name}", events.event, methods=GET),
    Route("/api/events", events.api_events, methods=GET),
    Route("/api/events/{name}", events.api_event, methods=GET),
    Route("/admin/events", events.create_event_form, methods=POST),
    # choosing the version that plays (.endpoints.pins)
    Route("/api/bots/{name}/pin", pins.api_pin, methods=POST),
    Route("/me/bots/{name}/pin", pins.pin_form, methods=POST),
    # runners that join over HTTP, with a runner token (.endpoints.runner_api)
    Route("/api/runner/claim", runner_api.claim, methods=POST),
    Route("/api/runner/heartbeat", runner_api.heartbeat, methods=POST),
    Route("/api/runner/release", runner_api.release, methods=POST),
    Route("/api/runner/archives/{digest}", runner_api.archive, methods=GET),
    Route(RESULT_PATH, runner_api.result, methods=POST),
    # the stylesheet and scripts
    # the site's own, then the replay viewer's (its script and the stylesheet the site shares)
    Mount("/static", StaticFiles(directory=STATIC_DIR, packages=[_VIEWER]), name="static"),
]
"""The web server's routes, in the order Starlette tries them."""

CSRF_EXEMPT = [TOKENS_PATH, RESULT_PATH]
CSRF_EXEMPT += [f"/api/runner/{name}" for name in ("claim", "heartbeat", "release")]
"""Paths that read no cookie (a password, a runner token): no CSRF check."""
