"""The later editions (docs/editions.md): the part contract (:mod:`.contract`), the parts that
play each edition in a game, and the board rules each edition chooses (:mod:`.parts`).

The engine (:mod:`hegemon.referee.game`, ``legal``, ``checks``, ``view``) names no edition: it
calls the parts' hooks and asks the rule set's board rules (:func:`.parts.board_rules`).
"""
