"""Tests of sdk."""
