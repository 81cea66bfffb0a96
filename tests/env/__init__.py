"""Tests of the learning environments (hegemon.env)."""
