"""The match runner: plays one game between bot processes over gRPC, under trio.

The rules of play between bots (asks, clock, strikes, forfeits) are the referee's core,
:mod:`hegemon.referee.arbiter`; this package is its gRPC transport and the process keeping.

Unlike the rules engine beside it, this package does I/O: it starts processes, talks gRPC and
writes records. It never imports the SDK's bot-side logic, only the generated protocol code.
"""
