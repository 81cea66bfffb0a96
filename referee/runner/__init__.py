"""The match runner: plays one game between bot processes over gRPC, under trio.

The rules of play between bots (asks, clock, strikes, forfeits) are the referee's core,
:mod:`hegemon.referee.arbiter`; this package is its gRPC transport and the process keeping.

Unlike the rules engine beside it, this package does I/O: it starts processes, talks gRPC and
writes records. It speaks the wire (:mod:`hegemon.referee.wire`) and never imports the SDK or
the sample bots: it plays the :class:`~.process.BotCommand` it is given (the command line
resolves bot arguments, :mod:`hegemon.leaderboard.botspec`).
"""
