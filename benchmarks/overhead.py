"""What the arena costs on top of the bots' own thinking, and how many decisions it asks.

Plays the same seeded 4-player `classic` games (turn limit 40; random, aggressive, continental,
planner, seats rotating) twice:

- **real**: every bot a real process, reused from game to game (a warm-up game first, not
  counted), the referee talking gRPC; CPU = the referee process (all its threads) + every bot
  process (:meth:`BotProcess.total_cpu_seconds`), over the measured games;
- **in-process**: :func:`hegemon.sdk.play_local` with ``protocol=True`` (every request and
  answer through the protocol codec, no socket); CPU = this process.

``overhead`` is real CPU per game ÷ in-process CPU per game. Read the real games' CPU per game
first: a cheaper in-process baseline (the two share the request writer) raises the ratio while
the arena costs less. Then the decisions asked per game, in-process, with the bots' orders
(blitz attacks, standing defence and occupation policies) and with orders ignored (every
decision asked; target: at most half).

The **transport floor**: the very Decide requests of the measured games sent again, one at a
time through the referee's trio bridge, to a server that answers each with a prepared reply
(benchmarks/echo_server.py): the CPU of both processes per round trip is what grpcio alone
costs a decision, and ``floor`` is the overhead a referee that cost nothing at all would reach
with that many round trips; the arena's own cost is real CPU ÷ (in-process + floor), whose
target is 1.15.

Last line: ``overhead: R``.
"""

from __future__ import annotations

import inspect
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import grpc
import trio

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from hegemon.leaderboard.botspec import resolve  # noqa: E402
from hegemon.referee.rules import make_rules  # noqa: E402
from hegemon.referee.runner import bridge, steady  # noqa: E402
from hegemon.referee.runner.link import BotLink, keep_spinning  # noqa: E402
from hegemon.referee.runner.session import link_pool, play_game  # noqa: E402
from hegemon.referee.timecontrol import TimeControl  # noqa: E402
from hegemon.referee.wire import bot_pb2 as pb  # noqa: E402
from hegemon.sample_bots.aggressive import AggressiveBot  # noqa: E402
from hegemon.sample_bots.continental import ContinentalBot  # noqa: E402
from hegemon.sample_bots.planner import PlannerBot  # noqa: E402
from hegemon.sample_bots.random import RandomBot  # noqa: E402
from hegemon.sdk import play_local  # noqa: E402

GAMES = 4
TURN_LIMIT = 40
BOTS = ["random", "aggressive", "continental", "planner"]
CLASSES = [RandomBot, AggressiveBot, ContinentalBot, PlannerBot]
RULES = make_rules("classic", {"turn_limit": TURN_LIMIT})
SEED = 1000


def seating(n: int, items: list) -> list:
    return items[n % 4 :] + items[: n % 4]


async def real_games(sent: list[Any]) -> tuple[float, int, list[str]]:
    """CPU seconds of the measured games (referee + bots), decisions asked, the records; every
    Decide request of the measured games is appended to ``sent``."""
    commands = [resolve(name) for name in BOTS]
    build = BotLink.decide_bytes

    def keeping(self: BotLink, ask: Any) -> Any:
        request = build(self, ask)
        sent.append(request)  # a reference: no work that the referee would not do
        return request

    time_control = TimeControl(decision=5, bank=300)
    links = []
    records = []
    decisions = 0
    async with link_pool(time_control) as pool:

        def bots_cpu() -> float:
            return sum(
                link.process.total_cpu_seconds()
                for link in pool._all
                if link.process is not None and not link.exited
            )

        # warm-up: start every bot process once (its start-up is not a game's cost)
        await play_game(pool, seating(0, commands), RULES, seed=SEED - 1, game_id="warm-up")
        links = list(pool._all)
        BotLink.decide_bytes = keeping  # type: ignore[method-assign]
        referee0, bots0 = time.process_time(), bots_cpu()
        for n in range(GAMES):
            result = await play_game(
                pool, seating(n, commands), RULES, seed=SEED + n, game_id=f"bench-{n}"
            )
            decisions += result.decisions
            records.append(result.record)
        referee, bots = time.process_time() - referee0, bots_cpu() - bots0
        BotLink.decide_bytes = build  # type: ignore[method-assign]
        assert list(pool._all) == links, "a bot process was restarted: not comparable"
    print(f"real: referee {referee / GAMES:.3f} CPU-s per game, bots {bots / GAMES:.3f}")
    return referee + bots, decisions, records


def local_games(orders: bool | None) -> tuple[float, int]:
    """CPU seconds and decisions asked of the same games in this process (codec included)."""
    takes_orders = "orders" in inspect.signature(play_local).parameters
    extra: dict[str, Any] = {"orders": orders} if takes_orders and orders is not None else {}
    cpu0 = time.process_time()
    decisions = 0
    for n in range(GAMES):
        bots = [cls() for cls in seating(n, CLASSES)]
        result = play_local(
            bots, RULES, seed=SEED + n, game_id=f"bench-{n}", protocol=True, **extra
        )
        decisions += sum(result.decisions)
    return time.process_time() - cpu0, decisions


async def transport_floor(requests: list[Any]) -> float:
    """CPU seconds (this process + the echo server) per round trip of ``requests``."""
    with tempfile.TemporaryDirectory() as folder:
        address = f"unix:{folder}/echo.sock"
        # spoken to synchronously on purpose: its CPU is read between the timed calls
        server = subprocess.Popen(  # noqa: ASYNC220 - blocking pipes by design
            [sys.executable, str(ROOT / "benchmarks" / "echo_server.py"), address],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        talk, hear = server.stdin, server.stdout
        assert talk is not None and hear is not None
        assert hear.readline().strip() == "ready"

        def server_cpu() -> float:
            talk.write("\n")
            talk.flush()
            return float(hear.readline())

        channel = grpc.insecure_channel(address)
        standing = keep_spinning(channel)  # as the referee's links do: no thread per call
        decide = channel.unary_unary(
            "/hegemon.v1.Bot/Decide",
            request_serializer=None,  # the requests' bytes, as the referee sent them
            response_deserializer=pb.DecideReply.FromString,
        )
        for request in requests[:100]:  # warm-up
            await bridge.call(decide, request, timeout=5)
        client0, server0 = time.process_time(), server_cpu()
        for request in requests:
            await bridge.call(decide, request, timeout=5)
        spent = time.process_time() - client0 + server_cpu() - server0
        standing.cancel()
        channel.close()
        talk.close()
        server.wait()
    return spent / len(requests)


def main() -> None:
    sent: list[Any] = []
    steady.settle()  # as the arena's runner process does before its first game
    real_cpu, real_decisions, _ = trio.run(real_games, sent)
    floor = trio.run(transport_floor, sent)
    local_cpu, local_decisions = local_games(None)
    _, all_decisions = local_games(False)
    print(f"{GAMES} four-player classic games (turn limit {TURN_LIMIT}), bots: {', '.join(BOTS)}")
    print(
        f"real processes (reused): {real_cpu / GAMES:.3f} CPU-s per game, "
        f"{real_decisions / GAMES:.0f} decisions asked per game"
    )
    print(
        f"in-process (play_local, protocol codec): {local_cpu / GAMES:.3f} CPU-s per game, "
        f"{local_decisions / GAMES:.0f} decisions asked per game"
    )
    print(
        f"decisions asked per game: {local_decisions / GAMES:.0f} with orders, "
        f"{all_decisions / GAMES:.0f} without (ratio {local_decisions / all_decisions:.2f})"
    )
    floor_cpu = floor * real_decisions / GAMES
    print(
        f"transport floor: {floor * 1e3:.3f} ms CPU per round trip (grpcio, both sides), "
        f"{floor_cpu:.3f} CPU-s per game; "
        f"floor: {(local_cpu / GAMES + floor_cpu) / (local_cpu / GAMES):.2f}"
    )
    bare = local_cpu + floor_cpu * GAMES  # in-process play with grpcio's round trips added
    print(
        f"the arena over in-process play plus the transport floor: {real_cpu / bare:.2f} "
        "(issue 37's target: at most 1.15)"
    )
    print(f"overhead: {real_cpu / local_cpu:.2f}")


if __name__ == "__main__":
    main()
