"""The Gymnasium spaces of the environments, from an encoding :class:`~.encoding.Layout`."""

from __future__ import annotations

import gymnasium
import numpy as np

from hegemon.referee.encoding import OBSERVATION_HIGH, Layout


def observation_space(layout: Layout) -> gymnasium.spaces.Dict:
    """``{"observation": Box, "action_mask": Box of 0/1}`` of ``layout``'s sizes."""
    return gymnasium.spaces.Dict(
        {
            "observation": gymnasium.spaces.Box(
                0.0, OBSERVATION_HIGH, (layout.features,), np.float32
            ),
            "action_mask": gymnasium.spaces.Box(0, 1, (layout.actions,), np.int8),
        }
    )


def action_space(layout: Layout) -> gymnasium.spaces.Discrete:
    """The one ``Discrete`` action space of ``layout``."""
    return gymnasium.spaces.Discrete(layout.actions)
