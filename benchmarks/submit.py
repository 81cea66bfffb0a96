"""Time from ``hegemon submit`` to a version's active state and to its first rated ladder game,
on a real arena: ``hegemon arena --workers N`` over a throw-away home.

    python benchmarks/submit.py [--runs 3] [--workers 1] [--bot random]

Each run: a member submits a new version of their bot (the sample bot ``--bot`` with a comment
that makes its files new) over HTTP with a token, as ``hegemon submit`` does; the clock stops
when the version is active (its check game played by a runner), then when the first game of
the ladder seating it is stored (finished and rated). The ladder (``hegemon ladder create``,
classic rules, 3 players, the organiser's two sample bots as the other entrants) plays
continuously, so from the second run on a new version waits for the game being played to end.
Target: the first ladder game <= 60 s after the submit on an idle 2-core machine.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

CLI = "import sys; from hegemon.leaderboard.cli import main; sys.argv[0] = 'hegemon'; main()"
PASSWORD = "correct horse battery staple"


def hegemon(env: dict[str, str], *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", CLI, *args], env=env, capture_output=True, text=True, check=False
    )
    if done.returncode:
        raise SystemExit(f"hegemon {' '.join(args)} failed: {done.stderr.strip()}")
    return done.stdout


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_for(what: str, probe, timeout: float = 300.0, every: float = 0.1):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = probe()
        if found:
            return found
        time.sleep(every)
    raise SystemExit(f"timed out waiting for {what}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--bot", default="random", help="the sample bot submitted")
    args = parser.parse_args()

    from hegemon.leaderboard.accounts.tokens import create_token
    from hegemon.leaderboard.accounts.users import add_user
    from hegemon.leaderboard.registry import find_source, pack_source
    from hegemon.leaderboard.registry.upload import command_text
    from hegemon.leaderboard.store import Store

    load = os.getloadavg()[0]  # the machine's, before the arena adds its own
    with tempfile.TemporaryDirectory(prefix="hegemon-bench-submit-") as tmp:
        home = Path(tmp) / "home"
        home.mkdir()
        env = {**os.environ, "HEGEMON_HOME": str(home), "PYTHONUNBUFFERED": "1"}
        env.pop("HEGEMON_DB", None)
        os.environ["HEGEMON_HOME"] = str(home)
        with Store() as store:
            member = add_user(store, "bench", PASSWORD, "member")
            assert member.id is not None
            token = create_token(store, member.id, "bench")[1]
        for sample in ("random", "aggressive"):
            hegemon(env, "bot", "add", f"house-{sample}", sample)
        hegemon(env, "ladder", "create", "bench", "--rules", "classic", "--players", "3")
        port = free_port()
        log = (Path(tmp) / "arena.log").open("w")
        command = ["arena", "--workers", str(args.workers), "--port", str(port)]
        arena = subprocess.Popen(
            [sys.executable, "-c", CLI, *command],
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        url = f"http://127.0.0.1:{port}"
        headers = {"Authorization": f"Bearer {token}"}
        actives: list[float] = []
        firsts: list[float] = []
        try:
            with httpx.Client(base_url=url, headers=headers, timeout=60) as client:

                def answers() -> bool:
                    try:
                        return client.get("/api/seasons").status_code == 200
                    except httpx.HTTPError:
                        return False

                wait_for("the arena's web server", answers, 120)
                source = find_source(args.bot)
                for run in range(args.runs):
                    folder = Path(tmp) / f"bot{run}"
                    folder.mkdir()
                    source.copy_to(folder)
                    module = next(folder.glob("sample_bots/*.py"))
                    module.write_text(module.read_text() + f"\n# run {run}\n")
                    start = time.monotonic()
                    archive = pack_source(find_source(str(folder), command_text(source.command)))
                    response = client.post(
                        "/api/bots/mine/versions",
                        params={"command": command_text(source.command)},
                        content=archive,
                    )
                    response.raise_for_status()
                    version = response.json()

                    def judged(version_id: int = version["id"]) -> dict | None:
                        got = client.get(f"/api/versions/{version_id}").json()
                        return got if got["state"] not in ("queued", "checking") else None

                    state = wait_for("the check game", judged)
                    if state["state"] != "active":
                        raise SystemExit(f"{state['label']}: {state['state']}: {state['reason']}")
                    actives.append(time.monotonic() - start)

                    def first_game(label: str = state["label"]) -> bool:
                        games = client.get("/api/games", params={"bot": label}).json()
                        return bool(games.get("games"))

                    wait_for("its first ladder game", first_game)
                    firsts.append(time.monotonic() - start)
                    print(
                        f"run {run + 1}: {state['label']} active after {actives[-1]:.1f} s,"
                        f" first ladder game after {firsts[-1]:.1f} s",
                        flush=True,
                    )
        finally:
            arena.terminate()
            arena.wait(60)
            log.close()
    print(
        f"submit (median of {args.runs}, min–max): active after {spread(actives)}"
        f" · first ladder game after {spread(firsts)}"
        f" · {args.workers} runner(s), {os.cpu_count()} cores, load {load:.1f} before"
    )


def spread(times: list[float]) -> str:
    """The median of ``times`` and their range, in seconds."""
    return f"{statistics.median(times):.1f} s ({min(times):.1f}–{max(times):.1f})"


if __name__ == "__main__":
    main()
