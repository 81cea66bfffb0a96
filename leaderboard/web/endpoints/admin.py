"""The admins' pages and actions: users disabled or enabled, bot versions disabled or enabled,
games voided, ladders and seasons created (by the command line's own code). Everyone else gets
a 403 (or is sent to sign in first: :func:`.common.admin`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any
from urllib.parse import quote

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from hegemon.leaderboard.accounts import AccountError
from hegemon.leaderboard.accounts.games import void_game
from hegemon.leaderboard.accounts.users import list_users, set_disabled
from hegemon.leaderboard.registry import RegistryError, set_bot_state
from hegemon.leaderboard.seasons.setup import (
    Plan,
    SeasonPlan,
    SetupError,
    create_ladder,
    create_season,
    default_time,
)
from hegemon.leaderboard.store import SeasonRow, UserRow
from hegemon.leaderboard.store.pins import pins_now, playing_now
from hegemon.leaderboard.store.teams import team_names
from hegemon.leaderboard.store.versions import ACTIVE, DISABLED, REFUSED, RETIRED
from hegemon.referee.chance import MAX_SEED
from hegemon.referee.rules import PRESETS
from hegemon.referee.timecontrol import CLOCKS

from ..data import progress_dict
from ..formats import played
from ..params import ParamError, seconds, whole_number
from ..playing import version_marks
from .common import admin, message, page, path_id, store

ENABLE_STATES = (DISABLED, RETIRED, REFUSED)
"""The states of a version the admins' bot page offers to enable (the others: to disable)."""

FORM_LIMITS = {"players": 1000, "max_strikes": 10**6, "games": 10**6, "seed": MAX_SEED}
FORM_LIMITS |= {"top": 1000, "advance": 1000, "rounds": 1000}  # a final event's (.events)
"""The largest whole number each competition field takes, either way: past it no plan makes
sense (the shared checks say what is wrong with a number within it)."""


# ---------------------------------------------------------------------------------- users
def users(request: Request) -> Response:
    """``GET /admin/users``: every account."""
    user = admin(request)
    if not isinstance(user, UserRow):
        return user
    return page(request, "users.html", "Users", users=list_users(store(request)))


def _set_user_disabled(request: Request, disabled: bool) -> Response:
    user = admin(request)
    if not isinstance(user, UserRow):
        return user
    try:
        set_disabled(store(request), request.path_params["name"], disabled)
    except AccountError as exc:
        return message(request, "Not found", str(exc), 404)
    return RedirectResponse("/admin/users", 303)


def disable_user(request: Request) -> Response:
    """``POST /admin/users/{name}/disable``: the user can no longer sign in."""
    return _set_user_disabled(request, True)


def enable_user(request: Request) -> Response:
    """``POST /admin/users/{name}/enable``."""
    return _set_user_disabled(request, False)


# ---------------------------------------------------------------------------------- bot versions
def bot_versions(request: Request) -> Response:
    """``GET /admin/bots``: every version with its state, whether it is pinned or playing
    (:func:`~hegemon.leaderboard.web.playing.version_marks`) and a team bot's team."""
    user = admin(request)
    if not isinstance(user, UserRow):
        return user
    playing, pins = playing_now(store(request)), pins_now(store(request))
    rows = [
        (b, version_marks(b, playing.get(b.name), pins.get(b.name))) for b in store(request).bots()
    ]
    return page(
        request, "admin_bots.html", "Bot versions", rows=rows, enable_states=ENABLE_STATES,
        teams=team_names(store(request)),
    )  # fmt: skip


async def _set_bot_state(request: Request, state: str) -> Response:
    """``hegemon bot disable|enable NAME@vN`` from the admins' page: the form's ``version``
    (blank: the latest, as a bare NAME on the command line) and ``reason``."""
    user = admin(request)
    if not isinstance(user, UserRow):
        return user
    form = await request.form()
    name = request.path_params["name"]
    version = str(form.get("version", "")).strip().removeprefix("v")
    try:
        version = str(whole_number(version, "its number", 1)) if version else ""
    except ParamError as exc:
        why = f"bad version: {exc} (e.g. 2 for {name}@v2)"
        return message(request, "Bad version", why, 400)
    reason = str(form.get("reason", "")).strip() if state != ACTIVE else ""
    ref = f"{name}@v{version}" if version else name
    try:
        await run_in_threadpool(set_bot_state, store(request), ref, state, reason)
    except RegistryError as exc:
        return message(request, "Not found", str(exc), 404)
    return RedirectResponse("/admin/bots", 303)


async def disable_bot(request: Request) -> Response:
    """``POST /admin/bots/{name}/disable``: a version leaves matchmaking (with a reason)."""
    return await _set_bot_state(request, DISABLED)


async def enable_bot(request: Request) -> Response:
    """``POST /admin/bots/{name}/enable``: a version is active again."""
    return await _set_bot_state(request, ACTIVE)


# ---------------------------------------------------------------------------------- games
async def void(request: Request) -> Response:
    """``POST /admin/games/{game_id}/void``: the game no longer counts (with a reason)."""
    user = admin(request)
    if not isinstance(user, UserRow):
        return user
    game_id = path_id(request, "game_id")
    reason = str((await request.form()).get("reason", ""))
    try:
        await run_in_threadpool(void_game, store(request), game_id or -1, user.name, reason)
    except AccountError as exc:
        return message(request, "Not found", str(exc), 404)
    return message(request, "Game voided", f"Game {game_id} is void: {reason}", 200)


# ---------------------------------------------------------------------------------- competitions
def _whole(form: Mapping[str, str], key: str, flag: str, default: int | None) -> int | None:
    """The form's whole number ``key`` (blank: ``default``), or a one-line :class:`SetupError`
    naming the command line's ``flag`` (the errors of the shared checks name them too)."""
    text = form.get(key, "").strip()
    if not text:
        return default
    limit = FORM_LIMITS[key]
    try:
        return whole_number(text, flag, -limit, limit)
    except ParamError as exc:
        raise SetupError(str(exc)) from None


def _seconds(form: Mapping[str, str], key: str, flag: str) -> float | None:
    """The form's number of seconds ``key`` (blank: the default), or a one-line error."""
    text = form.get(key, "").strip()
    try:
        return seconds(text, flag) if text else None
    except ParamError as exc:
        raise SetupError(str(exc)) from None


def competition_plan(form: Mapping[str, str], season: bool) -> Plan:
    """The plan of a ladder (or a ``season``) the admins' form asks for: the fields of
    ``hegemon ladder create`` / ``season create`` as text, ``--set`` as space-separated
    ``NAME=VALUE`` words, checked after by the same code as the command line's."""
    players = _whole(form, "players", "--players", 4)
    strikes = _whole(form, "max_strikes", "--max-strikes", None)
    assert players is not None
    common: dict[str, Any] = {
        "name": form.get("name", "").strip(),
        "rules": form.get("rules", "").strip() or "classic",
        "options": form.get("set", "").split(),
        "players": players,
        "time": form.get("time", "").strip() or None,
        "decision": _seconds(form, "decision_time", "--decision-time"),
        "clock": form.get("clock", "").strip() or "cpu",
        "max_strikes": strikes,
    }
    if not season:
        return Plan(**common)
    games = _whole(form, "games", "--games", 100)
    assert games is not None
    return SeasonPlan(
        **common,
        bots=form.get("bots", ""),
        games=games,
        seed=_whole(form, "seed", "--seed", None),
        duplicate=bool(form.get("duplicate")),
        keep_memory=not form.get("restart_per_game"),
    )


def _played(seasons: list[SeasonRow], request: Request) -> dict[int | None, str]:
    """Each competition's games played as its page says it ("12 of 30"; a ladder: "12 (ladder)")."""
    return {s.id: played(progress_dict(store(request), s)) for s in seasons if s.id is not None}


def competitions_page(
    request: Request, status: int = 200, error: str | None = None, **forms: Any
) -> Response:
    """The ladders and seasons with the forms that create them (``forms``: a refused form's
    fields, shown again)."""
    user = admin(request)
    if not isinstance(user, UserRow):
        return user
    created = request.query_params.get("created")
    found = store(request).season_by_name(created) if created else None
    notice = None
    if found is not None:
        kind = "ladder" if found.is_ladder else "season"
        notice = f"created {kind} {found.name}: run it with hegemon season run {found.name}"
    seasons = store(request).seasons()
    return page(
        request, "competitions.html", "Ladders and seasons", status, error=error,
        notice=notice, presets=list(PRESETS), default_preset="classic", clocks=CLOCKS,
        default_time=default_time(), seasons=seasons, played=_played(seasons, request),
        ladder=forms.get("ladder", {}), season=forms.get("season", {}),
        event=forms.get("event", {}),
    )  # fmt: skip


def competitions(request: Request) -> Response:
    """``GET /admin/competitions``."""
    return competitions_page(request)


async def _create(request: Request, season: bool) -> Response:
    """``hegemon season create`` (``season``) or ``ladder create`` from the admins' form: the
    same checks and creation; a refusal shows the form again with its one line."""
    user = admin(request)
    if not isinstance(user, UserRow):
        return user
    make: Callable[..., Any] = create_season if season else create_ladder
    form = {k: str(v) for k, v in (await request.form()).items() if k != "csrf"}
    try:
        created = await run_in_threadpool(make, store(request), competition_plan(form, season))
    except SetupError as exc:
        given = {"season" if season else "ladder": form}
        return await run_in_threadpool(competitions_page, request, 400, str(exc), **given)
    name = quote(created.season.name, safe="")
    return RedirectResponse(f"/admin/competitions?created={name}", 303)


async def create_ladder_form(request: Request) -> Response:
    """``POST /admin/ladders``: a new ladder."""
    return await _create(request, season=False)


async def create_season_form(request: Request) -> Response:
    """``POST /admin/seasons``: a new season."""
    return await _create(request, season=True)
