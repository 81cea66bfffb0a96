"""Tests of codebase."""
