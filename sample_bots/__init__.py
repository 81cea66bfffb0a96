"""Sample bots built on the Python SDK (:mod:`sdk`), of clearly different strength.

Each is a module runnable as a bot server, ``python -m sample_bots.NAME`` (the referee passes
``--address``), and each plays deterministically given the game (its randomness comes from the
game's seeded ``context.rng``):

- ``random``      — uniformly random legal actions; stops attacking with probability 0.3.
- ``aggressive``  — always its best-odds attack while the conquest probability is at least 0.5;
  stacks every army where the best attack is; moves everything forward.
- ``continental`` — targets the continent it is closest to owning, defends the borders of the
  continents it holds, fortifies from the interior outward, times its card trades.
- ``planner``     — scores every candidate action by the position it leads to (exact battle
  odds, continent values, exposure to the enemies' next turn, a one-turn lookahead of attack
  sequences with expected outcomes); the strongest.
- ``minimal``     — the bot author's guide's complete bot in under 30 lines.

Measured strength (mean place in 4-player classic games, every seating, turn limit 60):
planner < continental < aggressive < random; see ``tests/sdk/test_sample_bots.py``.
"""
