"""``hegemon login URL``, ``hegemon logout`` and ``hegemon submit PATH``: submitting bots to an
arena over HTTP (its token from ``POST /api/tokens``, kept by :mod:`.credentials`)."""

from __future__ import annotations

import socket
import sys
import time
from typing import Any

import typer

from .bot import BOT_FORMS, show_log_tail
from .common import console, fail

WAITING = ("queued", "checking")
POLL = 0.5  # seconds between looks at the check game's progress
TIMEOUT = 60.0  # seconds an HTTP request may take (an upload of a large bot included)


def _client(url: str, token: str | None = None) -> Any:
    import httpx

    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return httpx.Client(base_url=url.rstrip("/"), headers=headers, timeout=TIMEOUT)


def _error(response: Any) -> str:
    """The server's one-line reason for a refusal."""
    try:
        message = response.json().get("error")
    except ValueError:
        message = None
    return str(message or f"HTTP {response.status_code}")


def _unreachable(url: str, exc: Exception) -> str:
    return f"cannot reach {url}: {exc.__class__.__name__}: {exc}"


def login_command(
    url: str = typer.Argument(..., help="The arena's address, e.g. https://arena.example.org"),
    name: str | None = typer.Option(None, "--name", help="Your user name (asked if not given)."),
    password_stdin: bool = typer.Option(
        False, "--password-stdin", help="Read the password from the first line of stdin."
    ),
) -> None:
    """Sign in to an arena: asks your name and password and stores an API token for
    `hegemon submit` in your configuration folder (readable by you alone)."""
    import httpx

    from .credentials import Credentials, save

    url = url.strip().rstrip("/")
    if not url.startswith(("http://", "https://")):
        fail(f"{url!r} is not an arena's address: give http(s)://HOST[:PORT]")
    name = name or typer.prompt("name")
    if password_stdin:
        password = sys.stdin.readline().rstrip("\r\n")
    else:
        password = typer.prompt("password", hide_input=True)
    label = f"hegemon login on {socket.gethostname()}"
    try:
        with _client(url) as client:
            response = client.post(
                "/api/tokens", json={"name": name, "password": password, "token_name": label}
            )
    except httpx.HTTPError as exc:
        fail(_unreachable(url, exc), code=1)
    if response.status_code != 201:
        fail(f"sign-in refused: {_error(response)}", code=1)
    body = response.json()
    path = save(Credentials(url, str(body.get("user", name)), str(body["token"])))
    console.print(
        f"signed in to {url} as {body.get('user', name)}; the token is kept in {path}",
        highlight=False,
        soft_wrap=True,
    )


def logout_command() -> None:
    """Forget the stored token of `hegemon login` (revoke it on the site's account page)."""
    from .credentials import credentials_path, forget, load

    found = load()
    if not forget():
        console.print("not signed in; nothing to forget")
        return
    where = f" from {found.url}" if found else ""
    console.print(
        f"signed out{where}: {credentials_path()} removed", highlight=False, soft_wrap=True
    )


def submit_command(
    path: str = typer.Argument(..., help=BOT_FORMS),
    bot: str | None = typer.Option(
        None, "--bot", help="The bot's name in the arena (default: its file's or folder's)."
    ),
    command: str | None = typer.Option(
        None,
        "--command",
        help="The command that runs the bot in its folder (default: from the file type).",
    ),
    wait: bool = typer.Option(
        True, "--wait/--no-wait", help="Follow the check game until the version is judged."
    ),
    team: str | None = typer.Option(
        None, "--team", help="Submit a new bot for this team of yours (its members share it)."
    ),
) -> None:
    """Submit a bot to the arena you signed in to: packs it as `bot add` stores it, uploads
    it, then shows its check game's result as it happens."""
    import httpx

    from ..registry import RegistryError, find_source, pack_source, validate_name
    from ..registry.upload import command_text
    from .credentials import load

    found = load()
    if found is None:
        fail("not signed in: run hegemon login URL first")
    try:
        source = find_source(path, command)
        name = validate_name(bot or source.name or "")
        archive = pack_source(source)
    except RegistryError as exc:
        fail(str(exc))
    try:
        with _client(found.url, found.token) as client:
            response = _upload(client, name, archive, command_text(source.command), team)
            if response.status_code not in (200, 201):
                fail(f"submission refused: {_error(response)}", code=1)
            version = response.json()
            console.print(
                f"{version['label']}: "
                + ("uploaded" if version["new"] else "these files were submitted before")
                + f" ({len(archive)} bytes); {version['state']}",
                highlight=False,
                soft_wrap=True,
            )
            if wait:
                version = _follow(client, version)
    except httpx.HTTPError as exc:
        fail(_unreachable(found.url, exc), code=1)
    if version["state"] == "refused":
        show_log_tail(version.get("log") or "")
        fail(f"{version['label']} refused: {version['reason']}", code=1)


def _upload(client: Any, name: str, archive: bytes, command: str, team: str | None) -> Any:
    """POST the archive with a progress bar."""
    from rich.progress import BarColumn, DownloadColumn, Progress, TransferSpeedColumn

    chunk = 64 * 1024
    with Progress(
        "uploading", BarColumn(), DownloadColumn(), TransferSpeedColumn(), console=console
    ) as bar:
        task = bar.add_task("upload", total=len(archive))

        def body() -> Any:
            for start in range(0, len(archive), chunk):
                piece = archive[start : start + chunk]
                bar.advance(task, len(piece))
                yield piece

        return client.post(
            f"/api/bots/{name}/versions",
            params={"command": command, **({"team": team} if team else {})},
            content=body(),
            headers={"Content-Type": "application/gzip", "Content-Length": str(len(archive))},
        )


def _follow(client: Any, version: dict[str, Any]) -> dict[str, Any]:
    """Poll the version until its check game is over, saying each change of state."""
    shown = version["state"]
    with console.status(f"{version['label']}: {shown}…") as status:
        while version["state"] in WAITING:
            time.sleep(POLL)
            response = client.get(f"/api/versions/{version['id']}")
            if response.status_code != 200:
                fail(f"cannot follow {version['label']}: {_error(response)}", code=1)
            version = response.json()
            if version["state"] != shown:
                shown = version["state"]
                status.update(f"{version['label']}: {shown}…")
    if version["state"] != "refused":
        console.print(
            f"{version['label']}: {version['state']} ({version['reason']})",
            highlight=False,
            soft_wrap=True,
        )
    return version
