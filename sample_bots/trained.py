"""trained: a policy network trained by ``hegemon train`` — imitation of ``planner``, then
evaluation against ``aggressive`` with the best network kept (docs/training.md gives the
commands and the measured table).

Two policy files beside this module: ``trained.npz`` for four-player (and any multiplayer)
games (a flat network) and ``trained-two-player.npz`` for the two-player rule sets (with a
territory head: :mod:`hegemon.sdk.territory_head`), each the network that scored best in its
run's evaluations. Every step is the policy's likeliest action (``sample = False``:
the greedy policy is the one that was evaluated). The networks read the classic map's
observation: on another map (Risiko! Master) the bot plays its teacher ``planner`` instead, so
it seats in every edition.
"""

from __future__ import annotations

from typing import Any, ClassVar

from hegemon.sdk import PolicyBot
from hegemon.sdk.network import Network

from .planner import PlannerBot


class TrainedBot(PolicyBot):
    name = "trained"
    version = "1"
    sample = False
    policy_file = "trained.npz"
    #: The two-player rule sets' policy, beside this module.
    two_player_file: ClassVar[str] = "trained-two-player.npz"

    def __init__(self) -> None:
        super().__init__()
        self.multiplayer = self.network
        self.two_player = Network.load(self.default_path().with_name(self.two_player_file))
        self.teacher = PlannerBot()

    def decide(self, view: Any, decision: Any) -> Any:
        self.network = self.two_player if view.rules.two_player != "off" else self.multiplayer
        layout = self.encoding.layout_of(view.board)
        if (layout.features, layout.actions) != (self.network.observations, self.network.actions):
            return self.teacher.decide(view, decision)  # another map: not what it learned
        return super().decide(view, decision)


if __name__ == "__main__":
    TrainedBot.main()
