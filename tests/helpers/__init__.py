"""Helpers the test modules share (fixtures and game-building functions)."""
