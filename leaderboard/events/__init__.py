"""Final events (issue 35 item 6): the top of a ladder, or chosen bot versions, play a
round-robin of every seating, a Swiss of multi-seat tables, or a knockout where the top K of
each table go on, under a seed whose hash is published before and the seed itself after.

An event is a season of kind ``event`` (its matches, claims, runners and records are a
season's) with a row of its own (``events``: format, seed hash, rounds, final standings).
One module a job: :mod:`.formats` (the pairings, pure), :mod:`.rounds` (an event's rounds,
pure), :mod:`.setup` (creating one), :mod:`.progress` (the next round when a round is over,
race-safe), :mod:`.view` (what its page, the API and ``hegemon event show`` show).
"""
