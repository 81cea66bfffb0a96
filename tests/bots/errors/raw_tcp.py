"""A bot that opens its own TCP listener, which the sandbox refuses
(tests/runner/test_bot_errors.py)."""

import socket

listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
listener.bind(("127.0.0.1", 50051))
