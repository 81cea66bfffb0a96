"""The web server's endpoints stand alone: a module-level function of its subject's module,
called with a request whose app holds the arena in its state, answers as the served route does
(the route table itself is held to the access table in test_accounts_web.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from starlette.requests import Request

from hegemon.leaderboard.store import Store
from hegemon.leaderboard.web.endpoints import api
from hegemon.leaderboard.web.server import make_app
from tests.helpers.league import SeasonSpec, create_season, register_samples


def request_to(app: object, path: str, **path_params: str) -> Request:
    """A GET of ``path`` to ``app``, as the router hands it to an endpoint."""
    scope = {
        "type": "http",
        "method": "GET",
        "path": path,
        "query_string": b"",
        "headers": [],
        "app": app,
        "path_params": path_params,
    }
    return Request(scope)


def test_an_endpoint_answers_alone_from_the_apps_state(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HEGEMON_HOME", str(tmp_path))
    monkeypatch.delenv("HEGEMON_DB", raising=False)
    with Store(tmp_path / "arena.db") as store:
        bots = register_samples(store)
        create_season(store, SeasonSpec(name="spring", games=2, seed=3), bots)
        app = make_app(store)
        listed = api.seasons(request_to(app, "/api/seasons"))
        assert [s["name"] for s in json.loads(bytes(listed.body))["seasons"]] == ["spring"]
        missing = api.season(request_to(app, "/api/seasons/autumn", name="autumn"))
        assert missing.status_code == 404
        assert json.loads(bytes(missing.body)) == {"error": "no such season"}
