"""A bot that plays a trained policy: :class:`PolicyBot`.

A learned policy (:class:`hegemon.sdk.network.Network`, saved as a ``.npz`` file by
``hegemon train`` or any trainer of your own) scores the fixed action space of
:mod:`hegemon.referee.encoding` from the observation of the seat's own view. :class:`PolicyBot`
answers each decision with it, step by step as the encoding splits it (a placement: a territory,
then how many armies; an attack: the source, then the target), exactly as the environments
present it to the learner — so it plays over gRPC, in ``hegemon bench`` and in a season like any
bot. A bot folder holds the policy file beside a ``bot.py`` of a few lines::

    from hegemon.sdk import PolicyBot

    class Trained(PolicyBot):
        name = "trained"
        policy_file = "policy.npz"   # beside this bot.py

    if __name__ == "__main__":
        Trained.main()

:meth:`PolicyBot.main` serves the bot, or exits with one line on stderr if the policy file is
missing, malformed or made for another map. By default the bot draws each step from the policy,
as it played while it learned, with the game's seeded ``context.rng`` (the same game replays
identically); ``sample = False`` plays the policy's likeliest action instead.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from hegemon.referee.actions import Action
from hegemon.referee.decisions import Decision

from .bot import Bot
from .context import BotView
from .policy_file import PolicyFileError

if TYPE_CHECKING:
    from .network import Network

# numpy and the encoding load with the first policy (a plain bot never needs them): importing
# numpy takes longer than the rest of the SDK.

__all__ = ["PolicyBot"]


class PolicyBot(Bot):
    """A bot whose every decision is a trained :class:`Network`'s choice. Give the network, or
    a path to its file, or set :attr:`policy_file` in a subclass (a path relative to the file
    that defines the subclass)."""

    name = "policy"
    #: The policy file a subclass made without arguments loads, relative to its own module.
    policy_file: ClassVar[str] = "policy.npz"
    #: Draw each step from the policy (with the game's ``context.rng``), as the learner did;
    #: False: take the likeliest action.
    sample: ClassVar[bool] = True

    def __init__(self, policy: Network | str | Path | None = None):
        # imported here, at start-up, not at the first decision and on its clock
        from hegemon.referee import encoding

        from .network import Network

        self.encoding = encoding

        if policy is None:
            policy = self.default_path()
        self.network = policy if isinstance(policy, Network) else Network.load(policy)

    _folder: ClassVar[Path | None] = None

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        # The folder of the file whose code defines the subclass (the frame running the class
        # statement): a bot file loaded by path, as hegemon bench does, is not in sys.modules.
        where = sys._getframe(1).f_globals.get("__file__")
        cls._folder = Path(where).resolve().parent if where else None

    @classmethod
    def default_path(cls) -> Path:
        """:attr:`policy_file`, from the folder of the file that defines this class."""
        return (cls._folder or Path.cwd()) / cls.policy_file

    @classmethod
    def main(cls, argv: Sequence[str] | None = None) -> None:
        """Load the policy and serve the bot (:meth:`Bot.run`); a policy file that cannot be
        used ends the process with one line on stderr and exit status 1."""
        try:
            bot = cls()
        except PolicyFileError as exc:
            print(f"{cls.name}: {exc}", file=sys.stderr)
            raise SystemExit(1) from None
        bot.run(argv)

    def decide(self, view: BotView, decision: Decision) -> Action:
        """Every step of ``decision`` chosen by the policy
        (:func:`hegemon.referee.encoding.answer`)."""
        import numpy as np

        layout = self.encoding.layout_of(view.board)
        if (layout.features, layout.actions) != (self.network.observations, self.network.actions):
            raise PolicyFileError(
                f"the policy reads {self.network.observations} numbers and scores "
                f"{self.network.actions} actions; this map needs {layout.features} and "
                f"{layout.actions} (trained for another map or hegemon version)"
            )
        rng = view.context.rng if self.sample and view.context is not None else None

        def choose(observation: Any, mask: Any) -> int:
            draw = rng.random() if rng is not None else None
            return self.network.choose(np.asarray(observation, np.float64), mask, draw)

        return self.encoding.answer(view, decision, choose)
