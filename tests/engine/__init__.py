"""Tests of engine."""
