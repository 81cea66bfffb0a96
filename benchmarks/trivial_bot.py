"""A bot that does as little as a legal bot can: it reads only the pending decision and answers
the cheapest legal action. Used by benchmarks/rpc.py to isolate the referee's own cost."""

from __future__ import annotations

import signal
import sys
from concurrent import futures
from pathlib import Path

import grpc
from grpc_health import v1 as _health_v1  # noqa: F401
from grpc_health.v1 import health, health_pb2_grpc

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from hegemon.referee.wire import bot_pb2 as pb
from hegemon.referee.wire import bot_pb2_grpc as pbg

K = pb.DecisionKind
PASS = pb.Action(pass_=pb.Pass())


def cheapest(request: pb.DecideRequest) -> pb.Action:
    d = request.decision
    if d.kind == K.DECISION_KIND_CLAIM:
        return pb.Action(claim=pb.Claim(territory=d.territories[0]))
    if d.kind == K.DECISION_KIND_PLACE:
        seat = request.view.seat
        own = next(t for t, p in enumerate(request.view.owner) if p == seat)
        return pb.Action(place=pb.Place(placements=[pb.Placement(territory=own, armies=d.armies)]))
    if d.kind == K.DECISION_KIND_DEFEND:
        return pb.Action(defend=pb.Defend(dice=d.maximum))
    if d.kind == K.DECISION_KIND_OCCUPY:
        return pb.Action(occupy=pb.Occupy(armies=d.minimum))
    if d.kind == K.DECISION_KIND_TRADE and d.forced:
        hand = list(request.view.hand)
        return pb.Action(trade=pb.Trade(cards=hand[:3]))  # may be no set: the referee corrects it
    return PASS


class TrivialBot(pbg.BotServicer):
    def Hello(self, request, context):
        return pb.HelloReply(name="trivial", version="1", protocol_version=1, decide_stream=True)

    def StartGame(self, request, context):
        return pb.StartGameReply()

    def Decide(self, request, context):
        return pb.DecideReply(game_id=request.game_id, action=cheapest(request))

    def DecideStream(self, requests, context):
        for request in requests:
            yield pb.DecideReply(
                game_id=request.game_id, action=cheapest(request), number=request.number
            )

    def EndGame(self, request, context):
        return pb.EndGameReply()


def main() -> None:
    address = sys.argv[sys.argv.index("--address") + 1]
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
    pbg.add_BotServicer_to_server(TrivialBot(), server)
    health_pb2_grpc.add_HealthServicer_to_server(health.HealthServicer(), server)
    server.add_insecure_port(address)
    server.start()
    signal.signal(signal.SIGTERM, lambda *_: server.stop(0))
    server.wait_for_termination()


if __name__ == "__main__":
    main()
